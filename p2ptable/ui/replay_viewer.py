"""Stepping through a replay: the table as it stood after any entry.

Every step is re-checked: the viewer drives the same :class:`Ledger` as
``verify``, so what it shows is what the signed log proves.  Screens come from the
game's public view (or one seat's view), like the live terminal.  For a game with
hidden hands whose log ends with the seats' deck secrets, the ledger reads every
hand as it is dealt, so ``--seat N`` shows exactly what seat N held at every moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import secrets_in_log
from p2ptable.sealed.errors import SealedUsageError
from p2ptable.ui.screens import screens_for
from p2ptable.ui.text import event_line


@dataclass(frozen=True)
class Frame:
    """The table after entry ``index``, ready to print."""

    index: int
    screen: str


class ReplayError(Exception):
    """The file cannot be shown past ``index`` (the reason says why)."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"entry {index}: {reason}")
        self.index = index


def frames(path: str | Path, seat: int | None = None, color: bool = False) -> Iterator[Frame]:
    """One rendered screen per entry, in order; ReplayError at the first bad entry."""
    read = parse_frames(Path(path).read_bytes())
    if not read.payloads:
        reason = read.error.reason if read.error else "empty file"
        raise ReplayError(0, reason)
    secrets = secrets_in_log(read.payloads)
    try:
        genesis = Entry.decode(read.payloads[0])
        try:
            ledger = Ledger(genesis, readers=dict(enumerate(secrets or ())))
        except SealedUsageError:  # secrets that do not fit the keys: show the public log
            ledger = Ledger(genesis)
    except (MalformedEntry, InvalidEntry) as exc:
        raise ReplayError(0, str(exc)) from None
    names = [s.name for s in ledger.seats]
    if seat is not None and not 0 <= seat < len(names):
        raise ValueError(f"no seat {seat}: seats are 0..{len(names) - 1}")
    screens = screens_for(ledger.game.name)
    recent: list[str] = []

    def render() -> str:
        view = ledger.game.view(ledger.state, seat)
        if ledger.finished:
            return screens.render_final(view, names, color)
        return screens.render(view, names, recent, (), color)

    yield Frame(0, render())
    for index, payload in enumerate(read.payloads[1:], start=1):
        try:
            applied = ledger.append(Entry.decode(payload))
        except (MalformedEntry, InvalidEntry) as exc:
            raise ReplayError(index, str(exc)) from None
        recent.append(event_line(applied, ledger))
        yield Frame(index, render())
    if read.error is not None:
        raise ReplayError(read.error.index, read.error.reason)
