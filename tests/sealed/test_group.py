"""The group: every received point is validated, the identity never travels.

Spec: protocol/sealed-decks.md sections 2-3.  Issue: "Validate every point
received ... is_valid_point rejects small-order points ... handle the identity
explicitly."
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.sealed.group import (
    IDENTITY,
    G,
    GroupError,
    N,
    P,
    SeededRandom,
    base_mul,
    decode_point,
    decode_scalar,
    hash_to_point,
    hash_to_scalar,
    point_sum,
    random_below,
    random_permutation,
    scalar_bytes,
)

scalars = st.integers(1, N - 1)


@settings(max_examples=25, deadline=None)
@given(scalars, scalars)
def test_scalar_multiplication_is_a_homomorphism(a, b):
    assert base_mul(a) + base_mul(b) == base_mul(a + b)
    assert a * base_mul(b) == base_mul(a * b)
    assert base_mul(a) - base_mul(b) == base_mul(a - b)


@settings(max_examples=25, deadline=None)
@given(scalars)
def test_points_round_trip_through_their_33_bytes(k):
    p = base_mul(k)
    data = p.to_bytes()
    assert len(data) == 33 and data[0] in (2, 3)
    assert decode_point(data) == p
    assert -p != p and (-p) + p == IDENTITY and decode_point((-p).to_bytes()) == -p


def test_identity_is_handled_inside_computations():
    p = base_mul(5)
    assert 0 * p == IDENTITY and N * p == IDENTITY and base_mul(0) == IDENTITY
    assert p + IDENTITY == p and IDENTITY + p == p
    assert (p - p).is_identity and point_sum([]) == IDENTITY
    assert point_sum([p, p, -p, -p]).is_identity
    assert 7 * IDENTITY == IDENTITY and -IDENTITY == IDENTITY


def test_the_identity_has_no_encoding():
    with pytest.raises(GroupError):
        IDENTITY.to_bytes()


# A received point is refused unless it is exactly a compressed point of the group.
x_of_g = G.to_bytes()[1:]
BAD_POINTS = {
    "empty": b"",
    "identity as zeros": bytes(33),
    "identity, SEC1 single zero byte": b"\x00",
    "uncompressed G": b"\x04" + x_of_g + bytes(32),
    "hybrid prefix": b"\x06" + x_of_g,
    "wrong prefix": b"\x05" + x_of_g,
    "x = p (not reduced)": b"\x02" + P.to_bytes(32, "big"),
    "x = p + 1": b"\x02" + (P + 1).to_bytes(32, "big"),
    "x not on the curve": b"\x02" + (5).to_bytes(32, "big"),
    "too long": G.to_bytes() + b"\x00",
    "too short": G.to_bytes()[:32],
    # An Ed25519 small-order point (order 8): wrong size, and secp256k1 has cofactor 1,
    # so no point that parses can have small order.
    "ed25519 small-order point": bytes.fromhex(
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_POINTS))
def test_malformed_points_are_refused(name):
    with pytest.raises(GroupError):
        decode_point(BAD_POINTS[name])


def test_x_not_on_the_curve_exists():
    # 5^3 + 7 = 132 is not a square mod p, so that x has no point (checked by parse).
    assert pow(132, (P - 1) // 2, P) == P - 1


def test_scalars_must_be_32_bytes_below_the_order():
    assert decode_scalar(scalar_bytes(N - 1)) == N - 1
    for bad in (N.to_bytes(32, "big"), b"\xff" * 32, bytes(31), bytes(33)):
        with pytest.raises(GroupError):
            decode_scalar(bad)


def test_hashes_are_domain_separated_and_deterministic():
    assert hash_to_scalar("a", 1) == hash_to_scalar("a", 1)
    assert hash_to_scalar("a", 1) != hash_to_scalar("b", 1)
    assert hash_to_scalar("a", 1) != hash_to_scalar("a", 2)
    # Length-prefixed encoding: moving bytes between parts changes the hash.
    assert hash_to_scalar("a", b"xy", b"z") != hash_to_scalar("a", b"x", b"yz")
    assert hash_to_point("card", 1) == hash_to_point("card", 1)
    assert hash_to_point("card", 1) != hash_to_point("card", 2)
    assert hash_to_point("card", 1) != hash_to_point("shuffle-generator", 1)


def test_seeded_random_is_deterministic_and_permutations_are_permutations():
    a, b = SeededRandom(b"s"), SeededRandom(b"s")
    assert a(10) + a(100) == b(110)
    perm = random_permutation(52, SeededRandom(b"p"))
    assert sorted(perm) == list(range(52))
    assert all(0 <= random_below(3, a) < 3 for _ in range(50))
