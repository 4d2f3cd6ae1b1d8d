"""Every screen fills the terminal with events: ``render(..., rows=N)``.

Issue 11: "Every event since your last turn is on screen when the terminal has room
(not only the last six)".  The terminal passes every recent event line and the rows
it can spare; the screen draws its fixed parts, then as many of the latest events as
fit, and at least the last 3 however small the terminal.  Without ``rows``, the last
6 as before.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from p2ptable.engine.api import Action
from p2ptable.engine.playout import play as drive
from p2ptable.engine.playout import random_chance, random_policy
from p2ptable.games.pet_quartet import GAME as PET_QUARTET
from p2ptable.games.vorsicht_lehrer import GAME as VORSICHT_LEHRER
from p2ptable.ui import pet_quartet_screen, vorsicht_lehrer_screen
from p2ptable.ui.screens import render_generic
from p2ptable.ui.style import MIN_RECENT_LINES, RECENT_LINES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from vorsicht_lehrer_helpers import card, classroom, slot_of  # noqa: E402
from vorsicht_lehrer_helpers import play as vl_play  # noqa: E402

NAMES = ["Ada", "Ben", "Cleo"]
EVENTS = [f"{n:5d}  Ada       event number {n}" for n in range(200)]


def _pet_quartet_view() -> dict:
    state = PET_QUARTET.initial(3, {})
    state = PET_QUARTET.resolve(state, (0,))
    state = PET_QUARTET.apply(state, 0, Action("draw"))
    return PET_QUARTET.view(state, 0)


def _vorsicht_lehrer_view() -> dict:
    state = classroom(3, hands={0: [card("Cheating")]}, patience=14)
    return VORSICHT_LEHRER.view(vl_play(state, slot_of(state, 0, card("Cheating"))), 0)


SCREENS = {
    "pet-quartet": (pet_quartet_screen.render, _pet_quartet_view),
    "vorsicht-lehrer": (vorsicht_lehrer_screen.render, _vorsicht_lehrer_view),
    "generic": (render_generic, _pet_quartet_view),
}


def shown_events(out: str) -> list[int]:
    return [int(line.split()[-1]) for line in out.splitlines() if "event number" in line]


def fixed_lines(render, view) -> int:
    """How many lines the screen takes without any event."""
    return len(render(view, NAMES, [], ["status"]).splitlines())


@pytest.mark.parametrize("screen", SCREENS)
def test_without_rows_the_last_six_events_are_shown(screen: str) -> None:
    render, make_view = SCREENS[screen]
    out = render(make_view(), NAMES, EVENTS, ["status"])
    assert shown_events(out) == list(range(200 - RECENT_LINES, 200))


@pytest.mark.parametrize("screen", SCREENS)
def test_the_events_fill_the_rows_the_terminal_can_spare(screen: str) -> None:
    render, make_view = SCREENS[screen]
    view = make_view()
    fixed = fixed_lines(render, view)
    for rows in (fixed + 5, fixed + 12, fixed + 40):
        out = render(view, NAMES, EVENTS, ["status"], rows=rows)
        lines = out.splitlines()
        assert len(lines) == rows  # every row used, none too many
        room = rows - fixed - 2  # the blank line and the "Recent" title
        assert shown_events(out) == list(range(200 - room, 200))  # the latest, oldest first
        assert "status" in lines[-1]  # the caller's status lines stay at the bottom


@pytest.mark.parametrize("screen", SCREENS)
def test_a_few_events_leave_the_rest_of_the_rows_empty(screen: str) -> None:
    render, make_view = SCREENS[screen]
    view = make_view()
    out = render(view, NAMES, EVENTS[:4], ["status"], rows=fixed_lines(render, view) + 30)
    assert shown_events(out) == [0, 1, 2, 3]


@pytest.mark.parametrize("screen", SCREENS)
def test_a_tiny_terminal_still_shows_the_last_three_events(screen: str) -> None:
    render, make_view = SCREENS[screen]
    view = make_view()
    for rows in (0, 5, fixed_lines(render, view) + 2):
        out = render(view, NAMES, EVENTS, ["status"], rows=rows)
        assert shown_events(out) == list(range(200 - MIN_RECENT_LINES, 200))


@pytest.mark.parametrize("screen", SCREENS)
def test_rows_do_not_change_a_screen_without_events(screen: str) -> None:
    render, make_view = SCREENS[screen]
    view = make_view()
    assert render(view, NAMES, [], rows=100) == render(view, NAMES, [])


def test_rows_fit_a_whole_random_game_of_vorsicht_lehrer() -> None:
    # Whatever the table holds, the screen uses exactly the rows it is given once the
    # events are many enough, and every line still fits 80 columns.
    policy = random_policy(random.Random(4))
    final = drive(
        VORSICHT_LEHRER,
        VORSICHT_LEHRER.initial(4, {}),
        lambda s: policy,
        random_chance(random.Random(4)),
    )
    view = VORSICHT_LEHRER.view(final, 0)
    names = [f"Player {n}" for n in range(4)]
    out = vorsicht_lehrer_screen.render(view, names, EVENTS, rows=60)
    assert len(out.splitlines()) == 60
    assert all(len(line) <= 80 for line in out.splitlines())
