"""The action menu: numbered choices, reading what the player typed, and help.

How it works
------------
:func:`menu_for` groups a seat's legal actions into the game's menu
(``ui/menu.py``: headings, one line per distinct choice, numbered from 1), worded
by the game's menu describer (``ui/screens.py``); :func:`menu_lines` numbers a
plain list.  :func:`parse_choice` reads one line typed by the player and returns
the chosen :class:`~p2ptable.engine.api.Action`, :class:`Help` for ``?``/``help``,
:class:`Recent` for ``r`` (every event since the last choice, which a short
terminal cannot show at once), :class:`Talk` for a line begun with ``'`` or
``say`` (table talk, net/sideline.py), :class:`Break` for ``break`` (a proposed
break, or agreeing to one), :class:`Spectators` for ``hide spectators`` / ``show
spectators`` (the spectators' channel on this screen, net/spectator_talk.py),
:class:`LeaveTable` for ``leave`` (for good, a bot plays the seat:
net/departure_round.py), or :class:`Invalid` with a message saying what to type
instead.  A choice may be typed as its number, as the action's text (``take 1``,
the form the log uses; any legal action, also one the menu leaves off) or as its
menu wording.  Nothing here reads input or prints: the caller does, so every
case is testable with plain strings.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2ptable.engine.api import Action
from p2ptable.ui.menu import Menu, build
from p2ptable.ui.screens import View, screens_for

HELP_WORDS = frozenset({"?", "h", "help"})
RECENT_WORDS = frozenset({"r", "recent"})


@dataclass(frozen=True)
class Help:
    """The player asked for help."""


@dataclass(frozen=True)
class Recent:
    """The player asked for every event since their last choice."""


@dataclass(frozen=True)
class Talk:
    """The player says ``text`` to the table (a line begun with ' or "say ")."""

    text: str


@dataclass(frozen=True)
class Break:
    """The player proposes a break, or agrees to the one proposed ("break")."""


@dataclass(frozen=True)
class Spectators:
    """The player hides or shows the spectators' channel on their screen."""

    shown: bool


SPECTATORS_WORDS = {"hide spectators": False, "show spectators": True}


@dataclass(frozen=True)
class Invalid:
    """The line is not a choice; ``message`` says what to type instead."""

    message: str


@dataclass(frozen=True)
class LeaveTable:
    """The player leaves for good and lets a bot play their seat ("leave")."""


Choice = Action | Help | Recent | Talk | Break | Spectators | LeaveTable | Invalid
BREAK_WORDS = frozenset({"break", "pause"})
LEAVE_WORDS = frozenset({"leave"})


def menu_lines(actions: Sequence[Action], describe: Callable[[Action], str]) -> list[str]:
    """``["1) draw a card", "2) take conductor B (3, 5)", ...]``."""
    width = len(str(len(actions)))
    return [f"{n:>{width}}) {describe(a)}" for n, a in enumerate(actions, start=1)]


def menu_for(game_name: str, view: View, actions: Sequence[Action], names: Sequence[str]) -> Menu:
    """The grouped menu of ``actions`` for the seat whose ``view`` this is."""
    screens = screens_for(game_name)
    return build(view, actions, lambda a: screens.describe(view, a, names), names, screens.arrange)


def _normal(text: str) -> str:
    return " ".join(text.split()).lower()


def _hint(count: int) -> str:
    numbers = "1" if count == 1 else f"1-{count}"
    return f"choose {numbers}, or ? for help"


def talk_of(line: str) -> str | None:
    """The words of a line of talk (``'good luck`` or ``say good luck``), or None
    when ``line`` is not talk.  Any prompt takes it, also while others play."""
    stripped = line.strip()
    if stripped.startswith("'"):
        return stripped[1:].strip()
    if stripped.lower().startswith("say ") or stripped.lower() == "say":
        return stripped[3:].strip()
    return None


def parse_choice(
    line: str,
    actions: Sequence[Action],
    describe: Callable[[Action], str] | None = None,
    legal: Sequence[Action] = (),
) -> Choice:
    """What the typed ``line`` chooses among ``actions`` (the menu, in order);
    an action's text may also name one of ``legal`` the menu leaves off."""
    said = talk_of(line)
    if said is not None:
        return Talk(said) if said else Invalid("type your line after the ' (or after say)")
    typed = _normal(line)
    if typed in BREAK_WORDS:
        return Break()
    if typed in SPECTATORS_WORDS:
        return Spectators(SPECTATORS_WORDS[typed])
    if typed in LEAVE_WORDS:
        return LeaveTable()
    if typed in HELP_WORDS:
        return Help()
    if typed in RECENT_WORDS:
        return Recent()
    if not actions:
        return Invalid("there is nothing to choose right now")
    hint = _hint(len(actions))
    if not typed:
        return Invalid(hint)
    if re.fullmatch(r"[+-]?\d+", typed):
        number = int(typed)
        if 1 <= number <= len(actions):
            return actions[number - 1]
        return Invalid(f"there is no choice {number}: {hint}")
    for action in (*actions, *legal):
        if action.text == typed:
            return action
    if describe is not None:
        for action in actions:
            if _normal(describe(action)) == typed:
                return action
    try:
        Action.parse(typed)
    except ValueError:
        return Invalid(f'"{line.strip()}" is not on the menu: {hint}')
    return Invalid(f'"{typed}" is not possible now: {hint}')


_GENERAL_HELP = """\
At the table
  The screen shows the table as your seat sees it, redrawn after each move.
  When you have a choice, a numbered menu lists everything you may do: type a
  number and press Enter.
  ? or help   show this help
  r           list every event since your last choice (the "Recent" list
              shows the latest that fit, and says how many earlier it hides)
  'words      say a line to the table (or: say words), at any moment, also
              while others play; every seat reads it with your name
  break       propose a break; when every seat has typed break, every
              peer saves and ends, printing the command that comes back
  hide spectators / show spectators
              at a table where spectators may talk, hide (or show again)
              their channel, shown as "(spectator) NAME says: ..."
  leave       at a table that keeps going, at your turn: leave for good, and
              a bot plays for you from then on (the others go on at once)
  Ctrl-C      leave the game; the log is kept, and `p2ptable resume FILE`
              continues it where it stopped."""


def help_text(game_name: str, width: int = 80) -> str:
    """How to use the screen and the menu, and the game's turn in a nutshell; a
    line longer than ``width`` is wrapped between words, under its own indent."""
    game_help = screens_for(game_name).help
    text = _GENERAL_HELP + ("\n" + game_help if game_help else "")
    return "\n".join(rewrap(text, width))


def rewrap(text: str, width: int) -> list[str]:
    """``text``'s lines, each longer than ``width`` wrapped between words."""
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        out += textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent) or [""]
    return out
