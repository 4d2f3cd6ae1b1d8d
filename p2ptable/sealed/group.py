"""The prime-order group under the sealed decks: secp256k1 through libsecp256k1.

How it works: a :class:`Point` wraps a parsed coincurve ``PublicKey`` (or nothing,
for the identity).  The group has prime order ``N`` and cofactor 1, so a point that
parses is in the group: :func:`decode_point` accepts exactly the 33-byte SEC1
compressed encodings of points on the curve (prefix 02/03, x below the field
prime) and nothing else, which is the whole validation a received point needs.
The identity has no encoding: it can come up inside a computation (and is handled
there) but can never be sent, so a message holding it cannot even be decoded.

Scalars are Python ints modulo ``N``, sent as 32 bytes big endian below ``N``.
Hashes are domain separated: ``hash_to_scalar(label, ...)`` is SHA-512 of
``"p2ptable/sealed/v1/" || label || 0x00 || pack([...])`` reduced modulo ``N``, and
``hash_to_point`` is try-and-increment over SHA-256, so nobody knows the discrete
log of any hashed point (the shuffle generators, the card points) to ``G``.

Randomness is always an argument: a ``Rand`` is any ``f(n) -> n bytes`` such as
``os.urandom``; :class:`SeededRandom` is a deterministic one for tests and vectors.
Why secp256k1 and not libsodium's Ed25519: see protocol/sealed-decks.md section 2.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from coincurve import PublicKey

from p2ptable.crypto.encoding import pack

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
DOMAIN = b"p2ptable/sealed/v1/"
POINT_LEN = 33
SCALAR_LEN = 32

Rand = Callable[[int], bytes]


class GroupError(ValueError):
    """Bytes that are not a valid point or scalar, or the identity where it can't be."""


class Point:
    """A group element; immutable.  ``+``, ``-``, unary ``-`` and ``int * Point``."""

    __slots__ = ("_pk", "_enc")

    def __init__(self, pk: PublicKey | None, enc: bytes | None = None) -> None:
        self._pk = pk
        self._enc = enc

    @property
    def is_identity(self) -> bool:
        return self._pk is None

    def to_bytes(self) -> bytes:
        """The 33-byte compressed encoding; the identity has none."""
        if self._enc is None:
            if self._pk is None:
                raise GroupError("the identity has no encoding")
            self._enc = self._pk.format()
        return self._enc

    def __add__(self, other: Point) -> Point:
        if self._pk is None:
            return other
        if other._pk is None:
            return self
        return point_sum((self, other))

    def __neg__(self) -> Point:
        if self._pk is None:
            return self
        enc = self.to_bytes()
        return decode_point(bytes((enc[0] ^ 1,)) + enc[1:])

    def __sub__(self, other: Point) -> Point:
        return self + (-other)

    def __rmul__(self, k: int) -> Point:
        k %= N
        if k == 0 or self._pk is None:
            return IDENTITY
        if self is G:  # the precomputed table is 40% faster than the ladder
            return base_mul(k)
        # tweak_mul is libsecp256k1's constant-time ladder: safe with secret scalars.
        return Point(self._pk.multiply(k.to_bytes(32, "big")))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        if self._pk is None or other._pk is None:
            return self._pk is other._pk
        return self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes() if self._pk is not None else b"")

    def __repr__(self) -> str:
        return "Point(identity)" if self._pk is None else f"Point({self.to_bytes().hex()[:16]}…)"


IDENTITY = Point(None)


def decode_point(data: bytes) -> Point:
    """Parse a received point: exactly 33 bytes, compressed, on the curve."""
    if type(data) is not bytes or len(data) != POINT_LEN or data[0] not in (2, 3):
        raise GroupError("a point must be 33 bytes, SEC1 compressed")
    try:
        return Point(PublicKey(data), data)
    except ValueError:
        raise GroupError("not a point of the group") from None


def decode_scalar(data: bytes) -> int:
    """Parse a received scalar: exactly 32 bytes big endian, below ``N``."""
    if type(data) is not bytes or len(data) != SCALAR_LEN:
        raise GroupError("a scalar must be 32 bytes")
    k = int.from_bytes(data, "big")
    if k >= N:
        raise GroupError("scalar out of range")
    return k


def scalar_bytes(k: int) -> bytes:
    return (k % N).to_bytes(SCALAR_LEN, "big")


def base_mul(k: int) -> Point:
    """``k·G`` (constant time in ``k``)."""
    k %= N
    if k == 0:
        return IDENTITY
    return Point(PublicKey.from_valid_secret(k.to_bytes(32, "big")))


def point_sum(points: Iterable[Point]) -> Point:
    """The sum of many points in one call into libsecp256k1."""
    keys = [p._pk for p in points if p._pk is not None]
    if not keys:
        return IDENTITY
    if len(keys) == 1:
        return Point(keys[0])
    try:
        return Point(PublicKey.combine_keys(keys))
    except ValueError:  # the sum is the identity
        return IDENTITY


G = decode_point(
    bytes.fromhex("0279BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798")
)


def _wire(value: Any) -> Any:
    """Transcript values: points become their encodings, sequences lists."""
    if isinstance(value, Point):
        return value.to_bytes()
    if isinstance(value, (list, tuple)):
        return [_wire(v) for v in value]
    return value


def transcript(label: str, parts: Sequence[Any]) -> bytes:
    """The domain-separated bytes every hash of this package is taken over."""
    return DOMAIN + label.encode() + b"\x00" + pack(_wire(list(parts)))


def hash_to_scalar(label: str, *parts: Any) -> int:
    """SHA-512 of the transcript, modulo ``N`` (bias below 2^-256)."""
    return int.from_bytes(hashlib.sha512(transcript(label, parts)).digest(), "big") % N


@lru_cache(maxsize=4096)
def hash_to_point(label: str, *parts: Any) -> Point:
    """Try-and-increment: the first counter whose SHA-256 is the x of a point (even y)."""
    for counter in range(1 << 16):
        x = hashlib.sha256(transcript(label, (*parts, counter))).digest()
        if int.from_bytes(x, "big") < P:
            try:
                return decode_point(b"\x02" + x)
            except GroupError:
                continue
    raise AssertionError("unreachable: half of all x are on the curve")  # pragma: no cover


def random_scalar(rand: Rand) -> int:
    """A uniform nonzero scalar from 64 random bytes."""
    while True:
        k = int.from_bytes(rand(64), "big") % N
        if k:
            return k


def random_below(bound: int, rand: Rand) -> int:
    """Uniform in ``[0, bound)`` by rejection sampling 64-bit words."""
    limit = (1 << 64) - (1 << 64) % bound
    while True:
        word = int.from_bytes(rand(8), "big")
        if word < limit:
            return word % bound


def random_permutation(n: int, rand: Rand) -> tuple[int, ...]:
    """Fisher–Yates with unbiased indices."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = random_below(i + 1, rand)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


class SeededRandom:
    """Deterministic bytes: SHA-512(seed || u64be(block)) blocks.

    Tests give it a fixed seed.  Live play uses it only keyed by a seat's deck
    secret (``replay.sealed_book.sealed_rand``), as Ed25519 derives its nonces;
    never seed it with anything another seat could know."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._block = 0
        self._buffer = b""

    def __call__(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._buffer += hashlib.sha512(self._seed + self._block.to_bytes(8, "big")).digest()
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out
