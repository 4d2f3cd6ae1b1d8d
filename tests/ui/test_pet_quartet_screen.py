"""The Pet Quartet screen: exact output for hand-played tables, widths and colour.

Every view here comes from the real game: a fresh table, chance resolved with fixed
outcomes (a draw names the card it must produce), actions applied, then
``GAME.view(state, seat)``.  The screen sees only that view.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from p2ptable.engine.api import Action, Chance, ChanceStep, GameOver, Turn
from p2ptable.engine.playout import play as drive
from p2ptable.games.pet_quartet import GAME, PetQuartetState
from p2ptable.ui import pet_quartet_screen as screen
from p2ptable.ui.screens import (
    final_screen_for,
    menu_describer_for,
    render_generic,
    render_generic_final,
    screen_for,
)
from p2ptable.ui.style import strip_ansi

NAMES = ["Ada", "Ben", "Cleo"]
Move = tuple[int, int | str]  # (seat, card value to draw | action text)


def table(seats: int = 3, options: dict[str, str] | None = None, tiles=None) -> PetQuartetState:
    """A set-up table where seat 0 goes first (``tiles``: the Maestro tile picks)."""
    state = GAME.initial(seats, options or {})
    if tiles is not None:
        state = GAME.resolve(state, tiles)
    return GAME.resolve(state, (0,))


def play(state: PetQuartetState, moves: Sequence[Move]) -> PetQuartetState:
    """Apply ``moves``; an int is "draw, and the card drawn is this value"."""
    for seat, move in moves:
        if isinstance(move, int):
            state = GAME.apply(state, seat, Action("draw"))
            state = GAME.resolve(state, (state.deck.index(move),))
        else:
            state = GAME.apply(state, seat, Action.parse(move))
    return state


ROUND_ONE: list[Move] = [
    (0, 5), (0, "place 0"), (1, 7), (1, "place 0"), (2, 5), (2, "place 1"),
    (0, "take 0"),  # Ada: 5 7, out
    (1, 9), (1, "place 2"), (2, "take 1"),  # Cleo: 5
    (1, 5), (1, "place 2"), (1, "take 2"),  # Ben: 9 5; he took last, so he starts round 2
]  # fmt: skip
ROUND_TWO: list[Move] = [
    (1, 3), (1, "place 0"), (2, 5), (2, "place 1"), (0, 7), (0, "place 0"),
    (1, 9), (1, "place 1"), (2, "take 1"),  # Cleo: 5 5 9, out
    (0, 10),  # Ada has drawn a 10 and must place it
]  # fmt: skip

RECENT = [
    "   20  Cleo      takes conductor B (5, 9)",
    "   21  Ada       draws a card",
    "   22  chance    Ada draws a 10",
]


def mid_game() -> PetQuartetState:
    return play(table(), ROUND_ONE + ROUND_TWO)


def simple_policy(game, state, seat) -> Action:
    """Always draw, place under the first Conductor with room, pass when allowed."""
    legal = game.legal_actions(state, seat)
    for verb in ("draw", "place", "pass"):
        for action in legal:
            if action.verb == verb:
                return action
    return legal[-1]


def lowest_card(step: ChanceStep) -> tuple[int, ...]:
    return (0,) * len(step.ranges)  # the deck is sorted: index 0 is its lowest card


def middle_card(step: ChanceStep) -> tuple[int, ...]:
    return tuple(size // 2 for size in step.ranges)


def advance(state: PetQuartetState, policy, chance, until) -> PetQuartetState:
    """Play with ``policy`` and ``chance`` until ``until(state)`` holds."""
    while not until(state):
        decision = GAME.pending(state)
        if isinstance(decision, Chance):
            state = GAME.resolve(state, chance(decision.step))
        else:
            assert isinstance(decision, Turn), decision
            state = GAME.apply(state, decision.seat, policy(GAME, state, decision.seat))
    return state


def test_mid_game_screen() -> None:
    view = GAME.view(mid_game(), 0)
    expected = """\
