"""Stepping through a replay: the table as it stood after any entry.

Every step is re-checked: the viewer drives the same :class:`Ledger` as
``verify``, so what it shows is what the signed log proves.  Screens come from the
game's public view (or one seat's view), like the live terminal.  For a game with
hidden hands whose log ends with the seats' deck secrets, the ledger reads every
hand as it is dealt, so ``--seat N`` shows exactly what seat N held at every moment.
A log that does not (a game not over) is read, for ``--seat N``, with seat N's own
secrets file next to the replay (ui/seat_secret.py), as that seat's screen read it.
Either way the event lines name the hidden cards seat N saw move ("[Gift 2]"), and
only those (:meth:`Viewer.read_as`).

How it works: :class:`Viewer` opens the file and checks its genesis (so the seats
are known before anything is shown), then appends entries to its ledger only as far
as it is asked to look.  Game states are frozen values, so the state after each
entry is kept as it passes; going back re-renders an earlier state from that list,
and nothing shown ever comes from anywhere but the checked ledger.

People count seats from 1 (seat 1 is the first seat); the library, the log and
JSON count from 0.  :func:`seat_index` turns what a person typed (a number from 1,
or a seat's name) into the index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.seen_cards import moved_cards
from p2ptable.replay.talk_file import read_talk, talk_path
from p2ptable.replay.verify import secrets_in_log
from p2ptable.sealed.errors import SealedUsageError
from p2ptable.ui.narrative import card_names, event_line, talk_line
from p2ptable.ui.screens import final_view, screens_for
from p2ptable.ui.seat_secret import NoOwnSecret, own_deck_secret


class ReplayError(Exception):
    """The file cannot be shown past ``index`` (the reason says why)."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"entry {index}: {reason}")
        self.index = index


@dataclass(frozen=True)
class _Moment:
    """What a screen after one entry is rendered from."""

    state: Any
    finished: bool
    recent: int  # how many event lines had been logged by then


def seat_index(text: str, names: Sequence[str]) -> int:
    """The 0-based seat for what a person typed: a number counted from 1, or a
    seat's name (any case).  ValueError with a sentence for anything else."""
    listed = ", ".join(f"{number} {name}" for number, name in enumerate(names, start=1))
    cleaned = text.strip()
    if cleaned.lstrip("+-").isdigit():
        number = int(cleaned)
        if number < 1:
            raise ValueError(f"seats count from 1, not {number}: the seats are {listed}")
        if number > len(names):
            raise ValueError(f"no seat {number}: this game has {len(names)} seats: {listed}")
        return number - 1
    wanted = cleaned.casefold()
    for seat, name in enumerate(names):
        if name.casefold() == wanted:
            return seat
    raise ValueError(f"no seat named {text!r}: the seats are {listed}")


