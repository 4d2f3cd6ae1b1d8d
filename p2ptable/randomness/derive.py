"""Turn every seat's revealed preimage into a chance outcome, without modulo bias.

The exact byte layout is in protocol/randomness.md with test vectors; this module
is the reference implementation.

    seed  = SHA-256("p2ptable/chance/v1" || 0x00 || game_id[32] || u32be(step)
                    || u8(len(purpose)) || purpose || u8(n) || pre[0] || ... || pre[n-1])
    block = SHA-256(seed || u32be(j))   for j = 0, 1, 2, ...

The blocks are read as a stream of big-endian u64 words.  A value uniform in
``[0, r)`` takes words until one is below ``2**64 - (2**64 % r)`` (rejection
sampling) and returns ``word % r``.  One value is drawn per range, in order.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence

from p2ptable.crypto.signing import sha256

CHANCE_DOMAIN = b"p2ptable/chance/v1\x00"
_U64 = 1 << 64


def chance_seed(game_id: bytes, step: int, purpose: str, preimages: Sequence[bytes]) -> bytes:
    """The 32-byte seed of chance step ``step`` from all seats' preimages (seat order)."""
    label = purpose.encode()
    if len(game_id) != 32:
        raise ValueError("game id is 32 bytes")
    if not 0 < len(label) < 256 or not 0 < len(preimages) < 256:
        raise ValueError("purpose and seat count must fit in one byte")
    if any(len(p) != 32 for p in preimages):
        raise ValueError("preimages are 32 bytes")
    return sha256(
        CHANCE_DOMAIN,
        game_id,
        struct.pack(">I", step),
        bytes([len(label)]),
        label,
        bytes([len(preimages)]),
        *preimages,
    )


def _words(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = sha256(seed, struct.pack(">I", counter))
        counter += 1
        yield from struct.unpack(">4Q", block)


def uniform_values(seed: bytes, ranges: Sequence[int]) -> tuple[int, ...]:
    """One integer uniform in ``[0, r)`` per ``r`` in ``ranges``, from ``seed``."""
    words = _words(seed)
    out = []
    for r in ranges:
        if not 0 < r <= _U64:
            raise ValueError(f"range {r} out of bounds")
        limit = _U64 - (_U64 % r)
        while True:
            word = next(words)
            if word < limit:
                out.append(word % r)
                break
    return tuple(out)


def derive_outcome(
    game_id: bytes, step: int, purpose: str, preimages: Sequence[bytes], ranges: Sequence[int]
) -> tuple[int, ...]:
    """The chance outcome every peer computes for step ``step``."""
    return uniform_values(chance_seed(game_id, step, purpose, preimages), ranges)
