"""The ``escrow`` entries of a table that goes on without a seat that left
(issue 27; protocol/sealed-decks.md section 15, protocol/replay.md).

How it works
------------
A genesis with ``keep_going`` (a game with hidden hands, 3 seats or more) gives
the ledger's sealed book an empty tuple of escrows; until it holds one per seat
the ledger expects an ``escrow`` entry from the next seat in seat order, before
anything else (the first shuffle waits for it).  Each entry carries its seat's
:class:`~p2ptable.sealed.escrow.EscrowMessage`: Feldman commitments to a
polynomial whose constant term is the seat's deck secret (its ``A_0`` is the
genesis deck key, so it is not sent) and a share for every other seat,
encrypted to that seat's deck key.

What every ledger checks (:func:`escrow`) is what anyone can: the author's
signature, the turn, and the message's exact shape (the points on the curve,
``n - 2`` commitments, ``n - 1`` shares in seat order).  Whether a share is
right only its holder can tell while the game runs, so a ledger also opens the
share of every seat it reads (``readers``: a live peer's own seat) and refuses
the entry, naming the dealer, when it is off the commitments.  That refusal
alone proves nothing to the others: the holder's peer stops the game with the
signed escrow and its complaint (:func:`complaint_evidence`, ``x_j·E`` with a
DLEQ proof) as the evidence, which any verifier judges (:func:`judge`,
replay/evidence.py): a false share names its dealer, a complaint about a right
one names the complainer.  The audit at the end reads every seat, so it opens
every share of every escrow.
"""

from __future__ import annotations

from typing import Any

from p2ptable.crypto.encoding import pack, unpack_canonical
from p2ptable.engine.frozen import replace
from p2ptable.replay.entries import Entry
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import GenesisInfo, check_signed_by
from p2ptable.replay.kinds import Kind
from p2ptable.replay.position import Applied, Expected, Position
from p2ptable.replay.sealed_book import SealedBook, sealed_rand
from p2ptable.sealed import escrow as vss
from p2ptable.sealed.deck import context
from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.group import GroupError, decode_point
from p2ptable.sealed.proofs import Context, SigmaProof


def escrow_context(game_id: bytes, dealer: int) -> Context:
    """Section 5.4's context of seat ``dealer``'s escrow: step 0, as a deck key's."""
    return context(game_id, 0, dealer, "escrow")


def next_dealer(book: SealedBook | None) -> int | None:
    """The seat whose escrow the ledger expects next, or None (no escrow here,
    or every seat's is in)."""
    if book is None or book.escrows is None or len(book.escrows) >= book.seats:
        return None
    return len(book.escrows)


def escrow(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    """The ledger's check of an escrow entry: its seat's turn, its signature and
    its message's shape, and the share of every seat this ledger reads (a live
    peer's own, or every seat's in an audit); the book then holds the message."""
    seat = body["seat"]
    if seat != expected.seat:
        raise InvalidEntry(index, f"seat {seat} escrowed out of turn (seat {expected.seat})")
    check_signed_by(info, index, entry, seat)
    book = position.book
    assert book is not None and book.escrows is not None  # next_dealer expected it
    try:
        msg = vss.decode_escrow(body["msg"], book.seats, seat)
    except SealedDeckError as exc:
        raise InvalidEntry(index, exc.reason, seat) from None
    for holder, secret in book.readers.items():
        if holder != seat and share_is_false(info.game_id, book, msg, holder, secret):
            raise InvalidEntry(index, f"{FALSE_SHARE} for seat {holder}", seat)
    book = replace(book, escrows=(*book.escrows, msg))
    holders = len(msg.shares)
    text = f"escrows its deck secret among the {holders} other seats (Feldman commitments)"
    return Applied(index, Kind.ESCROW, seat, text), replace(position, book=book)


# How the ledger of a holder refuses an escrow whose share for it is false: only
# that holder can tell, so it is proof only with the holder's complaint.
FALSE_SHARE = "its escrow gives a false share"


def make_escrow_msg(
    game_id: bytes, book: SealedBook, seat: int, secret: int, prev: bytes
) -> dict[str, Any]:
    """Our escrow message, its randomness from our secret and the position (the
    same bytes again after a resume)."""
    rand = sealed_rand(secret, game_id, prev, "escrow")
    keys = book.table.keys
    return vss.make_escrow(escrow_context(game_id, seat), seat, secret, keys, rand).to_value()


def share_is_false(
    game_id: bytes, book: SealedBook, msg: vss.EscrowMessage, holder: int, secret: int
) -> bool:
    """Whether ``holder``'s share in the escrow ``msg`` is off its commitments."""
    share = vss.open_share(escrow_context(game_id, msg.seat), msg, holder, secret)
    return not vss.share_is_right(book.table.keys[msg.seat], msg, holder, share)


def complaint_evidence(
    game_id: bytes, book: SealedBook, entry: Entry, holder: int, secret: int
) -> bytes:
    """``holder``'s complaint about its share in the escrow ``entry``, encoded:
    the second half of the evidence against the dealer (the first is the signed
    escrow entry)."""
    body = entry.body
    msg = vss.decode_escrow(body["msg"], book.seats, body["seat"])
    rand = sealed_rand(secret, game_id, body["prev"], f"complaint {msg.seat}")
    ctx = escrow_context(game_id, msg.seat)
    return pack(vss.make_complaint(ctx, msg, holder, secret, rand).to_value())


def judge(game_id: bytes, book: SealedBook, msg: vss.EscrowMessage, raw: object) -> int:
    """The seat at fault for the complaint ``raw`` (encoded) about the escrow
    ``msg``; ValueError if it is not a complaint about that escrow."""
    dealer = msg.seat
    try:
        value = unpack_canonical(raw) if isinstance(raw, bytes) else None
        if type(value) is not dict or set(value) != {"dealer", "holder", "proof", "shared", "t"}:
            raise ValueError("a complaint is a map of dealer, holder, proof, shared and t")
        holder = value["holder"]
        if value["t"] != "sealed-complaint" or value["dealer"] != dealer:
            raise ValueError(f"not a complaint about seat {dealer}'s escrow")
        if type(holder) is not int or holder == dealer or not 0 <= holder < book.seats:
            raise ValueError("the complainer is not a holder of that escrow")
        if type(value["shared"]) is not bytes:
            raise ValueError("shared must be a point")
        complaint = vss.Complaint(
            dealer, holder, decode_point(value["shared"]), SigmaProof.from_value(value["proof"], 1)
        )
    except (GroupError, SealedDeckError, TypeError, KeyError, ValueError) as exc:
        raise ValueError(f"malformed complaint: {exc}") from None
    ctx = escrow_context(game_id, dealer)
    return vss.judge_complaint(ctx, book.table.keys, msg, complaint)
