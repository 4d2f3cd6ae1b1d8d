"""Evidence against a seat: the signed messages an ``abort`` entry carries.

How it works
------------
An abort names a culprit, and every verifier re-checks its evidence against the
log up to the abort, so the accusation holds on every machine or nowhere:

==============  ===================================================================
reason          evidence, and what makes it proof
==============  ===================================================================
equivocation    two different bodies signed by the culprit for one position (same
                index and previous hash): two actions, two shuffles or two parts.
                Honest seats make one message per position (sealed messages draw
                their randomness from the position, replay/sealed_book.py).
cheated         one body signed by the culprit for *this* position that fails its
                check: an entry the ledger refuses with the culprit named (an
                illegal move, a bad shuffle, a false reveal), or a ``part`` of an
                ``open``/``secrets`` entry whose share proof or secret is wrong,
                or a ``share`` of a leaver's secret off its escrow's
                commitments (replay/departure.py); or a seat's escrow entry for
                this position with its holder's complaint proving that holder's
                share false (replay/escrow_entries.py).
==============  ===================================================================

Withholding and abandoning carry no evidence (absence cannot be signed): they are
the detecting seat's signed account, and ``verify`` reports them as such.

The checks read the log through :class:`LogView`, the few things of a ledger they
need (the ledger calls them with itself), so this module does not import the
ledger.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from p2ptable.crypto.signing import verify_signature
from p2ptable.replay import departure, escrow_entries
from p2ptable.replay.entries import Entry, MalformedEntry, signed_message
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.escrow_entries import FALSE_SHARE
from p2ptable.replay.genesis import SeatInfo
from p2ptable.replay.kinds import SIGNED_KINDS, Kind
from p2ptable.replay.position import Expected
from p2ptable.replay.sealed_book import SealedBook
from p2ptable.sealed import escrow as vss
from p2ptable.sealed.errors import SealedDeckError


class LogView(Protocol):
    """What the evidence rules read of a log (``replay/ledger.Ledger`` has it all)."""

    @property
    def game_id(self) -> bytes: ...
    @property
    def seats(self) -> Sequence[SeatInfo]: ...
    @property
    def next_index(self) -> int: ...
    @property
    def head(self) -> bytes: ...
    @property
    def book(self) -> SealedBook | None: ...
    def expected(self) -> Expected: ...
    def rejection(self, entry: Entry) -> InvalidEntry | None:
        """Why ``entry`` would be refused as the next entry, changing nothing."""
        ...

    def choice_problem(self, seat: int, msg: object) -> str | None:
        """What is wrong with a seat's part of a pending commits or choices entry."""
        ...


def _signed_by(ledger: LogView, entry: Entry, culprit: int) -> bool:
    if [seat for seat, _ in entry.sigs] != [culprit]:
        return False
    message = signed_message(ledger.game_id, entry.body_bytes)
    return verify_signature(ledger.seats[culprit].key, entry.sigs[0][1], message)


def check_equivocation(
    ledger: LogView,
    culprit: int,
    evidence: list[Any],
    detector: int | None,
    index: int | None = None,
) -> None:
    index = ledger.next_index if index is None else index

    def bad(why: str) -> InvalidEntry:
        return InvalidEntry(index, f"equivocation evidence rejected: {why}", detector)

    if len(evidence) != 2 or not all(isinstance(e, bytes) for e in evidence):
        raise bad("needs two encoded entries")
    try:
        first, second = (Entry.decode(e) for e in evidence)
    except MalformedEntry as exc:
        raise bad(str(exc)) from None
    if first.body_bytes == second.body_bytes:
        raise bad("the two entries say the same thing")
    for e in (first, second):
        body = e.body
        if body["t"] not in SIGNED_KINDS or body["seat"] != culprit:
            raise bad("both entries must be actions, shuffles or parts by the accused seat")
        if (body["t"], body["i"], body["prev"]) != (
            first.body["t"],
            first.body["i"],
            first.body["prev"],
        ):
            raise bad("both entries must be for the same position (index and prev), of one kind")
        # Either an earlier position, or this very one: the abort takes the place
        # of the contested entry (an agreed abort, wire.md 6.8; a part is never
        # appended itself, so two parts are always for a position still open).
        here = body["i"] == index and body["prev"] == ledger.head
        if body["i"] > index or (body["i"] == index and not here):
            raise bad("the entries must be for an earlier position, or this one")
        if not _signed_by(ledger, e, culprit):
            raise bad("an entry is not signed by the accused seat")


