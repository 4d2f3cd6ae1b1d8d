"""The side record of a game's talk: ``REPLAY.talk`` beside the replay.

How it works: every talk record a peer said or heard (net/talk.py) is appended
as one frame of the replay file's own framing (replay/logfile.py: length, CRC,
payload), in the order the peer heard them.  It is not synced line by line:
talk lost in a power cut is a line lost, never a move, and the game's log never
waits for it.  :func:`read_talk` checks each record against the genesis's seat
keys and the log it sits beside, and reports every record it cannot keep with
the reason, so ``verify`` can say whose line was bad and ``show`` can still show
the rest.  A torn last frame (a crash in mid-write) is skipped and reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from p2ptable.replay.logfile import LogWriter, parse_frames
from p2ptable.replay.talk_record import MAX_LINES, TalkLine, TalkRejected, open_record

SUFFIX = ".talk"


def talk_path(replay: Path) -> Path:
    return replay.with_name(replay.name + SUFFIX)


@dataclass
class TalkReport:
    """What a talk file holds: the lines kept, and each record refused."""

    lines: list[TalkLine] = field(default_factory=list)
    records: list[bytes] = field(default_factory=list)  # the kept lines' records, as sent
    problems: list[str] = field(default_factory=list)
    culprits: list[int | None] = field(default_factory=list)  # by problem: the seat, if known
    torn: bool = False  # the last frame was cut short (a crash mid-write): skipped

    @property
    def valid(self) -> bool:
        return not self.problems


def read_talk(path: Path, game_id: bytes, keys: Sequence[bytes], log_length: int) -> TalkReport:
    """Every line of the talk file at ``path`` (none if there is none)."""
    report = TalkReport()
    if not path.exists():
        return report
    read = parse_frames(path.read_bytes())
    if read.error is not None and read.error.torn:
        report.torn = True
    elif read.error is not None:
        report.problems.append(f"talk file: {read.error.reason} (frames after it are not read)")
        report.culprits.append(None)
    last: dict[int, int] = {}
    for index, record in enumerate(read.payloads):
        where = f"talk line {index + 1}"
        if len(report.lines) >= MAX_LINES:
            report.problems.append(f"{where}: more than {MAX_LINES} lines")
            report.culprits.append(None)
            break
        try:
            line = open_record(record, game_id, keys)
        except TalkRejected as exc:
            by = f" (seat {exc.seat})" if exc.seat is not None else ""
            report.problems.append(f"{where}{by}: {exc.reason}")
            report.culprits.append(exc.seat)
            continue
        if line.n <= last.get(line.seat, 0):
            report.problems.append(f"{where} (seat {line.seat}): its n {line.n} does not rise")
            report.culprits.append(line.seat)
            continue
        if line.at > log_length:
            report.problems.append(
                f"{where} (seat {line.seat}): said at entry {line.at}, past the log"
            )
            report.culprits.append(line.seat)
            continue
        last[line.seat] = line.n
        report.lines.append(line)
        report.records.append(record)
    return report


class TalkWriter:
    """Appends talk records beside a replay (opened on the first line)."""

    def __init__(self, replay: Path) -> None:
        self.path = talk_path(replay)
        self._writer: LogWriter | None = None

    def append(self, record: bytes) -> None:
        if self._writer is None:
            self._cut_torn_tail()
            self._writer = LogWriter(self.path)
        self._writer.append(record)

    def _cut_torn_tail(self) -> None:
        """A frame cut short by a crash would hide every line appended after it."""
        if not self.path.exists():
            return
        read = parse_frames(self.path.read_bytes())
        if read.error is not None and read.error.torn:
            with open(self.path, "r+b") as f:
                f.truncate(read.good_length)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
