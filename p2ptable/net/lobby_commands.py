"""What the host's player may type in the lobby: start short-handed, remove a joiner.

How it works
------------
Before the game begins a person's terminal has no menu, so what they type goes
to the lobby as a :class:`~p2ptable.net.frontend.LobbyCommand` (the text of the
line).  :func:`run` reads it and asks the host's lobby (net/host_lobby.py) to do
it: ``start`` starts with the seats taken now ("start now with 3 of 4"), once
the game's minimum is seated; ``bots`` fills the free seats with bot peers
started beside the host (as ``host --bots`` does); ``remove NAME`` removes a
joiner before the game begins.  A start and a removal change the roster, which
the host sends every joiner bound to its own handshake and signed (wire.md
section 3.7), so everyone in the lobby sees them and nobody else can say them:
they are roster fields, and a roster that is not the host's, bound to our
handshake, is dropped.  A joiner's commands are answered with what the lobby
waits for.  What is said
back is returned, never printed: the peer shows it.
"""

from __future__ import annotations

from collections.abc import Callable

from p2ptable.net.host_lobby import HostLobby
from p2ptable.net.lobby_frames import LobbyError

HELP = (
    "In the lobby: type 'start' to start now with the players seated (once the game's "
    "minimum is), 'bots' to fill the free seats with bots, or 'remove NAME' to remove "
    "a joiner before the game begins."
)
WAITING = (
    "The game has not started yet: it starts when the table is full, or when the host "
    "types 'start'."
)


def run(
    lobby: object, line: str, now: float, add_bots: Callable[[int], None] | None = None
) -> str | None:
    """Do what ``line`` typed in the lobby says; None when it was done (the
    lobby tells everyone), else the words for the person (why not, or help)."""
    words = line.split()
    if not isinstance(lobby, HostLobby) or lobby.genesis is not None:
        return WAITING
    if not words:
        return HELP
    verb = words[0].casefold()
    try:
        if verb == "start" and len(words) == 1:
            lobby.start_now(now)
            return None
        if verb == "bots" and len(words) == 1:
            return _bots(lobby, add_bots)
        if verb == "remove" and len(words) >= 2:
            lobby.remove(" ".join(words[1:]))
            return None
    except LobbyError as exc:
        return f"Cannot do that: {exc}."
    return HELP


def _bots(lobby: HostLobby, add_bots: Callable[[int], None] | None) -> str:
    """Bot peers for the seats nobody took (started beside the host, play.py):
    they join with the table's code, as a person would."""
    if add_bots is None:
        return "Cannot do that: this table cannot start bots."
    free = lobby.seats - len(lobby.members) - lobby.bots_coming
    if free <= 0:
        return "Cannot do that: no seat is free (bots already coming take theirs)."
    lobby.bots_coming += free
    add_bots(free)
    return f"Starting {free} bot peer{'s' if free > 1 else ''} for the free seats."
