"""Naming a seat that misbehaves: decisions to stop a game, with their evidence.

How it works: each function looks at what the session saw and returns an
:class:`Accusation` (or None, or raises RemoteProtocolError when what it saw is
only bad input, not proof).  The session turns an accusation into a signed
``abort`` entry through its ledger (so a peer can never write an accusation its
own ledger would refuse) and broadcasts it:

==============  =================================================================
reason          when
==============  =================================================================
equivocation    two different messages signed by one seat for one position (two
                actions, shuffles or parts; replay/evidence.py); found when a
                received entry or part differs from ours for that position
cheated         a signed shuffle, or an action carrying a ``reveal`` or
                ``transfer``, or a part, that fails its sealed-deck check
withheld        a seat in contact (alive) that does not send its contribution to
                the pending entry within ``withhold_timeout`` (no evidence)
abandoned       a seat the game waits on, out of contact for ``abandon_timeout``
==============  =================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2ptable.net.wire import RemoteProtocolError
from p2ptable.replay import escrow_entries
from p2ptable.replay.entries import Entry, bundled_parts, unsigned_bundle
from p2ptable.replay.kinds import AUTHORED_KINDS, BUNDLE_KINDS, AbortBody, Kind, Reason
from p2ptable.replay.ledger import InvalidEntry

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Ledger

_SEALED = (Kind.SHUFFLE, Kind.ESCROW)  # entries that are only sealed-deck content
PING_EVERY = 1.0
ALIVE = 3 * PING_EVERY  # a seat heard from this recently is in contact


@dataclass(frozen=True)
class Accusation:
    """A decision to stop the game, naming ``culprit``; ``evidence`` is the
    signed entries that prove it (empty for withheld and abandoned).
    ``position`` is where the abort goes: the contested position for two
    messages signed for one (every honest log holding either of them ends the
    same way there), else None: the end of our log."""

    reason: Reason
    detail: str
    culprit: int
    evidence: list[bytes]
    position: int | None = None


def ending_rank(abort: Entry) -> tuple:
    """How an abort entry ranks among the endings two honest peers may reach:
    the lower wins, so every honest peer that sees both keeps the same one
    (wire.md 6.8): a proof before an accusation, the earliest position first,
    then the order of reasons (``Reason.rank``), then the lower entry hash."""
    body = abort.body
    reason = Reason.of(body["reason"])
    proved = reason is not None and reason.proved
    rank = reason.rank if reason is not None else 9
    return (0 if proved else 1, body["i"], rank, abort.hash)


def abort_body(at: Ledger, accusation: Accusation) -> bytes:
    """The agreed abort for ``accusation`` at the end of ``at``: unsigned (the
    evidence proves it, or nothing does), every field a function of the
    accusation, so honest peers that make it make the same bytes."""
    reason = Reason(accusation.reason).value  # a plain str: its bytes as ever
    return AbortBody(
        at.next_index, at.head, reason, accusation.culprit, accusation.detail, accusation.evidence
    ).encode()


def equivocation(ledger: Ledger, me: int, seat: int, pair: list[Entry], what: str) -> Accusation:
    """``pair`` as equivocation evidence against ``seat``, if the ledger's rules
    accept it; RemoteProtocolError otherwise.  The abort goes where the two
    messages are (for a position we hold; else at our end), the pair in the
    order of their hashes."""
    evidence = [e.encode() for e in sorted(pair, key=lambda e: e.hash)]
    try:
        ledger.check_equivocation(seat, evidence, me)
    except InvalidEntry as exc:
        raise RemoteProtocolError(f"{what}: {exc.reason}") from None
    index = pair[0].body["i"]
    position = index if index < ledger.next_index else None
    detail = f"seat {seat} signed two different messages for entry {index}"
    return Accusation(Reason.EQUIVOCATION, detail, seat, evidence, position)


def cheat(ledger: Ledger, me: int, entry: Entry, refused: InvalidEntry) -> Accusation | None:
    """A signed shuffle or played card that fails its sealed-deck proof is
    cheating, not a slip: the accusation with it as evidence.  (An illegal move
    without sealed content is only rejected: the seat may still send a legal one.)"""
    body = entry.body
    sealed = body["t"] in _SEALED or "reveal" in body or "transfer" in body
    if not sealed or refused.culprit is None or refused.culprit != body.get("seat"):
        return None
    evidence = [entry.encode()]
    if body["t"] == Kind.ESCROW and refused.reason.startswith(escrow_entries.FALSE_SHARE):
        # Only we can tell our share is false: our complaint proves it to all.
        assert ledger.book is not None
        secret = ledger.book.readers[me]
        complaint = escrow_entries.complaint_evidence(
            ledger.game_id, ledger.book, entry, me, secret
        )
        evidence.append(complaint)
    try:
        ledger.check_cheat(refused.culprit, evidence, me)
    except InvalidEntry:
        return None
    detail = f"seat {refused.culprit}'s {body['t']} entry {body['i']}: {refused.reason}"
    return Accusation(Reason.CHEATED, detail, refused.culprit, evidence)


def conflicting_entry(ledger: Ledger, me: int, index: int, other: Entry) -> Accusation:
    """``other`` differs from our entry ``index``: the accusation if it proves
    equivocation.

    The evidence must convince every verifier, so it is checked by the same
    rules the ledger applies to an abort entry; anything less is only bad input
    (a relayed entry with another signature, a stale fork...)."""
    mine = ledger.entries[index]
    if other.kind == Kind.ABORT and other.body["reason"] == Reason.CHEATED:
        # Another peer stopped on a message signed by a seat we took a different
        # message from, for the same position: together they are equivocation.
        other = Entry.decode(other.body["evidence"][0])
    if mine.kind in BUNDLE_KINDS:
        return bundle_equivocation(ledger, me, mine, other)
    if mine.kind not in AUTHORED_KINDS:
        raise RemoteProtocolError(f"conflicting entry {index} (not an action or shuffle)")
    what = f"two different entries for position {index}"
    return equivocation(ledger, me, mine.body["seat"], [mine, other], what)


def bundle_equivocation(ledger: Ledger, me: int, mine: Entry, other: Entry) -> Accusation:
    """Our bundle (open, secrets, commits, choices) differs from ``other`` (another bundle, or one
    signed part): each bundled part carries its seat's signature, so the seat
    whose parts differ signed both, which proves equivocation."""
    index = mine.body["i"]
    if unsigned_bundle(mine.body):
        # Our choices entry holds each seat's only opening of its commit, with no
        # signature to set against another: a different one is not valid.
        raise RemoteProtocolError(
            f"a choices entry {index} other than ours, which opens every commit"
        )
    ours = {p.body["seat"]: p for p in bundled_parts(mine.body)}
    if other.kind == mine.kind:
        theirs = bundled_parts(other.body)
    elif other.kind == Kind.PART:
        theirs = [other]
    else:
        raise RemoteProtocolError(f"conflicting {mine.kind} entry {index}")
    for part in theirs:
        seat = part.body["seat"]
        if seat in ours and ours[seat].body_bytes != part.body_bytes:
            what = f"two different parts for entry {index}"
            return equivocation(ledger, me, seat, [ours[seat], part], what)
    raise RemoteProtocolError(f"conflicting {mine.kind} entry {index}: no part differs")


def withholding(
    awaited: set[int],
    last_contact: Mapping[int, float | None],
    index: int,
    now: float,
) -> Accusation | None:
    """The first seat in contact (alive) that the entry still waits on.

    Call it once ``withhold_timeout`` has passed since the wait began.  A seat's
    claimed log length is not trusted: the session pushes it what it lacks
    whenever it says it is behind, so an honest seat catches up within a ping
    or two of the long timeout."""
    for seat, last in last_contact.items():
        alive = last is not None and now - last < ALIVE
        if seat in awaited and alive:
            detail = f"seat {seat} did not send its part of entry {index} in time"
            return Accusation(Reason.WITHHELD, detail, seat, [])
    return None


def abandonment(
    awaited: Iterable[int],
    last_contact: Mapping[int, float | None],
    started: float,
    now: float,
    timeout: float,
) -> Accusation | None:
    """The first seat the game waits on that has been out of contact for
    ``timeout`` seconds (long enough for a crashed player to resume)."""
    for seat in sorted(awaited):
        last = last_contact[seat]
        silent_since = started if last is None else last
        if now - silent_since >= timeout:
            # No number of seconds: honest detectors must write the same bytes.
            detail = f"seat {seat} stayed out of contact while the game waited on it"
            return Accusation(Reason.ABANDONED, detail, seat, [])
    return None
