"""A greedy Pet Quartet bot that sees only what its seat sees.

How it works
------------
The bot reads ``game.view(state, seat)`` and ``game.legal_actions(state, seat)``.  To
weigh a decision of its own it may apply it to the state and look at the view that
results (the game has no hidden information), but it never resolves chance: a
face-up draw is weighed by the public deck contents only.

A collection is worth its score plus a hope bonus for each pair or triple that can
still become a quartet (enough copies left in the deck and the untaken piles).  Then:

* ``take`` the best pile when it raises that worth by at least ``TAKE_BAR`` quartets'
  points (by anything at all when no pile has room for another card), else ``draw``;
* ``place`` a drawn card where it helps the bot's own pile most and the players still
  in the round least;
* tile choices (``return``, ``give``) and ``take``/``decline`` after placing are
  looked up one step ahead; a final turn takes any pile worth having, else passes.

Ties are broken with the policy's own ``rng`` so games against it vary.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from p2ptable.engine.api import Action, Game
from p2ptable.engine.playout import Policy

# Tuned against random opponents (2-6 seats, both scorings): taking any pile that
# clearly helps beats waiting for a better one, since others may take it first.
TAKE_BAR = 0.1  # in quartets' points: basic 0.1, advanced 0.4
HOPE = {2: 0.2, 3: 0.4}  # a pair / triple counts as this share of a quartet
CHOICE_PHASES = {"return-from-pile", "return-collected", "pass-left", "after-place"}


def _counts(view_counts: dict[str, int]) -> Counter[int]:
    return Counter({int(value): n for value, n in view_counts.items()})


def _available(view: dict[str, Any]) -> Counter[int]:
    """Cards that could still reach a collection: the deck and the untaken piles."""
    left = _counts(view["deck"])
    for conductor in view["conductors"]:
        if conductor["taken_by"] is None:
            left.update(conductor["cards"])
    return left


def worth(cards: Counter[int], available: Counter[int], scoring: str) -> float:
    """Score of ``cards`` plus the hope that pairs and triples become quartets."""
    quartet = 4 if scoring == "advanced" else 1
    total = 0.0
    for value, n in cards.items():
        if n == 1:
            total += value if scoring == "advanced" else 1
        elif n == 4:
            total += quartet
        elif n in HOPE and available[value] >= 4 - n:
            total += quartet * HOPE[n]
    return total


def _standing(view: dict[str, Any], seat: int) -> float:
    """My worth, less half the average worth of the others."""
    available, scoring = _available(view), view["scoring"]
    mine = worth(_counts(view["collections"][seat]), available, scoring)
    others = [
        worth(_counts(cards), available, scoring)
        for other, cards in enumerate(view["collections"])
        if other != seat
    ]
    return mine - 0.5 * sum(others) / len(others)


def _settle(game: Game, state: Any, seat: int) -> float:
    """Standing once my own follow-up choices are made (a bonus draw as an average)."""
    view = game.view(state, seat)
    if view["to_act"] == seat and view["phase"] in CHOICE_PHASES:
        outcomes = (game.apply(state, seat, a) for a in game.legal_actions(state, seat))
        return max(_settle(game, after, seat) for after in outcomes)
    if view["phase"] == "bonus-draw":  # chance is pending: weigh every card still in the deck
        deck, available, scoring = _counts(view["deck"]), _available(view), view["scoring"]
        mine = _counts(view["collections"][seat])
        base = worth(mine, available, scoring)
        gain = sum(
            n * (worth(mine + Counter([v]), available, scoring) - base) for v, n in deck.items()
        )
        return _standing(view, seat) + gain / sum(deck.values())
    return _standing(view, seat)


def _pile_gain(
    cards: Counter[int], pile: list[int], available: Counter[int], scoring: str
) -> float:
    """How much taking ``pile`` would raise the worth of ``cards`` (never below 0)."""
    before = worth(cards, available, scoring)
    return max(0.0, worth(cards + Counter(pile), available, scoring) - before)


def _placement(view: dict[str, Any], seat: int, index: int) -> float:
    """Good for my pile, bad for the piles of the players still in the round."""
    card, scoring, available = view["last_card"], view["scoring"], _available(view)
    old = view["conductors"][index]["cards"]
    new = [*old, card]
    score = 0.0
    for other, cards in enumerate(view["collections"]):
        if other != seat and view["out"][other]:
            continue
        collection = _counts(cards)
        change = _pile_gain(collection, new, available, scoring)
        change -= _pile_gain(collection, old, available, scoring)
        score += 0.6 * change if other == seat else -change / max(1, view["seats"] - 1)
    return score


def _choose(
    game: Game, state: Any, seat: int, legal: tuple[Action, ...]
) -> list[tuple[float, Action]]:
    """Each legal action with its score; the best is played."""
    view = game.view(state, seat)
    if view["phase"] == "place":
        return [(_placement(view, seat, a.args[0]), a) for a in legal]
    room = any(c["taken_by"] is None and len(c["cards"]) < c["limit"] for c in view["conductors"])
    quartet = 4 if view["scoring"] == "advanced" else 1
    # not taking (draw, decline, pass) scores the bar a take must clear
    bar = TAKE_BAR * quartet if room and view["phase"] != "final" else 0.0
    now = _standing(view, seat)
    return [
        (bar, a)
        if a.verb in ("draw", "decline", "pass")
        else (_settle(game, game.apply(state, seat, a), seat) - now, a)
        for a in legal
    ]


def greedy_policy(rng: random.Random) -> Policy:
    """A policy for ``engine.playout.play``: greedy on the seat's own view."""

    def policy(game: Game, state: Any, seat: int) -> Action:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        scored = _choose(game, state, seat, legal)
        best = max(score for score, _ in scored)
        return rng.choice([action for score, action in scored if score >= best - 1e-9])

    return policy
