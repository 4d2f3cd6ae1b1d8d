"""The sealed-deck table between seats, sans-IO: whole runs over an in-memory link.

Brief: "whole runs over an in-memory link (3-4 seats, small decks): hands
disjoint, reveals match; [...] messages out of order or duplicated are handled
(buffer or reject with a reason, never crash); malformed bytes -> rejected, never
raise."  Cheating is in test_table_cheating.py.
"""

from __future__ import annotations

import random

import pytest

import p2ptable.sealed as sd
from p2ptable.crypto.encoding import pack
from p2ptable.sealed.envelope import decode_envelope, encode_envelope, seal_message
from p2ptable.sealed.table_events import (
    Cheated,
    Done,
    HandDealt,
    KeysReady,
    Phase,
    Rejected,
    Revealed,
    Shuffled,
)
from p2ptable.sealed.table_protocol import SealedSeat
from tests.sealed.table_link import GAME_ID, Link, make_seats, of_type


def progress(events: list) -> list:
    return [e for e in events if not isinstance(e, Rejected)]


@pytest.fixture(scope="module")
def clean():
    """One honest 3-seat run (12 cards, hands of 3, one reveal each): seats and events."""
    seats = make_seats(3)
    return seats, Link(seats).run()


def test_every_seat_goes_through_the_phases_in_the_same_order(clean):
    seats, events = clean
    hands = of_type(events[0], Done)[0].hands
    reveals = [Revealed(s, of_type(events[s], HandDealt)[0].cards[0]) for s in range(3)]
    for m in seats:
        assert m.phase is Phase.DONE
        assert events[m.seat] == [
            KeysReady(), Shuffled(0), Shuffled(1), Shuffled(2),
            HandDealt(hands[m.seat]), *reveals, Done(hands),
        ]  # fmt: skip


def test_hands_are_disjoint_cards_of_the_deck(clean):
    _, events = clean
    hands = [of_type(events[s], HandDealt)[0].cards for s in range(3)]
    dealt = [c for hand in hands for c in hand]
    assert all(len(hand) == 3 for hand in hands)
    assert len(set(dealt)) == 9 and set(dealt) <= set(range(12))


def test_a_revealed_card_is_the_one_in_the_hand_and_leaves_it(clean):
    seats, events = clean
    for m in seats:
        dealt = of_type(events[m.seat], HandDealt)[0].cards
        assert Revealed(m.seat, dealt[0]) in events[(m.seat + 1) % 3]  # chose index 0
        assert m.hand == dealt[1:]


def test_the_record_replays_in_the_audit_and_agrees_with_every_seat(clean):
    seats, events = clean
    report = seats[1].audit()
    after_deal = next(s for s in report.snapshots if s.op == "open")
    assert after_deal.hands == of_type(events[0], Done)[0].hands
    assert report.final_hands == tuple(m.hand for m in seats)
    assert [type(op).__name__ for op in seats[0].record] == (
        ["AddCards", "Shuffle", "Shuffle", "Shuffle", "Open", "Reveal", "Reveal", "Reveal"]
    )


TURNS_4 = (0, 1, 2, 3, 0, 1)


@pytest.fixture(scope="module")
def in_order():
    """The events of a 4-seat table with every frame delivered in order."""
    return Link(make_seats(4, turns=TURNS_4)).run()


@pytest.mark.parametrize("seed", range(5))
def test_any_delivery_order_gives_the_same_table(seed, in_order):
    # Frames delivered in random order and work interleaved at random: shuffles,
    # shares and reveals arrive early and are kept until their phase comes.
    seats = make_seats(4, turns=TURNS_4)
    events = Link(seats).run(rng=random.Random(seed))
    for s in range(4):
        assert progress(events[s]) == in_order[s]
        assert not of_type(events[s], Rejected)


def test_every_frame_twice_is_refused_once_and_the_table_goes_on(clean):
    seats = make_seats(3)
    events = Link(seats, filter=lambda s, t, frame: [frame, frame]).run(rng=random.Random(7))
    for s in range(3):
        assert progress(events[s]) == clean[1][s]
        rejected = of_type(events[s], Rejected)
        assert len(rejected) == 2 * 5  # key, shuffle, shares, reveal, secret of 2 others
        assert {r.reason for r in rejected} == {"duplicate message, ignored"}


def test_the_next_shuffler_sends_before_it_verifies():
    # Pipelining: seat 1 builds on seat 0's deck as soon as it has the bytes, and
    # only then spends its time verifying seat 0's proof.
    seats = make_seats(3)
    link = Link(seats)
    link.collect()
    while link.queue:
        link.deliver()
    while seats[0].step():
        pass
    ((_, shuffle0),) = seats[0].take_outgoing()
    seats[1].receive(0, shuffle0)
    while seats[1].phase is Phase.KEYS:
        seats[1].step()
    seats[1].take_events()
    assert seats[1].step()
    out = seats[1].take_outgoing()
    assert [decode_envelope(f, 1).kind for _, f in out] == ["shuffle"]
    assert seats[1].take_events() == []  # seat 0's shuffle is not verified yet
    assert seats[1].step()
    assert seats[1].take_events() == [Shuffled(0)]


