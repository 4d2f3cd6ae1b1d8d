"""Bots that fill seats: a random bot for every game, smarter ones per game.

A bot is an :data:`~p2ptable.engine.playout.Policy`: given the game, the state it
can see and its seat, it returns one legal action.  Bots decide from
``game.view(state, seat)`` and ``game.legal_actions(state, seat)``.  The random bot
is the same for every game; each other kind is the game's own, from its package
(``GamePackage.bots``, in ``p2ptable.games``).
"""

from __future__ import annotations

import random

from p2ptable.engine.api import Game
from p2ptable.engine.playout import Policy, random_policy
from p2ptable.games import get_package

BOT_KINDS = ("random", "greedy")


def make_bot(game: Game, kind: str, rng: random.Random) -> Policy:
    """The bot called ``kind`` for ``game``; a game without that kind plays random."""
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(BOT_KINDS)})")
    if kind != "random":
        try:
            factory = get_package(game.name).bots.get(kind)
        except KeyError:
            factory = None  # a game that is not registered (a test's) has no bots of its own
        if factory is not None:
            return factory(rng)
    return random_policy(rng)
