"""Pet Quartet invariants, checked at every step of random playouts (hypothesis).

The playouts are driven by a local random generator seeded by hypothesis, so every
failure shrinks to a seed that replays it exactly.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from pet_quartet_helpers import FixedChance

from p2ptable.engine.api import Action, Chance, GameOver, IllegalAction, Turn
from p2ptable.engine.playout import History, play, random_chance, random_policy, replay
from p2ptable.games.pet_quartet import GAME
from p2ptable.games.pet_quartet.bots import greedy_policy
from p2ptable.games.pet_quartet.state import all_cards, starting_deck
from tests.budget import examples

MAX_STEPS = 2_000  # a 6-player game has 88 cards: a few hundred steps at most


@st.composite
def tables(draw):
    """(seats, options, seed) for any valid game."""
    variant = draw(st.sampled_from(["standard", "maestro", "duet"]))
    seats = 2 if variant == "duet" else draw(st.integers(2, 6))
    scoring = draw(st.sampled_from(["basic", "advanced"]))
    return seats, {"variant": variant, "scoring": scoring}, draw(st.integers(0, 2**32))


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
            state = GAME.apply(
                state, decision.seat, rng.choice(GAME.legal_actions(state, decision.seat))
            )
    raise AssertionError(f"no end within {MAX_STEPS} steps")


@settings(max_examples=40, deadline=None)
@given(tables())
def test_no_card_is_ever_created_or_lost(table):
    seats, options, seed = table
    deck = Counter(starting_deck(seats, options["variant"]))
    for state, _ in walk(seats, options, seed):
        assert all_cards(state) == deck


@settings(max_examples=40, deadline=None)
@given(tables())
def test_every_playout_ends_with_a_winner(table):
    seats, options, seed = table
    *_, (state, decision) = walk(seats, options, seed)
    assert decision == GameOver()
    outcome = GAME.outcome(state)
    assert len(outcome.scores) == seats and outcome.winners


@settings(max_examples=40, deadline=None)
@given(tables())
def test_the_seat_to_act_always_has_a_legal_action_and_nobody_else_has_one(table):
    seats, options, seed = table
    for state, decision in walk(seats, options, seed):
        for seat in range(seats):
            legal = GAME.legal_actions(state, seat)
            if isinstance(decision, Turn) and decision.seat == seat:
                assert legal
                assert all(Action.parse(a.text) == a for a in legal)
            else:
                assert legal == ()


@settings(max_examples=25, deadline=None)
@given(tables(), st.sampled_from(["draw", "pass", "take 0", "place 5", "give 3", "decline"]))
def test_an_action_outside_the_legal_list_is_always_refused(table, text):
    seats, options, seed = table
    action = Action.parse(text)
    for state, decision in walk(seats, options, seed):
        if isinstance(decision, Turn) and action not in GAME.legal_actions(state, decision.seat):
            try:
                GAME.apply(state, decision.seat, action)
            except IllegalAction as error:
                assert f"phase {state.phase}: seat {decision.seat}" in str(error)
            else:
                raise AssertionError(f"{text} accepted in {state.phase}")


@settings(max_examples=25, deadline=None)
@given(tables())
def test_replaying_the_history_reproduces_the_final_state(table):
    seats, options, seed = table
    rng = random.Random(seed)
    start, history = GAME.initial(seats, options), History()
    policy = random_policy(rng)
    final = play(GAME, start, lambda seat: policy, random_chance(rng), history=history)
    assert replay(GAME, start, history) == final
    # the record is readable: every action survives its text form
    for kind, _, payload in history.events:
        if kind == "action":
            assert Action.parse(payload.text) == payload


@settings(max_examples=examples(15), deadline=None)
@given(tables())
def test_views_are_json_and_equal_the_public_view_plus_you(table):
    seats, options, seed = table
    for state, _ in walk(seats, options, seed):
        public = GAME.view(state, None)
        assert json.loads(json.dumps(public)) == public
        for seat in range(seats):
            assert GAME.view(state, seat) == {**public, "you": seat}


@settings(max_examples=15, deadline=None)
@given(tables())
def test_states_stay_hashable_and_equal_by_value(table):
    seats, options, seed = table
    seen = {}
    for state, _ in walk(seats, options, seed):
        seen[state] = hash(state)
    for state, digest in seen.items():
        assert hash(state) == digest


def test_a_fixed_chance_script_replays_the_same_game():
    # Resolving chance from a fixed list makes a whole game deterministic.
    rng = random.Random(7)
    history = History()
    start = GAME.initial(4, {"variant": "maestro"})
    policy = greedy_policy(random.Random(1))
    final = play(GAME, start, lambda seat: policy, random_chance(rng), history=history)
    script = FixedChance(o for kind, _, o in history.events if kind == "chance")
    same_policy = greedy_policy(random.Random(1))
    again = play(GAME, start, lambda seat: same_policy, script)
    assert again == final
    assert [s.purpose for s in script.steps][:2] == ["maestro-tiles", "first-player"]