def check_cheat(
    ledger: LogView,
    culprit: int,
    evidence: list[Any],
    detector: int | None,
    index: int | None = None,
) -> None:
    index = ledger.next_index if index is None else index

    def bad(why: str) -> InvalidEntry:
        return InvalidEntry(index, f"cheating evidence rejected: {why}", detector)

    if len(evidence) == 2 and all(isinstance(e, bytes) for e in evidence):
        return _check_complaint(ledger, culprit, evidence, bad)
    if len(evidence) != 1 or not isinstance(evidence[0], bytes):
        raise bad("needs one encoded entry")
    try:
        entry = Entry.decode(evidence[0])
    except MalformedEntry as exc:
        raise bad(str(exc)) from None
    body = entry.body
    if body["t"] not in SIGNED_KINDS or body["seat"] != culprit:
        raise bad("the evidence must be an action, shuffle or part by the accused seat")
    if body["i"] != index or body["prev"] != ledger.head:
        raise bad("the evidence must be for the position the game stopped at")
    if not _signed_by(ledger, entry, culprit):
        raise bad("the evidence is not signed by the accused seat")
    if body["t"] == Kind.PART:
        try:
            why = part_problem(ledger, culprit, body["msg"])
        except ValueError as exc:
            raise bad(str(exc)) from None
    elif body["t"] == Kind.SHARE:
        if ledger.book is None:
            raise bad("no escrow at this table: a share proves nothing")
        why = departure.share_problem(
            ledger.game_id, ledger.book, culprit, body["of"], body["share"]
        )
    else:
        refused = ledger.rejection(entry)
        why = refused.reason if refused is not None and refused.culprit == culprit else None
        if why is not None and body["t"] == Kind.ESCROW and why.startswith(FALSE_SHARE):
            raise bad("a false share is proved by its holder's complaint, not by the escrow alone")
    if why is None:
        raise bad("the evidence checks out: it proves nothing against the seat")


def _check_complaint(
    ledger: LogView, culprit: int, evidence: list[Any], bad: Callable[[str], InvalidEntry]
) -> None:
    """A false escrow share: the dealer's signed escrow entry for this position
    and its holder's complaint, which proves the share wrong
    (replay/escrow_entries.py)."""
    try:
        entry = Entry.decode(evidence[0])
    except MalformedEntry as exc:
        raise bad(str(exc)) from None
    body = entry.body
    expected = ledger.expected()
    if body["t"] != Kind.ESCROW or body["seat"] != culprit:
        raise bad("a complaint's evidence is the accused seat's escrow entry")
    if body["i"] != ledger.next_index or body["prev"] != ledger.head:
        raise bad("the escrow must be for the position the game stopped at")
    if expected.kind != Kind.ESCROW or expected.seat != culprit or ledger.book is None:
        raise bad(f"no escrow by seat {culprit} is expected here")
    if not _signed_by(ledger, entry, culprit):
        raise bad("the escrow is not signed by the accused seat")
    try:
        msg = vss.decode_escrow(body["msg"], ledger.book.seats, culprit)
        at_fault = escrow_entries.judge(ledger.game_id, ledger.book, msg, evidence[1])
    except (SealedDeckError, ValueError) as exc:
        raise bad(str(exc)) from None
    if at_fault != culprit:
        raise bad("the complaint proves the share right: it names the complainer")


def part_problem(ledger: LogView, seat: int, msg: object) -> str | None:
    """What is wrong with seat's part (decoded ``msg``) of the pending ``open`` or
    ``secrets`` entry, or None when it is right; ValueError if none is pending."""
    expected = ledger.expected()
    if expected.kind in (Kind.COMMITS, Kind.CHOICES):
        return ledger.choice_problem(seat, msg)
    if expected.kind not in (Kind.OPEN, Kind.SECRETS) or ledger.book is None:
        raise ValueError(f"no open or secrets entry is pending (expected {expected.kind})")
    try:
        ledger.book.check_part(expected.kind, expected.targets, seat, msg)
    except SealedDeckError as exc:
        return exc.reason
    return None
