"""A sensible Teacher's Pet bot (placeholder, being written)."""

from __future__ import annotations

import random

from p2ptable.engine.api import Action, Game
from p2ptable.engine.playout import Policy


def greedy_policy(rng: random.Random) -> Policy:
    def policy(game: Game, state: object, seat: int) -> Action:
        return rng.choice(game.legal_actions(state, seat))

    return policy
