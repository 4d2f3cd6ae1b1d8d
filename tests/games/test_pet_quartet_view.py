"""Pet Quartet views and log phrases: everything is face up but the deck order."""

from __future__ import annotations

import json
from dataclasses import replace

from pet_quartet_helpers import draw_place, play, start, with_piles

from p2ptable.engine.api import Action
from p2ptable.games.pet_quartet import GAME


def test_the_view_shows_the_whole_table():
    # "You must arrange the cards in front of you into sets of the same number and
    # splay them, so that other players can easily see how many cards of each number
    # you have collected."
    state = play(start(3, first=1), *draw_place(1, 10, 2), *draw_place(2, 3, 2), "0: take 2")
    view = GAME.view(state, 1)
    assert view["you"] == 1
    assert view["phase"] == "turn" and view["to_act"] == 1 and view["turn_of"] == 1
    assert (view["round"], view["round_starter"]) == (1, 1)
    assert view["deck_left"] == len(state.deck) == 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 - 2
    assert view["deck"]["10"] == 9 and view["deck"]["3"] == 2
    assert view["conductors"][2] == {"cards": [], "limit": 4, "tile": None, "taken_by": 0}
    assert view["collections"] == [{"3": 1, "10": 1}, {}, {}]
    assert list(view["collections"][0]) == ["3", "10"]  # ordered by value, not text
    assert view["scores"] == [2, 0, 0]
    assert view["out"] == [True, False, False]
    assert view["final_turns"] == {"triggered": False, "triggered_by": None, "remaining": []}
    assert (view["discarded"], view["returned"], view["returned_cards"]) == ([], 0, [])
    assert view["last_card"] is None and view["outcome"] is None
    assert view["last_draws"] == [None, 10, 3]


def test_the_seat_view_is_the_public_view_plus_you():
    state = play(start(4), *draw_place(0, 7, 1))
    public = GAME.view(state, None)
    assert public["you"] is None
    assert GAME.view(state, 3) == {**public, "you": 3}
    json.dumps(public)


def test_the_drawn_card_shows_while_it_waits_to_be_placed():
    state = play(start(3), "0: draw")
    assert GAME.view(state, None)["to_act"] is None  # chance decides now
    state = play(state, 8)
    view = GAME.view(state, 2)
    assert (view["last_card"], view["to_act"], view["phase"]) == (8, 0, "place")


def test_the_view_shows_returned_cards_and_the_final_turns():
    state = start(3, "maestro", tiles=["return-from-pile", "limit-2", "pass-left"])
    state = replace(with_piles(state, [6, 8]), deck=(5,))
    state = play(state, "0: take 0", "0: return 6", *draw_place(1, 5, 2))
    view = GAME.view(state, 0)
    assert (view["returned"], view["returned_cards"]) == (1, [6])
    assert view["conductors"][1]["tile"] == "limit-2" and view["conductors"][1]["limit"] == 2
    assert view["final_turns"] == {"triggered": True, "triggered_by": 1, "remaining": [2, 0, 1]}


def test_the_view_of_a_finished_game_carries_the_outcome():
    state = replace(start(2), collections=((3,), (4,)), phase="over", current=None)
    assert GAME.view(state, 0)["outcome"] == {
        "scores": [1, 1],
        "winners": [1],
        "explanation": "seat 0 and seat 1 tied on 1; none has a quartet; "
        "seat 1 wins with the highest-valued soloist (4)",
    }


def test_duet_discards_are_visible():
    state = with_piles(start(2, "duet"), [7], [8], [9, 4])
    state = play(state, "0: take 0", "1: take 1")
    assert GAME.view(state, None)["discarded"] == [4, 9]


def test_log_phrases_for_actions_and_chance():
    # Issue 11: "One numbering everywhere": people read Conductors as letters (A is
    # index 0, as on the screen) while the action text stays "take 1".
    state = start(3, "maestro", tiles=["pass-left", "take-after-place", "return-from-pile"])
    assert GAME.describe(state, 0, Action("draw")) == "draws a card"
    drawing = play(state, "0: draw")
    assert GAME.describe_chance(drawing, (drawing.deck.index(7),)) == "seat 0 draws a 7"
    placing = play(drawing, 7)
    assert GAME.describe(placing, 0, Action("place", (1,))) == "places the 7 under conductor B"
    after = play(placing, "0: place 1")
    assert GAME.describe(after, 0, Action("decline")) == "leaves conductor B where it is"
    assert GAME.describe(after, 0, Action("take", (1,))) == "takes conductor B (7)"
    giving = play(after, "0: decline", *draw_place(1, 5, 0), "2: take 0")
    assert GAME.describe(giving, 2, Action("give", (5,))) == "gives a 5 to seat 0"
    assert GAME.describe(giving, 2, Action("return", (5,))) == "returns a 5 to the box"
    assert GAME.describe(giving, 2, Action("pass")) == "passes"


def test_log_phrases_say_an_8_and_an_11():
    # Issue 11: "'an 8', 'an 11'" (the log said "draws a 8").
    state = start(4)
    drawing = play(state, "0: draw")
    assert GAME.describe_chance(drawing, (drawing.deck.index(8),)) == "seat 0 draws an 8"
    assert GAME.describe_chance(drawing, (drawing.deck.index(11),)) == "seat 0 draws an 11"
    state = start(3, "maestro", tiles=["pass-left", "return-from-pile", "bonus-draw"])
    state = play(state, *draw_place(0, 8, 0), "1: take 0")
    assert GAME.describe(state, 1, Action("give", (8,))) == "gives an 8 to seat 2"
    state = play(start(3, "maestro", tiles=["return-from-pile", "limit-2", "pass-left"]),
                 *draw_place(0, 8, 0), "1: take 0")  # fmt: skip
    assert GAME.describe(state, 1, Action("return", (8,))) == "returns an 8 to the box"


def test_log_phrases_for_set_up():
    state = GAME.initial(2, {"variant": "maestro"})
    assert GAME.describe_chance(state, (1, 0)) == "Maestro tiles: A bonus-draw, B limit-2"
    state = GAME.resolve(state, (1, 0))
    assert GAME.describe_chance(state, (1,)) == "seat 1 goes first"


def test_each_seats_last_drawn_card_is_public():
    # Issue 11: "your own last ... draw stays visible"; every card is drawn face up,
    # so each seat's is in every view.  A Maestro bonus card is a draw too.
    state = start(4, "maestro", tiles=["bonus-draw", "limit-2", "pass-left", "return-collected"])
    state = play(state, *draw_place(0, 7, 0), *draw_place(1, 8, 1), *draw_place(2, 9, 1))
    assert GAME.view(state, None)["last_draws"] == [7, 8, 9, None]
    state = play(state, *draw_place(3, 5, 2), "0: take 0", 11)  # Ada's bonus card: an 11
    view = GAME.view(state, 1)
    assert view["last_draws"] == [11, 8, 9, 5]
    assert view["collections"][0] == {"7": 1, "11": 1}
