"""A pure driver: play a game to the end with given policies and chance outcomes.

Used by tests (random playouts, fixed chance lists), by the bot-strength script and
as the reference loop the networked session mirrors.  The driver, not the game,
owns the randomness: ``chance`` is any callable from a ChanceStep to an outcome.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from p2ptable.engine.api import (
    Action,
    Chance,
    ChanceStep,
    Game,
    GameOver,
    Outcome,
    Seat,
    Simultaneous,
    Turn,
    chooser,
)

S = TypeVar("S")
Policy = Callable[[Game[Any], Any, Seat], Action]
ChanceSource = Callable[[ChanceStep], tuple[int, ...]]


class PlayoutTooLong(RuntimeError):
    """The game did not end within the step bound: a rules bug."""


@dataclass
class History:
    """Everything that happened, in order: ("action", seat, Action) or
    ("chance", None, outcome)."""

    events: list[tuple[str, Seat | None, Any]] = field(default_factory=list)


def random_chance(rng: random.Random) -> ChanceSource:
    """Resolve chance with a local RNG (tests and offline strength checks only)."""
    return lambda step: tuple(rng.randrange(r) for r in step.ranges)


def random_policy(rng: random.Random) -> Policy:
    """Pick uniformly among the legal actions."""
    return lambda game, state, seat: rng.choice(game.legal_actions(state, seat))


def play(
    game: Game[S],
    state: S,
    policies: Mapping[Seat, Policy] | Callable[[Seat], Policy],
    chance: ChanceSource,
    max_steps: int = 100_000,
    history: History | None = None,
) -> S:
    """Drive ``state`` to the end; return the final state."""
    policy_for = policies.__getitem__ if isinstance(policies, Mapping) else policies
    for _ in range(max_steps):
        decision = game.pending(state)
        if isinstance(decision, GameOver):
            return state
        if isinstance(decision, Chance):
            outcome = chance(decision.step)
            if history is not None:
                history.events.append(("chance", None, outcome))
            state = game.resolve(state, outcome)
            continue
        if not isinstance(decision, Turn | Simultaneous):  # pragma: no cover - exhaustive
            raise TypeError(decision)
        seat = chooser(decision)
        action = policy_for(seat)(game, state, seat)
        if history is not None:
            history.events.append(("action", seat, action))
        state = game.apply(state, seat, action)
    raise PlayoutTooLong(f"{game.name} did not end within {max_steps} steps")


def replay(game: Game[S], state: S, history: History) -> S:
    """Re-apply a recorded history from ``state``."""
    for kind, seat, payload in history.events:
        if kind == "chance":
            state = game.resolve(state, payload)
        else:
            assert seat is not None
            state = game.apply(state, seat, payload)
    return state


def final_outcome(game: Game[S], state: S) -> Outcome:
    outcome = game.outcome(state)
    if outcome is None:
        raise ValueError("the game is not over")
    return outcome
