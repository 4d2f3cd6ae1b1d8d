"""Escrowed deck secrets (Feldman VSS among the other seats).

Issue 27: "every seat splits its deck secret among the other seats with verifiable
secret sharing (Feldman or Pedersen commitments on the group the sealed deck
already uses; Shamir shares encrypted to each holder), so that the other seats
together can rebuild it, and no fewer.  Every holder checks its share against the
commitments on arrival; a dealer whose share fails is named".  "Two leavers: one
after the other works (after the first seat's secret is public, its share of the
second's is too)".
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.crypto.encoding import pack, unpack_canonical
from p2ptable.sealed import escrow
from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.group import N, SeededRandom, base_mul, random_scalar
from p2ptable.sealed.proofs import SigmaProof

CTX = [bytes(32), 0, 1, "escrow", []]


def table(seats: int, seed: bytes = b"escrow") -> tuple[list[int], list]:
    rand = SeededRandom(seed)
    secrets = [random_scalar(rand) for _ in range(seats)]
    return secrets, [base_mul(x) for x in secrets]


def deal(secrets, keys, dealer, seed=b"deal"):
    return escrow.make_escrow(CTX, dealer, secrets[dealer], keys, SeededRandom(seed))


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_the_other_seats_together_rebuild_the_secret(seats):
    secrets, keys = table(seats)
    for dealer in range(seats):
        msg = deal(secrets, keys, dealer)
        shares = {
            j: escrow.open_share(CTX, msg, j, secrets[j]) for j in escrow.holders(seats, dealer)
        }
        for j, s in shares.items():  # each holder's check on arrival
            assert escrow.share_is_right(keys[dealer], msg, j, s)
        assert escrow.rebuild(keys[dealer], msg, shares) == secrets[dealer]


def test_fewer_than_all_other_seats_are_consistent_with_every_secret():
    # Shamir: n - 2 shares of a polynomial of degree n - 2 fit every secret.  For
    # any candidate there is a share for the missing seat that completes the
    # coalition's shares into a polynomial whose value at 0 is the candidate, so
    # the coalition's shares rule out no secret.
    secrets, keys = table(4)
    msg = deal(secrets, keys, 0)
    known = {j: escrow.open_share(CTX, msg, j, secrets[j]) for j in (1, 2)}
    for candidate in (1, 2, secrets[0], N - 1):
        # seat 3's share (x = 4) on the line through (0, candidate), (2, s1), (3, s2)
        xs, ys = [0, 2, 3], [candidate, known[1], known[2]]
        completion = (
            sum(
                ys[i] * _prod((4 - xs[m]) * pow(xs[i] - xs[m], -1, N) for m in range(3) if m != i)
                for i in range(3)
            )
            % N
        )
        assert escrow.interpolate_at_zero({**known, 3: completion}) == candidate
    with pytest.raises(ValueError, match="missing from seats \\[3\\]"):
        escrow.rebuild(keys[0], msg, known)


def _prod(values) -> int:
    out = 1
    for v in values:
        out = out * v % N
    return out


def test_a_share_is_readable_only_with_its_holders_secret():
    secrets, keys = table(4)
    msg = deal(secrets, keys, 2)
    right = escrow.open_share(CTX, msg, 1, secrets[1])
    wrong = escrow.open_share(CTX, msg, 1, secrets[3])  # seat 3 trying seat 1's share
    assert escrow.share_is_right(keys[2], msg, 1, right)
    assert not escrow.share_is_right(keys[2], msg, 1, wrong)


def test_the_escrow_is_bound_to_its_context():
    secrets, keys = table(3)
    msg = deal(secrets, keys, 0)
    other = [b"\x01" * 32, 0, 1, "escrow", []]
    assert not escrow.share_is_right(keys[0], msg, 1, escrow.open_share(other, msg, 1, secrets[1]))


def test_a_bad_share_names_the_dealer_and_a_false_complaint_the_complainer():
    secrets, keys = table(4)
    good = deal(secrets, keys, 0)
    enc = good.share_for(2)
    bad = escrow.EscrowMessage(
        0,
        good.commitments,
        tuple(
            escrow.EncryptedShare(s.holder, s.ephemeral, (s.masked + 1) % N) if s is enc else s
            for s in good.shares
        ),
    )
    assert not escrow.share_is_right(keys[0], bad, 2, escrow.open_share(CTX, bad, 2, secrets[2]))
    complaint = escrow.make_complaint(CTX, bad, 2, secrets[2], SeededRandom(b"c"))
    assert escrow.judge_complaint(CTX, keys, bad, complaint) == 0  # the dealer
    false = escrow.make_complaint(CTX, good, 2, secrets[2], SeededRandom(b"c"))
    assert escrow.judge_complaint(CTX, keys, good, false) == 2  # the complainer
    # A complaint whose proof does not hold (a made-up x·E) names the complainer too.
    forged = escrow.Complaint(0, 2, base_mul(5), complaint.proof)
    assert escrow.judge_complaint(CTX, keys, bad, forged) == 2


def test_commitments_that_do_not_match_the_shares_are_caught():
    secrets, keys = table(5)
    msg = deal(secrets, keys, 1)
    swapped = escrow.EscrowMessage(
        1, (msg.commitments[1], msg.commitments[0], msg.commitments[2]), msg.shares
    )
    shares = {j: escrow.open_share(CTX, swapped, j, secrets[j]) for j in escrow.holders(5, 1)}
    assert not all(escrow.share_is_right(keys[1], swapped, j, s) for j, s in shares.items())


def test_a_false_published_share_names_its_holder():
    secrets, keys = table(4)
    msg = deal(secrets, keys, 3)
    shares = {j: escrow.open_share(CTX, msg, j, secrets[j]) for j in escrow.holders(4, 3)}
    shares[1] = (shares[1] + 7) % N
    with pytest.raises(SealedDeckError) as caught:
        escrow.rebuild(keys[3], msg, shares)
    assert caught.value.seat == 1


def test_a_second_leaver_is_rebuilt_with_the_first_ones_public_secret():
    # Seat 0 left and was rebuilt; then seat 3 leaves.  Seat 0's share of seat
    # 3's secret is opened with seat 0's (now public) secret by anyone.
    secrets, keys = table(5)
    msg0 = deal(secrets, keys, 0, b"d0")
    first = escrow.rebuild(
        keys[0], msg0, {j: escrow.open_share(CTX, msg0, j, secrets[j]) for j in (1, 2, 3, 4)}
    )
    msg3 = deal(secrets, keys, 3, b"d3")
    shares = {j: escrow.open_share(CTX, msg3, j, secrets[j]) for j in (1, 2, 4)}
    shares[0] = escrow.open_share(CTX, msg3, 0, first)
    assert escrow.rebuild(keys[3], msg3, shares) == secrets[3]


def test_the_wire_form_round_trips_and_malformed_ones_name_the_dealer():
    secrets, keys = table(4)
    msg = deal(secrets, keys, 1)
    value = unpack_canonical(pack(msg.to_value()))
    assert escrow.decode_escrow(value, 4, 1) == msg
    broken = [
        {**value, "t": "sealed-key"},
        {**value, "seat": 2},
        {**value, "commitments": value["commitments"][:1]},
        {**value, "shares": value["shares"][:2]},
        {**value, "shares": [value["shares"][1], value["shares"][0], value["shares"][2]]},
        {**value, "commitments": [b"\x02" + bytes(32), value["commitments"][1]]},
        {**value, "shares": [[0, b"x", b"y"], *value["shares"][1:]]},
        {**value, "extra": 1},
        [value],
    ]
    for bad in broken:
        with pytest.raises(SealedDeckError) as caught:
            escrow.decode_escrow(bad, 4, 1)
        assert caught.value.seat == 1


def test_two_seats_have_no_escrow():
    secrets, keys = table(2)
    with pytest.raises(ValueError, match="at least 3"):
        deal(secrets, keys, 0)


def test_a_dealer_cannot_escrow_a_secret_not_behind_its_key():
    secrets, keys = table(3)
    with pytest.raises(ValueError, match="not the secret"):
        escrow.make_escrow(CTX, 0, secrets[1], keys, SeededRandom(b"x"))


def test_the_same_randomness_makes_the_same_escrow():
    # A resumed seat escrows the same bytes (its stream is keyed by its secret).
    secrets, keys = table(4)
    assert deal(secrets, keys, 2, b"s").to_value() == deal(secrets, keys, 2, b"s").to_value()


@settings(max_examples=25, deadline=None)
@given(
    seats=st.integers(3, 7), dealer_pick=st.integers(0, 6), seed=st.binary(min_size=1, max_size=8)
)
def test_every_escrow_rebuilds_and_every_altered_share_is_caught(seats, dealer_pick, seed):
    dealer = dealer_pick % seats
    secrets, keys = table(seats, seed)
    msg = deal(secrets, keys, dealer, seed + b"d")
    shares = {j: escrow.open_share(CTX, msg, j, secrets[j]) for j in escrow.holders(seats, dealer)}
    assert escrow.rebuild(keys[dealer], msg, shares) == secrets[dealer]
    for j in shares:
        assert not escrow.share_is_right(keys[dealer], msg, j, (shares[j] + 1) % N)


def test_a_complaint_round_trips_its_wire_form():
    secrets, keys = table(3)
    msg = deal(secrets, keys, 0)
    complaint = escrow.make_complaint(CTX, msg, 1, secrets[1], SeededRandom(b"c"))
    value = complaint.to_value()
    assert SigmaProof.from_value(value["proof"], 1) == complaint.proof
