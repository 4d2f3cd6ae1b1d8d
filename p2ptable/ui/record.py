"""A game's record for people (``p2ptable export``): tag pairs, then one line per entry.

How it works
------------
In the spirit of PGN and SGF, a record is a header of tag pairs (the game, its
options, the seats, the result, the log's head hash, the command that verifies the
file) and then one numbered line per log entry, in words:
"37. Day 1, Period 3: Cleo moves to the Teachers Lounge".  It is derived from the
signed log and says so: it is not a replay and proves nothing by itself.

1. :func:`check` verifies the file exactly as ``p2ptable verify`` does
   (``replay.verify.verify_bytes``).  A bad entry, or a damaged end of the file, is
   refused (:class:`RecordRefused`, with verify's own verdict): nothing unverified is
   ever written.  A log whose every entry checks out but which ends early (a game
   not finished, or stopped by an abort) is recorded as far as it goes, and its
   Result says why it ends there.
2. :func:`record` reads the log once more, through a ledger that reads exactly the
   hidden cards the record may name: none (a log without the seats' deck secrets),
   one seat's (``seat``: what that seat saw, with its secret from the log's
   ``secrets`` entry, or, in a game not over, from the secrets file the seat keeps
   beside its replay: ui/seat_secret.py), or every seat's (an audited log).
   Before each entry the game's optional ``moment(state)`` says when it falls;
   around an entry that deals or hands over a hidden card, the sealed book before
   and after says which cards this ledger could read.
3. The words are ``ui/narrative.py``'s, as ``verify --events`` and ``show`` print
   them; a hidden card this ledger read follows in brackets: "[Gift 2]".
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from p2ptable.engine.api import Game
from p2ptable.games import get_game
from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.seen_cards import moved_cards
from p2ptable.replay.side_records import check_side_records
from p2ptable.replay.verify import VerifyReport, secrets_in_log, verify_bytes
from p2ptable.ui.narrative import EntryWords, entry_words, genesis_words
from p2ptable.ui.seat_secret import NoOwnSecret, own_deck_secret
from p2ptable.ui.text import name_seats, options_words, result_summary, verdict

NOTE = (
    "derived from the signed log by p2ptable export; this text is not a replay and "
    "proves nothing by itself: check the file with the Verify command"
)
NO_DATE = "unknown (the signed log holds no date)"


class RecordRefused(Exception):
    """No record can be made (the message says why, for a person)."""


class Ending(str, Enum):
    """How a verified log ends (its text is the record's ``ends``)."""

    RESULT = "result"  # a valid, complete game
    STOPPED = "stopped"
    UNFINISHED = "unfinished"

    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]


@dataclass(frozen=True)
class Checked:
    """A replay file whose every entry verified.  ``ends`` is how its log ends:
    ``result`` (a valid, complete game), ``unfinished`` or ``stopped``."""

    path: str
    payloads: tuple[bytes, ...]
    report: VerifyReport
    ends: Ending

    @property
    def names(self) -> list[str]:
        return [seat["name"] for seat in self.report.seats]


def check(path: str, data: bytes) -> Checked:
    """Verify a replay's bytes (``path`` is how the record names the file);
    RecordRefused with verify's verdict unless every entry checks out."""
    frames = parse_frames(data)
    report = verify_bytes(data)
    ledger = report.ledger
    intact = frames.error is None and ledger is not None and report.entries == len(frames.payloads)
    if report.valid:
        ends = Ending.RESULT
    elif intact and ledger.stopped is not None:  # type: ignore[union-attr]
        ends = Ending.STOPPED
    elif intact and not ledger.finished:  # type: ignore[union-attr]
        ends = Ending.UNFINISHED
    else:
        why = verdict(path, report)
        bad = (report.error or {}).get("entry")
        if frames.error is not None and bad == frames.error.index:
            whole = f"entries 0 to {bad - 1} are whole" if bad else "no entry is whole"
            why += f" The file is damaged from entry {bad} on ({whole})."
        why += " Nothing was exported: a record is made only of a log that verifies."
        raise RecordRefused(why)
    return Checked(path, tuple(frames.payloads), report, ends)


