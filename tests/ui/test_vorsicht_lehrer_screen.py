"""The Vorsicht Lehrer! screen: exact output, widths, colour, hidden hands, menu words.

Every view here comes from the real game: a classroom with chosen hands
(``tests/games/vorsicht_lehrer_helpers.py``), chance resolved with fixed outcomes
(dice, the card dealt, the teacher card drawn), actions applied, then
``GAME.view(state, seat)``.  The screen sees only that view; the full state is used
only to know what it must *not* show.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from p2ptable.engine.api import Action, Chance, GameOver, chooser
from p2ptable.engine.playout import play as drive
from p2ptable.engine.playout import random_chance, random_policy
from p2ptable.games.vorsicht_lehrer import GAME, VorsichtLehrerState
from p2ptable.games.vorsicht_lehrer.cards import SCHOOL
from p2ptable.ui import vorsicht_lehrer_screen as screen
from p2ptable.ui.screens import final_screen_for, menu_describer_for, screen_for, screens_for
from p2ptable.ui.style import strip_ansi

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from vorsicht_lehrer_helpers import (  # noqa: E402
    Dealt,
    Drawn,
    card,
    classroom,
    dice,
    play,
    slot_of,
    teacher,
)

NAMES = ["Ada", "Ben", "Cleo"]

CHEATING = card("Cheating")
ADA_HAND = [CHEATING, card("Daydreaming"), card("Whispering"), card("Stink bomb")]

RECENT = [
    "   30  Ada       plays Cheating (patience 9, 11 negative, risk 12+)",
    "   31  Ada       dares a risk throw (12+ or 22 negative points)",
    "   32  chance    Ada throws 3+4+2 = 9: misses 12: 22 negative points",
]


def cheating_played() -> VorsichtLehrerState:
    """Ada (seat 0) plays Cheating with the pawn on 14: it moves to 23, past 20."""
    state = classroom(3, hands={0: ADA_HAND}, patience=14, tokens=[5, 20, 0])
    return play(state, slot_of(state, 0, CHEATING))


def after_failed_risk() -> VorsichtLehrerState:
    # "If however he does not reach the number, he has to move forward with his colored
    # token twice the number of the negative points on the card."
    return play(cheating_played(), "0: risk", dice(3, 4, 2))


def teacher_card_drawn() -> VorsichtLehrerState:
    """After the refill the pawn (23) has passed 20: "An die Tafel!" comes into play."""
    return play(
        after_failed_risk(), Dealt(card("Daydreaming", 1)), Drawn(teacher("To the blackboard!"))
    )


def test_choose_screen() -> None:
    view = GAME.view(cheating_played(), 0)
    expected = """\
Vorsicht Lehrer! | end field 200 | school deck 46, 1 played | teacher deck 20
--------------------------------------------------------------------------------
         0   20   40   60   80  100  120  140  160  180  200
  Pawn   .....P....|....|....|....|....|....|....|....|....]
  Tokens 31...2....|....|....|....|....|....|....|....|....]
Patience pawn (P): 23, next black field 40.

  Players                 negative  hand
> 1 Ada (you)  to choose         5  3 cards
  2 Ben                         20  4 cards  on a black field
  3 Cleo                         0  4 cards

Your hand  (patience, negative points, risk throw)
  Daydreaming                      1   2   8+
  Whispering                       2   3   9+
  Stink bomb                      10  14  15+

School card: Cheating by you (patience 9, 11 negative, risk 12+).

Recent
     30  Ada       plays Cheating (patience 9, 11 negative, risk 12+)

Your turn: take 11 negative points, or risk a throw (12+ escapes, else 22).
Ben: no contact for 12 s"""
    out = screen.render(view, NAMES, RECENT[:1], ["Ben: no contact for 12 s"])
    assert out == expected


def test_refill_screen_says_how_the_throw_went() -> None:
    view = GAME.view(after_failed_risk(), 0)
    expected = """\
Vorsicht Lehrer! | end field 200 | school deck 46, 1 played | teacher deck 20
--------------------------------------------------------------------------------
         0   20   40   60   80  100  120  140  160  180  200
  Pawn   .....P....|....|....|....|....|....|....|....|....]
  Tokens 3....21...|....|....|....|....|....|....|....|....]
Patience pawn (P): 23, next black field 40.

  Players      negative  hand
  1 Ada (you)        27  3 cards
  2 Ben              20  4 cards  on a black field
  3 Cleo              0  4 cards

Your hand  (patience, negative points, risk throw)
  Daydreaming                      1   2   8+
  Whispering                       2   3   9+
  Stink bomb                      10  14  15+

