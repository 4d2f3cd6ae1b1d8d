"""Pet Quartet game end: the last card triggers one last turn for each player."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pet_quartet_helpers import draw_place, play, start, texts, with_piles

from p2ptable.engine.api import Action, GameOver, IllegalAction, Turn
from p2ptable.games.pet_quartet import GAME


def nearly_over(seats=3, first=0, variant="standard", piles=(), **kw):
    """A table whose deck holds only a 5 and a 9 (and ``piles`` under Conductors)."""
    return replace(with_piles(start(seats, variant, first=first, **kw), *piles), deck=(5, 9))


def test_drawing_the_last_card_triggers_the_end_and_the_drawer_still_places_it():
    # "Once the last card of the deck is drawn, the end of the game is triggered."
    state = play(nearly_over(), *draw_place(0, 5, 0), "1: draw", 9)
    assert state.deck == () and state.triggered_by == 1
    assert GAME.pending(state) == Turn(1)
    assert texts(GAME.legal_actions(state, 1)) == ["place 0", "place 1", "place 2"]


def test_each_player_takes_one_last_turn_from_the_drawers_left_round_to_the_drawer():
    # "When the last card of the deck is drawn, the end of the game is triggered and
    # each player takes one last turn."
    state = play(nearly_over(), *draw_place(0, 5, 0), *draw_place(1, 9, 1))
    assert (state.phase, state.final_turns) == ("final", (2, 0, 1))
    seen = []
    while not isinstance(GAME.pending(state), GameOver):
        seat = GAME.pending(state).seat
        seen.append(seat)
        state = play(state, f"{seat}: pass")
    assert seen == [2, 0, 1]


def test_a_final_turn_may_take_any_pile_or_pass_but_never_draw():
    # "You are not required to take a pile on your last turn. You may choose to pass
    # instead."
    state = play(nearly_over(), *draw_place(0, 5, 0), *draw_place(1, 9, 1))
    assert texts(GAME.legal_actions(state, 2)) == ["take 0", "take 1", "pass"]
    with pytest.raises(IllegalAction, match="phase final: seat 2 may not 'draw'"):
        GAME.apply(state, 2, Action("draw"))
    state = play(state, "2: take 1", "0: pass", "1: take 0")
    assert state.collections == ((), (5,), (9,))
    assert GAME.pending(state) == GameOver()


def test_players_already_out_for_the_round_also_take_a_last_turn():
    # Decision: "each player takes one last turn" includes players out for the round.
    state = play(nearly_over(), *draw_place(0, 5, 0), "1: take 0", *draw_place(2, 9, 1))
    assert state.final_turns == (0, 1, 2)
    state = play(state, "0: pass", "1: take 1")
    assert state.collections[1] == (5, 9)


def test_a_round_ending_in_the_final_turns_starts_no_new_round():
    state = play(nearly_over(2), *draw_place(0, 5, 0), *draw_place(1, 9, 1))
    state = play(state, "0: take 0", "1: take 1")
    assert state.round == 1
    assert GAME.pending(state) == GameOver()


def test_the_drawer_of_the_last_card_finishes_a_take_after_place_choice_first():
    state = nearly_over(3, variant="maestro", tiles=["take-after-place", "limit-2", "pass-left"])
    state = play(state, *draw_place(0, 5, 1), *draw_place(1, 9, 0))
    assert (state.phase, GAME.pending(state)) == ("after-place", Turn(1))
    state = play(state, "1: take 0")
    assert (state.phase, state.final_turns, state.collections[1]) == ("final", (2, 0, 1), (9,))


def test_a_final_take_resolves_its_tile():
    # Decision: a final-turn take keeps the tile's effect.
    state = nearly_over(3, variant="maestro", tiles=["pass-left", "limit-2", "bonus-draw"])
    state = play(state, *draw_place(0, 5, 0), *draw_place(1, 9, 1), "2: take 0")
    assert (state.phase, GAME.pending(state)) == ("pass-left", Turn(2))
    state = play(state, "2: give 5")
    assert state.collections[0] == (5,)
    assert GAME.pending(state) == Turn(0)


def test_a_round_that_ends_as_the_end_is_triggered_is_not_followed_by_a_new_one():
    # A bonus draw of the last card by the taker of the last Conductor: the round is
    # over and the game end triggered at once.  Nothing is left to take.
    state = nearly_over(2, variant="maestro", tiles=["limit-2", "bonus-draw"], piles=([3], [4]))
    state = replace(state, deck=(9,))
    state = play(state, "0: take 0", "1: take 1", 9)
    assert state.round == 1 and state.final_turns == (0, 1)
    assert texts(GAME.legal_actions(state, 0)) == ["pass"]
    state = play(state, "0: pass", "1: pass")
    assert state.collections == ((3,), (4, 9))
    assert GAME.pending(state) == GameOver()


def test_duet_leftovers_are_discarded_when_the_round_ends_in_the_final_turns():
    # "Once both players have taken a Conductor, the round ends and any cards beneath
    # the remaining Conductor are discarded face up"
    state = nearly_over(2, variant="duet", piles=([3],))
    state = play(state, *draw_place(0, 5, 1), *draw_place(1, 9, 2))
    assert state.final_turns == (0, 1)
    state = play(state, "0: take 1", "1: take 2")
    assert (state.discarded, state.collections) == ((3,), ((5,), (9,)))
    assert GAME.pending(state) == GameOver()


def test_the_outcome_exists_only_once_the_game_is_over():
    state = play(nearly_over(), *draw_place(0, 5, 0), *draw_place(1, 9, 1))
    assert GAME.outcome(state) is None
    state = play(state, "2: take 0", "0: take 1", "1: pass")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (1, 0, 1)
    assert outcome.winners == (0,)
    assert outcome.explanation == (
        "seat 0 and seat 2 tied on 1; none has a quartet; "
        "seat 0 wins with the highest-valued soloist (9)"
    )
