"""Vorsicht Lehrer! views and log phrases: hands are private, the deck is hidden."""

from __future__ import annotations

import json

from vorsicht_lehrer_helpers import Drawn, card, classroom, dice, play, teacher

from p2ptable.engine.api import Action
from p2ptable.games.vorsicht_lehrer import GAME
from p2ptable.games.vorsicht_lehrer.view import card_numbers

CHEATING = card("Cheating")


def test_a_seat_sees_only_its_own_hand():
    # "These are held in such a way that these cannot be seen by the other players."
    state = classroom(3, hands={1: [CHEATING]})
    view = GAME.view(state, 1)
    assert view["you"] == 1
    assert view["hand"][0] == {
        "id": CHEATING,
        "name": "Cheating",
        "patience": 9,
        "negative": 11,
        "risk": 12,
    }
    assert len(view["hand"]) == 4 and view["hand_sizes"] == [4, 4, 4]
    others = set(state.hands[0]) | set(state.hands[2])
    assert not others & {c["id"] for c in view["hand"]}


def test_the_public_view_shows_no_hand():
    view = GAME.view(classroom(3), None)
    assert view["you"] is None and view["hand"] is None and view["hand_sizes"] == [4, 4, 4]


def test_views_never_show_the_school_deck():
    state = classroom(2)
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert view["deck_left"] == 50 and "deck" not in view
        shown = json.dumps(view)
        hidden = [c for c in state.deck]
        assert all(f'"id": {c},' not in shown for c in hidden)


def test_the_table_is_public():
    state = classroom(3, hands={0: [CHEATING]}, patience=15, tokens=(3, 4, 5))
    state = play(state, f"0: play 0 {CHEATING}", "0: risk", dice(1, 2, 3), (0,))
    state = play(state, Drawn(teacher("To the blackboard!")))
    view = GAME.view(state, None)
    assert view["patience"] == 25 and view["tokens"] == [25, 4, 5]
    assert view["markers"][:2] == [20, 40] and view["track"] == 200
    assert [c["id"] for c in view["discard"]] == [CHEATING]
    assert view["teacher"]["name"] == "To the blackboard!" and view["teacher"]["detention"]
    assert view["teacher_deck_left"] == 19 and len(view["teacher_discard"]) == 1
    assert view["deciding"] == [0, 1, 2] and view["to_act"] is None
    assert view["choosing"] == [0, 1, 2] and view["chosen"] == []
    assert view["last_throw"] == [1, 2, 3] and view["outcome"] is None


def test_deal_phrases_do_not_name_the_card():
    state = GAME.resolve(GAME.initial(2, {}), (1,))
    assert GAME.describe_chance(GAME.initial(2, {}), (1,)) == "seat 1 starts"
    assert GAME.describe_chance(state, (57,)) == "a card is dealt to seat 1"


def test_log_phrases_for_a_turn():
    state = classroom(3, hands={0: [CHEATING]}, patience=15)
    assert GAME.describe(state, 0, Action("play", (0, CHEATING))) == (
        "plays Cheating (patience 9, 11 negative, risk 12+)"
    )
    state = play(state, f"0: play 0 {CHEATING}")
    assert GAME.describe(state, 0, Action("take")) == "takes 11 negative points"
    assert GAME.describe(state, 0, Action("risk")) == (
        "dares a risk throw (12+ or 22 negative points)"
    )
    state = play(state, "0: risk")
    assert GAME.describe_chance(state, dice(6, 4, 1)) == (
        "seat 0 throws 6+4+1 = 11: misses 12: 22 negative points"
    )
    assert GAME.describe_chance(state, dice(6, 5, 1)) == "seat 0 throws 6+5+1 = 12: escapes"
    state = play(state, dice(6, 5, 1), (0,))
    blackboard = teacher("To the blackboard!")
    assert GAME.describe_chance(state, (state.teacher_deck.index(blackboard),)) == (
        "teacher card: To the blackboard! (patience 1, 8 negative, risk 12+, detention)"
    )
    state = play(state, Drawn(blackboard))
    assert GAME.describe(state, 0, Action("take")) == "takes 8 negative points"


def test_each_seats_latest_throw_is_public():
    # Issue 11: "the last throw names its thrower" and "your own last throw ... stays
    # visible": the view keeps each seat's latest throw (the dice are thrown openly).
    state = classroom(3, hands={0: [CHEATING]}, patience=15)
    assert GAME.view(state, 0)["throws"] == []
    state = play(state, f"0: play 0 {CHEATING}", "0: risk", dice(1, 2, 3), (0,))
    state = play(state, Drawn(teacher("To the blackboard!")), "0: risk", "1: risk", "2: take")
    state = play(state, dice(6, 6, 6), dice(2, 2, 2))
    view = GAME.view(state, None)
    assert view["throws"] == [
        {"seat": 0, "dice": [6, 6, 6], "total": 18, "risk": 12, "points": 0},
        {"seat": 1, "dice": [2, 2, 2], "total": 6, "risk": 12, "points": 16},
    ]
    assert view["last_throw"] == [2, 2, 2]
    assert GAME.view(state, 2)["throws"] == view["throws"]


def test_cards_without_an_effect_read_as_such():
    # "The school teachers cards "Test" and "Inattentive Teacher" are lucky for
    # students: the teacher is so skilled that he can not give the students any
    # negatives, and his patience is not overstretched."  Issue 11: they read as
    # such, "not '0 negative, risk 0+'".
    state = classroom(3, hands={0: [CHEATING]}, patience=15)
    state = play(state, f"0: play 0 {CHEATING}", "0: take", (0,))
    assert state.phase == "teacher"
    for name in ("Test", "Inattentive Teacher"):
        index = state.teacher_deck.index(teacher(name))
        assert GAME.describe_chance(state, (index,)) == (
            f"teacher card: {name} (no effect: no negative points, the pawn stays)"
        )


def test_card_numbers_leave_out_what_a_card_does_not_do():
    assert card_numbers(9, 11, 12) == "patience 9, 11 negative, risk 12+"
    assert card_numbers(1, 8, 12, detention=True) == "patience 1, 8 negative, risk 12+, detention"
    assert card_numbers(0, 6, 11) == "6 negative, risk 11+"
    assert card_numbers(3, 0, 0) == "patience 3, no negative points"
    assert card_numbers(0, 0, 0, detention=True) == "no negative points, detention"
    assert card_numbers(0, 0, 0) == "no effect: no negative points, the pawn stays"
