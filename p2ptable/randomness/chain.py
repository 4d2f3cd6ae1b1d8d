"""Per-seat hash chains: commit once, reveal one fresh preimage per chance step.

How it works: a seat picks a 32-byte secret ``s[L]`` and computes
``s[k] = H(s[k+1])`` down to the head ``s[0]``, which it commits to in the signed
genesis entry.  Chance step ``t`` (0-based) consumes ``s[t+1]``; anyone checks it
with ``H(s[t+1]) == s[t]``.  Knowing ``s[t+1]`` tells nothing about ``s[t+2]``
(that would mean inverting H), so no seat can predict another's next value, and
since the whole chain is fixed by the head no seat can change its own.

``H(x) = SHA-256("p2ptable/chain/v1" || 0x00 || x)``.
"""

from __future__ import annotations

from p2ptable.crypto.signing import sha256

CHAIN_DOMAIN = b"p2ptable/chain/v1\x00"
VALUE_LEN = 32
DEFAULT_LENGTH = 4096


def chain_hash(value: bytes) -> bytes:
    return sha256(CHAIN_DOMAIN, value)


class HashChain:
    """The secret side of a seat's chain: all values, head first."""

    def __init__(self, secret: bytes, length: int = DEFAULT_LENGTH) -> None:
        if len(secret) != VALUE_LEN:
            raise ValueError("a chain secret is 32 bytes")
        if length < 1:
            raise ValueError("a chain needs at least one value after the head")
        values = [secret]
        for _ in range(length):
            values.append(chain_hash(values[-1]))
        values.reverse()
        self._values = values  # values[0] is the head, values[length] the secret
        self.length = length

    @property
    def head(self) -> bytes:
        return self._values[0]

    def preimage(self, step: int) -> bytes:
        """The value revealed for chance step ``step`` (0-based)."""
        if not 0 <= step < self.length:
            raise IndexError(f"chain of length {self.length} has no value for step {step}")
        return self._values[step + 1]


def check_preimage(previous: bytes, revealed: bytes) -> bool:
    """True when ``revealed`` is the next value down the chain from ``previous``."""
    return len(revealed) == VALUE_LEN and chain_hash(revealed) == previous