Pet Quartet | standard | basic scoring | round 2 | deck: 42 cards
--------------------------------------------------------------------------------
Conductors
  A    3  7  .  .   max 4 cards
  B   taken by Cleo
  C    .  .  .  .   max 4 cards
  Drawn card: 10 (waiting to be placed)

  Players             points  collection (* scores)
> Ada (you)  to play       2  5 x1*  7 x1*
  Ben                      2  5 x1*  9 x1*
  Cleo       out (B)       1  5 x2  9 x1*

Recent
     20  Cleo      takes conductor B (5, 9)
     21  Ada       draws a card
     22  chance    Ada draws a 10

Your turn: place the 10 under a conductor.
Ben: no contact for 12 s"""
    assert screen.render(view, NAMES, RECENT, ["Ben: no contact for 12 s"]) == expected


def test_screen_of_another_seat_names_the_player_whose_turn_it_is() -> None:
    out = screen.render(GAME.view(mid_game(), 1), NAMES, [])
    assert "> Ada        to play" in out
    assert "  Ben (you)" in out
    assert out.endswith("Ada's turn: place the 10 under a conductor.")
    assert "Recent" not in out  # no events, no section


def test_only_the_last_few_recent_lines_are_shown() -> None:
    recent = [f"event {n}" for n in range(20)]
    out = screen.render(GAME.view(mid_game(), 0), NAMES, recent)
    assert "event 13" not in out
    assert all(f"event {n}" in out for n in range(20 - screen.RECENT_LINES, 20))


def test_your_own_last_draw_stays_on_screen() -> None:
    # Issue 11: "your own last throw or draw stays visible", not only among the events.
    state = play(table(), ROUND_ONE + ROUND_TWO[:4])  # Ben drew a 3, Cleo a 5
    out = screen.render(GAME.view(state, 1), NAMES, [])
    assert "  Your last draw: a 3." in out
    assert "Your last draw: a 5." in screen.render(GAME.view(state, 2), NAMES, [])
    assert "Your last draw" not in screen.render(GAME.view(state, None), NAMES, [])
    # Ada's last draw, the 5 of round one, is hers until she draws again; an 8 or
    # an 11 reads as such.
    assert "  Your last draw: a 5." in screen.render(GAME.view(state, 0), NAMES, [])
    eight = play(state, [(0, 8), (0, "place 2")])
    assert "  Your last draw: an 8." in screen.render(GAME.view(eight, 0), NAMES, [])
    # While the card waits to be placed it is the drawn card, not said twice.
    placing = GAME.view(play(state, [(0, 10)]), 0)
    out = screen.render(placing, NAMES, [])
    assert "  Drawn card: 10 (waiting to be placed)" in out and "Your last draw" not in out


def test_maestro_and_duet_tiles_are_in_words() -> None:
    # Tile picks (0, 0, 0): "limit-2", "bonus-draw", "return-from-pile" in rulebook order.
    maestro = screen.render(GAME.view(table(3, {"variant": "maestro"}, (0, 0, 0)), 0), NAMES, [])
    assert "  A    .  .         max 2 cards (Maestro tile)" in maestro
    assert "  B    .  .  .  .   max 4 cards; taker draws a bonus card" in maestro
    assert "  C    .  .  .  .   max 4 cards; taker returns one of these cards to the box" in maestro
    assert maestro.startswith("Pet Quartet | Maestro tiles | basic scoring | round 1")
    duet = screen.render(GAME.view(table(2, {"variant": "duet"}), 0), NAMES[:2], [])
    assert "  A    .  .         max 2 cards (Duet tile)" in duet
    assert "  C    .  .  .  .   max 4 cards (Duet tile)" in duet


def test_final_turns_are_shown_once_the_last_card_is_drawn() -> None:
    # "When the last card of the deck is drawn, the end of the game is triggered and
    # each player takes one last turn. ... You may choose to pass instead."
    state = advance(table(2), simple_policy, lowest_card, until=lambda s: s.phase == "final")
    expected = """\
