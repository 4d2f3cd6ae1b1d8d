"""Ed25519 identities: sign and check bytes under a domain-separated message.

Every signature in p2ptable is over ``DOMAIN[purpose] || game_id || message`` so a
signature made for one purpose or one game can never be replayed as another.
"""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

KEY_LEN = 32
SIG_LEN = 64


def sha256(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
    return h.digest()


class SigningKey:
    """A seat's private key.  ``seed`` is the 32-byte RFC 8032 private key."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) != KEY_LEN:
            raise ValueError("an Ed25519 private key is 32 bytes")
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        self.public = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @classmethod
    def generate(cls) -> SigningKey:
        key = Ed25519PrivateKey.generate()
        return cls(key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()))

    @property
    def seed(self) -> bytes:
        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)


def verify_signature(public: bytes, signature: bytes, message: bytes) -> bool:
    """True when ``signature`` is ``public``'s signature of ``message``."""
    if len(public) != KEY_LEN or len(signature) != SIG_LEN:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True
