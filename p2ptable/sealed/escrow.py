"""Escrowed deck secrets: Feldman verifiable secret sharing among the other seats.

Why: a seat's deck secret ``x_i`` is needed for every card opened (section 4.3 of
protocol/sealed-decks.md), so a seat that is gone for good stalls the deck.  With
escrow, the seats still at the table can rebuild a leaver's secret together,
and no fewer of them can.

How it works: the dealer ``i`` of ``n`` seats draws a polynomial of degree
``n - 2`` over the scalars, ``f(z) = x_i + a_1·z + … + a_{n-2}·z^{n-2}``, and
publishes its Feldman commitments ``A_k = a_k·G``.  ``A_0`` is not sent: it is
the deck key ``K_i = x_i·G`` that the genesis already holds, so the escrow is
bound to the very secret behind the deck key.  Holder ``j`` (every seat but
``i``) gets the share ``s_j = f(j + 1)`` (x-coordinates are seat + 1, never 0),
encrypted to its own deck key with hashed ElGamal: the dealer draws ``e``, sends
``E = e·G`` and ``s_j + H(context, i, j, E, e·K_j) mod N``; the holder removes
the pad with ``x_j·E``.  A share is right when ``s_j·G = K_i + Σ (j+1)^k·A_k``,
which the holder checks on arrival and anyone checks once the share is public.

* ``n - 1`` shares (all the other seats) determine ``f`` and so ``x_i``; any
  ``n - 2`` of them say nothing about it (Shamir).  That is the coalition bound:
  every other seat together could read a hand, where without escrow it takes
  every seat.  With two seats there is no escrow (the one holder would hold the
  secret itself).
* A holder whose share fails complains with ``S = x_j·E`` and a DLEQ proof that
  ``S`` is its key's multiple of ``E``: anyone can then remove the pad and
  judge.  A bad share names the dealer; a good one names the complainer.
* Once a holder's own secret is public (it left, and was rebuilt), its shares of
  everyone else's secret are readable by anyone (``x_j·E`` is then public), so
  a second leaver can be rebuilt after the first.

Randomness is an argument, as everywhere in this package; live play takes it
from the seat's ``sealed_rand`` stream, so a resumed seat escrows the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.group import (
    GroupError,
    N,
    Point,
    Rand,
    base_mul,
    decode_point,
    decode_scalar,
    hash_to_scalar,
    point_sum,
    random_scalar,
    scalar_bytes,
)
from p2ptable.sealed.proofs import Context, SigmaProof, prove_dleq, verify_dleq

MIN_SEATS = 3  # two seats: the one holder would hold the secret itself


def holders(seats: int, dealer: int) -> tuple[int, ...]:
    """The seats that hold a share of ``dealer``'s secret: every other seat."""
    return tuple(j for j in range(seats) if j != dealer)


def _x(seat: int) -> int:
    return seat + 1


@dataclass(frozen=True)
class EncryptedShare:
    """One holder's share, padded with a hash of ``e·K_holder``."""

    holder: int
    ephemeral: Point  # E = e·G
    masked: int  # s + pad mod N

    def to_value(self) -> list[Any]:
        return [self.holder, self.ephemeral.to_bytes(), scalar_bytes(self.masked)]


@dataclass(frozen=True)
class EscrowMessage:
    """A dealer's escrow: the commitments ``A_1 … A_{n-2}`` and a share per holder."""

    seat: int
    commitments: tuple[Point, ...]
    shares: tuple[EncryptedShare, ...]

    def to_value(self) -> dict[str, Any]:
        return {
            "commitments": [a.to_bytes() for a in self.commitments],
            "seat": self.seat,
            "shares": [s.to_value() for s in self.shares],
            "t": "sealed-escrow",
        }

    def share_for(self, holder: int) -> EncryptedShare:
        for share in self.shares:
            if share.holder == holder:
                return share
        raise SealedDeckError(self.seat, f"escrow has no share for seat {holder}")


def decode_escrow(value: object, seats: int, dealer: int) -> EscrowMessage:
    """An escrow message from the network or a log, shape checked for ``seats``
    seats; anything else is a :class:`SealedDeckError` naming the dealer."""
    try:
        if type(value) is not dict or set(value) != {"commitments", "seat", "shares", "t"}:
            raise GroupError("an escrow is a map of commitments, seat, shares and t")
        if value["t"] != "sealed-escrow" or value["seat"] != dealer:
            raise GroupError(f"not seat {dealer}'s escrow")
        raw_commitments, raw_shares = value["commitments"], value["shares"]
        if type(raw_commitments) is not list or len(raw_commitments) != seats - 2:
            raise GroupError(f"an escrow among {seats} seats has {seats - 2} commitments")
        if type(raw_shares) is not list or len(raw_shares) != seats - 1:
            raise GroupError(f"an escrow among {seats} seats has {seats - 1} shares")
        commitments = tuple(decode_point(_bytes(a)) for a in raw_commitments)
        shares: list[EncryptedShare] = []
        for holder, raw in zip(holders(seats, dealer), raw_shares, strict=True):
            if type(raw) is not list or len(raw) != 3 or raw[0] != holder:
                raise GroupError(f"share {len(shares)} is not [seat {holder}, E, masked]")
            shares.append(
                EncryptedShare(holder, decode_point(_bytes(raw[1])), decode_scalar(_bytes(raw[2])))
            )
    except GroupError as exc:
        raise SealedDeckError(dealer, f"malformed escrow: {exc}") from None
    return EscrowMessage(dealer, commitments, tuple(shares))


def _bytes(value: object) -> bytes:
    if type(value) is not bytes:
        raise GroupError("expected bytes")
    return value


