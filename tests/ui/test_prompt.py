"""The action menu: numbering, reading what the player typed, and the help text."""

from __future__ import annotations

import pytest

from p2ptable.engine.api import Action
from p2ptable.games.pet_quartet import GAME
from p2ptable.ui import prompt
from p2ptable.ui.pet_quartet_screen import describe_action_for_menu
from p2ptable.ui.prompt import Help, Invalid, help_text, menu_lines, parse_choice

ACTIONS = (Action("draw"), Action("take", (0,)), Action("take", (1,)), Action("take", (2,)))
WORDS = {
    "draw": "draw a card",
    "take 0": "take conductor A (4)",
    "take 1": "take conductor B (3, 5)",
    "take 2": "take conductor C (9, 9, 10)",
}


def describe(action: Action) -> str:
    return WORDS[action.text]


def test_menu_is_numbered_from_one() -> None:
    assert menu_lines(ACTIONS, describe) == [
        "1) draw a card",
        "2) take conductor A (4)",
        "3) take conductor B (3, 5)",
        "4) take conductor C (9, 9, 10)",
    ]


def test_long_menus_keep_the_numbers_aligned() -> None:
    actions = [Action("return", (v,)) for v in range(3, 14)]
    lines = menu_lines(actions, lambda a: a.text)
    assert lines[0] == " 1) return 3"
    assert lines[-1] == "11) return 13"


def test_menu_of_a_real_pet_quartet_turn() -> None:
    state = GAME.resolve(GAME.initial(3, {}), (0,))
    state = GAME.apply(state, 0, Action("draw"))
    state = GAME.resolve(state, (state.deck.index(5),))
    state = GAME.apply(state, 0, Action("place", (1,)))
    view = GAME.view(state, 1)
    actions = GAME.legal_actions(state, 1)
    lines = menu_lines(actions, lambda a: describe_action_for_menu(view, a))
    assert lines == ["1) draw a card", "2) take conductor B (5)"]
    assert parse_choice("2", actions) == Action("take", (1,))
    assert parse_choice(
        "take conductor b (5)", actions, lambda a: describe_action_for_menu(view, a)
    ) == Action("take", (1,))


@pytest.mark.parametrize(
    ("line", "chosen"),
    [
        ("1", Action("draw")),
        ("3", Action("take", (1,))),
        ("  4 \n", Action("take", (2,))),
        ("draw", Action("draw")),
        ("take 1", Action("take", (1,))),
        ("  Take   1 ", Action("take", (1,))),
    ],
)
def test_a_number_or_the_exact_action_text_chooses(line: str, chosen: Action) -> None:
    assert parse_choice(line, ACTIONS) == chosen


def test_the_menu_wording_chooses_when_a_describer_is_given() -> None:
    assert parse_choice("Take conductor B (3, 5)", ACTIONS, describe) == Action("take", (1,))
    assert parse_choice("take conductor B (3, 5)", ACTIONS) == Invalid(
        '"take conductor B (3, 5)" is not on the menu: choose 1-4, or ? for help'
    )


@pytest.mark.parametrize("line", ["?", "help", "HELP", " h ", "Help"])
def test_question_mark_or_help_asks_for_help(line: str) -> None:
    assert parse_choice(line, ACTIONS) == Help()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "choose 1-4, or ? for help"),
        ("   ", "choose 1-4, or ? for help"),
        ("5", "there is no choice 5: choose 1-4, or ? for help"),
        ("0", "there is no choice 0: choose 1-4, or ? for help"),
        ("-1", "there is no choice -1: choose 1-4, or ? for help"),
        ("take 7", '"take 7" is not possible now: choose 1-4, or ? for help'),
        ("place 0", '"place 0" is not possible now: choose 1-4, or ? for help'),
        ("banana!", '"banana!" is not on the menu: choose 1-4, or ? for help'),
        ("take B", '"take B" is not on the menu: choose 1-4, or ? for help'),
        ("1.5", '"1.5" is not on the menu: choose 1-4, or ? for help'),
    ],
)
def test_anything_else_says_what_to_type(line: str, message: str) -> None:
    assert parse_choice(line, ACTIONS) == Invalid(message)


