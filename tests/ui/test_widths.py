"""The line mode wraps to the terminal's width (issue 25: "At 60 columns the rule
lines, headers and `?` help are hard-wrapped at 80 and break mid-word")."""

from __future__ import annotations

import random

import pytest

from p2ptable.engine.api import Chance, GameOver, Simultaneous
from p2ptable.games import get_game
from p2ptable.ui import prompt
from p2ptable.ui.screens import screens_for
from p2ptable.ui.style import strip_ansi

GAMES = ["pet-quartet", "vorsicht-lehrer", "teachers-pet"]
NAMES = ["Ana", "Ben with a long name", "Cleo", "Dan"]


def states(name: str, seed: int = 3, every: int = 9, cap: int = 60):  # noqa: ANN201
    """Every ``every``-th state of a seeded random playout (at most ``cap``)."""
    game, rng = get_game(name), random.Random(seed)
    s = game.initial(4, {})
    for step in range(5000):
        if step % every == 0:
            yield game, s
            cap -= 1
            if not cap:
                return
        decision = game.pending(s)
        if isinstance(decision, GameOver):
            return
        if isinstance(decision, Chance):
            s = game.resolve(s, tuple(rng.randrange(r) for r in decision.step.ranges))
        elif isinstance(decision, Simultaneous):
            for seat in sorted(decision.seats):
                s = game.apply(s, seat, rng.choice(game.legal_actions(s, seat)))
        else:
            s = game.apply(s, decision.seat, rng.choice(game.legal_actions(s, decision.seat)))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_screen_line_and_menu_line_fits_the_width(name: str, width: int) -> None:
    screens = screens_for(name)
    for game, s in states(name):
        for seat in (None, 0, 1):
            view = game.view(s, seat)
            text = strip_ansi(screens.render(view, NAMES, ["an event"], (), True, width=width))
            assert max(len(line) for line in text.splitlines()) <= width, text
            if seat is None:
                continue
            menu = prompt.menu_for(name, view, game.legal_actions(s, seat), NAMES)
            assert all(len(line) <= width for line in menu.lines(width)), menu.lines(width)


@pytest.mark.parametrize("name", GAMES)
def test_help_wraps_between_words_at_60_columns(name: str) -> None:
    wide = prompt.help_text(name)
    narrow = prompt.help_text(name, 60).splitlines()
    assert all(len(line) <= 60 for line in narrow)
    assert " ".join(wide.split()) == " ".join(" ".join(narrow).split())  # no word cut
