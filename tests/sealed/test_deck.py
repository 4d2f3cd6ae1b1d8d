"""Sealed decks played honestly: keys, shuffles, deals, draws, reveals, hand shuffles.

Spec: protocol/sealed-decks.md section 7.  Issue: "honest runs always deal a
permutation of the deck; every hand card revealed equals the card its holder
decrypted."
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import p2ptable.sealed as sd
from p2ptable.sealed import elgamal
from tests.sealed.helpers import Table, ready_table


@st.composite
def games(draw):
    seats = draw(st.integers(2, 4))
    cards = draw(st.integers(seats, 12))
    opened = draw(st.integers(1, cards))
    to = draw(
        st.lists(st.one_of(st.none(), st.integers(0, seats - 1)), min_size=opened, max_size=opened)
    )
    return seats, cards, to, draw(st.binary(min_size=1, max_size=4))


@settings(max_examples=12, deadline=None)
@given(games())
def test_an_honest_deal_is_a_permutation_of_the_deck(game):
    seats, cards, to, seed = game
    t = ready_table(seats, cards, seed)
    faces = t.open(to)
    hands = [t.hand(s) for s in range(seats)]
    remaining = t.audit().snapshots[-1].deck
    seen = [c for h in hands for c in h] + [f for f in faces if f is not None] + list(remaining)
    assert Counter(seen) == Counter(range(cards))
    for s in range(seats):  # each seat got exactly the cards addressed to it
        assert len(hands[s]) == to.count(s)
    assert [f is None for f in faces] == [target is not None for target in to]


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 4), st.binary(min_size=1, max_size=4), st.data())
def test_every_revealed_card_is_the_card_its_holder_read(seats, seed, data):
    t = ready_table(seats, 3 * seats, seed)
    t.deal(2)
    for _ in range(seats):
        seat = data.draw(st.integers(0, seats - 1))
        hand = t.hand(seat)
        if not hand:
            continue
        index = data.draw(st.integers(0, len(hand) - 1))
        assert t.reveal(seat, index) == hand[index]
        assert t.hand(seat) == hand[:index] + hand[index + 1 :]


def test_a_dealt_card_is_readable_by_its_receiver_only():
    t = ready_table(3, 6)
    t.open([0, 1, 2])
    for seat in range(3):
        (card,) = t.hand(seat)
        for other in range(3):
            if other != seat:  # a wrong secret is our own misuse, not a peer's cheat
                with pytest.raises(sd.SealedUsageError):
                    sd.read_hand(t.state, seat, t.secrets[other])


def test_face_up_draw_shows_the_card_to_everyone():
    t = ready_table(3, 6)
    deck_before = t.audit().snapshots[-1].deck
    faces = t.open([None, None])
    assert faces == deck_before[:2]
    assert t.state.deck and len(t.state.deck) == 4


def test_the_deck_cannot_be_opened_until_every_seat_has_shuffled():
    t = Table(3)
    t.add(range(6))
    t.shuffle(0)
    t.shuffle(1)
    with pytest.raises(sd.SealedUsageError, match="shuffled"):
        sd.begin_open(t.state, [0])
    t.shuffle(2)
    sd.begin_open(t.state, [0])
    t.add([6, 7])  # adding cards (a discard pile) needs every seat to shuffle again
    with pytest.raises(sd.SealedUsageError, match="shuffled"):
        sd.begin_open(t.state, [0])


def test_discard_pile_reshuffled_into_a_new_sealed_deck():
    t = ready_table(3, 6)
    faces = t.open([None] * 6)  # everything face up: the discard pile
    assert sorted(faces) == list(range(6)) and not t.state.deck
    t.add(faces)
    t.shuffle_all()
    t.deal(2)
    assert sorted(c for s in range(3) for c in t.hand(s)) == list(range(6))


def test_hand_shuffle_keeps_the_cards_and_hides_their_positions():
    t = ready_table(2, 8)
    t.deal(4)
    before = t.hand(1)
    t.shuffle(1, hand=True, perm=[3, 2, 1, 0])
    assert t.hand(1) == before[::-1]
    assert t.hand(0) and t.state.hands[1] != ()
    with pytest.raises(sd.SealedUsageError):
        sd.make_shuffle(t.state, 0, t.rand, hand=True, perm=[0])  # not a permutation of 4


def test_open_round_checks_each_seat_as_it_arrives():
    t = ready_table(3, 6)
    to = (0, 1, 2)
    msgs = t.shares(to)
    round_ = sd.begin_open(t.state, to)
    assert round_.missing == (0, 1, 2)
    round_ = sd.add_shares(round_, msgs[2])
    assert round_.missing == (0, 1)
    with pytest.raises(sd.SealedUsageError, match="waiting"):
        sd.finish_open(round_)
    with pytest.raises(sd.SealedUsageError, match="already"):
        sd.add_shares(round_, msgs[2])
    for m in msgs[:2]:
        round_ = sd.add_shares(round_, m)
    state, faces = sd.finish_open(round_)
    assert faces == (None, None, None) and all(len(h) == 1 for h in state.hands)
    # A seat gives shares for every card but its own.
    assert [len(m.shares) for m in msgs] == [2, 2, 2]


def test_steps_advance_and_bind_messages():
    t = ready_table(2, 4)
    step = t.state.step
    t.open([0])
    assert t.state.step == step + 1


def test_keys_are_joined_into_the_joint_key():
    t = Table(4)
    assert t.table.joint == elgamal.public_key(sum(t.secrets))
    assert t.table.keys == tuple(elgamal.public_key(x) for x in t.secrets)
    with pytest.raises(sd.SealedUsageError):
        sd.make_table(b"short", t.keys)


def test_a_seat_that_receives_every_opened_card_sends_nothing():
    t = ready_table(3, 6)
    round_ = sd.begin_open(t.state, [1, 1])
    assert round_.missing == (0, 2)
    msgs = t.shares([1, 1])
    assert msgs[1].shares == ()
    assert sd.add_shares(round_, msgs[1]) == round_  # an empty message changes nothing
    for m in (msgs[0], msgs[2]):
        round_ = sd.add_shares(round_, m)
    state, _ = sd.finish_open(round_)
    assert len(sd.read_hand(state, 1, t.secrets[1])) == 2


def test_card_numbers_are_checked_when_cards_go_in():
    t = Table(2)
    for bad in ([-1], [2**32], [True], ["3"]):
        with pytest.raises(sd.SealedUsageError, match="card numbers"):
            sd.add_cards(t.state, bad)


def test_a_peer_need_not_verify_its_own_shuffle():
    t = Table(2)
    t.add(range(5))
    msg = sd.make_shuffle(t.state, 0, t.rand)
    assert sd.apply_shuffle(t.state, msg, own=True) == sd.apply_shuffle(t.state, msg)