Pet Quartet | standard | basic scoring | round 6 | deck: empty
--------------------------------------------------------------------------------
Conductors
  A    9  9  .  .   max 4 cards
  B    .  .  .  .   max 4 cards
  Your last draw: a 9.

  Players             points  collection (* scores)
  Ada (you)                1  4 x3  5 x5  7 x5  8 x3  9 x4*
> Ben        to play       1  3 x3  4 x1*  6 x6  7 x2  8 x5  9 x3

End of the game: you drew the last card; everyone takes one last turn.
Still to play: Ben, you.

Ben's last turn: take a conductor, or pass."""
    assert screen.render(GAME.view(state, 0), NAMES[:2], []) == expected
    view = GAME.view(state, 1)
    assert [screen.describe_action_for_menu(view, a) for a in GAME.legal_actions(state, 1)] == [
        "take conductor A (9, 9)",
        "pass (take nothing on your last turn)",
    ]


def test_final_screen_names_the_tie_break() -> None:
    state = drive(GAME, GAME.initial(2, {}), lambda seat: simple_policy, lowest_card)
    assert isinstance(GAME.pending(state), GameOver)
    expected = """\
Pet Quartet | final scores | basic scoring
--------------------------------------------------------------------------------
  Players            points  collection (* scores)
  Ada        winner       1  4 x3  5 x5  7 x5  8 x3  9 x4*
  Ben (you)               1  3 x3  4 x1*  6 x6  7 x2  8 x5  9 x3

Ada and Ben tied on 1; Ada wins with the lowest-valued quartet (9)."""
    assert screen.render_final(GAME.view(state, 1), NAMES[:2]) == expected


def test_final_screen_lists_winners_first() -> None:
    state = drive(GAME, GAME.initial(3, {}), lambda seat: simple_policy, lowest_card)
    out = screen.render_final(GAME.view(state, None), NAMES)
    rows = out.splitlines()[3:6]
    assert [row.split()[0] for row in rows] == ["Cleo", "Ben", "Ada"]  # 4, 3, 2 points
    assert "seat" not in out


def test_no_escape_codes_without_colour_and_same_text_with_it() -> None:
    view = GAME.view(mid_game(), 0)
    plain = screen.render(view, NAMES, RECENT, ["status"], color=False)
    coloured = screen.render(view, NAMES, RECENT, ["status"], color=True)
    assert "\x1b" not in plain
    assert "\x1b[" in coloured
    assert strip_ansi(coloured) == plain
    final = drive(GAME, GAME.initial(2, {}), lambda seat: simple_policy, lowest_card)
    final_view = GAME.view(final, 0)
    assert "\x1b" not in screen.render_final(final_view, NAMES[:2])
    assert strip_ansi(screen.render_final(final_view, NAMES[:2], color=True)) == (
        screen.render_final(final_view, NAMES[:2])
    )


def _take_when_two(game, state, seat) -> Action:
    """Vary the collections: take any pile of two or more, else draw and place."""
    legal = game.legal_actions(state, seat)
    view = game.view(state, seat)
    for action in legal:
        if action.verb == "take" and len(view["conductors"][action.args[0]]["cards"]) >= 2:
            return action
    return simple_policy(game, state, seat)


