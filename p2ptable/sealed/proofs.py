"""Non-interactive sigma proofs: Schnorr, Chaum–Pedersen (DLEQ), re-encryption to a key.

How it works: each proof is a three-move sigma protocol made non-interactive with
Fiat–Shamir.  The prover picks random nonces, computes commitments ``T``, takes the
challenge ``c = hash_to_scalar(label, context, statement, T)`` and answers
``z = nonce + c·witness``.  A proof travels as ``(c, z...)``: the verifier
recomputes each ``T`` from the equation ``z·Base − c·Public`` and accepts if the
hash gives back ``c``.  ``context`` is always ``[game_id, step, seat, purpose,
items]``, so a proof made for one game, step, seat, card or purpose is worthless
for any other.  The statement holds every public point of the claim, so nothing
the proof speaks about can be swapped afterwards.

The three statements (``x`` and ``s`` are the witnesses):

* key (Schnorr): ``K = x·G``;
* share (DLEQ): ``K = x·G`` and ``D = x·A`` (one secret, two bases);
* transfer: ``K_from = x·G``, ``A' = s·G`` and ``B − B' = x·A − s·K_to``, i.e.
  ``(A', B')`` encrypts under ``K_to`` the plaintext ``B − x·A`` of ``(A, B)``.

A recomputed commitment that is the identity makes the proof fail: honest nonces
never give one, and the identity has no encoding to hash.

A proof that verified is remembered by a hash of its label, context, statement
and answer (:class:`KnownGood`): the same check again (a decryption share checked
when its part arrives and again when the open is appended, every proof of a log
in ``verify``'s second pass) is a lookup.  Only proofs that passed are stored, and
the hash covers everything the verification reads, so a lookup answers exactly
what the arithmetic would.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from p2ptable.crypto.memo import remember
from p2ptable.sealed.elgamal import Ciphertext
from p2ptable.sealed.group import (
    G,
    GroupError,
    N,
    Point,
    Rand,
    base_mul,
    decode_scalar,
    hash_to_scalar,
    mul_add_base,
    point_sum,
    random_scalar,
    scalar_bytes,
    transcript,
)

Context = Sequence[Any]


class KnownGood:
    """Fingerprints of checks that passed in this process, the oldest dropped first."""

    def __init__(self, limit: int) -> None:
        self._seen: dict[bytes, None] = {}
        self._limit = limit

    @staticmethod
    def fingerprint(label: str, context: Context, points: Sequence[Point], scalars: Any) -> bytes:
        """What a check reads: its kind, context, points (33 bytes each, so their
        count and order are unambiguous) and scalars (32 bytes each)."""
        h = hashlib.sha256(transcript("known-good/" + label, [list(context), len(points)]))
        h.update(b"".join([p.to_bytes() for p in points]))
        h.update(b"".join([scalar_bytes(k) for k in scalars]))
        return h.digest()

    def __contains__(self, fingerprint: bytes) -> bool:
        return fingerprint in self._seen

    def add(self, fingerprint: bytes) -> None:
        remember(self._seen, fingerprint, None, self._limit)  # every thread's

    def clear(self) -> None:
        self._seen.clear()


# A deal of 42 cards at six seats is 210 share proofs, each checked twice.
KNOWN_GOOD = KnownGood(8192)


def _checked(
    label: str, context: Context, points: list[Point], proof: SigmaProof, holds: Any
) -> bool:
    """``holds()``, or True at once if this very proof of this statement held before."""
    try:
        fingerprint = KnownGood.fingerprint(label, context, points, (proof.c, *proof.z))
    except GroupError:  # an identity in the statement: never remembered, never honest
        return bool(holds())
    if fingerprint in KNOWN_GOOD:
        return True
    if not holds():
        return False
    KNOWN_GOOD.add(fingerprint)
    return True


@dataclass(frozen=True)
class SigmaProof:
    """A Fiat–Shamir proof in challenge/response form."""

    c: int
    z: tuple[int, ...]

    def to_value(self) -> list[bytes]:
        return [scalar_bytes(self.c), *(scalar_bytes(z) for z in self.z)]

    @classmethod
    def from_value(cls, value: object, responses: int) -> SigmaProof:
        """Decode ``[c, z_1 .. z_k]`` (32-byte scalars); raises :class:`GroupError`."""
        if type(value) is not list or len(value) != 1 + responses:
            raise GroupError(f"a proof is a list of {1 + responses} scalars")
        c, *z = (decode_scalar(v) for v in value)
        return cls(c, tuple(z))


def _challenge(
    label: str, context: Context, statement: list[Any], commitments: list[Any]
) -> int | None:
    try:
        return hash_to_scalar(label, list(context), statement, commitments)
    except GroupError:  # an identity commitment or statement point
        return None


def prove_key(context: Context, secret: int, rand: Rand) -> SigmaProof:
    """Proof of knowledge of ``secret`` for ``key = secret·G``."""
    key = base_mul(secret)
    k = random_scalar(rand)
    c = _challenge("schnorr", context, [G, key], [base_mul(k)])
    assert c is not None
    return SigmaProof(c, ((k + c * secret) % N,))


def verify_key(context: Context, key: Point, proof: SigmaProof) -> bool:
    (z,) = proof.z

    def holds() -> bool:
        t = mul_add_base(-proof.c, key, z)
        return _challenge("schnorr", context, [G, key], [t]) == proof.c

    return _checked("schnorr", context, [key], proof, holds)


def prove_dleq(
    context: Context, secret: int, key: Point, base: Point, share: Point, rand: Rand
) -> SigmaProof:
    """Proof that ``log_G key == log_base share`` (the share is ``secret·base``)."""
    k = random_scalar(rand)
    c = _challenge("dleq", context, [G, key, base, share], [base_mul(k), k * base])
    assert c is not None
    return SigmaProof(c, ((k + c * secret) % N,))


def verify_dleq(context: Context, key: Point, base: Point, share: Point, proof: SigmaProof) -> bool:
    (z,) = proof.z
    c = proof.c

    def holds() -> bool:
        t1 = mul_add_base(-c, key, z)
        t2 = point_sum((z * base, (-c) * share))
        return _challenge("dleq", context, [G, key, base, share], [t1, t2]) == c

    return _checked("dleq", context, [key, base, share], proof, holds)


def _transfer_statement(
    key_from: Point, ct_from: Ciphertext, key_to: Point, ct_to: Ciphertext
) -> list[Point]:
    return [G, key_from, ct_from.a, ct_from.b, key_to, ct_to.a, ct_to.b]


def prove_transfer(
    context: Context,
    secret: int,
    key_from: Point,
    ct_from: Ciphertext,
    key_to: Point,
    ct_to: Ciphertext,
    s: int,
    rand: Rand,
) -> SigmaProof:
    """Proof that ``ct_to = (s·G, M + s·key_to)`` with ``M = ct_from.b − secret·ct_from.a``."""
    a, b = random_scalar(rand), random_scalar(rand)
    commitments = [base_mul(a), base_mul(b), point_sum((a * ct_from.a, (-b) * key_to))]
    statement = _transfer_statement(key_from, ct_from, key_to, ct_to)
    c = _challenge("transfer", context, statement, commitments)
    assert c is not None
    return SigmaProof(c, ((a + c * secret) % N, (b + c * s) % N))


def verify_transfer(
    context: Context,
    key_from: Point,
    ct_from: Ciphertext,
    key_to: Point,
    ct_to: Ciphertext,
    proof: SigmaProof,
) -> bool:
    z1, z2 = proof.z
    c = proof.c
    statement = _transfer_statement(key_from, ct_from, key_to, ct_to)

    def holds() -> bool:
        t1 = mul_add_base(-c, key_from, z1)
        t2 = mul_add_base(-c, ct_to.a, z2)
        diff = ct_from.b - ct_to.b
        t3 = point_sum((z1 * ct_from.a, (-z2) * key_to, (-c) * diff))
        return _challenge("transfer", context, statement, [t1, t2, t3]) == c

    return _checked("transfer", context, statement, proof, holds)
