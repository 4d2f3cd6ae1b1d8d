"""What a person typed for a live table, checked before anything listens.

Each raises ValueError with the words to show (the CLI prints them as one
``Error:`` line): a replay that exists or a folder that does not, a name nobody
could read, an address that is not this machine's, a seat count the game does
not take.  Nothing here opens a socket or writes a file.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

from p2ptable.games import get_game
from p2ptable.net import lobby as lobbies
from p2ptable.net.addresses import interface_addresses, is_local_address
from p2ptable.replay.outputs import check_output


def check_new_replay(replay: Path | None) -> None:
    """A new game never writes over (or appends to) an existing replay, and its
    folder must be there and writable now, not when the table is full (as for
    ``sim --out``: a typo in a folder's name is an error, not a new folder)."""
    if replay is None:
        return
    if replay.exists():
        raise ValueError(f"{replay} already exists: choose another --replay (or resume it)")
    folder = replay.parent
    if not folder.is_dir():
        raise ValueError(f"the folder {folder} does not exist (create it first)")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"the folder {folder} cannot be written to")


def check_stats(stats: Path | None, replay: Path | None) -> None:
    """``--stats`` (the benchmarks' timestamps) goes to a new file: never over a
    replay, this game's or any other (replay/outputs.py), nor any existing file."""
    if stats is not None:
        check_output(stats, replays=[replay] if replay is not None else [])


def check_name(name: str) -> str:
    """A seat name people can read: 1 to 32 printable characters."""
    if not (0 < len(name) <= lobbies.MAX_NAME and name.isprintable() and name.strip()):
        raise ValueError(
            f"a name must be 1 to {lobbies.MAX_NAME} printable characters, not {name!r}"
        )
    return name


def check_advertise(address: str) -> str:
    """The address others reach us at: an IPv4 address (it goes into the
    roster, and every peer connects to it)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        parsed = None
    if parsed is None or parsed.version != 4 or parsed.is_unspecified or parsed.is_multicast:
        raise ValueError(
            f"--advertise must be this machine's IPv4 address, such as 192.168.1.20, "
            f"not {address!r}"
        )
    if not is_local_address(address):
        mine = ", ".join(interface_addresses()) or "none but loopback"
        raise ValueError(
            f"--advertise must be this machine's IPv4 address, and {address} is not one "
            f"of its network cards' (they have: {mine})"
        )
    return address


def check_seats(game: str, seats: int) -> None:
    the_game = get_game(game)
    if not the_game.min_seats <= seats <= the_game.max_seats:
        raise ValueError(
            f"{the_game.title} takes {the_game.min_seats} to {the_game.max_seats} players, "
            f"not {seats}"
        )
