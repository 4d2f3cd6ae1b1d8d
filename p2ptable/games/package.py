"""What one game brings to p2ptable: its rules, screens, bots and rules notes.

How it works: every game package (``p2ptable/games/<game>/__init__.py``) exports one
:class:`GamePackage` as ``PACKAGE``, and ``p2ptable/games/__init__.py`` lists the
packages, one line each.  Everything else asks that list: the log and the network
for the rules (``get_game``), the terminal for the screens (``ui.screens``), the
bots for a seat's policy (``bots.make_bot``), ``p2ptable rules`` for the notes.

The screens are loaded on first use (``screens`` is a function returning them): the
rules, which ``verify`` and every peer need, never import the terminal's code.
The ``engine`` (the game-agnostic API) imports no game at all.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from p2ptable.engine.api import Game
from p2ptable.engine.playout import Policy
from p2ptable.games.notes import player_notes

if TYPE_CHECKING:  # the terminal's types; imported by the screens function at run time
    from p2ptable.ui.screens import GameScreens

#: A bot kind for one game: given the bot's own random source, its policy.
BotFactory = Callable[[random.Random], Policy]


@dataclass(frozen=True, eq=False)
class GamePackage:
    """One game, everything p2ptable needs of it.

    * ``rules``: the ``engine.api.Game`` (its ``name`` is the package's);
    * ``screens``: returns the terminal's ``ui.screens.GameScreens`` (live and final
      screen, menu wording, help);
    * ``bots``: bot kind -> factory, for every kind but ``random``, which every game
      has; the kinds of every game together are ``bots.BOT_KINDS``;
    * ``notes``: the game's RULES.md, whose "how to play" part and rule readings are
      what ``p2ptable rules`` shows (``rules_notes``);
    * ``opponent``: the bot kind ``p2ptable play`` seats against a person unless told
      otherwise, the one that makes the best game for a person.
    """

    rules: Game
    screens: Callable[[], GameScreens]
    bots: Mapping[str, BotFactory]
    notes: Path
    opponent: str = "greedy"

    @property
    def name(self) -> str:
        return self.rules.name

    def rules_notes(self) -> str:
        """The notes for players, from RULES.md (``games.notes.player_notes``)."""
        return player_notes(self.notes)
