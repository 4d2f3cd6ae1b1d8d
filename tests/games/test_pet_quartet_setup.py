"""Pet Quartet set-up: the deck, the Conductors, the options, the first player."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pet_quartet_helpers import start, tile_picks

from p2ptable.engine.api import BadOptions, Chance, ChanceStep, Game, Turn
from p2ptable.games import get_game, pet_quartet
from p2ptable.games.pet_quartet import GAME
from p2ptable.games.pet_quartet.state import TILES


def test_game_is_registered_under_its_name():
    assert get_game("pet-quartet") is GAME
    assert isinstance(GAME, Game)
    assert (GAME.title, GAME.min_seats, GAME.max_seats) == ("Pet Quartet", 2, 6)


@pytest.mark.parametrize(
    ("seats", "highest"),
    [
        # "2	All of the 10, 11, 12, and 13 cards."
        (2, 9),
        # "3	All of the 11, 12, and 13 cards."
        (3, 10),
        # "4	All of the 12, and 13 cards."
        (4, 11),
        # "5	All of the 13 cards."
        (5, 12),
        # "6	None (Use all of the cards)."
        (6, 13),
    ],
)
def test_deck_holds_n_copies_of_each_n_up_to_the_highest_value_kept(seats, highest):
    # "The number on each card indicates how many cards of that type are in the deck."
    state = GAME.initial(seats, {})
    assert Counter(state.deck) == {value: value for value in range(3, highest + 1)}
    assert list(state.deck) == sorted(state.deck)  # a multiset: no order until drawn


def test_the_full_deck_has_88_cards():
    # "88 Musician Cards. Each musician card is marked with a number from 3 to 13"
    assert len(GAME.initial(6, {}).deck) == 88


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_one_conductor_per_player_each_taking_four_cards(seats):
    # "Beneath the deck, place one Conductor token per player"
    # "Each Conductor may only have 4 cards."
    state = GAME.initial(seats, {})
    assert len(state.conductors) == seats
    assert {(c.limit, c.tile, c.taken_by, c.cards) for c in state.conductors} == {
        (4, None, None, ())
    }
    assert state.collections == ((),) * seats


def test_duet_uses_3_conductors_with_limits_2_3_4_and_cards_3_to_10():
    # "Set the game up for a 3-player game, using the cards numbered 3-10 and 3
    # Conductor tokens." / "A 3rd card may not be placed here. A 4th card may not be
    # placed here. A 5th card may not be placed here."
    state = GAME.initial(2, {"variant": "duet"})
    assert [c.limit for c in state.conductors] == [2, 3, 4]
    assert Counter(state.deck) == {value: value for value in range(3, 11)}
    assert len(state.collections) == 2


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_duet_is_for_two_players_only(seats):
    # "Duet Tiles (2-Player Variant)"
    with pytest.raises(BadOptions, match="duet"):
        GAME.initial(seats, {"variant": "duet"})


@pytest.mark.parametrize(
    ("seats", "options", "message"),
    [
        (1, {}, "2 to 6 players"),
        (7, {}, "2 to 6 players"),
        (3, {"colour": "red"}, "no option 'colour'"),
        (3, {"variant": "solo"}, "variant must be one of"),
        (3, {"scoring": "golf"}, "scoring must be one of"),
    ],
)
def test_bad_options_are_refused(seats, options, message):
    with pytest.raises(BadOptions, match=message):
        GAME.initial(seats, options)


def test_options_default_to_standard_basic():
    state = GAME.initial(3, {})
    assert (state.variant, state.scoring) == ("standard", "basic")


def test_first_player_is_a_fair_roll_over_the_seats():
    # "Choose someone to be the first player for the first round." We choose at random.
    state = GAME.initial(4, {})
    assert GAME.pending(state) == Chance(ChanceStep("roll", "first-player", (4,)))
    state = GAME.resolve(state, (2,))
    assert GAME.pending(state) == Turn(2)
    assert (state.round, state.round_starter, state.phase) == (1, 2, "turn")


def test_maestro_tiles_are_picked_without_replacement_one_per_conductor():
    # "During setup for the game, place a random Maestro tile in front of each
    # Conductor token."
    state = GAME.initial(3, {"variant": "maestro"})
    assert GAME.pending(state) == Chance(ChanceStep("shuffle", "maestro-tiles", (6, 5, 4)))
    # picks index the tiles still unused, in canonical order
    state = GAME.resolve(state, (5, 0, 3))
    assert [c.tile for c in state.conductors] == ["pass-left", "limit-2", "take-after-place"]
    assert GAME.pending(state) == Chance(ChanceStep("roll", "first-player", (3,)))


def test_six_players_use_all_six_maestro_tiles():
    state = GAME.initial(6, {"variant": "maestro"})
    state = GAME.resolve(state, (0, 0, 0, 0, 0, 0))
    assert tuple(c.tile for c in state.conductors) == TILES


def test_the_limit_2_tile_sets_its_conductors_limit():
    # "No more than 2 cards may be placed beneath this Conductor."
    state = start(3, "maestro", tiles=["bonus-draw", "limit-2", "pass-left"])
    assert [c.limit for c in state.conductors] == [4, 2, 4]


def test_tile_picks_helper_round_trips():
    assert tile_picks(["pass-left", "limit-2", "take-after-place"]) == (5, 0, 3)


def test_states_compare_by_value_and_hash():
    a, b = start(3, first=1), start(3, first=1)
    assert a == b and hash(a) == hash(b)
    assert a != start(3, first=2)


def test_rules_notes_are_the_packaged_rules_md_and_name_real_tests():
    # every decision in the notes names the test that proves it (in the developers'
    # part of RULES.md, which `p2ptable rules` does not print): those tests exist
    notes = Path(pet_quartet.__file__).with_name("RULES.md").read_text(encoding="utf-8")
    assert notes.startswith("# Pet Quartet") and GAME.rules_notes() in notes
    named = set(re.findall(r"`(test_\w+)`", notes))
    defined = {
        name
        # the game's own tests, and those every game shares (test_first_option.py)
        for path in [
            *Path(__file__).parent.glob("test_pet_quartet_*.py"),
            Path(__file__).with_name("test_first_option.py"),
        ]
        for name in re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE)
    }
    assert len(named) > 40
    assert named <= defined, named - defined
