"""ElGamal on points with a joint key (Barnett–Smart), and the card points.

How it works: a card ``k`` is the point ``M_k = hash_to_point("card", k)``.  A
ciphertext under a key ``K`` is ``(A, B) = (r·G, M + r·K)``.  With the joint key
``K = Σ x_i·G`` nobody can decrypt alone: each seat contributes a decryption share
``x_i·A`` and ``M = B − Σ x_i·A``.  Re-encryption adds ``(s·G, s·K)``, which changes
every byte of the ciphertext and not its plaintext.

Taking the shares of some seats off a ciphertext (:func:`strip`) leaves a
ciphertext under the remaining seats' keys: after a private deal, where every
seat but the receiver publishes its share, the card sits in the receiver's hand
as ``(A, M + x_r·A)``, encrypted under ``x_r`` alone.

Identity handling: a trivial encryption would have ``A`` = identity, which has no
encoding.  :func:`trivial` uses the public randomness ``r = 1`` instead,
``(G, M + K)``; the first shuffle re-randomises it.  A plaintext is decoded by
looking its encoding up among the points of the cards that can be there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from p2ptable.sealed.group import (
    G,
    GroupError,
    Point,
    base_mul,
    decode_point,
    hash_to_point,
    point_sum,
)

MAX_CARD = (1 << 32) - 1


@dataclass(frozen=True)
class Ciphertext:
    """``(a, b) = (r·G, M + r·K)``."""

    a: Point
    b: Point

    def to_value(self) -> list[bytes]:
        return [self.a.to_bytes(), self.b.to_bytes()]

    @classmethod
    def from_value(cls, value: object) -> Ciphertext:
        """Decode ``[bin33, bin33]``; raises :class:`GroupError` if malformed."""
        if type(value) is not list or len(value) != 2:
            raise GroupError("a ciphertext is a list of two points")
        return cls(decode_point(value[0]), decode_point(value[1]))


@lru_cache(maxsize=8192)
def card_point(card: int) -> Point:
    """The plaintext point of card number ``card`` (0 .. 2^32-1)."""
    if type(card) is not int or not 0 <= card <= MAX_CARD:
        raise ValueError(f"card number out of range: {card!r}")
    return hash_to_point("card", card)


def card_table(cards: Iterable[int]) -> dict[bytes, int]:
    """Plaintext encoding -> card number, for decoding."""
    return {card_point(c).to_bytes(): c for c in cards}


def decode_card(m: Point, table: dict[bytes, int]) -> int | None:
    """The card whose point is ``m``, or None if it is none of them."""
    if m.is_identity:
        return None
    return table.get(m.to_bytes())


def public_key(secret: int) -> Point:
    return base_mul(secret)


def joint_key(keys: Iterable[Point]) -> Point:
    return point_sum(keys)


def encrypt(m: Point, key: Point, r: int) -> Ciphertext:
    return Ciphertext(base_mul(r), m + r * key)


def trivial(card: int, key: Point) -> Ciphertext:
    """Encryption with the public randomness 1: ``(G, M + K)``; no identity points."""
    return Ciphertext(G, card_point(card) + key)


def reencrypt(ct: Ciphertext, key: Point, s: int) -> Ciphertext:
    return Ciphertext(ct.a + base_mul(s), ct.b + s * key)


def share(secret: int, ct: Ciphertext) -> Point:
    """A decryption share ``x·A``."""
    return secret * ct.a


def strip(ct: Ciphertext, shares: Iterable[Point]) -> Ciphertext:
    """Take decryption shares off: ``(A, B − Σ d)``."""
    return Ciphertext(ct.a, ct.b - point_sum(shares))


def decrypt(ct: Ciphertext, secret: int) -> Point:
    """``B − x·A``: the plaintext if ``secret`` is the (remaining) key's secret."""
    return ct.b - secret * ct.a