class Viewer:
    """A replay file opened for viewing: genesis checked, later entries on demand."""

    def __init__(self, path: str | Path, color: bool = False) -> None:
        """Read and check the genesis: ReplayError if it is bad, OSError if the file
        cannot be read."""
        read = parse_frames(Path(path).read_bytes())
        if not read.payloads:
            raise ReplayError(0, read.error.reason if read.error else "empty file")
        self._payloads = read.payloads
        self._error = read.error
        secrets = secrets_in_log(read.payloads)
        try:
            genesis = Entry.decode(read.payloads[0])
            try:
                ledger = Ledger(genesis, readers=dict(enumerate(secrets or ())))
            except SealedUsageError:  # secrets that do not fit the keys: show the public log
                ledger = Ledger(genesis)
        except MalformedEntry as exc:
            raise ReplayError(0, f"malformed genesis: {exc}") from None
        except InvalidEntry as exc:
            raise ReplayError(0, exc.reason) from None
        self._ledger = ledger
        self.names: list[str] = [s.name for s in ledger.seats]
        self.color = color
        self._screens = screens_for(ledger.game.name)
        self._recent: list[str] = []
        self._path = Path(path)
        # The table's talk beside the replay, by the log length it was said at:
        # shown after entry at - 1 (replay/side_records.py; verify names a bad line).
        talk = read_talk(talk_path(self._path), ledger.game_id, [s.key for s in ledger.seats],
                         len(read.payloads))  # fmt: skip
        self._talk: dict[int, list[str]] = {}
        for line in talk.lines:
            self._talk.setdefault(max(line.at, 1), []).append(
                talk_line(self.names[line.seat], line.text)
            )
        self._recent += self._talk.get(1, [])
        self._moments = [_Moment(ledger.state, ledger.finished, len(self._recent))]
        self._reader: int | None = None  # the seat whose own cards the lines name

    def read_as(self, seat: int) -> str | None:
        """Name ``seat``'s own hidden cards in the event lines (its deals, the cards
        it gave and was given), as its own screen did; before any entry is checked.
        A log without the deck secrets (a game not over) is read with the seat's own
        secrets file next to the replay; the sentence returned says why the cards
        cannot be named when that file is not there, or is not the seat's."""
        if self.checked:
            raise RuntimeError("read_as comes before any entry is checked")
        self._reader = seat
        book = self._ledger.book
        if book is None or seat in book.readers:
            return None  # audited (every seat's secret), or no hidden hands at all
        try:
            deck = own_deck_secret(self._path, self._payloads[0], self.names, seat)
        except NoOwnSecret as exc:
            self._reader = None
            name = self.names[seat]
            return (
                f"{name}'s hidden cards are not named: the log holds no deck secrets "
                f"(every seat publishes its own at the end of the game), and {exc}"
            )
        self._ledger = Ledger(Entry.decode(self._payloads[0]), readers={seat: deck})
        self._moments = [_Moment(self._ledger.state, self._ledger.finished, len(self._recent))]
        return None

    @property
    def last(self) -> int:
        """The index of the file's last intact entry (not yet checked)."""
        return len(self._payloads) - 1

    @property
    def checked(self) -> int:
        """The index of the last entry checked so far (0: only the genesis)."""
        return len(self._moments) - 1

    def screen(self, index: int, seat: int | None = None) -> str:
        """The table after entry ``index`` as everyone saw it, or as ``seat`` did;
        checks every entry up to it first (ReplayError at the first bad one)."""
        if not 0 <= index <= self.last:
            raise IndexError(f"entry {index} is not in the file (0..{self.last})")
        if seat is not None and not 0 <= seat < len(self.names):
            raise IndexError(f"no seat index {seat}")
        view, recent, finished = self.view_at(index, seat)
        if finished:
            return self._screens.render_final(view, self.names, self.color)
        return self._screens.render(view, self.names, recent, (), self.color)

    def view_at(
        self, index: int, seat: int | None = None
    ) -> tuple[dict[str, Any], list[str], bool]:
        """What the screen after entry ``index`` is drawn from: the view (everyone's,
        or ``seat``'s), the event lines up to it, and whether the game was over;
        checks every entry up to it first (ReplayError at the first bad one)."""
        while len(self._moments) <= index:
            self._check_next()
        moment = self._moments[index]
        view = self._ledger.game.view(moment.state, seat)
        if moment.finished:
            view = final_view(view, self._ledger.result)
        return view, self._recent[: moment.recent], moment.finished

    @property
    def game_name(self) -> str:
        return self._ledger.game.name

    def check_tail(self) -> None:
        """ReplayError if the file goes on past its last intact entry (torn, damaged)."""
        if self._error is not None:
            raise ReplayError(self._error.index, self._error.reason)

    def _check_next(self) -> None:
        index = len(self._moments)
        ledger = self._ledger
        book = ledger.book
        try:
            entry = Entry.decode(self._payloads[index])
            applied = ledger.append(entry)
        except MalformedEntry as exc:
            raise ReplayError(index, f"malformed: {exc}") from None
        except InvalidEntry as exc:
            raise ReplayError(index, exc.reason) from None
        seen: dict[int, list[int]] = {}
        reader = self._reader
        if reader is not None and book is not None and ledger.book is not None:
            own = {reader: ledger.book.readers[reader]}
            seen = moved_cards(book, ledger.book, own, entry, applied.seat)
        cards = card_names(ledger.game, seen)
        self._recent.append(event_line(applied, [s.name for s in ledger.seats], cards))
        self._recent += self._talk.get(index + 1, [])  # said when the log held this entry
        self._moments.append(_Moment(ledger.state, ledger.finished, len(self._recent)))
