"""Ed25519 identities: sign and check bytes under a domain-separated message.

Every signature in p2ptable is over ``DOMAIN[purpose] || game_id || message`` so a
signature made for one purpose or one game can never be replayed as another.

Signatures are RFC 8032 Ed25519 through libsodium (PyNaCl): on the reference
2-core machine it verifies in about half the time OpenSSL's takes through
``cryptography``, and every peer verifies every move, so it is on the hot path.
A check calls libsodium's ``crypto_sign_open`` through PyNaCl's compiled module
itself, with no output buffer (libsodium takes NULL there and only checks):
PyNaCl's Python wrapper allocates and copies a buffer for the message it hands
back, which we never use, and costs about a sixth of the check
(tests/crypto/test_signing.py holds the two to the same answers).
"""

from __future__ import annotations

import hashlib
import os

from nacl._sodium import ffi, lib
from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

from p2ptable.crypto.memo import remember

KEY_LEN = 32
SIG_LEN = 64

# libsodium's check, called as it is (importing nacl.bindings above initialised
# libsodium): 0 when the signed message is valid, -1 when not.
_OPEN, _NULL = lib.crypto_sign_open, ffi.NULL


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
        self.seed = bytes(seed)
        self.public, self._secret = crypto_sign_seed_keypair(self.seed)

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(os.urandom(KEY_LEN))

    def sign(self, message: bytes) -> bytes:
        signature = crypto_sign(message, self._secret)[:SIG_LEN]
        _remember(sha256(self.public, signature, message))
        return signature


# Signatures this process made itself, or has already checked: checking one again
# (our own move going into our ledger, a reveal seen twice) is a dictionary lookup
# instead of ~0.1 ms of curve arithmetic.  Only valid triples are ever stored; one
# store for every thread of the process (crypto/memo.py).
_KNOWN_GOOD: dict[bytes, None] = {}
_KNOWN_GOOD_MAX = 4096


def _remember(triple: bytes) -> None:
    """Note a valid (public, signature, message), by the hash of the three."""
    remember(_KNOWN_GOOD, triple, None, _KNOWN_GOOD_MAX)


def verify_signature(public: bytes, signature: bytes, message: bytes) -> bool:
    """True when ``signature`` is ``public``'s signature of ``message``."""
    if len(public) != KEY_LEN or len(signature) != SIG_LEN:
        return False
    triple = sha256(public, signature, message)  # hashed once: looked up, then noted
    if triple in _KNOWN_GOOD:
        return True
    signed = signature + message
    if _OPEN(_NULL, _NULL, signed, len(signed), public) != 0:
        return False
    _remember(triple)
    return True
