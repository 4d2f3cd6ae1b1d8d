"""Every registered game, every option combination, every seat count: random playouts.

This is the generic contract of ``engine.api.Game``, checked the same way for all
games (in the spirit of OpenSpiel's random-simulation test): playouts end, whoever
must act has a legal action, outcomes are complete, a recorded history replays to
the same state, and every view is plain JSON at every step.

A game's options multiply (Teacher's Pet's seven house rules at five seat counts
are 640 tables): the default run plays a pairwise cover of the seat counts and
option values (every two settings together in some playout, ``budget.pairwise``),
the rest of the product is marked slow and played in a thorough run.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from p2ptable.engine.api import Action, BadOptions, Chance, GameOver, Simultaneous, Turn
from p2ptable.engine.playout import History, play, random_chance, random_policy, replay
from p2ptable.games import all_games
from tests.budget import examples, pairwise

SEEDS = tuple(range(examples(2)))  # both with --hypothesis-profile thorough (tests/budget.py)
MAX_STEPS = 5_000


def valid_tables(game):
    """(seats, options) for every valid combination of one game."""
    choices = [[(spec.name, value) for value in spec.choices] for spec in game.options]
    for combo in itertools.product(*choices):
        for seats in range(game.min_seats, game.max_seats + 1):
            try:
                game.initial(seats, dict(combo))
            except BadOptions:
                continue  # e.g. Pet Quartet's Duet with more than 2 players
            yield seats, combo


def configurations():
    """(game name, seats, options) for every valid combination; those outside
    the game's pairwise cover are marked slow."""
    for name, game in sorted(all_games().items()):
        tables = list(valid_tables(game))
        cover = set(pairwise([(seats, *combo) for seats, combo in tables]))
        for k, (seats, combo) in enumerate(tables):
            label = ",".join(f"{key}={value}" for key, value in combo)
            marks = () if k in cover else (pytest.mark.slow,)
            yield pytest.param(name, seats, dict(combo), id=f"{name}-{seats}p-{label}", marks=marks)


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


def test_the_default_run_plays_every_two_settings_together_and_the_thorough_run_all():
    # The pairwise cover is a real cover: every pair of values some valid table
    # holds is held by a table of the default run, and no table is lost.
    tables = list(configurations())
    for name, game in all_games().items():
        ours = [p for p in tables if p.values[0] == name]
        assert len(ours) == len(list(valid_tables(game)))
        quick = [(p.values[1], *sorted(p.values[2].items())) for p in ours if not p.marks]
        every = [(p.values[1], *sorted(p.values[2].items())) for p in ours]

        def pairs(rows):
            return {
                (a, r[a], b, r[b])
                for r in rows
                for a, b in itertools.combinations(range(len(r)), 2)
            }

        assert pairs(quick) == pairs(every), name
        assert {row[0] for row in quick} == set(range(game.min_seats, game.max_seats + 1))
    assert len([p for p in tables if not p.marks]) < len(tables) // 4


def test_a_pairwise_cover_holds_every_pair_and_is_the_same_each_time():
    rows = [(a, b, c) for a in range(3) for b in "xy" for c in (True, False)]
    rows.remove((2, "y", False))
    chosen = pairwise(rows)
    assert chosen == pairwise(rows) and len(chosen) < len(rows)
    want = {(i, r[i], j, r[j]) for r in rows for i, j in itertools.combinations(range(3), 2)}
    got = {
        (i, r[i], j, r[j])
        for r in (rows[k] for k in chosen)
        for i, j in itertools.combinations(range(3), 2)
    }
    assert got == want
    assert pairwise([]) == [] and pairwise([(1,), (2,)]) == [0, 1]


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
