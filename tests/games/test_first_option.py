"""The ``first`` option: a rematch names its first player (p2ptable/rematch.py).

Issue 26: "'play again' offers the same people, game and options a new game at
the same table (a new game id, the first player rotated)".  Each game's rules
draw the first player by chance ("Choose someone to be the first player"); a
rematch's genesis names it instead, with the option ``first`` (a seat number),
and the setup then starts exactly where that chance step would have led.  The
option is written only when given: without it every game is as before.
"""

from __future__ import annotations

import pytest

from p2ptable.engine.api import (
    FIRST,
    FIRST_PLAYER,
    BadOptions,
    Chance,
    ChanceStep,
    normalize_options,
)
from p2ptable.games import all_games, get_game

GAMES = sorted(all_games())


@pytest.mark.parametrize("name", GAMES)
def test_without_first_the_first_player_is_drawn_and_the_option_is_not_written(name):
    game = get_game(name)
    assert FIRST not in normalize_options(game, 3, {})
    state = game.initial(3, {})
    steps = []
    while isinstance(game.pending(state), Chance) and FIRST_PLAYER not in steps:
        step = game.pending(state).step
        steps.append(step.purpose)
        state = game.resolve(state, tuple(0 for _ in step.ranges))
    assert steps[-1] == FIRST_PLAYER


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("first", [0, 1, 2])
def test_a_named_first_player_is_the_state_the_roll_would_have_given(name, first):
    game = get_game(name)
    opts = normalize_options(game, 3, {FIRST: str(first)})
    assert opts[FIRST] == str(first)
    named = game.initial(3, opts)
    rolled = game.initial(3, {})
    assert game.pending(rolled) == Chance(ChanceStep("roll", FIRST_PLAYER, (3,)))
    assert named == game.resolve(rolled, (first,))


def test_pet_quartet_maestro_draws_its_tiles_and_then_the_named_seat_plays():
    # "place a random Maestro tile in front of each Conductor token": still drawn;
    # the roll for the first player that follows it is not.
    game = get_game("pet-quartet")
    state = game.initial(3, {"variant": "maestro", FIRST: "2"})
    assert game.pending(state) == Chance(ChanceStep("shuffle", "maestro-tiles", (6, 5, 4)))
    state = game.resolve(state, (5, 0, 3))
    rolled = game.resolve(game.resolve(game.initial(3, {"variant": "maestro"}), (5, 0, 3)), (2,))
    assert state == rolled
    assert (state.phase, state.current, state.round_starter) == ("turn", 2, 2)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("value", ["3", "-1", "01", "+1", " 1", "one", "", "1.0"])
def test_first_must_be_a_seat_of_the_table_in_its_one_spelling(name, value):
    with pytest.raises(BadOptions, match="option first must be"):
        normalize_options(get_game(name), 3, {FIRST: value})


def test_a_game_whose_rules_do_not_take_first_refuses_it():
    from tests.choices.bid_game import BidGame  # noqa: PLC0415 - a test game, only here

    with pytest.raises(BadOptions, match="has no option 'first'"):
        normalize_options(BidGame(), 2, {FIRST: "0"})