@dataclass(frozen=True)
class Line:
    """One entry of the record: its words, and when it falls (``moment``)."""

    index: int
    kind: str
    seat: int | None
    moment: str | None
    words: str
    action: str | None = None  # an action entry's text in the log ("move 4")

    def to_text(self) -> str:
        when = f"{self.moment}: " if self.moment else ""
        return f"{self.index}. {when}{self.words}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "index": self.index,
            "kind": self.kind,
            "seat": self.seat,
            "moment": self.moment,
            "words": self.words,
        }
        if self.action is not None:
            data["action"] = self.action
        return data


@dataclass(frozen=True)
class Said:
    """A line of talk beside the log (replay/side_records.py), said when the log
    held ``at`` entries: it is shown after entry ``at - 1``."""

    at: int
    seat: int
    name: str
    text: str

    def to_text(self) -> str:
        return f"   ({self.name} says: {self.text})"

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "seat": self.seat, "name": self.name, "text": self.text}


@dataclass(frozen=True)
class Record:
    """A game in words: the header's facts and one :class:`Line` per entry."""

    game: str
    title: str
    options: Mapping[str, str]
    seats: tuple[str, ...]
    result: str
    ends: str
    outcome: Mapping[str, Any] | None
    head: str
    verify: str
    hidden: str
    lines: tuple[Line, ...]
    talk: tuple[Said, ...] = ()  # the table's talk that checks, from REPLAY.talk

    def tags(self) -> list[tuple[str, str]]:
        """The header as tag pairs, in order."""
        options = options_words(self.options.items(), self.seats) or "none"
        seats = ", ".join(f"{n} {name}" for n, name in enumerate(self.seats, start=1))
        return [
            ("Game", self.title),
            ("Variant", options),
            ("Date", NO_DATE),
            ("Seats", seats),
            ("Result", self.result),
            ("Entries", str(len(self.lines))),
            ("Head", self.head),
            ("Verify", self.verify),
            ("Hidden", self.hidden),
            ("Note", NOTE),
        ]

    def to_text(self) -> str:
        header = [f'[{tag} "{_escaped(value)}"]' for tag, value in self.tags()]
        body = []
        talk = sorted(self.talk, key=lambda said: said.at)  # stable: each seat's order kept
        for line in self.lines:
            body.append(line.to_text())
            while talk and talk[0].at <= line.index + 1:
                body.append(talk.pop(0).to_text())
        body += [said.to_text() for said in talk]
        return "\n".join([*header, "", *body])

    def to_json(self) -> dict[str, Any]:
        header = {
            "game": self.title,
            "game_name": self.game,
            "variant": dict(self.options),
            "date": None,
            "seats": list(self.seats),
            "result": self.result,
            "ends": self.ends,
            "outcome": None if self.outcome is None else dict(self.outcome),
            "entries": len(self.lines),
            "head": self.head,
            "verify": self.verify,
            "hidden": self.hidden,
            "note": NOTE,
        }
        entries = [line.to_json() for line in self.lines]
        data: dict[str, Any] = {"header": header, "entries": entries}
        if self.talk:
            data["talk"] = [said.to_json() for said in self.talk]
        return data


