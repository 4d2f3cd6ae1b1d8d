"""Pet Quartet turns and rounds: draw and place, or take a Conductor."""

from __future__ import annotations

import pytest
from pet_quartet_helpers import draw_place, play, start, texts, with_piles

from p2ptable.engine.api import Action, Chance, ChanceStep, IllegalAction, Turn
from p2ptable.games.pet_quartet import GAME


def test_the_first_player_must_draw():
    # "The first player for the round draws a card from the deck and places it in
    # front of any Conductor token, which ends their turn."
    state = start(3, first=1)
    assert texts(GAME.legal_actions(state, 1)) == ["draw"]


def test_a_draw_is_a_face_up_chance_step_over_the_sorted_deck():
    # "Draw the top card of the deck and reveal it face up." The deck has no order:
    # the outcome is an index into the sorted deck.
    state = play(start(3), "0: draw")
    assert GAME.pending(state) == Chance(ChanceStep("draw", "draw", (len(state.deck),)))
    drawn = GAME.resolve(state, (state.deck.index(7),))
    assert drawn.last_card == 7
    assert drawn.deck.count(7) == state.deck.count(7) - 1
    assert GAME.pending(drawn) == Turn(0)


def test_the_drawer_places_the_card_under_any_conductor_and_play_passes_left():
    # "Choose one of the Conductors in the center of the table and place the card
    # beneath it." / "Players then take turns in clockwise order, around the table."
    state = play(start(3), "0: draw", 7)
    assert texts(GAME.legal_actions(state, 0)) == ["place 0", "place 1", "place 2"]
    state = play(state, "0: place 2")
    assert state.conductors[2].cards == (7,)
    assert state.last_card is None
    assert GAME.pending(state) == Turn(1)


def test_cards_beneath_a_conductor_keep_their_order():
    # "Partially cover any other cards already placed there so that the numbers on
    # all cards are visible."
    state = play(start(3), *draw_place(0, 9, 0), *draw_place(1, 3, 0), *draw_place(2, 5, 0))
    assert state.conductors[0].cards == (9, 3, 5)


def test_drawing_and_taking_on_the_same_turn_is_illegal():
    # "You may not draw a card and take a Conductor on the same turn."
    state = play(start(3), *draw_place(0, 7, 0), "1: draw", 8)
    assert texts(GAME.legal_actions(state, 1)) == ["place 0", "place 1", "place 2"]
    with pytest.raises(IllegalAction, match="phase place: seat 1 may not 'take 0'"):
        GAME.apply(state, 1, Action("take", (0,)))


def test_an_empty_conductor_cannot_be_taken():
    # "You may not take a Conductor without any cards beneath it."
    state = play(start(3), *draw_place(0, 7, 1))
    assert texts(GAME.legal_actions(state, 1)) == ["draw", "take 1"]
    with pytest.raises(IllegalAction, match="phase turn: seat 1 may not 'take 0': legal now"):
        GAME.apply(state, 1, Action("take", (0,)))


def test_a_fifth_card_may_not_be_placed():
    # "Each Conductor may only have 4 cards. You may not place a 5th card beneath a
    # Conductor."
    state = play(with_piles(start(3), [3, 4, 5, 6]), "0: draw", 7)
    assert texts(GAME.legal_actions(state, 0)) == ["place 1", "place 2"]
    with pytest.raises(IllegalAction, match="'place 0'"):
        GAME.apply(state, 0, Action("place", (0,)))


def test_with_nowhere_to_place_a_card_the_player_must_take():
    # "If there is nowhere to place a card, you must instead "take a Conductor""
    state = with_piles(start(3), [3, 4, 5, 6], [4, 5, 6, 7], [5, 6, 7, 8])
    assert texts(GAME.legal_actions(state, 0)) == ["take 0", "take 1", "take 2"]
    with pytest.raises(IllegalAction, match="phase turn: seat 0 may not 'draw'"):
        GAME.apply(state, 0, Action("draw"))


def test_taking_collects_the_pile_and_puts_the_seat_out():
    # "Take all of the cards from beneath the Conductor and place them face up in
    # front of you. Finally, place the Conductor token in front of you to indicate
    # that you are out of the round."
    state = play(start(3), *draw_place(0, 7, 1), *draw_place(1, 5, 1), "2: take 1")
    assert state.collections[2] == (5, 7)
    assert state.conductors[1].cards == () and state.conductors[1].taken_by == 2
    assert state.is_out(2) and not state.is_out(0)


