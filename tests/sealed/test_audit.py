"""The end-of-game audit: secrets revealed, everything re-checked, every hand shown.

Spec: protocol/sealed-decks.md section 7 (item 7).  Issue: "every seat reveals x_i; a
function re-checks every shuffle/deal/transfer/reveal and returns every hand at
every moment."
"""

from __future__ import annotations

import dataclasses

import pytest

import p2ptable.sealed as sd
from tests.sealed.helpers import GAME_ID, Table, ready_table


def played() -> tuple[Table, list[tuple[tuple[int, ...], ...]]]:
    """A short game, with every seat's view of its own hand after each step."""
    t = Table(3, b"audit")
    views = []

    def look():
        views.append(tuple(t.hand(s) for s in range(3)))

    look()
    t.add(range(9))
    look()
    for seat in range(3):
        t.shuffle(seat)
        look()
    t.deal(2)
    look()
    t.open([None])
    look()
    t.shuffle(1, hand=True)
    look()
    t.transfer(1, 0, 2)
    look()
    t.reveal(2, 0)
    look()
    return t, views


GAME, VIEWS = played()


def test_audit_reproduces_every_hand_at_every_moment():
    report = GAME.audit()
    assert [snap.hands for snap in report.snapshots] == VIEWS
    assert [snap.op for snap in report.snapshots] == [
        "start",
        "add-cards",
        "shuffle",
        "shuffle",
        "shuffle",
        "open",
        "open",
        "hand-shuffle",
        "transfer",
        "reveal",
    ]
    assert report.final_hands == VIEWS[-1]
    assert [snap.step for snap in report.snapshots] == list(range(10))


def test_audit_shows_the_deck_order_and_the_faces():
    report = GAME.audit()
    after_shuffles = report.snapshots[4].deck
    dealt = report.snapshots[5]
    # Cards were dealt from the top, round the table.
    assert [dealt.hands[s] for s in range(3)] == [
        (after_shuffles[0], after_shuffles[3]),
        (after_shuffles[1], after_shuffles[4]),
        (after_shuffles[2], after_shuffles[5]),
    ]
    assert report.snapshots[6].faces == (after_shuffles[6],)
    assert report.snapshots[6].deck == after_shuffles[7:]
    # Every card is somewhere at every moment after the deck was made.
    for snap in report.snapshots[1:]:
        faces = [f for s in report.snapshots[: snap.step + 1] for f in s.faces if f is not None]
        held = [c for h in snap.hands for c in h]
        assert sorted(held + list(snap.deck) + faces) == list(range(9))


def test_a_wrong_revealed_secret_is_refused():
    secrets = [sd.SecretMessage(s, x) for s, x in enumerate(GAME.secrets)]
    secrets[1] = sd.SecretMessage(1, GAME.secrets[0])
    with pytest.raises(sd.SealedDeckError, match="secret does not match") as exc:
        sd.audit(GAME_ID, GAME.keys, secrets, GAME.ops)
    assert exc.value.seat == 1


def test_audit_re_checks_every_operation():
    secrets = [sd.SecretMessage(s, x) for s, x in enumerate(GAME.secrets)]
    ops = list(GAME.ops)
    reveal = ops[-1].msg
    ops[-1] = sd.Reveal(dataclasses.replace(reveal, card=(reveal.card + 1) % 9))
    with pytest.raises(sd.SealedDeckError, match="claims card") as exc:
        sd.audit(GAME_ID, GAME.keys, secrets, ops)
    assert exc.value.seat == 2
    ops = list(GAME.ops)
    ops[2], ops[3] = ops[3], ops[2]  # two shuffles swapped in the record
    with pytest.raises(sd.SealedDeckError, match="step"):
        sd.audit(GAME_ID, GAME.keys, secrets, ops)


def test_a_fresh_replay_of_the_record_reaches_the_same_state():
    state = sd.new_state(sd.make_table(GAME_ID, GAME.keys))
    for op in GAME.ops:
        state, _ = sd.apply_op(state, op)
    assert state == GAME.state
    assert ready_table(2, 4).state.ready