School card: Cheating by you (patience 9, 11 negative, risk 12+).
Last throw: you threw 3+4+2 = 9 and missed 12+: 22 negative points.

Recent
     30  Ada       plays Cheating (patience 9, 11 negative, risk 12+)
     31  Ada       dares a risk throw (12+ or 22 negative points)
     32  chance    Ada throws 3+4+2 = 9: misses 12: 22 negative points

Your turn: the hand is refilled to 4 cards."""
    assert screen.render(view, NAMES, RECENT) == expected


def test_teacher_card_screen_for_another_seat() -> None:
    # "These negative points (2nd box) are given to all players ... unless each player
    # attempt a risk throw": every seat chooses at once, in secret (RULES.md).
    state = teacher_card_drawn()
    out = screen.render(GAME.view(state, 2), NAMES, [])
    assert "Teacher card: To the blackboard! (patience 1, 8 negative, risk 12+, detention)." in out
    assert "  2 Ben         chooses        20" in out
    assert "  3 Cleo (you)  chooses         0" in out
    # No event is passed: the view itself says who threw and how it went.
    assert "Last throw: Ada threw 3+4+2 = 9 and missed 12+: 22 negative points." in out
    assert " ".join(out.splitlines()[-2:]) == (
        "Teacher card: everyone chooses at once, in secret: take 8 negative points, or "
        "risk a throw (12+ escapes, else 16). Nobody sees a choice until all are made."
    )
    assert "Recent" not in out and "Chosen" not in out
    assert "Your hand" in out and "Patience pawn (P): 24, next black field 40." in out


def test_once_revealed_the_choices_are_on_screen_while_they_are_carried_out() -> None:
    state = play(teacher_card_drawn(), "0: take", "1: risk", "2: risk")
    out = screen.render(GAME.view(state, 2), NAMES, [])
    assert "Chosen: Ada takes, Ben risks, you risk." in out
    assert out.endswith("Teacher card: Ben's dice are thrown.")


def test_a_throw_that_escapes_is_named_as_such() -> None:
    state = play(cheating_played(), "0: risk", dice(6, 5, 4))
    out = screen.render(GAME.view(state, 1), NAMES, [])
    assert "Last throw: Ada threw 6+5+4 = 15 and escaped." in out
    assert "School card: Cheating by Ada (patience 9, 11 negative, risk 12+)." in out


def test_the_last_throw_comes_from_the_view_not_from_the_event_lines() -> None:
    # Issue 11: "the last throw names its thrower" (it did only while the throw's
    # event was among the recent lines).
    view = GAME.view(after_failed_risk(), 1)
    recent = ["   12  chance    seat 1 throws 6+6+6 = 18: escapes"]
    out = screen.render(view, NAMES, recent)
    assert "Last throw: Ada threw 3+4+2 = 9 and missed 12+: 22 negative points.\n" in out


def test_your_own_last_throw_stays_on_screen_after_others_throw() -> None:
    # Issue 11: "your own last throw or draw stays visible".  On the teacher card
    # Ada (who failed her throw) takes, Ben throws: his is the last, hers stays.
    state = play(teacher_card_drawn(), "0: take", "1: risk", "2: take", dice(6, 6, 1))
    out = screen.render(GAME.view(state, 0), NAMES, [])
    assert "Last throw: Ben threw 6+6+1 = 13 and escaped.\n" in out
    assert "Your last throw: 3+4+2 = 9 and missed 12+: 22 negative points.\n" in out
    ben = screen.render(GAME.view(state, 1), NAMES, [])
    assert "Last throw: you threw 6+6+1 = 13 and escaped." in ben
    assert "Your last throw" not in ben  # the last throw is his own: said once
    cleo = screen.render(GAME.view(state, 2), NAMES, [])
    assert "Your last throw" not in cleo  # Cleo has not thrown


def test_the_last_teacher_card_stays_on_screen_after_its_turn() -> None:
    state = play(teacher_card_drawn(), "0: take", "1: take", "2: take")
    assert state.phase == "turn" and state.current == 1
    out = screen.render(GAME.view(state, 0), NAMES, [])
    assert "Last teacher card: To the blackboard! (patience 1, 8 negative, risk 12+,\n" in out
    assert "School card:" not in out  # a new turn: nothing is being resolved
    assert out.endswith("Ben's turn: play a school card.")


def test_a_teacher_card_without_an_effect_reads_as_such() -> None:
    # "The school teachers cards "Test" and "Inattentive Teacher" are lucky for
    # students": no negatives, no patience.  Issue 11: not "0 negative, risk 0+".
    state = play(after_failed_risk(), Dealt(card("Daydreaming", 1)), Drawn(teacher("Test")))
    assert state.phase == "turn" and state.current == 1  # nobody is asked anything
    out = screen.render(GAME.view(state, 0), NAMES, [])
    assert "Last teacher card: Test (no effect: no negative points, the pawn stays)." in out


def test_the_short_track_has_its_own_scale() -> None:
    state = classroom(2, patience=50, tokens=[21, 99], track="100")
    out = screen.render(GAME.view(state, 0), NAMES[:2], [])
    lines = out.splitlines()
    assert lines[2] == "         0        20        40        60        80       100"
    assert lines[3] == "  Pawn   ..........|.........|....P....|.........|.........]"
    assert lines[4] == "  Tokens ..........1.........|.........|.........|........2]"


def test_the_pawn_is_never_hidden_under_a_token() -> None:
    # Issue 11: "the patience pawn is always visible on the track (today four fields
    # share a character and the pawn hides under a token)".  Pawn on 41, Ada on 40,
    # Ben on 43: one cell of four fields holds all three.
    state = classroom(2, patience=41, tokens=[40, 43])
    lines = screen.render(GAME.view(state, 0), NAMES[:2], []).splitlines()
    assert lines[3] == "  Pawn   .....|....P....|....|....|....|....|....|....|....]"
    assert lines[4] == "  Tokens .....|....*....|....|....|....|....|....|....|....]"
    # At the end field the pawn is drawn on the end field, and still alone on its line.
    state = classroom(2, patience=199, tokens=[199, 0])
    lines = screen.render(GAME.view(state, 0), NAMES[:2], []).splitlines()
    assert lines[3].endswith("|....|...P]") and lines[4].endswith("|....|...1]")


def test_setup_screens_show_no_hand_yet() -> None:
    state = GAME.initial(3, {})
    assert screen.render(GAME.view(state, 0), NAMES, []).endswith(
        "Setting up: choosing who starts."
    )
    state = GAME.resolve(state, (1,))
    out = screen.render(GAME.view(state, 0), NAMES, [])
    assert "  (empty)" in out
    assert out.endswith("Setting up: dealing 4 school cards to everyone.")


def test_public_view_has_no_hand_section() -> None:
    out = screen.render(GAME.view(cheating_played(), None), NAMES, [])
    assert "Your hand" not in out and "(you)" not in out
    assert "Ada's turn: take 11 negative points" in out


def test_final_screen_lists_fewest_points_first() -> None:
    # "The game ends immediately, as soon as ... a colored token has moved on or over
    # the field" -- Cleo's 14 negative points take her to 200.
    state = classroom(3, hands={2: [card("Stink bomb")]}, first=2, tokens=[40, 12, 190])
    state = play(state, slot_of(state, 2, card("Stink bomb")), "2: take")
    assert isinstance(GAME.pending(state), GameOver)
    expected = """\
