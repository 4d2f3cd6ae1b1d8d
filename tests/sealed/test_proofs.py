"""ElGamal with a joint key, and the three sigma proofs.

Spec: protocol/sealed-decks.md sections 4-5.  Issue: "Decryption shares d_i = x_i·A
with Chaum–Pedersen (DLEQ) proofs ... Bind every Fiat–Shamir challenge to (game id,
step, seat, card/purpose) with domain separation."
"""

from __future__ import annotations

import pytest

from p2ptable.sealed import elgamal
from p2ptable.sealed.group import G, SeededRandom, base_mul, random_scalar
from p2ptable.sealed.proofs import (
    SigmaProof,
    prove_dleq,
    prove_key,
    prove_transfer,
    verify_dleq,
    verify_key,
    verify_transfer,
)

rand = SeededRandom(b"proofs")
X = [random_scalar(rand) for _ in range(3)]
KEYS = [base_mul(x) for x in X]
JOINT = elgamal.joint_key(KEYS)
CTX = [bytes(32), 4, 1, "open", [0, 2]]
OTHER_CONTEXTS = [
    [b"\x01" * 32, 4, 1, "open", [0, 2]],  # another game
    [bytes(32), 5, 1, "open", [0, 2]],  # another step
    [bytes(32), 4, 2, "open", [0, 2]],  # another seat
    [bytes(32), 4, 1, "reveal", [0, 2]],  # another purpose
    [bytes(32), 4, 1, "open", [1, 2]],  # another card
]


def test_joint_decryption_needs_every_share():
    ct = elgamal.encrypt(elgamal.card_point(7), JOINT, random_scalar(rand))
    shares = [elgamal.share(x, ct) for x in X]
    assert elgamal.strip(ct, shares).b == elgamal.card_point(7)
    assert elgamal.strip(ct, shares[:2]).b != elgamal.card_point(7)
    # Without seat 2's share the card is still encrypted, under seat 2's key alone.
    assert elgamal.decrypt(elgamal.strip(ct, shares[:2]), X[2]) == elgamal.card_point(7)


def test_reencryption_keeps_the_plaintext_and_changes_every_byte():
    ct = elgamal.trivial(3, JOINT)
    assert ct.a == G  # the public randomness 1: no identity point anywhere
    again = elgamal.reencrypt(ct, JOINT, random_scalar(rand))
    assert again.a != ct.a and again.b != ct.b
    assert elgamal.decrypt(again, sum(X)) == elgamal.card_point(3)
    table = elgamal.card_table(range(10))
    assert elgamal.decode_card(elgamal.decrypt(again, sum(X)), table) == 3
    assert elgamal.decode_card(elgamal.decrypt(again, X[0]), table) is None


def test_card_numbers_are_checked():
    with pytest.raises(ValueError):
        elgamal.card_point(-1)
    with pytest.raises(ValueError):
        elgamal.card_point(2**32)


def test_key_proof_is_bound_to_its_context():
    proof = prove_key(CTX, X[0], rand)
    assert verify_key(CTX, KEYS[0], proof)
    assert not verify_key(CTX, KEYS[1], proof)
    for other in OTHER_CONTEXTS:
        assert not verify_key(other, KEYS[0], proof)


def _tampered(proof: SigmaProof):
    yield SigmaProof((proof.c + 1), proof.z)
    for i in range(len(proof.z)):
        z = list(proof.z)
        z[i] += 1
        yield SigmaProof(proof.c, tuple(z))


def test_dleq_proves_the_share_uses_the_key_secret():
    a = base_mul(random_scalar(rand))
    d = X[1] * a
    proof = prove_dleq(CTX, X[1], KEYS[1], a, d, rand)
    assert verify_dleq(CTX, KEYS[1], a, d, proof)
    assert not verify_dleq(CTX, KEYS[1], a, X[0] * a, proof)  # a wrong share
    assert not verify_dleq(CTX, KEYS[0], a, d, proof)  # another seat's key
    assert not verify_dleq(CTX, KEYS[1], G, d, proof)  # another card
    for other in OTHER_CONTEXTS:
        assert not verify_dleq(other, KEYS[1], a, d, proof)
    for bad in _tampered(proof):
        assert not verify_dleq(CTX, KEYS[1], a, d, bad)


def test_dleq_with_a_wrong_share_cannot_be_proved():
    a = base_mul(random_scalar(rand))
    wrong = X[0] * a
    proof = prove_dleq(CTX, X[1], KEYS[1], a, wrong, rand)  # honest prover code, false claim
    assert not verify_dleq(CTX, KEYS[1], a, wrong, proof)


def _hand_card(card: int, seat: int):
    """A card dealt to ``seat``: encrypted under its key alone."""
    return elgamal.encrypt(elgamal.card_point(card), KEYS[seat], random_scalar(rand))


def test_transfer_proves_the_same_card_under_the_new_key():
    ct = _hand_card(9, 0)
    s = random_scalar(rand)
    new = elgamal.encrypt(elgamal.decrypt(ct, X[0]), KEYS[2], s)
    proof = prove_transfer(CTX, X[0], KEYS[0], ct, KEYS[2], new, s, rand)
    assert verify_transfer(CTX, KEYS[0], ct, KEYS[2], new, proof)
    assert elgamal.decrypt(new, X[2]) == elgamal.card_point(9)
    assert elgamal.decrypt(new, X[1]) != elgamal.card_point(9)
    for other in OTHER_CONTEXTS:
        assert not verify_transfer(other, KEYS[0], ct, KEYS[2], new, proof)
    for bad in _tampered(proof):
        assert not verify_transfer(CTX, KEYS[0], ct, KEYS[2], new, bad)
    # To another seat, or from another hand card: refused.
    assert not verify_transfer(CTX, KEYS[0], ct, KEYS[1], new, proof)
    assert not verify_transfer(CTX, KEYS[0], _hand_card(9, 0), KEYS[2], new, proof)


def test_transfer_of_another_card_cannot_be_proved():
    ct = _hand_card(9, 0)
    s = random_scalar(rand)
    swapped = elgamal.encrypt(elgamal.card_point(4), KEYS[2], s)
    proof = prove_transfer(CTX, X[0], KEYS[0], ct, KEYS[2], swapped, s, rand)
    assert not verify_transfer(CTX, KEYS[0], ct, KEYS[2], swapped, proof)
