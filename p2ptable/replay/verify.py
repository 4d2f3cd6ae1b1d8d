"""Verify a replay file: start a fresh game and append every entry through the ledger.

The report says whether the file is valid and, if not, the first bad entry's index,
the reason and the seat whose signature is on the bad content (the cheater), when
that can be proved.  Everything before the bad entry was checked and is reported
(the final public state is the state after the last good entry).

A game with hidden hands is checked twice.  The first pass knows no secret: every
deal and every played card is checked by its proofs alone, exactly as a peer
checks another seat's.  When the log holds the seats' deck secrets (the
``secrets`` entry at the end), a second pass, the audit, replays it reading every
seat's cards as they are dealt, so every rule is re-checked with every hand known
and :func:`audit_states` can show every hand at every moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p2ptable.replay.entries import Entry, MalformedEntry, bundled_parts
from p2ptable.replay.kinds import Kind
from p2ptable.replay.ledger import Applied, InvalidEntry, Ledger
from p2ptable.replay.logfile import parse_frames
from p2ptable.sealed.deferred import Recheck, shuffle_checks_deferred
from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.messages import SecretMessage, message_from_value


@dataclass
class VerifyReport:
    valid: bool = False
    game: str | None = None
    protocol: str | None = None  # the version the genesis names (replay.md section 10)
    options: dict[str, str] = field(default_factory=dict)
    seats: list[dict[str, str]] = field(default_factory=list)
    entries: int = 0
    result: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    stopped: dict[str, Any] | None = None
    audited: bool | None = None  # hidden hands: re-checked with every seat's secret
    events: list[Applied] = field(default_factory=list)
    ledger: Ledger | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "valid": self.valid,
            "game": self.game,
            "protocol": self.protocol,
            "options": self.options,
            "seats": self.seats,
            "entries": self.entries,
            "result": self.result,
            "final": self.final,
        }
        if self.error is not None:
            data["error"] = self.error
        if self.stopped is not None:
            data["stopped"] = self.stopped
        if self.audited is not None:
            data["audited"] = self.audited
        return data


def verify_bytes(data: bytes, *, parallel: bool = False) -> VerifyReport:
    """Check a whole replay held in memory.

    ``parallel=True`` checks the first pass's shuffle proofs in a worker process
    beside the pass (``sealed/deferred.py``); if one fails, the replay is checked
    again in turn, so the report is the same either way.
    """
    if parallel:
        try:
            return _verify_bytes(data, deferred=True)
        except Recheck:
            pass
    return _verify_bytes(data, deferred=False)


def _verify_bytes(data: bytes, *, deferred: bool) -> VerifyReport:
    report = VerifyReport()
    try:
        return _verify(data, report, deferred)
    finally:
        # The public state after the last good entry, computed once.
        if report.ledger is not None:
            report.final = report.ledger.game.view(report.ledger.state, None)


def _verify(data: bytes, report: VerifyReport, deferred: bool = False) -> VerifyReport:
    frames = parse_frames(data)
    try:
        if not frames.payloads and frames.error is not None:
            # Not even the genesis frame is intact: the framing error is the reason
            # (bad magic, damaged or torn first frame), not "no genesis entry".
            raise InvalidEntry(frames.error.index, frames.error.reason)
        with shuffle_checks_deferred(deferred):
            ledger = _replay(frames.payloads, report)
        if frames.error is not None:
            raise InvalidEntry(frames.error.index, frames.error.reason)
        halt = ledger.stopped
        if halt is not None:
            report.stopped = {
                "entry": halt.index,
                "reason": halt.reason.value,
                "culprit": halt.culprit,
                "detector": halt.detector,
                "detail": halt.detail,
                "proved": halt.proved,
            }
            if halt.proved:
                raise InvalidEntry(
                    halt.index,
                    f"game stopped: {halt.reason} by seat {halt.culprit}, "
                    "proved by the signed evidence in the log",
                    halt.culprit,
                )
            # Withholding cannot be proved to a third party: the log names the
            # accused on the signed word of the seat that stopped the game.
            by = "a seat" if halt.detector is None else f"seat {halt.detector}"
            raise InvalidEntry(
                halt.index,
                f"game stopped: seat {halt.culprit} accused of {halt.reason} "
                f"by {by} (not provable from the log)",
            )
        if not ledger.finished:
            raise InvalidEntry(
                ledger.next_index, "the log ends before the game is over (no result entry)"
            )
        if ledger.book is not None:
            report.audited = False
            if ledger.book.secrets is not None:
                for _ in audit_states(frames.payloads, ledger.book.secrets):
                    pass
                report.audited = True
    except InvalidEntry as exc:
        report.error = {"entry": exc.index, "reason": exc.reason, "culprit": exc.culprit}
        if exc.culprit is not None and report.seats:
            report.error["culprit_name"] = report.seats[exc.culprit]["name"]
        return report
    report.valid = True
    return report


def secrets_in_log(payloads: list[bytes]) -> tuple[int, ...] | None:
    """The seats' deck secrets from a log's ``secrets`` entry, if it has one (not
    checked here: a ledger given them as readers checks each against its key)."""
    for payload in reversed(payloads[-4:]):
        try:
            entry = Entry.decode(payload)
            if entry.kind != Kind.SECRETS:
                continue
            parts = bundled_parts(entry.body)
            msgs = [message_from_value(p.body["msg"], p.body["seat"]) for p in parts]
        except (MalformedEntry, SealedDeckError):
            return None
        if all(isinstance(m, SecretMessage) for m in msgs):
            return tuple(m.secret for m in msgs)  # type: ignore[union-attr]
    return None


def audit_states(
    payloads: list[bytes], secrets: tuple[int, ...]
) -> Iterator[tuple[Applied, Ledger]]:
    """Replay a log reading every seat's hidden cards: yields (Applied, ledger)
    after each entry; InvalidEntry if anything fails with every hand known."""
    ledger = Ledger(Entry.decode(payloads[0]), readers=dict(enumerate(secrets)))
    for payload in payloads[1:]:
        try:
            applied = ledger.append(Entry.decode(payload))
        except InvalidEntry as exc:
            why = f"audit with every secret: {exc.reason}"
            raise InvalidEntry(exc.index, why, exc.culprit) from None
        yield applied, ledger


def _replay(payloads: list[bytes], report: VerifyReport) -> Ledger:
    if not payloads:
        raise InvalidEntry(0, "no genesis entry")
    try:
        genesis = Entry.decode(payloads[0])
    except MalformedEntry as exc:
        raise InvalidEntry(0, f"malformed genesis: {exc}") from None
    ledger = Ledger(genesis)
    report.ledger = ledger
    report.game = ledger.game.name
    report.protocol = ledger.protocol
    report.options = dict(ledger.options)
    report.seats = [{"name": s.name, "key": s.key.hex()} for s in ledger.seats]
    report.entries = 1
    for index, payload in enumerate(payloads[1:], start=1):
        try:
            entry = Entry.decode(payload)
        except MalformedEntry as exc:
            raise InvalidEntry(index, f"malformed: {exc}") from None
        report.events.append(ledger.append(entry))
        report.entries = index + 1
    if ledger.result is not None:
        report.result = {
            "scores": list(ledger.result.scores),
            "winners": list(ledger.result.winners),
            "explanation": ledger.result.explanation,
        }
    return ledger


def verify_file(path: str | Path, *, parallel: bool = False) -> VerifyReport:
    """Check a replay file (OSError if it cannot be read: see unreadable_report);
    ``parallel`` as for :func:`verify_bytes`."""
    return verify_bytes(Path(path).read_bytes(), parallel=parallel)


def unreadable_report(path: str | Path, exc: OSError) -> VerifyReport:
    """The report on a file that could not be read: invalid at entry 0, the
    reason saying why (no such file, a folder, no permission)."""
    return VerifyReport(error={"entry": 0, "reason": unreadable(path, exc), "culprit": None})


def unreadable(path: str | Path, exc: OSError) -> str:
    """Why ``path`` could not be read, for a person."""
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {path}"
    if isinstance(exc, IsADirectoryError):
        return f"{path} is a folder, not a replay file"
    return f"cannot read {path}: {exc.strerror or exc}"
