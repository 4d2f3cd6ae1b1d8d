"""How a session stops: the agreed abort, and keeping the better of two endings.

How it works (protocol/wire.md 6.8)
-----------------------------------
An abort is unsigned and every field of it is a function of what it accuses
(net/accusations.py ``abort_body``), so honest peers that catch the same thing
write the same bytes.  It goes at the end of our log, except that two messages
signed by one seat for one position put it in that position's place: our log is
cut back to it (``StoppingSession.end_with`` with a ledger holding only what comes before).

Another peer's abort, for a position we hold or after we stopped, is weighed by
``consider``: we keep the better ending (``accusations.ending_rank``), but our
log is only ever cut back to a position whose contested entry in our log is one
half of the abort's proof, or to a ``choices`` entry that a seat's signed
false reveal contests (the reveal is the whole proof: our entry keeps only the
openings), or over entries no seat chose (chance, open, secrets), so no
accusation can erase an honest seat's move.  A ``cheated``
abort for a position where we took another message from the same seat is the
other half of an equivocation, which we then write ourselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from p2ptable.net import accusations
from p2ptable.net.accusations import Accusation
from p2ptable.net.wire import RemoteProtocolError
from p2ptable.replay.entries import Entry, bundled_parts, unsigned_bundle
from p2ptable.replay.kinds import BUNDLE_KINDS, Kind, Reason
from p2ptable.replay.ledger import Ledger

if TYPE_CHECKING:
    from p2ptable.net.events import Stopped
    from p2ptable.replay import authoring


class LocalProtocolError(Exception):
    """We (our user or our code) tried something the rules or protocol forbid."""


class StoppingSession(Protocol):
    """What stopping may use of its session."""

    ledger: Ledger
    seat: int
    secrets: authoring.SeatSecrets
    stopped: Stopped | None

    def end_with(self, entry: Entry, at: Ledger) -> None: ...


def accuse(log: StoppingSession, accusation: Accusation) -> None:
    """Stop with the agreed abort for ``accusation``: at the contested position if
    it names one we hold, else at our end; checked by the ledger first."""
    if log.stopped is not None:
        return
    position = log.ledger.next_index
    if accusation.position is not None:
        position = min(accusation.position, position)
    at = ledger_at(log, position)
    entry = Entry(accusations.abort_body(at, accusation), ())
    refused = at.rejection(entry)
    if refused is not None:
        raise LocalProtocolError(f"our own accusation was refused: {refused.reason}")
    log.end_with(entry, at)


def consider(log: StoppingSession, entry: Entry) -> None:
    """Another peer's abort: keep the better of the two endings."""
    body = entry.body
    position = body["i"]
    ledger = log.ledger
    ours = ledger.next_index - 1 if log.stopped is not None else ledger.next_index
    if position > ours or entry.hash in ledger.hashes:
        return
    if position < ours:
        # A choices entry keeps the openings alone (replay/choices.py): a seat's
        # signed reveal for it that opens nothing is proof enough by itself, and
        # the other half of no equivocation (our entry holds no signature).
        opened = unsigned_bundle(ledger.entries[position].body)
        complaint = escrow_complaint_cuts(ledger, entry, position, ours)
        if body["reason"] == Reason.CHEATED and log.stopped is None and not (opened or complaint):
            # A message we took a different one from, for that position: the two
            # together prove equivocation (accusations.conflicting_entry).
            accuse(log, accusations.conflicting_entry(ledger, log.seat, position, entry))
            return
        proof_cuts = body["reason"] == Reason.EQUIVOCATION and holds_half_of(ledger, entry)
        proof_cuts = proof_cuts or (body["reason"] == Reason.CHEATED and opened)
        proof_cuts = proof_cuts or complaint
        if not proof_cuts and not nobody_chose(ledger, position, ours):
            raise RemoteProtocolError(f"an abort for entry {position}, which we hold")
    if log.stopped is not None:
        if accusations.ending_rank(entry) >= accusations.ending_rank(ledger.entries[-1]):
            return
    at = ledger_at(log, position)
    refused = at.rejection(entry)
    if refused is not None:
        raise RemoteProtocolError(f"an abort we cannot accept: {refused.reason}")
    log.end_with(entry, at)


def nobody_chose(ledger: Ledger, start: int, end: int) -> bool:
    """Whether our entries ``start`` to ``end`` are all of kinds no seat chooses
    (chance, open, secrets: made from everyone's contributions, the same on
    every log), so cutting them back loses no one's move.  (A seat that was
    slow to read its queue may have made such an entry while the others, who
    never got it, stopped the game in its place.)"""
    return all(e.kind in _NOBODY_CHOSE for e in ledger.entries[start:end])


_NOBODY_CHOSE = (Kind.CHANCE, Kind.OPEN, Kind.SECRETS)


def escrow_complaint_cuts(ledger: Ledger, abort: Entry, start: int, end: int) -> bool:
    """Whether ``abort`` is a holder's proof that our escrow entry ``start`` gave
    it a false share (only it could tell: replay/escrow_entries.py) and our
    entries since are all made by the sessions at once, none by a person's
    choice: the holder never took the escrow, so nothing after it is agreed."""
    evidence = abort.body["evidence"]
    mine = ledger.entries[start]
    if mine.kind != Kind.ESCROW or len(evidence) != 2 or evidence[0] != mine.encode():
        return False
    return all(e.kind in _MADE_AT_ONCE for e in ledger.entries[start:end])


_MADE_AT_ONCE = (Kind.ESCROW, Kind.SHUFFLE, Kind.CHANCE, Kind.OPEN)


def holds_half_of(ledger: Ledger, abort: Entry) -> bool:
    """Whether our entry at the abort's position is one of its two messages (or,
    for a bundle of parts, holds one of them)."""
    mine = ledger.entries[abort.body["i"]]
    evidence = abort.body["evidence"]
    if mine.kind in BUNDLE_KINDS:
        parts = {p.encode() for p in bundled_parts(mine.body)}
        return any(raw in parts for raw in evidence)
    return mine.encode() in evidence


def ledger_at(log: StoppingSession, position: int) -> Ledger:
    """Our ledger, or a new one holding our first ``position`` entries (to cut our
    log back to a contested position; rare, so rebuilt from the log)."""
    ledger = log.ledger
    if position == ledger.next_index:
        return ledger
    at = Ledger(ledger.entries[0], readers={log.seat: log.secrets.deck})
    for entry in ledger.entries[1:position]:
        at.append(entry)
    return at
