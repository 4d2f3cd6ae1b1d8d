"""Vorsicht Lehrer! invariants, checked at every step of random playouts (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.engine.api import Action, Chance, GameOver, Simultaneous, Turn, chooser
from p2ptable.engine.playout import History, play, random_chance, replay
from p2ptable.games.vorsicht_lehrer import GAME
from p2ptable.games.vorsicht_lehrer.bots import greedy_policy
from p2ptable.games.vorsicht_lehrer.state import all_school_cards, all_teacher_cards
from tests.budget import examples

MAX_STEPS = 2_000  # a 6-player game takes a few hundred steps


@st.composite
def tables(draw):
    seats = draw(st.integers(2, 6))
    return seats, {"track": draw(st.sampled_from(["200", "100"]))}, draw(st.integers(0, 2**32))


def walk(seats, options, seed):
    """Yield (state, decision) at every step of a random playout, then the end."""
    rng = random.Random(seed)
    state = GAME.initial(seats, options)
    for _ in range(MAX_STEPS):
        decision = GAME.pending(state)
        yield state, decision
        if isinstance(decision, GameOver):
            return
        if isinstance(decision, Chance):
            state = GAME.resolve(state, tuple(rng.randrange(r) for r in decision.step.ranges))
        else:
            seat = chooser(decision)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    raise AssertionError(f"no end within {MAX_STEPS} steps")


@settings(max_examples=30, deadline=None)
@given(tables())
def test_no_card_is_ever_created_or_lost(table):
    school, teachers = Counter(range(58)), Counter(range(20))
    for state, _ in walk(*table):
        assert all_school_cards(state) == school
        assert all_teacher_cards(state) == teachers
        assert list(state.deck) == sorted(state.deck)
        assert list(state.teacher_deck) == sorted(state.teacher_deck)
        if state.phase in ("turn", "over") and state.dealing == ():
            assert all(len(h) == 4 for h in state.hands) or state.phase == "over"


@settings(max_examples=30, deadline=None)
@given(tables())
def test_every_playout_ends_at_the_end_field_with_a_winner(table):
    seats, options, _ = table
    *_, (state, decision) = walk(*table)
    assert decision == GameOver()
    track = int(options["track"])
    assert state.patience >= track or max(state.tokens) >= track
    outcome = GAME.outcome(state)
    assert len(outcome.scores) == seats and outcome.winners
    assert all(outcome.scores[w] == min(outcome.scores) for w in outcome.winners)


@settings(max_examples=30, deadline=None)
@given(tables())
def test_only_the_seat_to_act_has_legal_actions(table):
    seats = table[0]
    for state, decision in walk(*table):
        for seat in range(seats):
            legal = GAME.legal_actions(state, seat)
            asked = isinstance(decision, Simultaneous) and seat in decision.seats
            if (isinstance(decision, Turn) and decision.seat == seat) or asked:
                assert legal and all(Action.parse(a.text) == a for a in legal)
            else:
                assert legal == ()


@settings(max_examples=20, deadline=None)
@given(tables())
def test_replaying_the_history_reproduces_the_final_state(table):
    seats, options, seed = table
    rng = random.Random(seed)
    start, history = GAME.initial(seats, options), History()
    policy = greedy_policy(rng)
    final = play(GAME, start, lambda seat: policy, random_chance(rng), history=history)
    assert replay(GAME, start, history) == final


@settings(max_examples=examples(20), deadline=None)
@given(tables())
def test_views_hide_the_hands_and_the_deck(table):
    seats = table[0]
    for state, _ in walk(*table):
        public = GAME.view(state, None)
        assert json.loads(json.dumps(public)) == public
        assert public["hand"] is None
        text = json.dumps(public)
        for seat in range(seats):
            mine = GAME.view(state, seat)
            assert [c["id"] for c in mine["hand"]] == list(state.hands[seat])
            # the seat view is the public view plus its own hand, nothing else
            assert {**mine, "you": None, "hand": None} == public
        assert '"deck"' not in text and public["deck_left"] == len(state.deck)
