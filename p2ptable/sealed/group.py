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

from coincurve._libsecp256k1 import ffi, lib
from coincurve.context import GLOBAL_CONTEXT

from p2ptable.crypto.encoding import pack
from p2ptable.crypto.memo import remember

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
DOMAIN = b"p2ptable/sealed/v1/"
POINT_LEN = 33
SCALAR_LEN = 32

Rand = Callable[[int], bytes]

# libsecp256k1 is called directly through coincurve's bindings: its PublicKey
# wrapper costs a few microseconds of Python per operation (checks, copies, a
# new object), about a tenth of a scalar multiplication, and a shuffle proof is
# hundreds of them.  A point holds libsecp256k1's own 64-byte representation.
_CTX = GLOBAL_CONTEXT.ctx  # randomized (blinded) at import, as coincurve does
_COMPRESSED = lib.SECP256K1_EC_COMPRESSED
_new_pubkey = ffi.new
_RAW = "secp256k1_pubkey *"
_RECOVERABLE = "secp256k1_ecdsa_recoverable_signature *"
_ENC_BUF = "unsigned char[33]"


class GroupError(ValueError):
    """Bytes that are not a valid point or scalar, or the identity where it can't be."""


class Point:
    """A group element; immutable.  ``+``, ``-``, unary ``-`` and ``int * Point``."""

    __slots__ = ("_raw", "_enc")

    def __init__(self, raw: Any, enc: bytes | None = None) -> None:
        self._raw = raw  # a ``secp256k1_pubkey *``, or None for the identity
        self._enc = enc

    @property
    def is_identity(self) -> bool:
        return self._raw is None

    def to_bytes(self) -> bytes:
        """The 33-byte compressed encoding; the identity has none."""
        if self._enc is None:
            if self._raw is None:
                raise GroupError("the identity has no encoding")
            out = ffi.new(_ENC_BUF)
            size = ffi.new("size_t *", POINT_LEN)
            lib.secp256k1_ec_pubkey_serialize(_CTX, out, size, self._raw, _COMPRESSED)
            self._enc = bytes(out)
        return self._enc

    def __add__(self, other: Point) -> Point:
        if self._raw is None:
            return other
        if other._raw is None:
            return self
        return _combine([self._raw, other._raw])

    def __neg__(self) -> Point:
        if self._raw is None:
            return self
        raw = _new_pubkey(_RAW, self._raw[0])
        lib.secp256k1_ec_pubkey_negate(_CTX, raw)
        return Point(raw)

    def __sub__(self, other: Point) -> Point:
        return self + (-other)

    def __rmul__(self, k: int) -> Point:
        k %= N
        if k == 0 or self._raw is None:
            return IDENTITY
        if self is G:  # the precomputed table is 40% faster than the ladder
            return base_mul(k)
        # tweak_mul is libsecp256k1's constant-time ladder: safe with secret scalars.
        raw = _new_pubkey(_RAW, self._raw[0])
        lib.secp256k1_ec_pubkey_tweak_mul(_CTX, raw, k.to_bytes(32, "big"))
        return Point(raw)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        if self._raw is None or other._raw is None:
            return self._raw is other._raw
        return self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes() if self._raw is not None else b"")

    def __repr__(self) -> str:
        return "Point(identity)" if self._raw is None else f"Point({self.to_bytes().hex()[:16]}…)"


IDENTITY = Point(None)


# Points parsed lately, by their encoding: a point is immutable, and the same one
# comes again and again (a share in its part and in the open that bundles it, a
# whole log in verify's second pass), each parse a square root.  Only points that
# parsed are kept; the oldest go first.
_PARSED: dict[bytes, Point] = {}
_PARSED_MAX = 1 << 14


def decode_point(data: bytes) -> Point:
    """Parse a received point: exactly 33 bytes, compressed, on the curve."""
    point = _PARSED.get(data) if type(data) is bytes else None
    if point is not None:
        return point
    if type(data) is not bytes or len(data) != POINT_LEN or data[0] not in (2, 3):
        raise GroupError("a point must be 33 bytes, SEC1 compressed")
    raw = _new_pubkey(_RAW)
    if not lib.secp256k1_ec_pubkey_parse(_CTX, raw, data, POINT_LEN):
        raise GroupError("not a point of the group")
    point = Point(raw, data)
    remember(_PARSED, data, point, _PARSED_MAX)  # every thread's (crypto/memo.py)
    return point


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
    raw = _new_pubkey(_RAW)
    lib.secp256k1_ec_pubkey_create(_CTX, raw, k.to_bytes(32, "big"))
    return Point(raw)


def _combine(raws: list[Any]) -> Point:
    out = _new_pubkey(_RAW)
    if not lib.secp256k1_ec_pubkey_combine(_CTX, out, raws, len(raws)):
        return IDENTITY  # the sum is the identity
    return Point(out)


def point_sum(points: Iterable[Point]) -> Point:
    """The sum of many points in one call into libsecp256k1."""
    raws = [p._raw for p in points if p._raw is not None]
    if not raws:
        return IDENTITY
    if len(raws) == 1:
        return Point(raws[0])
    return _combine(raws)


def mul_add_base(k: int, point: Point, g: int) -> Point:
    """``k·point + g·G`` for public scalars, in one variable-time double multiplication.

    Only for verifying (every scalar public): libsecp256k1 exposes its Strauss
    double multiplication, with the precomputed table of ``G``, only inside ECDSA
    public-key recovery, which computes ``Q = r⁻¹·(s·R − z·G)`` for the point ``R``
    whose x is ``r``.  With ``R = point``, ``s = k·r`` and ``z = −g·r`` that is
    ``k·point + g·G``: about a third cheaper than the ladder and ``G``'s table apart.
    """
    k %= N
    g %= N
    if point._raw is None or k == 0:
        return base_mul(g)
    enc = point.to_bytes()
    r = int.from_bytes(enc[1:], "big")
    if r >= N:  # an x above the group order (about 2^-128 of points): the plain way
        return point_sum((k * point, base_mul(g)))
    sig = ffi.new(_RECOVERABLE)
    rs = enc[1:] + (k * r % N).to_bytes(32, "big")
    lib.secp256k1_ecdsa_recoverable_signature_parse_compact(_CTX, sig, rs, enc[0] - 2)
    raw = _new_pubkey(_RAW)
    if not lib.secp256k1_ecdsa_recover(_CTX, raw, sig, (-g * r % N).to_bytes(32, "big")):
        return IDENTITY  # the result is the identity
    return Point(raw)


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