@pytest.mark.parametrize("variant", ["standard", "maestro"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_line_fits_80_columns(seats: int, variant: str) -> None:
    names = [f"Player {n} with a very long name"[:32] for n in range(seats)]
    state = GAME.initial(seats, {"variant": variant, "scoring": "advanced"})
    # Mid-game: draw from the middle of the deck until about half of it is gone.
    half = len(state.deck) // 2
    state = advance(state, _take_when_two, middle_card, until=lambda s: len(s.deck) <= half)
    view = GAME.view(state, 0)
    assert view["phase"] != "over"
    long = ["x" * 120] * 10
    for color in (False, True):
        out = screen.render(view, names, long, long, color=color)
        for line in out.splitlines():
            assert len(strip_ansi(line)) <= 80, line
            assert line == line.rstrip(), line


def test_menu_words_for_draw_place_take_and_pass() -> None:
    state = play(table(), [(0, 5), (0, "place 1"), (1, 7), (1, "place 1")])
    view = GAME.view(state, 2)
    describe = screen.describe_action_for_menu
    assert [describe(view, a) for a in GAME.legal_actions(state, 2)] == [
        "draw a card",
        "take conductor B (5, 7)",
    ]
    placing = play(state, [(2, 8)])
    assert [describe(GAME.view(placing, 2), a) for a in GAME.legal_actions(placing, 2)] == [
        "place the 8 under conductor A (empty)",
        "place the 8 under conductor B (with 5, 7)",
        "place the 8 under conductor C (empty)",
    ]


def test_menu_words_for_the_maestro_tile_choices() -> None:
    # Picks (3, 3, 3) from the unused tiles: A return-collected, B take-after-place,
    # C pass-left.
    state = play(table(3, {"variant": "maestro"}, (3, 3, 3)), [(0, 5), (0, "place 1")])
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    assert [screen.describe_action_for_menu(view, a) for a in legal] == [
        "take conductor B (5)",
        "leave conductor B where it is",
    ]
    state = play(state, [(0, "decline"), (1, 7), (1, "place 2"), (2, 6), (2, "place 0")])
    state = play(state, [(0, "take 1"), (1, "take 2")])  # Ben must pass a card left
    view = GAME.view(state, 1)
    assert [
        screen.describe_action_for_menu(view, a, NAMES) for a in GAME.legal_actions(state, 1)
    ] == [
        "give a 7 to Cleo",
    ]
    assert screen.describe_action_for_menu(view, Action("give", (7,))) == (
        "give a 7 to the player on your left"
    )
    state = play(state, [(1, "give 7"), (2, "take 0")])  # Cleo returns a collected card
    view = GAME.view(state, 2)
    assert [screen.describe_action_for_menu(view, a) for a in GAME.legal_actions(state, 2)] == [
        "return a 7 from your collection to the box",
    ]


def test_menu_words_for_returning_a_card_of_the_pile() -> None:
    # Picks (2, 0, 0): A return-from-pile, B limit-2, C bonus-draw.
    state = play(table(3, {"variant": "maestro"}, (2, 0, 0)), [(0, 8), (0, "place 0")])
    state = play(state, [(1, "take 0")])
    view = GAME.view(state, 1)
    assert [screen.describe_action_for_menu(view, a) for a in GAME.legal_actions(state, 1)] == [
        "return an 8 from conductor A to the box",
    ]
    assert "  A   taken by you, with 8" in screen.render(view, NAMES, [])
    returned = GAME.view(play(state, [(1, "return 8")]), 1)
    assert "  Out of play: returned to the box 8" in screen.render(returned, NAMES, [])
    assert "Your turn: return one card of conductor A to the box." in screen.render(view, NAMES, [])


def test_dispatcher_knows_pet_quartet_and_falls_back_to_a_generic_screen() -> None:
    assert screen_for("pet-quartet") is screen.render
    assert final_screen_for("pet-quartet") is screen.render_final
    assert menu_describer_for("pet-quartet") is screen.describe_action_for_menu
    assert screen_for("no-such-game") is render_generic
    assert final_screen_for("no-such-game") is render_generic_final
    assert menu_describer_for("no-such-game")({}, Action("take", (1,)), NAMES) == "take 1"
    view = GAME.view(mid_game(), 0)
    out = render_generic(view, NAMES, ["seat 2 takes conductor 1"], ["waiting"])
    assert out.startswith("pet-quartet\n")
    assert "  Cleo takes conductor 1" in out
    assert all(len(line) <= 80 for line in out.splitlines())