def _escaped(value: str) -> str:
    """A tag value as PGN quotes it: backslash and double quote escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def record(checked: Checked, seat: int | None = None) -> Record:
    """The record of a checked log as everyone saw it, as ``seat`` (0-based) saw it,
    or, for an audited log without ``seat``, with every card named.  RecordRefused
    if ``seat`` is asked for and the log holds no deck secrets to read it with."""
    report, payloads, names = checked.report, checked.payloads, checked.names
    game = get_game(str(report.game))
    readers, hidden = _readers(checked, game, seat)
    ledger = Ledger(Entry.decode(payloads[0]), readers=readers)
    moment: Callable[[Any], str] | None = getattr(game, "moment", None)
    name_card: Callable[[int], str] = getattr(game, "card_name", None) or (lambda c: f"card {c}")
    lines = [_line(genesis_words(names, game.title), None, None)]
    for payload in payloads[1:]:
        entry = Entry.decode(payload)
        when = None if moment is None else moment(ledger.state)
        book = ledger.book
        applied = ledger.append(entry)
        seen: dict[int, list[str]] = {}
        if readers and book is not None and ledger.book is not None:
            moved = moved_cards(book, ledger.book, readers, entry, applied.seat)
            seen = {s: [name_card(c) for c in cards] for s, cards in moved.items()}
        action = entry.body["action"] if entry.kind == Kind.ACTION else None
        lines.append(_line(entry_words(applied, names, seen), when, action))
    return Record(
        game=game.name,
        title=game.title,
        options=dict(report.options),
        seats=tuple(names),
        result=_result(checked),
        ends=checked.ends.value,
        outcome=_named(report.result, names),
        head=ledger.head.hex(),
        verify=f"p2ptable verify {shlex.quote(checked.path)}",
        hidden=hidden,
        lines=tuple(lines),
        talk=talk_beside(checked, ledger),
    )


def talk_beside(checked: Checked, ledger: Ledger) -> tuple[Said, ...]:
    """The lines of talk beside the replay that check (``verify`` names the rest)."""
    names = checked.names
    side = check_side_records(Path(checked.path), ledger)
    return tuple(Said(x.at, x.seat, names[x.seat], x.text) for x in side.talk)


def _line(words: EntryWords, moment: str | None, action: str | None) -> Line:
    return Line(words.index, words.kind.value, words.seat, moment, words.sentence, action)


def _readers(checked: Checked, game: Game, seat: int | None) -> tuple[dict[int, int], str]:
    """The seats whose cards the record reads (seat -> deck secret), and the Hidden
    tag saying so.  Only an audited log's secrets are used: they were checked."""
    names = checked.names
    if not getattr(game, "hidden_hands", False):
        return {}, f"none: every card of {game.title} is face up"
    secrets = secrets_in_log(list(checked.payloads)) if checked.report.audited else None
    if seat is not None:
        name = names[seat]
        said = f"{name}'s own cards named, every other hidden card read as 'a card'"
        if secrets is None:  # a game not over: the seat's own secrets file may read it
            try:
                deck = own_deck_secret(checked.path, checked.payloads[0], names, seat)
            except NoOwnSecret as exc:
                raise RecordRefused(
                    f"cannot show what {name} saw: the log holds no deck secrets (every seat "
                    f"publishes its own at the end of the game), and {exc}; export it "
                    "without --seat"
                ) from None
            return {seat: deck}, f"as {name} saw it, read with {name}'s secrets file: {said}"
        return {seat: secrets[seat]}, f"as {name} saw it: {said}"
    if secrets is None:
        return {}, (
            "every hidden card read as 'a card': the log holds no deck secrets "
            "(they are published at the end of the game)"
        )
    return dict(enumerate(secrets)), (
        "every card named: the log is audited (every seat's deck secret is in it)"
    )


def _named(result: Mapping[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
    """verify's result, its explanation in words with the seats named."""
    if result is None:
        return None
    return {**result, "explanation": name_seats(str(result["explanation"]), names)}


def _result(checked: Checked) -> str:
    """The Result tag: the scores and winner, or why the log ends early."""
    report = checked.report
    if checked.ends == Ending.RESULT:
        return result_summary(report)
    reason = name_seats(str((report.error or {}).get("reason")), checked.names)
    if checked.ends == Ending.STOPPED:
        stop = report.stopped or {}
        said = reason.removeprefix("game stopped: ")
        return f"stopped at entry {stop.get('entry')}: {said}"
    return f"unfinished: {reason}"
