"""Re-encryption shuffle with a Terelius–Wikström proof (as in Verificatum).

How it works: the shuffler outputs ``w'_j = w_{σ(j)} + (s_j·G, s_j·K)`` for a secret
permutation ``σ`` (output ``j`` holds input ``σ(j)``) and secret ``s_j``, and proves
it without revealing ``σ`` or ``s``:

1. Commit to the permutation matrix: ``u_i = r_i·G + h_{π(i)}``, ``π = σ⁻¹``, where
   ``h_0 .. h_{n-1}`` are independent generators from hash-to-curve.
2. Challenges ``e_i`` from the hash of everything so far.  Let ``e'_j = e_{σ(j)}``.
   ``Σ e_i·u_i`` is then a commitment to ``e'`` with randomness ``⟨r, e⟩``.
3. A chain ``ĉ_j = r̂_j·G + e'_j·ĉ_{j-1}`` from ``ĉ_{-1} = h̄`` commits to the
   running products, so ``ĉ_{n-1} = R̂·G + (Π e_i)·h̄``.
4. One sigma protocol (challenge ``v``) proves knowledge of openings with
   ``Σu − Σh = r̄·G`` (each input used once in all), ``ĉ_{n-1} − (Πe)·h̄ = R̂·G``
   (the committed ``e'`` has the product of ``e``), ``Σ e_i·u_i = r̃·G + Σ e'_j·h_j``
   and ``Σ e_i·w_i = Σ e'_j·w'_j − (s̄·G, s̄·K)``.  By Schwartz–Zippel over ``e``
   and ``v``, a prover that passes knows a permutation and the re-encryption
   randomness, except with probability about ``n/N``.

The verifier checks the five kinds of equation in turn and says which failed.
The chain's ``n`` equations are first checked as one random linear combination
(``_chain_batch_holds``: coefficients of 128 bits from the CSPRNG, each ``ĉ_j``
and ``G`` multiplied once); only if it fails are they checked one by one, so the
reason names the failing position exactly as before.  Its cost is about ``8n``
scalar multiplications; a shuffle that passed is remembered
(``proofs.KNOWN_GOOD``), so checking it again costs a hash.  Batching the other
equations would save only their terms in ``G``: libsecp256k1 exposes no
multi-scalar multiplication, so every other point costs its own multiplication
either way.
See protocol/sealed-decks.md section 6.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from p2ptable.sealed.elgamal import Ciphertext, reencrypt
from p2ptable.sealed.group import (
    G,
    GroupError,
    N,
    Point,
    Rand,
    base_mul,
    decode_point,
    decode_scalar,
    hash_to_point,
    hash_to_scalar,
    mul_add_base,
    point_sum,
    random_permutation,
    random_scalar,
    scalar_bytes,
    transcript,
)
from p2ptable.sealed.proofs import KNOWN_GOOD, Context, KnownGood

#: Set by ``deferred.shuffle_checks_deferred``: where a check is sent instead of made.
DEFER: Callable[..., None] | None = None


@lru_cache(maxsize=16)
def generators(n: int) -> tuple[Point, ...]:
    """``h_0 .. h_{n-1}``: nobody knows a relation between them and ``G``."""
    return tuple(hash_to_point("shuffle-generator", j) for j in range(n))


@lru_cache(maxsize=16)
def _generator_sum(n: int) -> Point:
    return point_sum(generators(n))


def chain_base() -> Point:
    """``h̄``, the start of the commitment chain."""
    return hash_to_point("shuffle-chain-base")


@dataclass(frozen=True)
class ShuffleProof:
    u: tuple[Point, ...]  # permutation commitment, one per input
    c_hat: tuple[Point, ...]  # commitment chain, one per output
    t: tuple[Point, ...]  # t1, t2, t3, t4a, t4b
    t_hat: tuple[Point, ...]
    k: tuple[int, ...]  # kA, kC, kD, kF
    k_b: tuple[int, ...]
    k_e: tuple[int, ...]

    def to_value(self) -> dict[str, list[bytes]]:
        def pts(ps: Iterable[Point]) -> list[bytes]:
            return [p.to_bytes() for p in ps]

        def scs(ks: Iterable[int]) -> list[bytes]:
            return [scalar_bytes(k) for k in ks]

        return {
            "c": pts(self.c_hat),
            "k": scs(self.k),
            "kb": scs(self.k_b),
            "ke": scs(self.k_e),
            "t": pts(self.t),
            "th": pts(self.t_hat),
            "u": pts(self.u),
        }

    @classmethod
    def from_value(cls, value: object, n: int) -> ShuffleProof:
        """Decode a proof for ``n`` cards; raises :class:`GroupError` if malformed."""
        sizes = {"c": n, "k": 4, "kb": n, "ke": n, "t": 5, "th": n, "u": n}
        if type(value) is not dict or sorted(value) != sorted(sizes):
            raise GroupError("a shuffle proof has the fields c, k, kb, ke, t, th, u")
        for name, size in sizes.items():
            if type(value[name]) is not list or len(value[name]) != size:
                raise GroupError(f"shuffle proof field {name} must have {size} items")
        fields: dict[str, list[Any]] = value  # a map of lists, checked just above

        def pts(name: str) -> tuple[Point, ...]:
            return tuple(decode_point(v) for v in fields[name])

        def scs(name: str) -> tuple[int, ...]:
            return tuple(decode_scalar(v) for v in fields[name])

        return cls(pts("u"), pts("c"), pts("t"), pts("th"), scs("k"), scs("kb"), scs("ke"))


def _challenges(
    context: Context,
    key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    u: Sequence[Point],
) -> tuple[bytes, tuple[int, ...]]:
    statement = [[ct.a, ct.b] for ct in inputs], [[ct.a, ct.b] for ct in outputs]
    data = transcript("shuffle-seed", [list(context), key, *statement, list(u)])
    seed = hashlib.sha512(data).digest()
    e = tuple(hash_to_scalar("shuffle-e", seed, i) for i in range(len(inputs)))
    return seed, e


def _v(seed: bytes, c_hat: Sequence[Point], t: Sequence[Point], t_hat: Sequence[Point]) -> int:
    return hash_to_scalar("shuffle-v", seed, list(c_hat), list(t), list(t_hat))


def prove_shuffle(
    context: Context,
    key: Point,
    inputs: Sequence[Ciphertext],
    rand: Rand,
    perm: Sequence[int] | None = None,
) -> tuple[tuple[Ciphertext, ...], ShuffleProof]:
    """Shuffle ``inputs`` under ``key``: output ``j`` is a re-encryption of ``inputs[perm[j]]``."""
    n = len(inputs)
    perm = tuple(perm) if perm is not None else random_permutation(n, rand)
    if sorted(perm) != list(range(n)):
        raise ValueError("perm is not a permutation of the inputs")
    s = [random_scalar(rand) for _ in range(n)]
    outputs = tuple(reencrypt(inputs[perm[j]], key, s[j]) for j in range(n))
    pi = [0] * n
    for j, i in enumerate(perm):
        pi[i] = j
    h = generators(n)
    r = [random_scalar(rand) for _ in range(n)]
    u = tuple(point_sum((base_mul(r[i]), h[pi[i]])) for i in range(n))
    seed, e = _challenges(context, key, inputs, outputs, u)
    e_out = [e[perm[j]] for j in range(n)]

    r_hat = [random_scalar(rand) for _ in range(n)]
    c_hat, prev, r_chain = [], chain_base(), 0
    for j in range(n):
        prev = point_sum((base_mul(r_hat[j]), e_out[j] * prev))
        c_hat.append(prev)
        r_chain = (r_chain * e_out[j] + r_hat[j]) % N
    r_sum = sum(r) % N
    r_dot = sum(ri * ei for ri, ei in zip(r, e, strict=True)) % N
    s_dot = sum(ej * sj for ej, sj in zip(e_out, s, strict=True)) % N

    w1, w2, w3, w4 = (random_scalar(rand) for _ in range(4))
    w_hat = [random_scalar(rand) for _ in range(n)]
    w_e = [random_scalar(rand) for _ in range(n)]
    t = (
        base_mul(w1),
        base_mul(w2),
        point_sum([base_mul(w3), *(w * hj for w, hj in zip(w_e, h, strict=True))]),
        point_sum([(-w4) * G, *(w * ct.a for w, ct in zip(w_e, outputs, strict=True))]),
        point_sum([(-w4) * key, *(w * ct.b for w, ct in zip(w_e, outputs, strict=True))]),
    )
    chain_prev = [chain_base(), *c_hat[:-1]]
    t_hat = tuple(point_sum((base_mul(w_hat[j]), w_e[j] * chain_prev[j])) for j in range(n))
    v = _v(seed, c_hat, t, t_hat)
    k = ((w3 + v * r_dot) % N, (w1 + v * r_sum) % N, (w2 + v * r_chain) % N, (w4 + v * s_dot) % N)
    k_b = tuple((w_hat[j] + v * r_hat[j]) % N for j in range(n))
    k_e = tuple((w_e[j] + v * e_out[j]) % N for j in range(n))
    return outputs, ShuffleProof(u, tuple(c_hat), t, t_hat, k, k_b, k_e)


def verify_shuffle(
    context: Context,
    key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
) -> str | None:
    """None if the proof holds, else which part of it fails."""
    n = len(inputs)
    if len(outputs) != n:
        return f"{len(outputs)} cards out of a shuffle of {n}"
    if not (len(proof.u) == len(proof.c_hat) == len(proof.t_hat) == n):
        return "proof vectors do not match the deck size"
    if len(proof.k_b) != n or len(proof.k_e) != n or len(proof.t) != 5 or len(proof.k) != 4:
        return "proof vectors do not match the deck size"
    if n == 0:
        return None
    try:
        points = [key, *(p for ct in (*inputs, *outputs) for p in (ct.a, ct.b))]
        points += [*proof.u, *proof.c_hat, *proof.t, *proof.t_hat]
        scalars = (*proof.k, *proof.k_b, *proof.k_e)
        fingerprint = KnownGood.fingerprint("shuffle", context, points, scalars)
    except GroupError:  # an identity among the inputs: checked the long way, never kept
        return _verify(context, key, inputs, outputs, proof)
    if fingerprint in KNOWN_GOOD:
        return None
    if DEFER is not None:  # checked in a worker; a failure there starts again (deferred.py)
        DEFER(fingerprint, context, key, inputs, outputs, proof)
        return None
    reason = _verify(context, key, inputs, outputs, proof)
    if reason is None:
        KNOWN_GOOD.add(fingerprint)
    return reason


def _verify(
    context: Context,
    key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
) -> str | None:
    n = len(inputs)
    h = generators(n)
    try:
        seed, e = _challenges(context, key, inputs, outputs, proof.u)
        v = _v(seed, proof.c_hat, proof.t, proof.t_hat)
    except GroupError:  # only a computed identity can get here; never honest
        return "proof holds the identity"
    t1, t2, t3, t4a, t4b = proof.t
    k_a, k_c, k_d, k_f = proof.k
    ve = [v * ei % N for ei in e]

    # v·(Σu − Σh) + t1 = kC·G: the committed matrix has one 1 per row in all.
    if not _zero([mul_add_base(v, point_sum(proof.u), -k_c), (-v) * _generator_sum(n), t1]):
        return "permutation commitment does not open to one card per position"
    # v·(ĉ_{n-1} − (Πe)·h̄) + t2 = kD·G: the committed e' has the product of e.
    e_prod = _prod_mod(e)
    if not _zero([mul_add_base(v, proof.c_hat[-1], -k_d), (-v * e_prod) * chain_base(), t2]):
        return "commitment chain does not end in the product of the challenges"
    # v·Σ e_i·u_i + t3 = kA·G + Σ kE_j·h_j: u commits to a permutation of e.
    terms = [mul_add_base(ve[0], proof.u[0], -k_a)]
    terms += [x * ui for x, ui in zip(ve[1:], proof.u[1:], strict=True)]
    terms += [t3, *((-k) * hj for k, hj in zip(proof.k_e, h, strict=True))]
    if not _zero(terms):
        return "permutation commitment does not match the challenges"
    # v·Σ e_i·w_i + t4 = Σ kE_j·w'_j − kF·(G, K): the outputs re-encrypt the inputs.
    for part, t4, base in (("a", t4a, G), ("b", t4b, key)):
        terms = [x * getattr(ct, part) for x, ct in zip(ve, inputs, strict=True)]
        terms += [
            t4,
            k_f * base,
            *((-k) * getattr(ct, part) for k, ct in zip(proof.k_e, outputs, strict=True)),
        ]
        if not _zero(terms):
            return "outputs are not a re-encryption of a permutation of the inputs"
    # v·ĉ_j + t̂_j = kB_j·G + kE_j·ĉ_{j-1}: the chain multiplies in e'_j one by one.
    # The n equations are checked at once first (``_chain_batch_holds``); only if
    # the batch fails are they checked one by one, to name the failing position.
    if _chain_batch_holds(v, proof):
        return None
    prev = chain_base()
    for j in range(n):
        c_j = proof.c_hat[j]
        if not _zero([mul_add_base(v, c_j, -proof.k_b[j]), proof.t_hat[j], (-proof.k_e[j]) * prev]):
            return f"commitment chain fails at position {j}"
        prev = c_j
    return None


def _chain_batch_holds(v: int, proof: ShuffleProof) -> bool:
    """The chain's n equations ``v·ĉ_j + t̂_j − kB_j·G − kE_j·ĉ_{j-1} = 0`` as one.

    Each equation is multiplied by a random 128-bit ``ρ_j`` from the operating
    system's CSPRNG (never derived from the proof, so a prover cannot aim at them)
    and the sum checked: if any equation fails, the sum is zero with probability
    at most ``2^-128``.  In the sum each ``ĉ_j`` appears once, with
    ``ρ_j·v − ρ_{j+1}·kE_{j+1}``, and ``G`` once, with ``−Σ ρ_j·kB_j``; so ``n``
    double multiplications and ``n`` multiplications become ``2n`` multiplications,
    half of them by 128-bit scalars, and one double multiplication.  True means
    every equation holds (but for that chance); False only that one fails, which
    the caller then finds one by one.
    """
    n = len(proof.c_hat)
    rho = [secrets.randbits(128) | 1 for _ in range(n)]
    k_e, k_b = proof.k_e, proof.k_b
    g = -sum(r * kb for r, kb in zip(rho, k_b, strict=True))
    terms = [mul_add_base(rho[-1] * v, proof.c_hat[-1], g)]
    terms += [(rho[j] * v - rho[j + 1] * k_e[j + 1]) * proof.c_hat[j] for j in range(n - 1)]
    terms.append((-rho[0] * k_e[0]) * chain_base())
    terms += [r * t for r, t in zip(rho, proof.t_hat, strict=True)]
    return _zero(terms)


def _zero(terms: list[Point]) -> bool:
    return point_sum(terms).is_identity


def _prod_mod(values: Sequence[int]) -> int:
    out = 1
    for x in values:
        out = out * x % N
    return out
