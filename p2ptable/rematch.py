"""Play again at the same table: the same people, game and options, a new game.

How it works
------------
A finished game leaves every seat its replay and its secrets (net/persistence.py),
and with them the one thing that only two seats of that game share: their
pairwise link key (crypto/links.py: X25519 between the two link keys the
genesis names, bound to the game id).  The rematch's join code between the host
and seat ``s`` is derived from it (:func:`rematch_code`), so nothing has to be
sent and nothing has to be typed:

* the host opens the table again at the port it had, for the game, options,
  seats and clock of the genesis, with a fresh table id and nonce (so a new game
  id), a fresh random code for anyone new (printed, as for any table), and, for
  each old seat ``s``, the code derived with ``s``;
* a seat that says yes knocks at the host's endpoint of the old roster saying
  ``again: s``, and proves that seat's derived code with SPAKE2 (net/join_code.py)
  as any joiner proves the printed code; a seat that says no simply does not come.

Who can join a rematch: the host and seat ``s`` are the only holders of their
link key, so a spectator (who holds the whole log, never a link secret), a
stranger, or another seat cannot prove seat ``s``'s code, and SPAKE2 gives no
offline test of a guess.  Nothing arrives from anyone to start a rematch: each
person decides at their own terminal, and a seat goes only to the endpoint its
own signed genesis round recorded.  A stranger who knocks with ``again: s`` and
a guess is one more wrong code, counted and limited like any (net/knocks.py).

The first player rotates: the rematch's is the player after the last game's
first player, by name, whoever came back (net/rotation.py).  The host tells the
joiners the order in its challenge, the genesis names the seat (option
``first``), and a seat of the old game checks the order against its own replay.

The new replay is next to the old one: ``Ana.p2pt`` is followed by
``Ana.game2.p2pt``, then ``Ana.game3.p2pt`` (:func:`next_replay`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from p2ptable.crypto.links import link_key
from p2ptable.engine.api import FIRST, FIRST_PLAYER
from p2ptable.net.join_code import CODE_ALPHABET
from p2ptable.net.persistence import ResumeError, load_resume
from p2ptable.net.rotation import rotation_after
from p2ptable.replay.genesis import read_genesis
from p2ptable.replay.kinds import Kind
from p2ptable.replay.ledger import Ledger

if TYPE_CHECKING:
    from p2ptable.play_result import PlayResult

REMATCH_INFO = b"p2ptable/rematch/v1"
CODE_CHARS = 20  # of the code alphabet: about 99 bits, never typed
_GAME_N = re.compile(r"^(?P<stem>.*)\.game(?P<n>[0-9]+)$")


def derived_code(key: bytes, game_id: bytes) -> str:
    """The rematch code of a pair of seats whose link key is ``key``."""
    digest = hashlib.blake2b(REMATCH_INFO + game_id, key=key, digest_size=32).digest()
    number, chars = int.from_bytes(digest, "big"), []
    for _ in range(CODE_CHARS):
        number, digit = divmod(number, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[digit])
    return "".join(chars)


def next_replay(old: Path) -> Path:
    """Where the rematch of the game in ``old`` is kept: next to it, numbered."""
    stem = old.name.removesuffix(".p2pt")
    found = _GAME_N.match(stem)
    if found is None:
        return old.with_name(f"{stem}.game2.p2pt")
    return old.with_name(f"{found['stem']}.game{int(found['n']) + 1}.p2pt")


def first_player(ledger: Ledger) -> int | None:
    """The seat that played first in ``ledger``'s game: the one its genesis
    names, or the one its first-player roll drew (None if there was none)."""
    if FIRST in ledger.options:
        return int(ledger.options[FIRST])
    for entry in ledger.entries[1:]:
        body = entry.body
        if body["t"] == Kind.CHANCE and body["purpose"] == FIRST_PLAYER:
            return int(body["outcome"][0])
    return None


@dataclass(frozen=True)
class Again:
    """What the rematch of a finished game needs, read from one seat's files."""

    game: str
    options: dict[str, str]
    seats: int
    clock: int | None
    seat: int  # ours
    name: str  # ours
    names: tuple[str, ...]
    host_address: str  # HOST:PORT of the old roster's host
    port: int  # the port we listened on
    codes: dict[int, str]  # seat -> the rematch code between it and us
    replay: Path  # the rematch's
    rotation: tuple[str, ...]  # from the player after the first one (net/rotation.py)
    keep_going: bool = False  # the table's, as its genesis says (host --keep-going)
    spectators: bool = False  # the host admitted spectators (it kept their code)
    spectators_talk: bool = False  # and let them talk (the genesis's)


def read_again(replay: Path) -> Again:
    """The rematch of the finished game in ``replay`` (ResumeError if it is not one)."""
    state = load_resume(replay)
    ledger = state.ledger
    if not ledger.finished:
        raise ResumeError(f"{replay} is not a finished game: there is nothing to play again")
    mine = state.secrets
    codes = {}
    for seat, info in enumerate(ledger.seats):
        if seat != state.seat:
            key = link_key(mine.link, mine.link_public, info.link, ledger.game_id)
            codes[seat] = derived_code(key, ledger.game_id)
    host = state.endpoints[0].removeprefix("tcp://")
    names = tuple(s.name for s in ledger.seats)
    first = first_player(ledger)
    options = {k: v for k, v in ledger.options.items() if k != FIRST}  # named anew
    return Again(
        ledger.game.name,
        options,
        len(ledger.seats),
        ledger.clock,
        state.seat,
        ledger.seats[state.seat].name,
        names,
        host,
        state.port,
        codes,
        next_replay(replay),
        () if first is None else rotation_after(names, first),
        read_genesis(ledger.entries[0]).keep_going,
        state.spectators_code is not None,
        ledger.spectators_talk,
    )


WAIT_FOR_HOST = 300.0  # seconds a seat that said yes waits for the host to open again


def host_again(replay: Path, **options) -> PlayResult:  # noqa: ANN003 - play.host's
    """Open the table of the finished game in ``replay`` again, as its host."""
    from p2ptable import play

    again = read_again(replay)
    if again.seat != 0:
        raise ValueError("only the host of a game opens its table again")
    # As the last table was (a resumed host's say-so is its genesis and files).
    options = {
        "keep_going": again.keep_going,
        "spectators": again.spectators,
        "spectators_talk": again.spectators and again.spectators_talk,
        **options,
    }
    near = again.host_address.rsplit(":", 1)[0]
    if near.startswith("127."):  # `play`'s table: it stays on this machine, unlisted
        options = {**options, "bind": near, "listed": False}
    return play.host(
        again.game,
        again.seats,
        again.name,
        again.options,
        port=again.port,
        replay=again.replay,
        advertise=again.host_address.rsplit(":", 1)[0],
        clock=again.clock,
        again=again.codes,
        rotation=again.rotation,
        **options,
    )


def join_again(replay: Path, **options) -> PlayResult:  # noqa: ANN003 - play.join's
    """Sit at the rematch of the finished game in ``replay``, at our old host's."""
    from p2ptable import play

    again = read_again(replay)
    if again.seat == 0:
        raise ValueError("the host of a game opens its table again: use host_again")
    return play.join(
        again.host_address,
        again.codes[0],
        again.name,
        replay=again.replay,
        again=again.seat,
        rotation=again.rotation,
        connect_timeout=WAIT_FOR_HOST,
        **options,
    )