def test_out_seats_are_skipped():
    # "All of your future turns will be skipped until every player has taken a
    # Conductor."
    state = play(start(3), *draw_place(0, 7, 1), "1: take 1", *draw_place(2, 4, 0))
    assert GAME.pending(state) == Turn(0)
    state = play(state, *draw_place(0, 9, 0))
    assert GAME.pending(state) == Turn(2)
    assert GAME.legal_actions(state, 1) == ()


def test_the_last_player_in_the_round_keeps_playing_until_taking():
    state = play(start(3), *draw_place(0, 7, 0), "1: take 0", *draw_place(2, 8, 1), "0: take 1")
    assert GAME.pending(state) == Turn(2)
    state = play(state, *draw_place(2, 9, 2))
    assert GAME.pending(state) == Turn(2)


def test_taking_the_last_conductor_ends_the_round_and_that_player_starts_the_next():
    # "When the last Conductor is taken, the round ends. Return all Conductor tokens
    # to the center of the table and begin a new round. The player who took the last
    # Conductor token in the previous round will be the first player for the new
    # round."
    state = play(
        start(3, first=0),
        *draw_place(0, 7, 0),
        "1: take 0",
        *draw_place(2, 8, 1),
        "0: take 1",
        *draw_place(2, 9, 2),
        "2: take 2",
    )
    assert (state.round, state.round_starter, GAME.pending(state)) == (2, 2, Turn(2))
    assert all(c.taken_by is None and c.cards == () for c in state.conductors)
    assert state.collections == ((8,), (7,), (9,))
    assert texts(GAME.legal_actions(state, 2)) == ["draw"]


def test_only_the_seat_to_act_may_act():
    state = start(3, first=0)
    assert GAME.legal_actions(state, 1) == ()
    with pytest.raises(IllegalAction, match="phase turn: seat 1 may not 'draw': it is seat 0's"):
        GAME.apply(state, 1, Action("draw"))


def test_nobody_acts_while_chance_is_pending():
    state = play(start(3), "0: draw")
    assert GAME.legal_actions(state, 0) == ()
    with pytest.raises(IllegalAction, match="phase draw: seat 0 .* chance must be resolved"):
        GAME.apply(state, 0, Action("place", (0,)))


def test_chance_may_not_act_when_a_seat_decides_nor_with_a_bad_outcome():
    state = start(3)
    with pytest.raises(IllegalAction, match="phase turn: chance"):
        GAME.resolve(state, (0,))
    drawing = play(state, "0: draw")
    with pytest.raises(IllegalAction, match="phase draw: chance outcome"):
        GAME.resolve(drawing, (len(drawing.deck),))


def test_an_unknown_verb_is_refused_with_the_phase_verbs():
    with pytest.raises(IllegalAction, match="allows only draw, take"):
        GAME.apply(start(3), 0, Action("pass"))


def test_duet_round_ends_when_both_players_took_and_leftovers_are_discarded():
    # "Once both players have taken a Conductor, the round ends and any cards beneath
    # the remaining Conductor are discarded face up off to one side"
    state = play(
        start(2, "duet", first=0),
        *draw_place(0, 7, 0),
        *draw_place(1, 8, 1),
        *draw_place(0, 9, 2),
        "1: take 0",
        *draw_place(0, 4, 2),
        "0: take 1",
    )
    assert state.discarded == (4, 9)
    assert state.collections == ((8,), (7,))
    # the second taker starts the next round
    assert (state.round, GAME.pending(state)) == (2, Turn(0))
    assert all(c.cards == () and c.taken_by is None for c in state.conductors)


def test_duet_limits_forbid_the_third_card_under_the_first_conductor():
    # "A 3rd card may not be placed here."
    state = play(start(2, "duet"), *draw_place(0, 7, 0), *draw_place(1, 8, 0), "0: draw", 9)
    assert texts(GAME.legal_actions(state, 0)) == ["place 1", "place 2"]


def test_every_legal_action_round_trips_through_its_text():
    state = play(start(3), *draw_place(0, 7, 1))
    for action in GAME.legal_actions(state, 1):
        assert Action.parse(action.text) == action
