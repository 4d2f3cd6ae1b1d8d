"""The Terelius–Wikström shuffle proof: honest shuffles verify, every cheat fails.

Spec: protocol/sealed-decks.md section 6.  Issue: "Every shuffle is checked as soon
as it arrives with a zero-knowledge shuffle proof ... bad shuffle: dropped /
duplicated / substituted card, wrong permutation claim, tampered proof."

A cheating shuffler below runs the honest prover on inputs it forged (a card
dropped, copied or swapped for another) and sends the result as a shuffle of the
real deck: the proof is a perfectly good proof of the wrong statement.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.sealed import elgamal
from p2ptable.sealed.group import N, SeededRandom, base_mul, random_scalar
from p2ptable.sealed.shuffle import ShuffleProof, generators, prove_shuffle, verify_shuffle

rand = SeededRandom(b"shuffle tests")
X = [random_scalar(rand) for _ in range(3)]
KEY = elgamal.joint_key(base_mul(x) for x in X)
CTX = [bytes(32), 7, 1, "shuffle", [False]]
CARDS = list(range(8))
TABLE = elgamal.card_table(range(100))


def deck(cards=CARDS):
    # Re-randomised so that no two inputs share an A (as after a first shuffle).
    return [elgamal.reencrypt(elgamal.trivial(c, KEY), KEY, random_scalar(rand)) for c in cards]


def faces(cts):
    return [elgamal.decode_card(elgamal.decrypt(ct, sum(X)), TABLE) for ct in cts]


@settings(max_examples=15, deadline=None)
@given(st.permutations(list(range(6))), st.binary(min_size=1, max_size=8))
def test_an_honest_shuffle_verifies_and_moves_input_perm_j_to_output_j(perm, seed):
    inputs = deck(range(10, 16))
    outputs, proof = prove_shuffle(CTX, KEY, inputs, SeededRandom(seed), perm)
    assert verify_shuffle(CTX, KEY, inputs, outputs, proof) is None
    assert faces(outputs) == [10 + i for i in perm]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_tiny_decks_shuffle_too(n):
    inputs = deck(range(n))
    outputs, proof = prove_shuffle(CTX, KEY, inputs, rand)
    assert verify_shuffle(CTX, KEY, inputs, outputs, proof) is None
    assert sorted(faces(outputs)) == list(range(n))


def test_every_output_is_re_encrypted():
    inputs = deck()
    outputs, _ = prove_shuffle(CTX, KEY, inputs, rand, perm=range(8))
    assert not {ct.a for ct in outputs} & {ct.a for ct in inputs}


def test_proof_is_bound_to_its_context():
    inputs = deck()
    outputs, proof = prove_shuffle(CTX, KEY, inputs, rand)
    for other in (
        [b"\x01" * 32, 7, 1, "shuffle", [False]],
        [bytes(32), 8, 1, "shuffle", [False]],
        [bytes(32), 7, 2, "shuffle", [False]],
        [bytes(32), 7, 1, "shuffle", [True]],
    ):
        assert verify_shuffle(other, KEY, inputs, outputs, proof) is not None


def forged(inputs, change):
    fake = list(inputs)
    change(fake)
    return fake


CHEATS = {
    "duplicated card": lambda d: d.__setitem__(3, d[5]),
    "substituted card": lambda d: d.__setitem__(3, elgamal.trivial(99, KEY)),
    "card of another key": lambda d: d.__setitem__(3, elgamal.trivial(3, base_mul(X[0]))),
    "two cards merged": lambda d: d.__setitem__(0, elgamal.Ciphertext(d[0].a + d[1].a, d[0].b)),
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_shuffling_forged_inputs_fails(cheat):
    inputs = deck()
    outputs, proof = prove_shuffle(CTX, KEY, forged(inputs, CHEATS[cheat]), rand)
    assert verify_shuffle(CTX, KEY, inputs, outputs, proof) is not None


def test_dropped_or_added_card_fails():
    inputs = deck()
    outputs, proof = prove_shuffle(CTX, KEY, inputs, rand)
    assert "7 cards out of a shuffle of 8" in verify_shuffle(CTX, KEY, inputs, outputs[:-1], proof)
    # The proof of a 7-card shuffle (one card dropped first) is no proof for 8 inputs.
    short, short_proof = prove_shuffle(CTX, KEY, inputs[:-1], rand)
    assert verify_shuffle(CTX, KEY, inputs, short + (short[0],), short_proof) is not None


def test_wrong_permutation_claim_fails():
    inputs = deck()
    out_a, proof_a = prove_shuffle(CTX, KEY, inputs, rand, perm=[1, 0, 2, 3, 4, 5, 6, 7])
    out_b, proof_b = prove_shuffle(CTX, KEY, inputs, rand, perm=[0, 1, 2, 3, 4, 5, 7, 6])
    assert verify_shuffle(CTX, KEY, inputs, out_a, proof_b) is not None
    assert verify_shuffle(CTX, KEY, inputs, out_b, proof_a) is not None
    swapped = (out_a[1], out_a[0], *out_a[2:])  # outputs reordered after proving
    assert verify_shuffle(CTX, KEY, inputs, swapped, proof_a) is not None


def test_re_encryption_under_another_key_fails():
    inputs = deck()
    own_key = base_mul(X[0])  # a shuffler trying to keep a key it can open alone
    outputs, proof = prove_shuffle(CTX, own_key, inputs, rand)
    assert verify_shuffle(CTX, KEY, inputs, outputs, proof) is not None


def test_tampering_with_any_part_of_the_proof_fails():
    inputs = deck(range(4))
    outputs, proof = prove_shuffle(CTX, KEY, inputs, rand)
    other = base_mul(12345)
    for field in dataclasses.fields(ShuffleProof):
        values = getattr(proof, field.name)
        for i in range(len(values)):
            changed = list(values)
            changed[i] = other if field.name not in ("k", "k_b", "k_e") else changed[i] + 1
            bad = dataclasses.replace(proof, **{field.name: tuple(changed)})
            assert verify_shuffle(CTX, KEY, inputs, outputs, bad) is not None, (field.name, i)


def test_proof_round_trips_through_its_value():
    inputs = deck(range(4))
    _, proof = prove_shuffle(CTX, KEY, inputs, rand)
    assert ShuffleProof.from_value(proof.to_value(), 4) == proof


def test_generators_are_independent_hash_points():
    gens = generators(88)
    assert len(set(gens)) == 88 and generators(4) == gens[:4]


# Issue 29: the chain's n equations are checked as one random combination first;
# "on failure fall back to per-equation checks so the error names the exact
# failing equation". kB_j enters only the chain's equation j, so a changed kB_j
# breaks that one equation and no other.
@settings(max_examples=20, deadline=None)
@given(st.data())
def test_one_bad_chain_equation_fails_the_batch_and_is_named(data):
    from p2ptable.sealed.shuffle import _chain_batch_holds, _challenges, _v

    n = data.draw(st.integers(min_value=1, max_value=6), label="n")
    j = data.draw(st.integers(min_value=0, max_value=n - 1), label="position")
    delta = data.draw(st.integers(min_value=1, max_value=2**256), label="delta")
    inputs = deck(range(n))
    outputs, proof = prove_shuffle(CTX, KEY, inputs, rand)
    seed, _ = _challenges(CTX, KEY, inputs, outputs, proof.u)
    v = _v(seed, proof.c_hat, proof.t, proof.t_hat)
    assert _chain_batch_holds(v, proof)
    changed = list(proof.k_b)
    changed[j] = (changed[j] + delta) % N
    if changed[j] == proof.k_b[j]:  # delta a multiple of N: the same proof
        return
    bad = dataclasses.replace(proof, k_b=tuple(changed))
    assert not _chain_batch_holds(v, bad)
    assert verify_shuffle(CTX, KEY, inputs, outputs, bad) == (
        f"commitment chain fails at position {j}"
    )


def test_the_batch_draws_fresh_coefficients_each_time(monkeypatch):
    # Coefficients a prover could predict would let it cancel a bad equation
    # against another: they come from the CSPRNG, never from the proof.
    from p2ptable.sealed import shuffle

    drawn = []
    real = shuffle.secrets.randbits
    monkeypatch.setattr(shuffle.secrets, "randbits", lambda k: drawn.append(real(k)) or drawn[-1])
    inputs = deck(range(3))
    outputs, proof = prove_shuffle(CTX, KEY, inputs, rand)
    for _ in range(2):
        shuffle.KNOWN_GOOD.clear()
        assert verify_shuffle(CTX, KEY, inputs, outputs, proof) is None
    assert len(drawn) == 6 and len(set(drawn)) == 6
