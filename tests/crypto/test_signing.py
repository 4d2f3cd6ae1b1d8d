"""Ed25519 checks (crypto/signing.py): libsodium called directly gives PyNaCl's answers.

``verify_signature`` calls libsodium's ``crypto_sign_open`` itself, without PyNaCl's
wrapper; these hold it to the wrapper's verdict on valid signatures, a bit
flipped in the signature, the message or the key, and wrong lengths.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl.bindings import crypto_sign_open
from nacl.exceptions import BadSignatureError

from p2ptable.crypto import signing
from p2ptable.crypto.signing import SigningKey, verify_signature


def pynacl_says(public: bytes, signature: bytes, message: bytes) -> bool:
    try:
        crypto_sign_open(signature + message, public)
    except BadSignatureError:
        return False
    return True


def fresh_verdict(public: bytes, signature: bytes, message: bytes) -> bool:
    """The check itself, not a lookup of what this process signed or checked."""
    signing._KNOWN_GOOD.clear()
    return verify_signature(public, signature, message)


@settings(max_examples=60, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), message=st.binary(max_size=300))
def test_a_valid_signature_holds_as_pynacl_says(seed: bytes, message: bytes) -> None:
    key = SigningKey(seed)
    signature = key.sign(message)
    assert pynacl_says(key.public, signature, message)
    assert fresh_verdict(key.public, signature, message)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    message=st.binary(min_size=1, max_size=200),
    where=st.sampled_from(["signature", "message", "key"]),
    bit=st.integers(min_value=0, max_value=8 * 200 - 1),
)
def test_one_flipped_bit_anywhere_fails_as_pynacl_says(
    seed: bytes, message: bytes, where: str, bit: int
) -> None:
    key = SigningKey(seed)
    parts = {"key": key.public, "signature": key.sign(message), "message": message}
    flipped = bytearray(parts[where])
    flipped[(bit // 8) % len(flipped)] ^= 1 << (bit % 8)
    parts[where] = bytes(flipped)
    expected = pynacl_says(parts["key"], parts["signature"], parts["message"])
    assert not expected
    assert fresh_verdict(parts["key"], parts["signature"], parts["message"]) is expected


@pytest.mark.parametrize(
    ("public", "signature", "message"),
    [
        (bytes(31), bytes(64), b"m"),  # a short key
        (bytes(32), bytes(63), b"m"),  # a short signature
        (bytes(32), bytes(65), b"m"),  # a long one
        (bytes(32), bytes(64), b""),  # all zeros: no signature of anyone
    ],
)
def test_malformed_inputs_are_no_signature(public: bytes, signature: bytes, message: bytes) -> None:
    assert fresh_verdict(public, signature, message) is False
