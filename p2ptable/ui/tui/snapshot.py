"""What one redraw of the full-screen table shows: a frozen value, built from a
seat's view (or the public view), never from the state.

The peer's side builds a :class:`Snapshot` whenever something changed and
hands it to the app (``link.py``); the app lays it out at the size of the
terminal (``app.py``).  Everything in it is plain data: the view (a dict of
what the seat may see), names, worded lines and the menu of the moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from p2ptable.engine.api import Action
from p2ptable.ui import prompt
from p2ptable.ui.menu import Menu

View = dict[str, Any]


@dataclass(frozen=True)
class Snapshot:
    game: str  # the game's name ("teachers-pet"); "" before the table knows it
    view: View | None  # the seat's view (None before the game begins)
    names: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()  # the events and what was said, oldest first: all of them
    status: tuple[str, ...] = ()  # what the table waits for
    menu: Menu | None = None  # the choice, when it is ours to make
    together: bool = False  # everyone chooses at once, in secret
    my_turn: bool = False
    message: str = ""  # what the last choice typed got back ("there is no choice 12 ...")
    final: str = ""  # the final screen, once the game is over
    watching: bool = False  # a spectator, or a person watching their bot play
    title: str = field(default="")  # before the game: what the screen is waiting for
    typing: bool = False  # the seat takes typed lines: talk, break, the lobby's commands


def of_view(
    game: str,
    view: View,
    names: Sequence[str],
    lines: Sequence[str] = (),
    actions: Sequence[Action] = (),
    status: Sequence[str] = (),
    together: bool = False,
    message: str = "",
    final: str = "",
    watching: bool = False,
    typing: bool = False,
) -> Snapshot:
    """The snapshot of a seat's ``view`` with its legal ``actions`` (none: it is
    not the seat's to choose), grouped into the game's menu."""
    menu = prompt.menu_for(game, view, actions, names) if actions else None
    return Snapshot(
        game,
        view,
        tuple(names),
        tuple(lines),
        tuple(status),
        menu,
        together=together,
        my_turn=menu is not None,
        message=message,
        final=final,
        watching=watching,
        typing=typing,
    )
