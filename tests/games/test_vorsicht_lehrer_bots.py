"""The sensible Vorsicht Lehrer! bot: risk when the odds favour it."""

from __future__ import annotations

import random

import pytest
from vorsicht_lehrer_helpers import card, classroom, play

from p2ptable.bots import make_bot
from p2ptable.engine.api import Action
from p2ptable.engine.playout import play as playout
from p2ptable.engine.playout import random_chance, random_policy
from p2ptable.games.vorsicht_lehrer import GAME
from p2ptable.games.vorsicht_lehrer.bots import expected_cost, greedy_policy, success_chance


def test_success_chances_of_three_dice():
    assert success_chance(3) == 1.0 and success_chance(19) == 0.0
    assert success_chance(11) == 0.5 and success_chance(10) == 0.625
    assert success_chance(12) == pytest.approx(81 / 216)
    assert expected_cost(10, 18) == 10 and expected_cost(4, 8) == pytest.approx(8 * 35 / 216)


@pytest.mark.parametrize(("name", "verb"), [("Whispering", "risk"), ("Cheating", "take")])
def test_the_bot_risks_exactly_when_the_throw_succeeds_more_often_than_not(name, verb):
    c = card(name)  # Whispering: risk 9+ (74%); Cheating: risk 12+ (37.5%)
    state = play(classroom(2, hands={0: [c]}), f"0: play 0 {c}")
    assert greedy_policy(random.Random(0))(GAME, state, 0) == Action(verb)


def test_the_bot_risks_when_taking_would_reach_the_end_field():
    c = card("Cheating")
    state = play(classroom(2, hands={0: [c]}, tokens=(190, 0)), f"0: play 0 {c}")
    assert greedy_policy(random.Random(0))(GAME, state, 0) == Action("risk")


def test_the_bot_ends_the_game_only_when_it_is_ahead():
    stink, day = card("Stink bomb"), card("Daydreaming")
    hand = [day, stink, card("Daydreaming", 1), card("Daydreaming", 2)]
    ahead = classroom(2, hands={0: hand}, patience=190, tokens=(10, 50))
    behind = classroom(2, hands={0: hand}, patience=190, tokens=(50, 10))
    bot = greedy_policy(random.Random(0))
    assert bot(GAME, ahead, 0) == Action("play", (1, stink))
    assert bot(GAME, behind, 0).args[1] != stink


def test_greedy_is_the_sensible_bot_and_beats_random():
    assert make_bot(GAME, "greedy", random.Random(0)).__qualname__.startswith("greedy_policy")
    rng, wins = random.Random(5), 0
    for _ in range(30):
        bots = {0: greedy_policy(rng), 1: random_policy(rng)}
        final = playout(GAME, GAME.initial(2, {}), bots, random_chance(rng))
        wins += 0 in GAME.outcome(final).winners
    assert wins >= 20
