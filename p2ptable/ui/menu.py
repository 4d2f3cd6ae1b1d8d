"""The menu of a turn: the legal actions grouped, one line per distinct choice.

How it works
------------
The rules list every legal action (``legal_actions``); a person needs fewer
lines.  :func:`build` turns that list into a :class:`Menu`:

* each action is placed by the game's *arranger* (``GameScreens.arrange``,
  ``ui/screens.py``): a group heading ("Move", "Bully") and the words within it
  ("the Library (sneak: 70 %)"), or ``None`` to leave it off the menu because,
  by the game's rules, it changes nothing a player could want (a Squeal into
  the room the Hall Monitor already stands in, finding nobody).  A game
  without an arranger lists every action under no heading, in its menu words;
* two actions worded alike in one group are one line (two Bully cards in a
  hand are the same choice): the first of them is the one chosen;
* groups keep the order in which the rules list their first action, and the
  entries are numbered from 1 in the order shown.

Only the menu changes: the rules still allow every action, and a line typed as
the action's text (``work 0 12 3``, the log's form) is still taken
(``ui/prompt.py``).  Nothing here reads input or prints.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2ptable.engine.api import Action
from p2ptable.ui.style import fit


@dataclass(frozen=True)
class Placed:
    """Where an arranger puts an action: under ``group`` ("" for none), as ``words``."""

    group: str
    words: str


@dataclass(frozen=True)
class Entry:
    """One line of the menu: the number a person types and what it chooses."""

    number: int
    action: Action
    words: str  # within its group
    full: str  # on its own, as the describer words it ("Move to the Library ...")


@dataclass(frozen=True)
class Group:
    title: str  # "" for the entries under no heading
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Menu:
    groups: tuple[Group, ...]
    hidden: int = 0  # legal actions left off (no-ops and lines worded alike)

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(e for g in self.groups for e in g.entries)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions in the order of their numbers (what ``parse_choice`` counts)."""
        return tuple(e.action for e in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def lines(self, width: int = 80) -> list[str]:
        """The menu as text at most ``width`` columns wide (a longer entry has a line
        of its own): entries under no heading as ``1) ...``, one a line; a group's
        heading, then its entries side by side, three spaces apart, wrapped."""
        pad = len(str(len(self)))
        out: list[str] = []
        for group in self.groups:
            if not group.title or len(group.entries) == 1:
                # a heading for one line is a line lost: that entry in its own words
                for e in group.entries:
                    words = e.full if group.title else e.words
                    out += textwrap.wrap(
                        f"{e.number:>{pad}}) {words}", width, subsequent_indent=" " * (pad + 2)
                    )
                continue
            line = f"{group.title}:"
            for entry in group.entries:
                item = fit(f"{entry.number}) {entry.words}", width - len(INDENT))
                if len(line) + len(SEPARATOR) + len(item) > width and line.strip():
                    out.append(line)
                    line = INDENT + item
                else:
                    line += (" " if line.endswith(":") else SEPARATOR) + item
            out.append(line)
        return out


SEPARATOR = "   "  # between the entries of a group on one line
INDENT = "  "  # a group's wrapped line


#: Places an action: ``arrange(view, action, words, names)`` (``words``: the describer's).
Arranger = Callable[[dict, Action, str, Sequence[str]], "Placed | None"]


def build(
    view: dict,
    actions: Sequence[Action],
    describe: Callable[[Action], str],
    names: Sequence[str],
    arrange: Arranger | None = None,
) -> Menu:
    """The menu for ``actions`` (see the module docstring)."""
    order: list[str] = []
    placed: dict[str, list[tuple[Action, str, str]]] = {}
    seen: set[tuple[str, str]] = set()
    hidden = 0
    for action in actions:
        full = describe(action)
        where = Placed("", full) if arrange is None else arrange(view, action, full, names)
        if where is None or (where.group, where.words) in seen:
            hidden += 1
            continue
        seen.add((where.group, where.words))
        if where.group not in placed:
            order.append(where.group)
            placed[where.group] = []
        placed[where.group].append((action, where.words, full))
    groups: list[Group] = []
    number = 1
    for title in order:
        entries = []
        for action, words, full in placed[title]:
            entries.append(Entry(number, action, words, full))
            number += 1
        groups.append(Group(title, tuple(entries)))
    return Menu(tuple(groups), hidden)
