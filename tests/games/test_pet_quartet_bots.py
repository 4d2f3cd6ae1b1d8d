"""The greedy Pet Quartet bot: legal, deterministic for a seed, better than random."""

from __future__ import annotations

import random
from dataclasses import replace

from pet_quartet_helpers import play, start, with_piles

from p2ptable.engine.playout import final_outcome, random_chance, random_policy
from p2ptable.engine.playout import play as play_out
from p2ptable.games.pet_quartet import GAME
from p2ptable.games.pet_quartet.bots import greedy_policy


def greedy_share(seats: int, games: int, options: dict[str, str]) -> float:
    """Share of games the greedy bot wins (shared wins split) against random bots."""
    won = 0.0
    for game_number in range(games):
        rng = random.Random(game_number)
        greedy_seat = game_number % seats
        policies = {
            seat: greedy_policy(rng) if seat == greedy_seat else random_policy(rng)
            for seat in range(seats)
        }
        state = play_out(GAME, GAME.initial(seats, options), policies, random_chance(rng))
        outcome = final_outcome(GAME, state)
        if greedy_seat in outcome.winners:
            won += 1 / len(outcome.winners)
    return won / games


def test_greedy_beats_random_players_clearly():
    # 3 players: a random bot would win a third of the games.
    assert greedy_share(3, 60, {}) > 0.5


def test_greedy_beats_random_players_with_maestro_tiles_and_advanced_scoring():
    assert greedy_share(4, 40, {"variant": "maestro", "scoring": "advanced"}) > 0.4


def test_greedy_takes_a_pile_that_completes_a_quartet():
    state = replace(with_piles(start(3), [5, 5], [9, 9]), collections=((9, 9), (), ()))
    assert greedy_policy(random.Random(0))(GAME, state, 0).text == "take 1"


def test_greedy_does_not_spoil_its_own_soloist_by_taking_a_pair_of_it():
    state = replace(with_piles(start(3), [7, 7]), collections=((7,), (), ()))
    assert greedy_policy(random.Random(0))(GAME, state, 0).text == "draw"


def test_greedy_returns_the_card_that_would_spoil_a_soloist():
    state = start(3, "maestro", tiles=["return-from-pile", "limit-2", "pass-left"])
    state = replace(with_piles(state, [4, 6]), collections=((6,), (), ()))
    state = play(state, "0: take 0")
    assert greedy_policy(random.Random(0))(GAME, state, 0).text == "return 6"
