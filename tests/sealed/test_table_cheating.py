"""Every honest seat catches a cheating seat, and no honest seat is ever blamed.

Brief: "each cheating kind detected as Cheated(seat) by every honest seat (tamper
a shuffle frame, a share, a reveal)".  The cheater here runs the honest machine,
and its frames are changed on the way out, the same for every receiver; the
split-view cheats send different messages to different seats.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import p2ptable.sealed as sd
from p2ptable.sealed.envelope import decode_envelope, encode_envelope, seal_message
from p2ptable.sealed.group import G
from p2ptable.sealed.table_events import Cheated, HandDealt, Phase, Rejected, Revealed
from tests.sealed.table_link import GAME_ID, Link, make_seats, of_type


def tamper(cheater: int, kind: str, change):
    """A link filter: the cheater's ``kind`` message is changed, for every receiver."""

    def filter_(sender, target, frame):
        env = decode_envelope(frame, sender)
        if sender != cheater or env.kind != kind:
            return [frame]
        return [encode_envelope(seal_message(env.basis, change(env.msg)))]

    return filter_


def swap_two_cards(m):
    return dataclasses.replace(m, cards=(m.cards[1], m.cards[0], *m.cards[2:]))


def shift_first_share(m):
    (d, proof), *rest = m.shares
    return dataclasses.replace(m, shares=((d + G, proof), *rest))


CHEATS = {  # kind of message, the change, what every honest seat says
    "key without a proof of knowledge": (
        "key", lambda m: dataclasses.replace(m, key=m.key + G), "proof of knowledge",
    ),
    "shuffle with two cards swapped": ("shuffle", swap_two_cards, "bad shuffle of the deck"),
    "shuffle proof changed": (
        "shuffle",
        lambda m: dataclasses.replace(
            m, proof=dataclasses.replace(m.proof, k_e=(m.proof.k_e[0] + 1, *m.proof.k_e[1:]))
        ),
        "bad shuffle of the deck",
    ),
    "wrong decryption share": ("shares", shift_first_share, "decryption share proof fails"),
    "reveal claiming another card": (
        "reveal", lambda m: dataclasses.replace(m, card=(m.card + 1) % 12), "claims card",
    ),
    "reveal with a wrong share": (
        "reveal", lambda m: dataclasses.replace(m, share=m.share + G), "share proof fails",
    ),
    "secret that is not behind its key": (
        "secret", lambda m: dataclasses.replace(m, secret=m.secret + 1), "does not match its key",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CHEATS))
@pytest.mark.parametrize("cheater", [0, 2])
def test_every_honest_seat_names_the_cheater(name, cheater):
    kind, change, reason = CHEATS[name]
    seats = make_seats(3)
    link = Link(seats, filter=tamper(cheater, kind, change))
    events = link.run(rng=random.Random(cheater))
    for m in seats:
        if m.seat == cheater:
            continue
        (caught,) = of_type(events[m.seat], Cheated)
        assert caught.seat == cheater and reason in caught.reason, caught
        assert m.phase is Phase.ERROR and not m.step()


@pytest.mark.parametrize("name", ["shuffle with two cards swapped", "wrong decryption share"])
def test_no_card_is_read_before_every_shuffle_and_share_checks_out(name):
    kind, change, _ = CHEATS[name]
    seats = make_seats(3)
    link = Link(seats, filter=tamper(1, kind, change))
    events = link.run()
    for s in (0, 2):
        assert not of_type(events[s], HandDealt)
    if kind == "shuffle":  # and no honest seat published a share of the forged deck
        assert all(decode_envelope(f, s).kind != "shares" for s, f in link.sent if s != 1)


def test_reveals_before_a_false_one_stand():
    _, change, _ = CHEATS["reveal claiming another card"]
    seats = make_seats(3, turns=(0, 1, 2, 1))
    events = Link(seats, filter=tamper(2, "reveal", change)).run()
    for s in (0, 1):
        assert [e.seat for e in of_type(events[s], Revealed)] == [0, 1]
        assert of_type(events[s], Cheated)[0].seat == 2


def test_a_key_sent_differently_to_two_seats_stops_the_table_blaming_no_honest_seat():
    other = sd.new_secret(sd.SeededRandom(b"twin"))

    def two_keys(sender, target, frame):
        env = decode_envelope(frame, sender)
        if sender == 2 and target == 1 and env.kind == "key":
            twin = sd.make_key(GAME_ID, 2, other, sd.SeededRandom(b"proof"))
            return [encode_envelope(seal_message(env.basis, twin))]
        return [frame]

    seats = make_seats(3)
    events = Link(seats, filter=two_keys).run()
    for s in (0, 1):
        (caught,) = of_type(events[s], Cheated)
        assert caught.seat is None and "different history" in caught.reason


def test_a_shuffle_sent_differently_to_two_seats_blames_no_honest_seat():
    # Seat 1 sends seat 3 another valid shuffle of the same deck.  Without the
    # history hash seat 3 would build on it and the others would blame seat 3.
    seen = {}

    def two_shuffles(sender, target, frame):
        env = decode_envelope(frame, sender)
        if env.kind == "shuffle":
            seen[sender] = env.msg
        if sender == 1 and target == 3 and env.kind == "shuffle":
            state = seats[1].state
            if state.step == seen[0].step:  # seat 1 has not applied seat 0's yet
                state = sd.apply_shuffle(state, seen[0], own=True)
            twin = sd.make_shuffle(state, 1, sd.SeededRandom(b"twin"))
            return [encode_envelope(seal_message(env.basis, twin))]
        return [frame]

    seats = make_seats(4)
    events = Link(seats, filter=two_shuffles).run()
    caught = [c for s in (0, 2, 3) for c in of_type(events[s], Cheated)]
    assert caught and all(c.seat is None for c in caught)
    assert not any(of_type(events[s], HandDealt) for s in range(4))


def test_seats_that_do_not_agree_on_the_table_stop_at_the_keys():
    seats = make_seats(3)
    seats[2] = make_seats(3, cards=13)[2]
    events = Link(seats).run()
    for s in range(3):
        (caught,) = of_type(events[s], Cheated)
        assert caught.seat is None and "same table" in caught.reason


@settings(max_examples=25, deadline=None)
@given(frame=st.integers(0, 29), position=st.integers(0, 10_000), bit=st.integers(0, 7))
def test_a_flipped_bit_anywhere_is_noticed_and_never_crashes_a_seat(frame, position, bit):
    flipped = []

    count = [0]

    def flip_one(sender, target, data):
        count[0] += 1
        if count[0] - 1 != frame:
            return [data]
        flipped.append((sender, target))
        i = position % len(data)
        return [data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1 :]]

    seats = make_seats(3)
    events = Link(seats, filter=flip_one).run()  # any exception in a seat fails the test
    ((sender, target),) = flipped
    assert of_type(events[target], Rejected) or of_type(events[target], Cheated)
    for s in range(3):  # nobody but the sender of the flipped frame is ever named
        assert all(c.seat in (None, sender) for c in of_type(events[s], Cheated))
