"""Teacher's Pet: score Pet Points over 5 school Days without getting Detentions.

``PACKAGE`` is what the registry (``p2ptable.games``) lists: ``GAME`` (the rules,
behind the engine's game protocol), its bots and notes.  ``GAME`` only
forwards to the modules named for what they hold: ``cards`` (the rooms and the
card lists, loaded from the data files), ``state`` (the frozen value), ``rules``
(the transitions and the phase table), ``scoring``, ``view`` (what a seat sees,
log phrases), ``bots`` (the greedy bot) and ``strong`` (the strong bot, ``play``'s
default against a person); its screens are in ``ui/teachers_pet_screen.py``.
``RULES.md`` is how to play and how p2ptable reads the rulebook wherever it leaves
a choice (``rules_notes``, for players), then the phases and tests behind each
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
from p2ptable.games.teachers_pet import bots, flow, rules, rulings, scoring, strong
from p2ptable.games.teachers_pet import view as views
from p2ptable.games.teachers_pet.state import TeachersPetState

RULES_MD = Path(__file__).with_name("RULES.md")


_LEGAL_ACTIONS = LastAnswer(rules.legal_actions)


class TeachersPet:
    """Teacher's Pet behind the game-agnostic ``engine.api.Game`` protocol."""

    name = "teachers-pet"
    title = "Teacher's Pet"
    hidden_hands = True  # the Play Deck is sealed (engine.api.HiddenHands)
    min_seats = 2
    max_seats = 6  # "up to 6 Players"
    # every ruling players may choose (rulings.py; RULES.md quotes the rulebook)
    takes_first = True  # a rematch names its first player (RULES.md)
    options: tuple[OptionSpec, ...] = rulings.OPTIONS

    def initial(self, seats: int, options: Mapping[str, str]) -> TeachersPetState:
        return rules.initial(seats, normalize_options(self, seats, options))

    def pending(self, state: TeachersPetState) -> Decision:
        return rules.pending(state)

    def legal_actions(self, state: TeachersPetState, seat: int) -> tuple[Action, ...]:
        return _LEGAL_ACTIONS(state, seat)  # asked again at one position: engine/last_answer.py

    def apply(self, state: TeachersPetState, seat: int, action: Action) -> TeachersPetState:
        return rules.apply(state, seat, action)

    def resolve(self, state: TeachersPetState, outcome: tuple[int, ...]) -> TeachersPetState:
        return rules.resolve(state, outcome)

    def view(self, state: TeachersPetState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: TeachersPetState) -> Outcome | None:
        if state.phase != "over":
            return None
        return scoring.outcome(state.points, state.detentions, state.rulings.tie)

    def outcome_alone(self, state: TeachersPetState, seat: int) -> Outcome:
        """Every other player left a table that keeps going (RULES.md, The end)."""
        return scoring.outcome_alone(state.points, seat)

    def describe(self, state: TeachersPetState, seat: int, action: Action) -> str:
        return views.describe(state, seat, action)

    def describe_chance(self, state: TeachersPetState, outcome: tuple[int, ...]) -> str:
        return views.describe_chance(state, outcome)

    def moment(self, state: TeachersPetState) -> str:
        return views.moment(state)

    def card_name(self, card: int) -> str:
        return views.card_name(card)

    def face_down(self, state: TeachersPetState) -> tuple[int | None, ...]:
        return state.deck

    def deal_from_sealed(self, state: TeachersPetState, card: int | None) -> TeachersPetState:
        return flow.deal_from_sealed(state, card)

    def hand_card_played(
        self, state: TeachersPetState, seat: int, action: Action
    ) -> tuple[int, int] | None:
        return rules.hand_card_played(state, seat, action)

    def hand_card_given(
        self, state: TeachersPetState, seat: int, action: Action
    ) -> tuple[int, int] | None:
        return rules.hand_card_given(state, seat, action)

    def hand_card_taken(self, state: TeachersPetState, seat: int, action: Action) -> int | None:
        return rules.hand_card_taken(state, seat, action)

    def given_card_seen(self, state: TeachersPetState, seat: int, card: int) -> TeachersPetState:
        return rules.given_card_seen(state, seat, card)

    def hand_shuffled(
        self, state: TeachersPetState, seat: int, hand: tuple[int | None, ...]
    ) -> TeachersPetState:
        return rules.hand_shuffled(state, seat, hand)

    def rules_notes(self) -> str:
        return player_notes(RULES_MD)


GAME = TeachersPet()


# The strong bot makes the best game for a person (README, Bots): `play`'s default.
PACKAGE = GamePackage(
    GAME,
    {"greedy": bots.greedy_policy, "strong": strong.strong_policy},
    RULES_MD,
    opponent="strong",
)

__all__ = ["GAME", "PACKAGE", "TeachersPet", "TeachersPetState"]
