"""Which screen renders which game, with a generic fallback for games without one.

How it works
------------
A game's terminal presentation is five things: the live screen, the final screen,
how to word an action for the menu, how to group the menu (``ui/menu.py``), and a
few lines of help, held in a
:class:`GameScreens`.  Each game's are registered here by its name
(:data:`SCREENS`, each module imported on first use); a game that has none gets the
generic one, which pretty-prints the view and shows actions by their text.  The
games import nothing of the terminal: this is the one place that ties them.  Every renderer
takes a *view* (what one seat may see) and returns a string: no I/O, no state.
"""

from __future__ import annotations

import pprint
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from p2ptable.engine.api import Action, Outcome
from p2ptable.ui.menu import Arranger
from p2ptable.ui.style import Style, fit, recent_block, recent_room
from p2ptable.ui.text import name_seats


def final_view(view: dict[str, Any], result: Outcome | None) -> dict[str, Any]:
    """The public view the end-of-game screen is drawn from: the rules' outcome,
    or, where the rules have none, the log's result.  A table that keeps going
    ends when every other player left it (replay.md 9.8: the one still there
    wins, each game's RULES.md, "The end"): that result is the ledger's, and
    the end-of-game screen said "The game is not over yet." under it."""
    if view.get("outcome") is None and result is not None:
        return {**view, "outcome": result.to_view()}
    return view


WIDTH = 80

View = dict[str, Any]


class ScreenRenderer(Protocol):
    """Renders the live table: ``render(view, names, recent, status, color, rows, width)``.

    ``recent`` is the event lines, oldest first (the caller may pass many: every
    event since the seat's last turn); ``status`` lines go at the bottom; ``rows``
    is how many terminal lines the screen may use, ``width`` how many columns (the
    terminal's, in the line mode: never hard-wrapped at 80).  The screen draws its fixed
    parts, then as many of the latest ``recent`` lines as fit in ``rows`` (never
    fewer than ``style.MIN_RECENT_LINES``; with ``rows=None`` the last
    ``style.RECENT_LINES``).
    """

    def __call__(
        self,
        view: View,
        names: Sequence[str],
        recent: Sequence[str],
        status: Sequence[str] = (),
        color: bool = False,
        rows: int | None = None,
        width: int = WIDTH,
    ) -> str: ...


class FinalRenderer(Protocol):
    """Renders the end of the game: ``render_final(view, names, color)``."""

    def __call__(self, view: View, names: Sequence[str], color: bool = False) -> str: ...


@dataclass(frozen=True)
class Panes:
    """One table in the panes of the full-screen table (``ui/tui/``), each a list
    of lines (styled when asked for colour) at most the width asked for."""

    title: str
    board: list[str]
    players: list[str]
    hand: list[str]
    now: str  # what happens now, in words


class PaneRenderer(Protocol):
    """``panes(view, names, color, width, large)``: ``large`` when the terminal
    has room for a bigger board (120 x 40 and up)."""

    def __call__(
        self, view: View, names: Sequence[str], color: bool, width: int, large: bool
    ) -> Panes: ...


#: Words an action for the menu: ``describe(view, action, names)``.
MenuDescriber = Callable[[View, Action, Sequence[str]], str]


@dataclass(frozen=True)
class GameScreens:
    """Everything the terminal needs to present one game."""

    render: ScreenRenderer
    render_final: FinalRenderer
    describe: MenuDescriber
    help: str
    #: groups the menu and leaves off what changes nothing (ui/menu.py); None: one
    #: line per distinct wording, under no heading
    arrange: Arranger | None = None
    #: the table in panes for the full-screen table; None: the live screen in one pane
    panes: PaneRenderer | None = None


def render_generic(
    view: View,
    names: Sequence[str],
    recent: Sequence[str],
    status: Sequence[str] = (),
    color: bool = False,
    rows: int | None = None,
    width: int = WIDTH,
) -> str:
    """Any game: its view pretty-printed, then recent events and status lines."""
    st = Style(color)
    title = str(view.get("game", "game"))
    top = [st.bold(title), "-" * width]
    top += [fit(line, width) for line in pprint.pformat(view, width=width).splitlines()]
    bottom = [st.yellow(fit(line, width)) for line in status]
    room = recent_room(rows, top, bottom)
    middle = recent_block(recent, lambda r: name_seats(r, names), st, width, room)
    return "\n".join(top + middle + bottom)


def render_generic_final(view: View, names: Sequence[str], color: bool = False) -> str:
    """Any game's end: scores by name, winners marked, and the explanation."""
    st = Style(color)
    outcome = view.get("outcome") or {}
    scores = outcome.get("scores", [])
    winners = outcome.get("winners", [])
    lines = [st.bold(f"{view.get('game', 'game')} | final scores"), "-" * WIDTH]
    for seat, name in enumerate(names):
        score = scores[seat] if seat < len(scores) else "?"
        mark = st.paint("  winner", "bold", "yellow") if seat in winners else ""
        lines.append(f"  {fit(name, 32):<32} {score:>6}{mark}")
    if outcome.get("explanation"):
        lines += ["", fit(name_seats(outcome["explanation"], names), WIDTH)]
    return "\n".join(lines)


def describe_generic(view: View, action: Action, names: Sequence[str]) -> str:
    """An action as its log text (``take 1``)."""
    return action.text


GENERIC = GameScreens(render_generic, render_generic_final, describe_generic, "")


def _screens_of(module_name: str) -> Callable[[], GameScreens]:
    """A game's screens from ``p2ptable.ui.<module_name>``, imported when first asked."""

    def load() -> GameScreens:
        from importlib import import_module

        screen = import_module(f"p2ptable.ui.{module_name}")
        return GameScreens(
            screen.render,
            screen.render_final,
            screen.describe_action_for_menu,
            screen.HELP,
            getattr(screen, "arrange_for_menu", None),
            getattr(screen, "panes", None),
        )

    return load


#: Each game's presentation, by the game's name (``games.PACKAGES`` lists the games).
SCREENS: dict[str, Callable[[], GameScreens]] = {
    "pet-quartet": _screens_of("pet_quartet_screen"),
    "vorsicht-lehrer": _screens_of("vorsicht_lehrer_screen"),
    "teachers-pet": _screens_of("teachers_pet_screen"),
}


def screens_for(game_name: str) -> GameScreens:
    """The presentation of ``game_name``, or the generic one."""
    load = SCREENS.get(game_name)
    return GENERIC if load is None else load()


def screen_for(game_name: str) -> ScreenRenderer:
    """The live-screen renderer of ``game_name`` (generic if it has none)."""
    return screens_for(game_name).render


def final_screen_for(game_name: str) -> FinalRenderer:
    """The final-screen renderer of ``game_name`` (generic if it has none)."""
    return screens_for(game_name).render_final


def menu_describer_for(game_name: str) -> MenuDescriber:
    """How ``game_name`` words actions for the menu (their text if it has no screen)."""
    return screens_for(game_name).describe
