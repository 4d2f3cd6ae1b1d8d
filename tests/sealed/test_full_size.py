"""Whole games: the real sizes, and random playouts of every operation.

Issue: "honest runs always deal a permutation of the deck; every hand card revealed
equals the card its holder decrypted; the audit reproduces every hand."  A playout
mixes every operation at random (deal, face-up draw, reveal, blind transfer, hand
shuffle, discard pile reshuffled) and checks after each step that no card was
created or lost and that each seat's own view matches the audit.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sealed.helpers import ready_table


def test_six_seats_eighty_eight_cards():
    t = ready_table(6, 88, b"full size")
    t.deal(7)
    hands = [t.hand(s) for s in range(6)]
    assert all(len(h) == 7 for h in hands)
    assert len({c for h in hands for c in h}) == 42
    assert t.reveal(3, 4) == hands[3][4]
    t.transfer(0, 6, 5)
    assert t.hand(5)[-1] == hands[0][6]
    final = t.audit().snapshots[-1]
    held = [c for h in final.hands for c in h]
    assert sorted(held + list(final.deck) + [hands[3][4]]) == list(range(88))


def playout(data, seats: int, cards: int, moves: int) -> None:
    t = ready_table(seats, cards, data.draw(st.binary(min_size=1, max_size=4)))
    face_up: list[int] = []  # the discard pile
    views = {t.state.step: tuple(t.hand(s) for s in range(seats))}
    for _ in range(moves):
        holders = [s for s in range(seats) if t.state.hands[s]]
        choices = ["deal", "draw"] if t.state.deck else []
        choices += ["reveal", "transfer", "hand-shuffle"] if holders else []
        choices += ["reshuffle"] if face_up else []
        if not choices:
            break
        move = data.draw(st.sampled_from(choices))
        if move in ("deal", "draw"):
            k = data.draw(st.integers(1, min(3, len(t.state.deck))))
            to = [
                data.draw(st.integers(0, seats - 1)) if move == "deal" else None for _ in range(k)
            ]
            face_up += [f for f in t.open(to) if f is not None]
        elif move == "reveal":
            seat = data.draw(st.sampled_from(holders))
            index = data.draw(st.integers(0, len(t.state.hands[seat]) - 1))
            expected = t.hand(seat)[index]
            assert t.reveal(seat, index) == expected
            face_up.append(expected)
        elif move == "transfer":
            seat = data.draw(st.sampled_from(holders))
            taker = data.draw(st.sampled_from([s for s in range(seats) if s != seat]))
            index = data.draw(st.integers(0, len(t.state.hands[seat]) - 1))
            card = t.hand(seat)[index]
            t.transfer(seat, index, taker)
            assert t.hand(taker)[-1] == card
        elif move == "hand-shuffle":
            seat = data.draw(st.sampled_from(holders))
            before = sorted(t.hand(seat))
            t.shuffle(seat, hand=True)
            assert sorted(t.hand(seat)) == before
        else:
            t.add(face_up)
            face_up = []
            t.shuffle_all()
        views[t.state.step] = tuple(t.hand(s) for s in range(seats))
        held = [c for s in range(seats) for c in t.hand(s)]
        assert len(held) + len(t.state.deck) + len(face_up) == cards
    report = t.audit()
    # What each seat read of its own hand after each move is what the audit finds.
    for step, view in views.items():
        assert report.snapshots[step].hands == view
    final = report.snapshots[-1]
    held = [c for h in final.hands for c in h]
    assert sorted(held + list(final.deck) + face_up) == list(range(cards))


@settings(max_examples=6, deadline=None)
@given(st.data())
def test_random_playouts_never_create_or_lose_a_card(data):
    playout(data, data.draw(st.integers(2, 4)), data.draw(st.integers(4, 10)), moves=8)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_many_longer_random_playouts(data):
    playout(data, data.draw(st.integers(2, 6)), data.draw(st.integers(6, 24)), moves=25)
