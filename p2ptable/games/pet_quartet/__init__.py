"""Pet Quartet: adopt musical pets, score soloists and quartets.

``PACKAGE`` is what the registry (``p2ptable.games``) lists: ``GAME`` (the rules,
behind the engine's game protocol), its bots and notes.  ``GAME`` only
forwards to the modules named for what they hold: ``state`` (the frozen values),
``rules`` (the transitions and the phase table), ``scoring``, ``view`` (what a seat
sees, log phrases) and ``bots``; its screens are in ``ui/pet_quartet_screen.py``.
``RULES.md`` is how to play and how p2ptable reads the rulebook wherever it leaves a
choice (``rules_notes``, for players), then the phases and tests behind each
decision (for developers).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from p2ptable.engine.api import Action, Decision, OptionSpec, Outcome, normalize_options
from p2ptable.engine.last_answer import LastAnswer
from p2ptable.games.notes import player_notes
from p2ptable.games.package import GamePackage
from p2ptable.games.pet_quartet import bots, rules, scoring
from p2ptable.games.pet_quartet import view as views
from p2ptable.games.pet_quartet.state import SCORINGS, VARIANTS, PetQuartetState

RULES_MD = Path(__file__).with_name("RULES.md")


_LEGAL_ACTIONS = LastAnswer(rules.legal_actions)


class PetQuartet:
    """Pet Quartet behind the game-agnostic ``engine.api.Game`` protocol."""

    name = "pet-quartet"
    title = "Pet Quartet"
    min_seats = 2
    max_seats = 6
    takes_first = True  # a rematch names its first player (RULES.md)
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "variant",
            VARIANTS,
            "standard",
            "maestro: a random Maestro tile per Conductor; duet: the 2-player Duet tiles",
        ),
        OptionSpec(
            "scoring",
            SCORINGS,
            "basic",
            "advanced: soloists score their value and quartets 4 points",
        ),
    )

    def initial(self, seats: int, options: Mapping[str, str]) -> PetQuartetState:
        return rules.initial(seats, normalize_options(self, seats, options))

    def pending(self, state: PetQuartetState) -> Decision:
        return rules.pending(state)

    def legal_actions(self, state: PetQuartetState, seat: int) -> tuple[Action, ...]:
        return _LEGAL_ACTIONS(state, seat)  # asked again at one position: engine/last_answer.py

    def apply(self, state: PetQuartetState, seat: int, action: Action) -> PetQuartetState:
        return rules.apply(state, seat, action)

    def resolve(self, state: PetQuartetState, outcome: tuple[int, ...]) -> PetQuartetState:
        return rules.resolve(state, outcome)

    def view(self, state: PetQuartetState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: PetQuartetState) -> Outcome | None:
        if state.phase != "over":
            return None
        return scoring.outcome(state.collections, state.scoring)

    def describe(self, state: PetQuartetState, seat: int, action: Action) -> str:
        return views.describe(state, seat, action)

    def describe_chance(self, state: PetQuartetState, outcome: tuple[int, ...]) -> str:
        return views.describe_chance(state, outcome)

    def moment(self, state: PetQuartetState) -> str:
        return views.moment(state)

    def rules_notes(self) -> str:
        return player_notes(RULES_MD)


GAME = PetQuartet()


PACKAGE = GamePackage(GAME, {"greedy": bots.greedy_policy}, RULES_MD)

__all__ = ["GAME", "PACKAGE", "PetQuartet", "PetQuartetState"]