JUNK = {  # bytes, and what the refusal says
    "empty": (b"", "malformed envelope: malformed msgpack"),
    "not msgpack": (b"\xc1", "malformed envelope: malformed msgpack"),
    "not canonical": (b"\xd0\x05", "not in canonical form"),
    "not a map": (pack([1, 2]), "an envelope is a map with exactly"),
    "missing body": (pack({"basis": bytes(32), "kind": "key"}), "a map with exactly"),
    "unknown kind": (
        pack({"basis": bytes(32), "body": b"", "kind": "transfer"}),
        "unknown envelope kind 'transfer'",
    ),
    "short basis": (pack({"basis": b"x", "body": b"", "kind": "key"}), "basis is 32 bytes"),
    "body not a message": (
        pack({"basis": bytes(32), "body": b"\x80", "kind": "key"}),
        "malformed sealed message",
    ),
}


@pytest.mark.parametrize("name", sorted(JUNK))
def test_malformed_bytes_are_rejected_naming_the_sender(name):
    data, reason = JUNK[name]
    seats = make_seats(3)
    seats[0].receive(1, data)
    (event,) = seats[0].take_events()
    assert isinstance(event, Rejected) and event.seat == 1 and reason in event.reason


def test_malformed_bytes_change_nothing_and_the_table_still_completes(clean):
    seats = make_seats(3)
    for data, _ in JUNK.values():
        seats[0].receive(2, data)
    refused = seats[0].take_events()
    assert [(type(e), e.seat) for e in refused] == [(Rejected, 2)] * len(JUNK)
    events = Link(seats).run()
    assert progress(events[0]) == clean[1][0]


def test_a_message_from_one_seat_relayed_as_another_is_rejected():
    seats = make_seats(3)
    key_of_1 = seats[1].take_outgoing()[0][1]
    seats[0].receive(2, key_of_1)
    (event,) = seats[0].take_events()
    assert event == Rejected(2, "sent a message for seat 1")


def test_a_kind_that_does_not_match_its_body_is_rejected():
    seats = make_seats(3)
    env = decode_envelope(seats[1].take_outgoing()[0][1], 1)
    wrong = pack({"basis": env.basis, "body": env.body, "kind": "secret"})
    seats[0].receive(1, wrong)
    assert seats[0].take_events() == [Rejected(1, "a secret envelope holds a KeyMessage")]


def test_a_reveal_beyond_the_seats_turns_is_rejected():
    def extra(sender, target, frame):
        env = decode_envelope(frame, sender)
        if sender == 1 and env.kind == "reveal":  # the same reveal, on another basis
            return [frame, encode_envelope(seal_message(bytes(32), env.msg))]
        return [frame]

    seats = make_seats(3)
    events = Link(seats, filter=extra).run()
    for s in (0, 2):
        assert of_type(events[s], Rejected) == [Rejected(1, "a reveal beyond its turns, ignored")]
        assert seats[s].phase is Phase.DONE


def test_a_withheld_message_leaves_the_table_waiting_on_that_seat():
    def withhold(sender, target, frame):
        return [] if sender == 2 and decode_envelope(frame, 2).kind == "shares" else [frame]

    seats = make_seats(3)
    Link(seats, filter=withhold).run()
    assert [m.phase for m in seats[:2]] == [Phase.DEAL, Phase.DEAL]
    assert seats[0].waiting_for() == (2,) and seats[1].waiting_for() == (2,)


def test_our_own_mistakes_raise_usage_errors():
    seats = make_seats(3)
    with pytest.raises(sd.SealedUsageError, match="not another seat"):
        seats[0].receive(0, b"")
    with pytest.raises(sd.SealedUsageError, match="not another seat"):
        seats[0].receive(3, b"")
    with pytest.raises(sd.SealedUsageError, match="turn to reveal"):
        seats[0].reveal(0)
    rand = sd.SeededRandom(b"x")
    for bad in [
        dict(seats=1), dict(seat=3), dict(hand=5), dict(hand=0), dict(cards=[1, 1, 2, 3, 4, 5]),
        dict(turns=(0, 3)), dict(turns=(0, 0, 0)), dict(game_id=b"short"),
    ]:  # fmt: skip
        kw = dict(game_id=GAME_ID, seat=0, seats=3, cards=range(12), hand=2) | bad
        with pytest.raises(sd.SealedUsageError):
            SealedSeat(kw.pop("game_id"), kw.pop("seat"), kw.pop("seats"), **kw, rand=rand)


def test_a_reveal_of_a_card_we_do_not_hold_is_our_mistake_and_sends_nothing():
    seats = make_seats(3)
    link = Link(seats)

    def stop_at_our_turn(m):
        raise StopIteration

    with pytest.raises(StopIteration):
        link.run(reveal=stop_at_our_turn)
    assert seats[0].my_turn
    with pytest.raises(sd.SealedUsageError, match="no hand card 7"):
        seats[0].reveal(7)
    assert seats[0].take_outgoing() == [] and seats[0].my_turn
    with pytest.raises(sd.SealedUsageError, match="audit needs every seat's secret"):
        seats[0].audit()


def test_after_an_error_the_machine_stays_stopped():
    seats = make_seats(3)
    other = make_seats(3, seed=b"other")  # seat 1 of another table with our game id
    seats[0].receive(1, other[1].take_outgoing()[0][1])
    seats[0].receive(1, seats[1].take_outgoing()[0][1])  # a second, different key
    assert seats[0].phase is Phase.ERROR
    assert seats[0].take_events() == [Cheated(1, "sent two different key messages")]
    seats[0].receive(2, seats[2].take_outgoing()[0][1])
    assert not seats[0].step() and seats[0].take_events() == []
