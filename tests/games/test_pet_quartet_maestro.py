"""Pet Quartet Maestro tiles: one special rule per Conductor."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pet_quartet_helpers import draw_place, play, start, texts, with_piles

from p2ptable.engine.api import Action, Chance, ChanceStep, IllegalAction, Turn
from p2ptable.games.pet_quartet import GAME

# Conductor 0..2 carry these tiles unless a test says otherwise.
TILES = ["limit-2", "bonus-draw", "return-from-pile"]
MORE_TILES = ["return-collected", "take-after-place", "pass-left"]


def test_limit_2_conductor_refuses_a_third_card():
    # "No more than 2 cards may be placed beneath this Conductor. (A third card may
    # not be added.)"
    state = play(start(3, "maestro", tiles=TILES), *draw_place(0, 7, 0), *draw_place(1, 8, 0))
    state = play(state, "2: draw", 9)
    assert texts(GAME.legal_actions(state, 2)) == ["place 1", "place 2"]


def test_bonus_draw_collects_the_pile_then_draws_a_card_to_keep():
    # "When you take this Conductor, you must draw a random card from the deck and
    # keep it."
    state = play(start(3, "maestro", tiles=TILES), *draw_place(0, 7, 1), "1: take 1")
    assert state.collections[1] == (7,)
    assert GAME.pending(state) == Chance(ChanceStep("draw", "maestro-draw", (len(state.deck),)))
    state = play(state, 5)
    assert state.collections[1] == (5, 7)
    assert GAME.pending(state) == Turn(2)


def test_bonus_draw_from_an_empty_deck_does_nothing():
    # Decision: a tile effect that needs a card that does not exist does nothing.
    state = play(start(3, "maestro", tiles=TILES), *draw_place(0, 7, 1))
    state = replace(state, deck=(), triggered_by=0, final_turns=(1, 2, 0), phase="final", current=1)
    state = play(state, "1: take 1")
    assert state.collections[1] == (7,)
    assert GAME.pending(state) == Turn(2)


def test_a_bonus_draw_of_the_last_card_triggers_the_end_with_the_taker_as_drawer():
    # "When the last card of the deck is drawn, the end of the game is triggered and
    # each player takes one last turn."
    state = with_piles(start(3, "maestro", tiles=TILES, first=2), [], [7])
    state = replace(state, deck=(9,))
    state = play(state, "2: take 1", 9)
    assert state.collections[2] == (7, 9)
    assert (state.triggered_by, state.phase, state.final_turns) == (2, "final", (0, 1, 2))


def test_return_from_pile_chooses_the_returned_card_before_collecting():
    # "When you take this Conductor, you must first choose one of its cards to return
    # to the box."
    state = with_piles(start(3, "maestro", tiles=TILES), [], [], [6, 8, 6])
    state = play(state, "0: take 2")
    assert state.phase == "return-from-pile"
    assert texts(GAME.legal_actions(state, 0)) == ["return 6", "return 8"]
    state = play(state, "0: return 6")
    assert (state.collections[0], state.returned) == ((6, 8), (6,))
    assert GAME.pending(state) == Turn(1)


def test_return_from_a_one_card_pile_leaves_nothing_to_collect():
    state = play(with_piles(start(3, "maestro", tiles=TILES), [], [], [6]), "0: take 2")
    assert texts(GAME.legal_actions(state, 0)) == ["return 6"]
    state = play(state, "0: return 6")
    assert (state.collections[0], state.returned, state.conductors[2].taken_by) == ((), (6,), 0)


def test_return_collected_offers_only_previously_collected_cards():
    # "When you take this Conductor, you must first choose one of your previously
    # collected cards to return to the box."
    state = with_piles(start(3, "maestro", tiles=MORE_TILES), [9, 9])
    state = replace(state, collections=((3, 5), (), ()))
    state = play(state, "0: take 0")
    assert state.phase == "return-collected"
    assert texts(GAME.legal_actions(state, 0)) == ["return 3", "return 5"]
    state = play(state, "0: return 5")
    assert (state.collections[0], state.returned) == ((3, 9, 9), (5,))


def test_return_collected_with_nothing_collected_does_nothing():
    # Decision: a tile effect that needs a card that does not exist does nothing.
    state = play(with_piles(start(3, "maestro", tiles=MORE_TILES), [9, 9]), "0: take 0")
    assert (state.collections[0], state.returned) == ((9, 9), ())
    assert GAME.pending(state) == Turn(1)


def test_take_after_place_lets_the_placer_take_at_once():
    # "When you place a card beneath this Conductor, take the Conductor and its cards
    # if you like."
    state = play(start(3, "maestro", tiles=MORE_TILES), *draw_place(0, 7, 1))
    assert state.phase == "after-place"
    assert texts(GAME.legal_actions(state, 0)) == ["take 1", "decline"]
    taken = play(state, "0: take 1")
    assert taken.collections[0] == (7,) and taken.is_out(0)
    assert GAME.pending(taken) == Turn(1)


def test_take_after_place_may_be_declined():
    state = play(start(3, "maestro", tiles=MORE_TILES), *draw_place(0, 7, 1), "0: decline")
    assert state.conductors[1].cards == (7,) and not state.is_out(0)
    assert GAME.pending(state) == Turn(1)


def test_take_after_place_only_offers_the_conductor_just_used():
    state = play(start(3, "maestro", tiles=MORE_TILES), *draw_place(0, 5, 0))
    state = play(state, *draw_place(1, 7, 1))
    with pytest.raises(IllegalAction, match="phase after-place: seat 1 may not 'take 0'"):
        GAME.apply(state, 1, Action("take", (0,)))


def test_taking_the_take_after_place_conductor_normally_has_no_effect():
    state = play(start(3, "maestro", tiles=MORE_TILES), *draw_place(0, 7, 1), "0: decline")
    state = play(state, "1: take 1")
    assert state.collections[1] == (7,) and GAME.pending(state) == Turn(2)


def test_pass_left_gives_a_card_to_the_next_seat_clockwise():
    # "When you take this Conductor you must choose one card to pass to the player on
    # your left. It can be one you collected this turn or previously."
    state = with_piles(start(3, "maestro", tiles=MORE_TILES, first=2), [], [], [8, 8])
    state = replace(state, collections=((), (), (4,)))
    state = play(state, "2: take 2")
    assert state.phase == "pass-left"
    assert texts(GAME.legal_actions(state, 2)) == ["give 4", "give 8"]
    state = play(state, "2: give 4")
    # the player on seat 2's left is seat 0 (seats are numbered clockwise)
    assert state.collections == ((4,), (), (8, 8))
    assert GAME.pending(state) == Turn(0)


def test_pass_left_may_give_a_card_collected_this_turn():
    state = with_piles(start(3, "maestro", tiles=MORE_TILES), [], [], [8])
    state = play(state, "0: take 2", "0: give 8")
    assert state.collections == ((), (8,), ())


def test_tiles_stay_with_their_conductors_for_the_whole_game():
    state = play(start(2, "maestro", tiles=["limit-2", "pass-left"]), *draw_place(0, 7, 0))
    state = play(state, "1: take 0", *draw_place(0, 8, 1), "0: take 1", "0: give 8")
    assert state.round == 2
    assert [(c.tile, c.limit) for c in state.conductors] == [("limit-2", 2), ("pass-left", 4)]