def _pad(context: Context, dealer: int, holder: int, ephemeral: Point, shared: Point) -> int:
    return hash_to_scalar("escrow-pad", list(context), dealer, holder, ephemeral, shared)


def _evaluate(coefficients: Sequence[int], x: int) -> int:
    value = 0
    for a in reversed(coefficients):
        value = (value * x + a) % N
    return value


def make_escrow(
    context: Context, dealer: int, secret: int, keys: Sequence[Point], rand: Rand
) -> EscrowMessage:
    """Seat ``dealer``'s escrow of ``secret`` (behind ``keys[dealer]``) to every
    other seat, each share encrypted to that seat's deck key."""
    if len(keys) < MIN_SEATS:
        raise ValueError(f"escrow needs at least {MIN_SEATS} seats")
    if base_mul(secret) != keys[dealer]:
        raise ValueError(f"that is not the secret of seat {dealer}")
    coefficients = [secret] + [random_scalar(rand) for _ in range(len(keys) - 2)]
    shares = []
    for holder in holders(len(keys), dealer):
        e = random_scalar(rand)
        ephemeral = base_mul(e)
        pad = _pad(context, dealer, holder, ephemeral, e * keys[holder])
        value = _evaluate(coefficients, _x(holder))
        shares.append(EncryptedShare(holder, ephemeral, (value + pad) % N))
    commitments = tuple(base_mul(a) for a in coefficients[1:])
    return EscrowMessage(dealer, commitments, tuple(shares))


def expected_point(key: Point, msg: EscrowMessage, holder: int) -> Point:
    """``f(holder + 1)·G`` from the commitments: what a right share times ``G`` is."""
    x = _x(holder)
    terms = [key]
    power = 1
    for a in msg.commitments:
        power = power * x % N
        terms.append(power * a)
    return point_sum(terms)


def share_is_right(key: Point, msg: EscrowMessage, holder: int, share: int) -> bool:
    """Whether ``share`` is the holder's point of the committed polynomial."""
    return 0 <= share < N and base_mul(share) == expected_point(key, msg, holder)


def unmask(context: Context, msg: EscrowMessage, holder: int, shared: Point) -> int:
    """The share of ``holder`` given ``shared = x_holder·E`` (the holder's, or
    anyone's once it is public)."""
    enc = msg.share_for(holder)
    return (enc.masked - _pad(context, msg.seat, holder, enc.ephemeral, shared)) % N


def open_share(context: Context, msg: EscrowMessage, holder: int, holder_secret: int) -> int:
    """The holder's share, decrypted with its own deck secret."""
    return unmask(context, msg, holder, holder_secret * msg.share_for(holder).ephemeral)


@dataclass(frozen=True)
class Complaint:
    """A holder's claim that its share is wrong: ``x_holder·E`` and a DLEQ proof."""

    dealer: int
    holder: int
    shared: Point
    proof: SigmaProof

    def to_value(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "holder": self.holder,
            "proof": self.proof.to_value(),
            "shared": self.shared.to_bytes(),
            "t": "sealed-complaint",
        }


def _complaint_context(context: Context, dealer: int) -> list[Any]:
    return [*context, "complaint", dealer]


def make_complaint(
    context: Context, msg: EscrowMessage, holder: int, holder_secret: int, rand: Rand
) -> Complaint:
    """The complaint ``holder`` makes when its share fails the commitments."""
    ephemeral = msg.share_for(holder).ephemeral
    shared = holder_secret * ephemeral
    proof = prove_dleq(
        _complaint_context(context, msg.seat),
        holder_secret,
        base_mul(holder_secret),
        ephemeral,
        shared,
        rand,
    )
    return Complaint(msg.seat, holder, shared, proof)


def judge_complaint(
    context: Context, keys: Sequence[Point], msg: EscrowMessage, complaint: Complaint
) -> int:
    """The seat at fault: the dealer when the complaint proves its share wrong,
    the complainer when the share was right or the complaint proves nothing."""
    ephemeral = msg.share_for(complaint.holder).ephemeral
    proved = verify_dleq(
        _complaint_context(context, msg.seat),
        keys[complaint.holder],
        ephemeral,
        complaint.shared,
        complaint.proof,
    )
    if not proved:
        return complaint.holder
    share = unmask(context, msg, complaint.holder, complaint.shared)
    return (
        complaint.holder
        if share_is_right(keys[msg.seat], msg, complaint.holder, share)
        else msg.seat
    )


def rebuild(key: Point, msg: EscrowMessage, shares: Mapping[int, int]) -> int:
    """The dealer's secret from every holder's share (Lagrange at 0).  A share
    that fails the commitments is a :class:`SealedDeckError` naming its holder;
    a missing one is a ValueError (the caller waits, or names the withholder)."""
    needed = [enc.holder for enc in msg.shares]
    missing = [h for h in needed if h not in shares]
    if missing:
        raise ValueError(f"shares of seat {msg.seat}'s secret missing from seats {missing}")
    for holder in needed:
        if not share_is_right(key, msg, holder, shares[holder]):
            raise SealedDeckError(holder, f"its share of seat {msg.seat}'s secret is false")
    secret = interpolate_at_zero({holder: shares[holder] for holder in needed})
    if base_mul(secret) != key:  # unreachable when every share is right
        raise SealedDeckError(msg.seat, "its escrow does not rebuild its deck key")
    return secret


def interpolate_at_zero(shares: Mapping[int, int]) -> int:
    """``f(0)`` of the polynomial of degree ``len(shares) - 1`` through each
    holder's share (at x = holder + 1)."""
    value = 0
    for holder, share in shares.items():
        xj = _x(holder)
        num, den = 1, 1
        for other in shares:
            if other != holder:
                num = num * _x(other) % N
                den = den * (_x(other) - xj) % N
        value = (value + share * num * pow(den, -1, N)) % N
    return value
