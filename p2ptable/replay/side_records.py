"""What ``verify``, ``show`` and ``export`` say of the side records beside a
replay: the table's talk (``REPLAY.talk``) and its agreed break (``REPLAY.break``).

How it works: :func:`check_side_records` reads both against the log they sit
beside (its genesis's seat keys, its length and hashes) and words what it found
for a person: how many lines of talk, every signed line that does not check,
naming the seat whose line it is, and whether a break file holds every seat's
signature over a position of this log.  The side records never change the
game's own verdict: the log is the proof of the game, and a bad line of talk
proves only that someone sent (or wrote) a bad line.  A replay with neither file
has nothing to say here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p2ptable.replay.break_file import break_path, read_agreement
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.talk_file import read_talk, talk_path
from p2ptable.replay.talk_record import TalkLine


@dataclass
class SideReport:
    """The side records of one replay, checked and worded."""

    talk: list[TalkLine] = field(default_factory=list)  # the lines that check, as kept
    talk_file: bool = False
    talk_problems: list[str] = field(default_factory=list)  # worded, naming the seat
    talk_torn: bool = False
    break_at: int | None = None  # the agreed break's position, when it checks
    break_problem: str | None = None

    def lines(self) -> list[str]:
        """What ``verify`` prints under its verdict (nothing without side files)."""
        said = []
        if self.talk_file:
            count = f"{len(self.talk)} line" + ("" if len(self.talk) == 1 else "s")
            said.append(f"talk:    {count} beside the log, each signed by its seat")
            said += [f"  refused: {problem}" for problem in self.talk_problems]
            if self.talk_torn:
                said.append("  the last line was cut short (a crash as it was written): skipped")
        if self.break_at is not None:
            said.append(f"break:   every seat agreed to a break at entry {self.break_at}")
        elif self.break_problem is not None:
            said.append(f"break:   {self.break_problem}: not believed")
        if said and (self.talk_problems or self.break_problem):
            said.append("(side records: beside the log, they do not change the verdict above)")
        return said

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.talk_file:
            data["talk"] = {
                "lines": [
                    {"at": x.at, "seat": x.seat, "n": x.n, "text": x.text} for x in self.talk
                ],
                "refused": self.talk_problems,
                "torn": self.talk_torn,
            }
        if self.break_at is not None or self.break_problem is not None:
            data["break"] = {"at": self.break_at, "problem": self.break_problem}
        return data


def seat_words(seat: int | None, names: Sequence[str]) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "a seat not at the table"
    return f"seat {seat + 1} ({names[seat]})"


def check_side_records(replay: Path, ledger: Ledger) -> SideReport:
    """The talk and the break beside ``replay``, checked against its ``ledger``
    (the whole log as verified)."""
    report = SideReport()
    keys = [seat.key for seat in ledger.seats]
    names = [seat.name for seat in ledger.seats]
    path = talk_path(replay)
    if path.exists():
        report.talk_file = True
        talk = read_talk(path, ledger.game_id, keys, ledger.next_index)
        report.talk = list(talk.lines)
        report.talk_torn = talk.torn
        for problem, seat in zip(talk.problems, talk.culprits, strict=True):
            # "talk line 3 (seat 1): ..." read as a person counts seats: by number and name.
            words = problem.replace(f" (seat {seat})", f" by {seat_words(seat, names)}", 1)
            report.talk_problems.append(words)
    agreement, unbelieved = read_agreement(replay, ledger.game_id, keys)
    if agreement is not None:
        at, head = agreement.position.at, agreement.position.head
        if at <= ledger.next_index and ledger.hashes[at - 1] == head:
            report.break_at = at
        else:
            report.break_problem = f"{break_path(replay).name}: its position is not in this log"
    else:
        report.break_problem = unbelieved
    return report
