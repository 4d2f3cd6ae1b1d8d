"""What one game brings to p2ptable: its rules, bots and rules notes.

How it works: every game package (``p2ptable/games/<game>/__init__.py``) exports one
:class:`GamePackage` as ``PACKAGE``, and ``p2ptable/games/__init__.py`` lists the
packages, one line each.  Everything else asks that list: the log and the network
for the rules (``get_game``), the bots for a seat's policy (``bots.make_bot``),
``p2ptable rules`` for the notes.

A game imports nothing of the terminal: its screens are registered in ``ui/``
(``ui.screens``, by the game's name), so the rules, which ``verify`` and every peer
need, never depend on the people's layer.  The ``engine`` (the game-agnostic API)
imports no game at all.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from p2ptable.engine.api import Game
from p2ptable.engine.playout import Policy

#: A bot kind for one game: given the bot's own random source, its policy.
BotFactory = Callable[[random.Random], Policy]


@dataclass(frozen=True, eq=False)
class GamePackage:
    """One game, everything p2ptable needs of it.

    * ``rules``: the ``engine.api.Game`` (its ``name`` is the package's);
    * ``bots``: bot kind -> factory, for every kind but ``random``, which every game
      has; the kinds of every game together are ``bots.BOT_KINDS``;
    * ``notes``: the game's RULES.md, whose "how to play" part and rule readings are
      what ``p2ptable rules`` shows (the game's ``rules_notes``);
    * ``opponent``: the bot kind ``p2ptable play`` seats against a person unless told
      otherwise, the one that makes the best game for a person.
    """

    rules: Game
    bots: Mapping[str, BotFactory]
    notes: Path
    opponent: str = "greedy"

    @property
    def name(self) -> str:
        return self.rules.name
