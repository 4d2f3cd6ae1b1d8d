"""Every registered game, every option combination, every seat count: random playouts.

This is the generic contract of ``engine.api.Game``, checked the same way for all
games (in the spirit of OpenSpiel's random-simulation test): playouts end, whoever
must act has a legal action, outcomes are complete, a recorded history replays to
the same state, and every view is plain JSON at every step.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from p2ptable.engine.api import Action, BadOptions, Chance, GameOver, Simultaneous, Turn
from p2ptable.engine.playout import History, play, random_chance, random_policy, replay
from p2ptable.games import all_games
from tests.budget import examples

SEEDS = tuple(range(examples(2)))  # both with --hypothesis-profile thorough (tests/budget.py)
MAX_STEPS = 5_000


def configurations():
    """(game name, seats, options) for every valid combination."""
    for name, game in sorted(all_games().items()):
        choices = [[(spec.name, value) for value in spec.choices] for spec in game.options]
        for combo in itertools.product(*choices):
            options = dict(combo)
            for seats in range(game.min_seats, game.max_seats + 1):
                try:
                    game.initial(seats, options)
                except BadOptions:
                    continue  # e.g. Pet Quartet's Duet with more than 2 players
                label = ",".join(f"{k}={v}" for k, v in combo)
                yield pytest.param(name, seats, options, id=f"{name}-{seats}p-{label}")


def check_step(game, state, seats, event):
    """Before ``event`` is applied: views are JSON and the event fits the decision."""
    for seat in (None, *range(seats)):
        json.dumps(game.view(state, seat))
    decision = game.pending(state)
    kind, seat, payload = event
    if kind == "chance":
        assert isinstance(decision, Chance)
        decision.step.check(payload)
        return
    if isinstance(decision, Turn):
        assert seat == decision.seat
    else:
        assert isinstance(decision, Simultaneous) and seat in decision.seats
    legal = game.legal_actions(state, seat)
    assert legal, f"{game.name}: seat {seat} must act but has no legal action"
    assert payload in legal and Action.parse(payload.text) == payload


@pytest.mark.parametrize(("name", "seats", "options"), list(configurations()))
def test_random_playouts_honour_the_game_contract(name, seats, options):
    game = all_games()[name]
    for seed in SEEDS:
        rng = random.Random(seed)
        start, history = game.initial(seats, options), History()
        policy = random_policy(rng)
        final = play(game, start, lambda seat, p=policy: p, random_chance(rng), MAX_STEPS, history)
        assert isinstance(game.pending(final), GameOver)
        outcome = game.outcome(final)
        assert outcome is not None
        assert len(outcome.scores) == seats
        assert outcome.winners and set(outcome.winners) <= set(range(seats))
        # replay the record one event at a time, checking every intermediate state
        state = start
        for event in history.events:
            check_step(game, state, seats, event)
            state = replay(game, state, History([event]))
        assert state == final
        assert replay(game, start, history) == final
        for seat in (None, *range(seats)):
            json.dumps(game.view(final, seat))
