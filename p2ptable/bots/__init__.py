"""Bots that fill seats: a random bot for every game, smarter ones per game.

A bot is an :data:`~p2ptable.engine.playout.Policy`: given the game, the state it
can see and its seat, it returns one legal action.  Bots decide from
``game.view(state, seat)`` and ``game.legal_actions(state, seat)``.  The random bot
is the same for every game; each other kind is the game's own, from its package
(``GamePackage.bots``, in ``p2ptable.games``).

The kinds are those the registered games name (``BOT_KINDS``: ``random``, then
every game's kinds in the order ``games.BOT_KINDS_OF`` lists them), so a game that
brings a new kind makes it a choice of ``--bot`` with its line there and no change
here or in the CLI.  A
game asked for a kind it does not have plays its ``greedy`` bot (or random, when
it has none).
"""

from __future__ import annotations

import random

from p2ptable.engine.api import Game
from p2ptable.engine.playout import Policy, random_policy
from p2ptable.games import BOT_KINDS_OF, get_package


def _kinds() -> tuple[str, ...]:
    kinds = ["random", "greedy"]
    for listed in BOT_KINDS_OF.values():  # each game's, without importing the games
        kinds += [kind for kind in listed if kind not in kinds]
    return tuple(kinds)


BOT_KINDS: tuple[str, ...] = _kinds()


def make_bot(game: Game, kind: str, rng: random.Random) -> Policy:
    """The bot called ``kind`` for ``game``; a game without that kind plays its
    greedy bot, and a game without one of those (a test's) plays random."""
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(BOT_KINDS)})")
    if kind != "random":
        try:
            bots = get_package(game.name).bots
        except KeyError:
            bots = {}  # a game that is not registered (a test's) has no bots of its own
        factory = bots.get(kind) or bots.get("greedy")
        if factory is not None:
            return factory(rng)
    return random_policy(rng)


def opponent_for(game: Game) -> str:
    """The bot ``p2ptable play`` seats against a person unless told otherwise:
    the one the game's package names as making the best game (``greedy`` for a
    game that is not registered)."""
    try:
        return get_package(game.name).opponent
    except KeyError:
        return "greedy"
