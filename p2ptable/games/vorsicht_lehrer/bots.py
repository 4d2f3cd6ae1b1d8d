"""A sensible Vorsicht Lehrer! bot that decides from its own seat's view only.

How it works
------------
* **Take or risk.**  Risking costs 0 with probability P(3d6 >= r) and 2n otherwise,
  so its expected cost (1 - P) x 2n beats n exactly when P > 1/2: the bot risks then
  (risk 10 or lower).  One exception near the end field: if taking the n points
  would put its token on the end field, the throw is its only chance to stay
  below it, so it risks whatever the odds.
* **Which card.**  Each card costs its expected negative points under that choice.
  A card that makes the pawn reach a black marker brings a teacher card, whose
  negatives hit everybody alike, so it only counts when the bot's token stands on a
  black field (a detention star would move it on): a small penalty then.  A card
  that makes the pawn reach the end field ends the game at once: the bot plays it
  whenever it has the fewest points (strictly), and avoids it otherwise.

Ties are broken with the policy's own ``rng`` so games against it vary.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

from p2ptable.engine.api import Action, Game
from p2ptable.engine.playout import Policy

DETENTION_PENALTY = 4.0  # ~ the chance of a star times the 20 points it costs
END_BONUS = 1000.0


def success_chance(risk: int) -> float:
    """P(3 fair dice sum to at least ``risk``)."""
    hits = sum(1 for dice in product(range(1, 7), repeat=3) if sum(dice) >= risk)
    return hits / 216


def expected_cost(negative: int, risk: int) -> float:
    """The cheaper of taking ``negative`` points and daring the throw, on average."""
    return min(float(negative), (1 - success_chance(risk)) * 2 * negative)


def should_risk(view: dict[str, Any], seat: int, negative: int, risk: int) -> bool:
    """Risk when the odds favour it, or when taking would reach the end field."""
    if view["tokens"][seat] + negative >= view["track"]:
        return True
    return success_chance(risk) > 0.5


def _card_score(view: dict[str, Any], seat: int, card: dict[str, Any]) -> float:
    """Lower is better: expected negatives plus what the pawn's move brings."""
    cost = expected_cost(card["negative"], card["risk"])
    after = view["patience"] + card["patience"]
    if after >= view["track"]:
        mine, others = view["tokens"][seat], [t for s, t in enumerate(view["tokens"]) if s != seat]
        return -END_BONUS if mine < min(others) else END_BONUS
    crosses = any(view["patience"] < m <= after for m in view["markers"])
    if crosses and view["tokens"][seat] in view["markers"]:
        cost += DETENTION_PENALTY
    return cost


def greedy_policy(rng: random.Random) -> Policy:
    """A policy for ``engine.playout.play``, on the seat's own view."""

    def policy(game: Game, state: Any, seat: int) -> Action:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        view = game.view(state, seat)
        if view["phase"] in ("choose", "teacher-choose", "teacher-together"):
            card = view["played"] if view["phase"] == "choose" else view["teacher"]
            verb = "risk" if should_risk(view, seat, card["negative"], card["risk"]) else "take"
            return Action(verb)
        # "turn": play the card with the lowest score; the hand lists them by slot
        scored = [(_card_score(view, seat, view["hand"][a.args[0]]), a) for a in legal]
        best = min(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score <= best + 1e-9])

    return policy
