"""Who can read what: transfers (Teacher's Pet "Bully") and collusion.

Spec: protocol/sealed-decks.md section 7 (item 5) and section 9.  Issue: "move a hidden card
from one hand to another ... only victim and taker learn the card", and "holding
two seats' secrets you still cannot read a third seat's hand card (show that the
combined shares of two seats do not decrypt it, while with the third's share it
does)."
"""

from __future__ import annotations

from itertools import combinations

import p2ptable.sealed as sd
from p2ptable.sealed import elgamal
from tests.sealed.helpers import ready_table


def readable_by(t, ct, secrets) -> int | None:
    """The card ``ct`` decrypts to with the sum of ``secrets``, if any."""
    return elgamal.decode_card(elgamal.decrypt(ct, sum(secrets)), elgamal.card_table(t.state.cards))


def test_bully_moves_a_card_only_victim_and_taker_can_read():
    t = ready_table(4, 12)
    t.deal(2)
    victim, taker = 1, 3
    card = t.hand(victim)[1]
    taker_before = t.hand(taker)
    t.transfer(victim, 1, taker)  # the taker picked position 1 blindly
    assert t.hand(taker) == taker_before + (card,)
    assert card not in t.hand(victim) and len(t.hand(victim)) == 1
    moved = t.state.hands[taker][-1]
    assert readable_by(t, moved, [t.secrets[taker]]) == card
    others = [t.secrets[s] for s in range(4) if s != taker]
    for k in range(1, len(others) + 1):  # the victim included, any coalition without the taker
        for group in combinations(others, k):
            assert readable_by(t, moved, group) is None


def test_a_taken_card_can_be_revealed_by_the_taker_with_proof():
    t = ready_table(3, 9)
    t.deal(2)
    card = t.hand(0)[0]
    t.transfer(0, 0, 2)
    assert t.reveal(2, len(t.hand(2)) - 1) == card
    # And given on again.
    t.transfer(2, 0, 1)
    assert t.hand(1)[-1] in range(9)


def test_transfer_changes_every_byte_of_the_card():
    t = ready_table(3, 6)
    t.deal(1)
    before = t.state.hands[0][0]
    t.transfer(0, 0, 1)
    after = t.state.hands[1][-1]
    assert before.a != after.a and before.b != after.b


def test_two_colluding_seats_cannot_read_a_third_seats_card():
    t = ready_table(3, 6)
    to = (2,)
    deck_card = t.state.deck[0]  # the card about to be dealt to seat 2, under the joint key
    msgs = t.shares(to)
    t.open(to)
    (card,) = t.hand(2)
    x0, x1, x2 = t.secrets
    shares = {s: elgamal.share(x, deck_card) for s, x in enumerate(t.secrets)}
    # Seats 0 and 1 together take both their shares off: still not a card.
    with_two = elgamal.strip(deck_card, [shares[0], shares[1]])
    assert elgamal.decode_card(with_two.b, elgamal.card_table(range(6))) is None
    # With seat 2's share too, it is the card.
    with_three = elgamal.strip(deck_card, [shares[0], shares[1], shares[2]])
    assert elgamal.decode_card(with_three.b, elgamal.card_table(range(6))) == card
    # The shares published in the deal are exactly seats 0 and 1's: seat 2 sent none.
    assert [len(m.shares) for m in msgs] == [1, 1, 0]
    assert [m.shares[0][0] for m in msgs[:2]] == [shares[0], shares[1]]
    # The hand card, with both colluders' secrets in every combination: unreadable.
    hand_card = t.state.hands[2][0]
    for group in ([x0], [x1], [x0, x1]):
        assert readable_by(t, hand_card, group) is None
    assert readable_by(t, hand_card, [x2]) == card


def test_the_last_shuffler_does_not_know_the_order():
    # Seat 2 shuffles last and knows its own permutation, but the deck it shuffled
    # was already permuted by seats 0 and 1: the final order is sd.audit's to know.
    t = ready_table(3, 10)
    last = t.ops[-1].msg
    assert last.seat == 2
    order = t.audit().snapshots[-1].deck
    assert sorted(order) == list(range(10))
    # Its own secret alone decrypts none of the deck cards.
    assert all(readable_by(t, ct, [t.secrets[2]]) is None for ct in t.state.deck)


def test_a_seat_reads_only_its_own_hand():
    t = ready_table(3, 9)
    t.deal(3)
    hands = [t.hand(s) for s in range(3)]
    assert sorted(c for h in hands for c in h) == list(range(9))
    for seat in range(3):
        for ct in t.state.hands[seat]:
            for other in range(3):
                if other != seat:
                    assert readable_by(t, ct, [t.secrets[other]]) is None
    assert isinstance(t.state, sd.SealedState)
