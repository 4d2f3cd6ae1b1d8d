"""Every kind of cheating is caught at once and names the cheater.

Spec: protocol/sealed-decks.md sections 7-9.  Issue: "a wrong share, a wrong proof,
a malformed point, a bad shuffle, a substituted card, a wrong transfer, a reused
key: every verifying function raises a specific exception naming the seat and what
was wrong."  The cheaters here run modified code: they build messages by hand,
often with the honest prover applied to a false statement.
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager

import pytest

import p2ptable.sealed as sd
from p2ptable.crypto.encoding import pack
from p2ptable.sealed import elgamal
from p2ptable.sealed.deck import context
from p2ptable.sealed.group import G, base_mul, random_scalar
from p2ptable.sealed.proofs import prove_dleq, prove_key, prove_transfer
from p2ptable.sealed.shuffle import prove_shuffle
from tests.sealed.helpers import GAME_ID, Table, ready_table


@contextmanager
def caught(seat: int, match: str):
    """The block must raise a SealedDeckError naming ``seat``, with ``match`` in its reason."""
    with pytest.raises(sd.SealedDeckError, match=match) as exc:
        yield exc
    assert exc.value.seat == seat, repr(exc.value)


# -- keys ---------------------------------------------------------------------


def test_copied_key_and_proof_is_refused():
    t = Table(3)
    copied = sd.KeyMessage(2, t.keys[0].key, t.keys[0].proof)  # seat 2 copies seat 0
    with caught(2, "proof of knowledge"):
        sd.make_table(GAME_ID, [t.keys[0], t.keys[1], copied])


def test_rogue_key_cancelling_the_others_is_refused():
    # Seat 2 announces x'·G − h0 − h1 so that the joint key would be x'·G, which it
    # could open alone.  It cannot prove knowledge of that key's secret.
    t = Table(3)
    x_rogue = random_scalar(t.rand)
    rogue = base_mul(x_rogue) - t.keys[0].key - t.keys[1].key
    proof = prove_key(context(GAME_ID, 0, 2, "key"), x_rogue, t.rand)  # proves x'·G, not rogue
    with caught(2, "proof of knowledge"):
        sd.make_table(GAME_ID, [t.keys[0], t.keys[1], sd.KeyMessage(2, rogue, proof)])


def test_reused_key_is_refused():
    # Two colluding seats with the same secret: both proofs hold, the key repeats.
    t = Table(3)
    twin = sd.make_key(GAME_ID, 2, t.secrets[0], t.rand)
    with caught(2, "reuses the key of seat 0"):
        sd.make_table(GAME_ID, [t.keys[0], t.keys[1], twin])


def test_key_proof_from_another_game_or_seat_is_refused():
    t = Table(3)
    other_game = sd.make_key(b"\x01" * 32, 1, t.secrets[1], t.rand)
    with caught(1, "proof"):
        sd.make_table(GAME_ID, [t.keys[0], other_game, t.keys[2]])
    with pytest.raises(sd.SealedUsageError, match="place of seat 1"):  # our own mix-up
        sd.make_table(GAME_ID, [t.keys[0], t.keys[2], t.keys[1]])


# -- shuffles -------------------------------------------------------------------


def _forged_shuffle(t: Table, seat: int, change) -> sd.ShuffleMessage:
    """The honest prover run on a forged copy of the deck."""
    fake = list(t.state.deck)
    change(fake)
    ctx = context(GAME_ID, t.state.step, seat, "shuffle", False)
    cards, proof = prove_shuffle(ctx, t.table.joint, fake, t.rand)
    return sd.ShuffleMessage(seat, t.state.step, False, cards, proof)


SHUFFLE_CHEATS = {
    "duplicated card": lambda d: d.__setitem__(2, d[4]),
    "substituted card": lambda d: d.__setitem__(2, elgamal.trivial(3, base_mul(7))),
    "card of its own choosing": lambda d: d.__setitem__(0, elgamal.trivial(5, base_mul(7))),
}


@pytest.mark.parametrize("cheat", sorted(SHUFFLE_CHEATS))
def test_bad_shuffle_is_caught_and_names_the_shuffler(cheat):
    t = Table(3)
    t.add(range(6))
    t.shuffle(0)
    with caught(1, "bad shuffle of the deck"):
        sd.apply_shuffle(t.state, _forged_shuffle(t, 1, SHUFFLE_CHEATS[cheat]))


def test_dropped_card_is_caught():
    t = Table(3)
    t.add(range(6))
    honest = sd.make_shuffle(t.state, 1, t.rand)
    dropped = dataclasses.replace(honest, cards=honest.cards[:-1])
    with caught(1, "into 5 cards, not 6"):
        sd.apply_shuffle(t.state, dropped)
    # Even with a proof made for the 5 cards it kept.
    fake = _forged_shuffle(t, 1, lambda d: d.pop())
    with caught(1, "5 cards"):
        sd.apply_shuffle(t.state, fake)


def test_wrong_permutation_claim_is_caught():
    t = Table(2)
    t.add(range(5))
    a = sd.make_shuffle(t.state, 0, t.rand, perm=[1, 0, 2, 3, 4])
    b = sd.make_shuffle(t.state, 0, t.rand, perm=[0, 1, 2, 4, 3])
    with caught(0, "bad shuffle"):
        sd.apply_shuffle(t.state, dataclasses.replace(a, proof=b.proof))


def test_tampered_shuffle_proof_is_caught():
    t = Table(2)
    t.add(range(4))
    honest = sd.make_shuffle(t.state, 1, t.rand)
    bad_k = dataclasses.replace(honest.proof, k_e=(honest.proof.k_e[0] + 1, *honest.proof.k_e[1:]))
    with caught(1, "bad shuffle"):
        sd.apply_shuffle(t.state, dataclasses.replace(honest, proof=bad_k))


def test_shuffle_replayed_at_another_step_is_caught():
    t = Table(2)
    t.add(range(4))
    old = sd.make_shuffle(t.state, 0, t.rand)
    t.shuffle(0)
    with caught(0, "step"):
        sd.apply_shuffle(t.state, old)
    # Renumbered to the current step, its proof is still bound to the old one.
    with caught(0, "bad shuffle"):
        sd.apply_shuffle(t.state, dataclasses.replace(old, step=t.state.step))


def test_hand_shuffle_cannot_swap_in_another_card():
    t = ready_table(2, 6)
    t.deal(2)
    fake = list(t.state.hands[1])
    fake[0] = elgamal.trivial(5, t.table.keys[1])
    ctx = context(GAME_ID, t.state.step, 1, "shuffle", True)
    cards, proof = prove_shuffle(ctx, t.table.keys[1], fake, t.rand)
    with caught(1, "bad shuffle of its hand"):
        sd.apply_shuffle(t.state, sd.ShuffleMessage(1, t.state.step, True, cards, proof))


# -- decryption shares --------------------------------------------------------------


def test_wrong_decryption_share_is_caught_and_names_the_card():
    t = ready_table(3, 6)
    to = (0, 1, None)
    msgs = t.shares(to)
    a = t.state.deck[2].a
    shares = list(msgs[1].shares)
    shares[1] = (t.secrets[0] * a, shares[1][1])  # seat 1 sends seat 0's share
    with caught(1, r"decryption share proof fails for card 2 of the opening \(face up\)"):
        sd.open_cards(t.state, to, [msgs[0], dataclasses.replace(msgs[1], shares=tuple(shares))])


def test_wrong_share_with_its_own_proof_is_caught():
    # A cheater that proves a share it chose (it cannot: the proof fails).
    t = ready_table(3, 6)
    to = (0, 1, 2)
    msgs = t.shares(to)
    a = t.state.deck[0].a
    wrong = base_mul(99)
    ctx = context(GAME_ID, t.state.step, 2, "open", 0, 0)
    proof = prove_dleq(ctx, t.secrets[2], t.table.keys[2], a, wrong, t.rand)
    forged = dataclasses.replace(msgs[2], shares=((wrong, proof), *msgs[2].shares[1:]))
    with caught(2, "card 0 of the opening .to seat 0."):
        sd.add_shares(sd.begin_open(t.state, to), forged)


def test_share_for_one_card_used_for_another_is_caught():
    t = ready_table(3, 6)
    to = (0, 0)
    msgs = t.shares(to)
    swapped = dataclasses.replace(msgs[1], shares=msgs[1].shares[::-1])
    with caught(1, "card 0"):
        sd.add_shares(sd.begin_open(t.state, to), swapped)


def test_missing_or_extra_shares_are_caught():
    t = ready_table(3, 6)
    to = (0, 1)
    msgs = t.shares(to)
    short = dataclasses.replace(msgs[2], shares=msgs[2].shares[:1])
    with caught(2, "sent 1 shares for 2 cards"):
        sd.add_shares(sd.begin_open(t.state, to), short)


# -- reveals ------------------------------------------------------------------------


def test_substituted_card_at_reveal_is_caught():
    t = ready_table(3, 6)
    t.deal(1)
    msg = sd.make_reveal(t.state, 1, t.secrets[1], 0, t.rand)
    other = (msg.card + 1) % 6
    with caught(1, f"claims card {other} but hand card 0 is card {msg.card}"):
        sd.apply_reveal(t.state, dataclasses.replace(msg, card=other))


def test_share_forged_to_show_another_card_is_caught():
    # The holder picks d = B − M_other so the hand card "decrypts" to another card.
    t = ready_table(3, 6)
    t.deal(1)
    ct = t.state.hands[1][0]
    mine = t.hand(1)[0]
    other = (mine + 1) % 6
    d = ct.b - elgamal.card_point(other)
    ctx = context(GAME_ID, t.state.step, 1, "reveal", 0)
    proof = prove_dleq(ctx, t.secrets[1], t.table.keys[1], ct.a, d, t.rand)
    forged = sd.RevealMessage(1, t.state.step, 0, other, d, proof)
    with caught(1, "decryption share proof fails for hand card 0"):
        sd.apply_reveal(t.state, forged)


def test_reveal_of_a_card_not_held_is_caught():
    t = ready_table(3, 6)
    t.deal(1)
    msg = sd.make_reveal(t.state, 1, t.secrets[1], 0, t.rand)
    with caught(1, "does not hold"):
        sd.apply_reveal(t.state, dataclasses.replace(msg, index=3))


# -- transfers ------------------------------------------------------------------------


def test_transfer_of_another_card_is_caught():
    t = ready_table(3, 6)
    t.deal(2)
    ct = t.state.hands[0][0]
    s = random_scalar(t.rand)
    fake = elgamal.encrypt(elgamal.card_point(t.hand(0)[1]), t.table.keys[2], s)  # its other card
    ctx = context(GAME_ID, t.state.step, 0, "transfer", 0, 2)
    proof = prove_transfer(ctx, t.secrets[0], t.table.keys[0], ct, t.table.keys[2], fake, s, t.rand)
    with caught(0, "transfer proof fails for hand card 0"):
        sd.apply_transfer(t.state, sd.TransferMessage(0, t.state.step, 0, 2, fake, proof))


def test_transfer_of_another_position_than_picked_is_caught():
    t = ready_table(3, 6)
    t.deal(2)
    msg = sd.make_transfer(t.state, 0, t.secrets[0], 1, 2, t.rand)  # the taker picked 0
    with caught(0, "gave hand card 1, not the picked card 0"):
        sd.apply_transfer(t.state, msg, index=0, to=2)
    with caught(0, "not seat 1"):
        sd.apply_transfer(t.state, msg, index=1, to=1)
    sd.apply_transfer(t.state, msg, index=1, to=2)


def test_transfer_redirected_to_another_seat_is_caught():
    t = ready_table(3, 6)
    t.deal(2)
    msg = sd.make_transfer(t.state, 0, t.secrets[0], 0, 2, t.rand)
    with caught(0, "transfer proof fails"):
        sd.apply_transfer(t.state, dataclasses.replace(msg, to=1))
    with caught(0, "to seat 0"):
        sd.apply_transfer(t.state, dataclasses.replace(msg, to=0))


def test_transfer_under_a_key_the_victim_knows_is_caught():
    # The victim re-encrypts to its own key instead of the taker's, to read it later.
    t = ready_table(3, 6)
    t.deal(2)
    ct = t.state.hands[0][0]
    s = random_scalar(t.rand)
    fake = elgamal.encrypt(elgamal.decrypt(ct, t.secrets[0]), t.table.keys[0], s)
    ctx = context(GAME_ID, t.state.step, 0, "transfer", 0, 2)
    proof = prove_transfer(ctx, t.secrets[0], t.table.keys[0], ct, t.table.keys[0], fake, s, t.rand)
    with caught(0, "transfer proof fails"):
        sd.apply_transfer(t.state, sd.TransferMessage(0, t.state.step, 0, 2, fake, proof))


# -- malformed bytes --------------------------------------------------------------------


def _bad_point_variants():
    yield "identity", bytes(33)
    yield "not on the curve", b"\x02" + (5).to_bytes(32, "big")
    yield "uncompressed", b"\x04" + G.to_bytes()[1:] + bytes(32)
    yield (
        "ed25519 small-order point",
        bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
    )


@pytest.mark.parametrize("name,bad", list(_bad_point_variants()))
def test_malformed_point_in_a_share_names_the_sender(name, bad):
    t = ready_table(3, 6)
    value = t.shares((0, 1))[2].to_value()
    value["shares"][0][0] = bad
    with caught(2, "malformed sealed message"):
        sd.message_from_value(value, 2)


@pytest.mark.parametrize("name,bad", list(_bad_point_variants()))
def test_malformed_point_in_a_shuffle_names_the_sender(name, bad):
    t = Table(2)
    t.add(range(3))
    value = sd.make_shuffle(t.state, 1, t.rand).to_value()
    value["proof"]["u"][1] = bad
    with caught(1, "malformed"):
        sd.decode_message(pack(value), 1)
