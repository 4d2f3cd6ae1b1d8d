"""The replays a person has saved: one short description per file, newest first.

Replay file names are long (date, game, game id, name), so ``p2ptable replays``
says what each one holds: when it was last written, the game, the players, how it
ended and how many entries it has.  This reads, it does not verify: the genesis
and the last entry are decoded, nothing is signature-checked (``verify`` does
that), so listing a folder of games is quick.  Any file named ``*.p2pt`` is
listed; one that is damaged, foreign or unreadable is listed as such.  The
secrets (``.p2pt.secrets``) and peer logs (``.p2pt.peer.log``) next to replays
are not replays and are never opened.

Everything shown comes from a file that may have been written by anyone, so every
field is type-checked before it is used and text is cut to printable characters
(a name holding terminal escapes must not reach the terminal).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.logfile import parse_frames

SUFFIX = ".p2pt"
MAX_LISTED_SIZE = 64 << 20  # a larger file is not read (no game comes near it)
MAX_TEXT = 32


@dataclass(frozen=True)
class Saved:
    """What one replay file holds, as far as can be told without verifying it."""

    path: Path
    modified: float  # seconds since the epoch: when the file was last written
    game: str | None
    players: tuple[str, ...]
    ended: str  # "winner: Ana", "unfinished", "stopped: ...", or what is wrong
    entries: int


def list_replays(folder: Path) -> list[Saved]:
    """Every ``*.p2pt`` file in ``folder``, newest first (OSError if the folder
    cannot be listed)."""
    found = []
    with os.scandir(folder) as items:
        for item in items:
            if item.name.endswith(SUFFIX) and not _is_dir(item):
                found.append(describe(Path(item.path)))
    return sorted(found, key=lambda s: (-s.modified, s.path.name))


def _is_dir(item: os.DirEntry[str]) -> bool:
    try:
        return item.is_dir()
    except OSError:  # cannot tell: describe() will say what is wrong with it
        return False


def describe(path: Path) -> Saved:
    """What ``path`` holds; never raises for a damaged, foreign or unreadable file."""
    try:
        stat = path.stat()
        if stat.st_size > MAX_LISTED_SIZE:
            return Saved(path, stat.st_mtime, None, (), "not read: too large for a replay", 0)
        data = path.read_bytes()
    except OSError as exc:
        return Saved(path, 0.0, None, (), f"cannot read: {exc.strerror or exc}", 0)
    read = parse_frames(data)
    if not read.payloads:
        reason = read.error.reason if data and read.error else "empty file"
        return Saved(path, stat.st_mtime, None, (), reason, 0)
    genesis = _body(read.payloads[0])
    if genesis is None or genesis.get("t") != Kind.GENESIS:
        return Saved(path, stat.st_mtime, None, (), "not a replay: no genesis entry", 0)
    players = tuple(_seat_name(seat) for seat in genesis["seats"])
    entries = len(read.payloads)
    if read.error is not None and not read.error.torn:
        ended = f"damaged at entry {read.error.index}: {read.error.reason}"
    else:
        ended = _ending(_body(read.payloads[-1]) if entries > 1 else genesis, players)
        if read.error is not None:
            ended += " (last record torn)"
    return Saved(path, stat.st_mtime, _clean(genesis["game"]), players, ended, entries)


def _ending(last: dict[str, Any] | None, players: Sequence[str]) -> str:
    """How the game ended, from its last entry's body."""
    if last is None:
        return "damaged: the last entry does not decode"
    kind = last.get("t")
    if kind == Kind.RESULT:
        names = [_name_of(w, players) for w in last["winners"]]
        return ("winner: " if len(names) == 1 else "winners: ") + ", ".join(names)
    if kind == Kind.ABORT:
        culprit = _name_of(last["culprit"], players)
        return f"stopped: {_clean(last['reason'])} ({culprit})"
    return "unfinished"


def _body(payload: bytes) -> dict[str, Any] | None:
    try:
        return Entry.decode(payload).body  # shape-checked: every field has its type
    except MalformedEntry:
        return None


def _seat_name(seat: Any) -> str:
    name = seat.get("name") if isinstance(seat, dict) else None
    return _clean(name) if isinstance(name, str) else "?"


def _name_of(seat: Any, players: Sequence[str]) -> str:
    ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players)
    return players[seat] if ok else "?"


def _clean(text: str) -> str:
    """At most MAX_TEXT printable characters of ``text`` (from a file anyone wrote)."""
    return "".join(c for c in text if c.isprintable())[:MAX_TEXT] or "?"