def test_messages_fit_the_size_of_the_menu() -> None:
    assert parse_choice("2", ACTIONS[:1]) == Invalid(
        "there is no choice 2: choose 1, or ? for help"
    )
    assert parse_choice("1", ()) == Invalid("there is nothing to choose right now")
    assert parse_choice("?", ()) == Help()


def test_help_explains_the_screen_the_turn_and_how_to_quit() -> None:
    text = help_text("pet-quartet")
    words = " ".join(text.split())
    for needle in (
        "type a number and press Enter",
        "Ctrl-C leave the game",
        "`p2ptable resume FILE` continues it",
        "draw a card and place it under a conductor with room",
        "take a conductor with all its cards: you are then out until the round ends",
        "When the last card is drawn, everyone takes one last turn: take or pass.",
        '"5 x4*" means four 5s; * marks a group that scores.',
    ):
        assert needle in words
    assert all(len(line) <= 80 for line in text.splitlines())


def test_help_for_a_game_without_a_screen_is_the_general_part() -> None:
    text = help_text("no-such-game")
    assert "Ctrl-C" in text
    assert "Pet Quartet" not in text


@pytest.mark.parametrize("line", ["r", "R", " recent "])
def test_r_asks_for_the_events_since_the_last_choice(line):
    from p2ptable.ui.prompt import Recent

    assert parse_choice(line, ACTIONS) == Recent()
    assert parse_choice(line, ()) == Recent()  # also while others play


# Issue 26: "A seat types a short line ... every seat and spectator sees it";
# "Any seat can propose a break".  Talk is a line begun with ' or "say ", taken
# at any prompt, also when there is nothing to choose.
@pytest.mark.parametrize(
    "line, said",
    [
        ("'good luck all\n", "good luck all"),
        ("  ' well played ", "well played"),
        ("say nice move\n", "nice move"),
        ("SAY Hi\n", "Hi"),
    ],
)
def test_a_line_of_talk_is_taken_at_any_prompt(line: str, said: str) -> None:
    assert prompt.parse_choice(line, []) == prompt.Talk(said)
    assert prompt.parse_choice(line, [Action.parse("draw")]) == prompt.Talk(said)


def test_an_empty_line_of_talk_says_how_to_talk() -> None:
    choice = prompt.parse_choice("'   \n", [])
    assert isinstance(choice, prompt.Invalid) and "after the '" in choice.message


def test_break_proposes_or_agrees_at_any_prompt() -> None:
    assert prompt.parse_choice("break\n", []) == prompt.Break()
    assert prompt.parse_choice(" Break ", [Action.parse("draw")]) == prompt.Break()


def test_the_help_says_how_to_talk_and_take_a_break() -> None:
    text = prompt.help_text("pet-quartet")
    assert "'words" in text and "break" in text


def test_a_line_of_talk_is_shown_as_it_was_said_never_reworded() -> None:
    # The screens name "seat N" of the log's phrases; a person's words are theirs.
    from p2ptable.ui.narrative import talk_line
    from p2ptable.ui.text import name_seats

    line = talk_line("Ben", "seat 0, your move")
    assert name_seats(line, ["Ana", "Ben"]) == line
    assert line.endswith("Ben says: seat 0, your move")


def test_leave_is_read_as_leaving_for_good():
    # Issue 27: "a person types leave / a menu entry 'leave: a bot plays for me'".
    assert prompt.parse_choice("leave\n", []) == prompt.LeaveTable()
    assert prompt.parse_choice(" Leave ", [Action.parse("draw")]) == prompt.LeaveTable()
    assert "leave       at a table that keeps going" in prompt.help_text("vorsicht-lehrer")
