"""Bots that fill seats: a random bot for every game, smarter ones per game.

A bot is an :data:`~p2ptable.engine.playout.Policy`: given the game, the state it
can see and its seat, it returns one legal action.  Bots decide from
``game.view(state, seat)`` and ``game.legal_actions(state, seat)``.
"""

from __future__ import annotations

import random

from p2ptable.engine.api import Game
from p2ptable.engine.playout import Policy, random_policy

BOT_KINDS = ("random", "greedy")


def make_bot(game: Game, kind: str, rng: random.Random) -> Policy:
    """The bot called ``kind`` for ``game``; games without a greedy bot use random."""
    if kind == "random":
        return random_policy(rng)
    if kind == "greedy":
        if game.name == "pet-quartet":
            from p2ptable.games.pet_quartet.bots import greedy_policy

            return greedy_policy(rng)
        if game.name == "vorsicht-lehrer":
            from p2ptable.games.vorsicht_lehrer.bots import greedy_policy as sensible_policy

            return sensible_policy(rng)
        return random_policy(rng)
    raise ValueError(f"unknown bot {kind!r} (known: {', '.join(BOT_KINDS)})")