Vorsicht Lehrer! | final negative points | end field 200
--------------------------------------------------------------------------------
  Players              negative
  2 Ben        winner        12
  1 Ada (you)                40
  3 Cleo                    200

Ben wins with the fewest negative points (12)."""
    assert screen.render_final(GAME.view(state, 0), NAMES) == expected


def test_final_screen_with_a_shared_victory() -> None:
    state = classroom(3, hands={2: [card("Stink bomb")]}, first=2, tokens=[12, 12, 190])
    state = play(state, slot_of(state, 2, card("Stink bomb")), "2: take")
    out = screen.render_final(GAME.view(state, None), NAMES)
    rows = out.splitlines()[3:6]
    assert [row.split()[1] for row in rows] == ["Ada", "Ben", "Cleo"]
    assert out.endswith("Ada and Ben share the victory with the fewest negative points (12).")
    assert "seat" not in out


def test_final_screen_before_the_end() -> None:
    out = screen.render_final(GAME.view(cheating_played(), 0), NAMES)
    assert out.endswith("The game is not over yet.")


def test_no_escape_codes_without_colour_and_same_text_with_it() -> None:
    for view in (GAME.view(after_failed_risk(), 0), GAME.view(teacher_card_drawn(), 1)):
        plain = screen.render(view, NAMES, RECENT, ["status"], color=False)
        coloured = screen.render(view, NAMES, RECENT, ["status"], color=True)
        assert "\x1b" not in plain
        assert "\x1b[" in coloured
        assert strip_ansi(coloured) == plain
    final = drive(GAME, GAME.initial(3, {}), lambda s: random_policy(random.Random(1)),
                  random_chance(random.Random(2)))  # fmt: skip
    final_view = GAME.view(final, 0)
    assert "\x1b" not in screen.render_final(final_view, NAMES)
    coloured = screen.render_final(final_view, NAMES, color=True)
    assert "\x1b[" in coloured
    assert strip_ansi(coloured) == screen.render_final(final_view, NAMES)


def mid_game(seats: int, seed: int, track: str = "200") -> VorsichtLehrerState:
    """A random playout stopped about half-way (by the pawn or the highest token)."""
    rng = random.Random(seed)
    state = GAME.initial(seats, {"track": track})
    half = int(track) // 2
    steps = 0
    while max(state.patience, *state.tokens) < half or steps < rng.randrange(40):
        steps += 1
        decision = GAME.pending(state)
        if isinstance(decision, Chance):
            state = GAME.resolve(state, tuple(rng.randrange(r) for r in decision.step.ranges))
        else:
            seat = chooser(decision)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert state.phase != "over"
    return state


@pytest.mark.parametrize("track", ["200", "100"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_line_fits_80_columns(seats: int, track: str) -> None:
    names = [f"Player {n} with a very long name"[:32] for n in range(seats)]
    long = ["x" * 120] * 10
    for seed in range(5):
        state = mid_game(seats, seed, track)
        for seat in (0, None):
            view = GAME.view(state, seat)
            for color in (False, True):
                out = screen.render(view, names, long, long, color=color)
                for line in out.splitlines():
                    assert len(strip_ansi(line)) <= 80, line
                    assert line == line.rstrip(), line
                assert ("\x1b" in out) == color
    final = drive(GAME, GAME.initial(seats, {"track": track}),
                  lambda s: random_policy(random.Random(seats)),
                  random_chance(random.Random(seats)))  # fmt: skip
    for line in screen.render_final(GAME.view(final, 0), names).splitlines():
        assert len(line) <= 80 and line == line.rstrip(), line


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_other_hands_are_never_rendered(seats: int) -> None:
    # "These are held in such a way that these cannot be seen by the other players."
    checked = 0
    for seed in range(10):
        state = mid_game(seats, seed)
        view = GAME.view(state, 0)
        shown = {c["name"] for c in view["hand"]}
        if state.played is not None:
            shown.add(SCHOOL[state.played].name)
        hidden = {
            SCHOOL[c].name for s in range(1, seats) for c in state.hands[s] if c is not None
        } - shown
        out = screen.render(view, [f"P{n}" for n in range(seats)], [])
        for name in hidden:
            assert name not in out, name
            checked += 1
    assert checked > 0


def test_menu_words_for_playing_a_card() -> None:
    state = classroom(3, hands={0: ADA_HAND})
    view = GAME.view(state, 0)
    assert [screen.describe_action_for_menu(view, a) for a in GAME.legal_actions(state, 0)] == [
        "play Cheating (patience 9, 11 points or risk 12+)",
        "play Daydreaming (patience 1, 2 points or risk 8+)",
        "play Whispering (patience 2, 3 points or risk 9+)",
        "play Stink bomb (patience 10, 14 points or risk 15+)",
    ]
    # A card the view does not show at that slot is not named.
    assert screen.describe_action_for_menu(view, Action("play", (1, CHEATING))) == (
        "play the card in slot 2"
    )


def test_menu_words_for_take_and_risk_on_a_school_card() -> None:
    state = cheating_played()
    view = GAME.view(state, 0)
    assert [screen.describe_action_for_menu(view, a) for a in GAME.legal_actions(state, 0)] == [
        "take 11 negative points",
        "risk a throw: 3 dice, need 12+ (else 22 points)",
    ]


def test_menu_words_for_take_and_risk_on_a_teacher_card() -> None:
    state = teacher_card_drawn()
    view = GAME.view(state, 0)
    assert [
        screen.describe_action_for_menu(view, a, NAMES) for a in GAME.legal_actions(state, 0)
    ] == [
        "take 8 negative points",
        "risk a throw: 3 dice, need 12+ (else 16 points)",
    ]


def test_an_unknown_verb_is_shown_as_its_text() -> None:
    view = GAME.view(classroom(3), 0)
    assert screen.describe_action_for_menu(view, Action("take")) == "take"
    assert screen.describe_action_for_menu(view, Action("shout", (1,))) == "shout 1"


def test_dispatcher_knows_vorsicht_lehrer() -> None:
    assert screen_for("vorsicht-lehrer") is screen.render
    assert final_screen_for("vorsicht-lehrer") is screen.render_final
    assert menu_describer_for("vorsicht-lehrer") is screen.describe_action_for_menu
    assert screens_for("vorsicht-lehrer").help == screen.HELP
    assert screen.HELP.startswith("Vorsicht Lehrer!\n")
    assert all(len(line) <= 80 for line in screen.HELP.splitlines())
