"""Vorsicht Lehrer!: play pranks, strain the teacher's patience, collect few negatives.

``PACKAGE`` is what the registry (``p2ptable.games``) lists: ``GAME`` (the rules,
behind the engine's game protocol), its bots and notes.  ``GAME`` only
forwards to the modules named for what they hold: ``cards`` (the card lists, loaded
from the data files), ``state`` (the frozen value), ``rules`` (the transitions and
the phase table), ``scoring``, ``view`` (what a seat sees, log phrases) and
``bots``; its screens are in ``ui/vorsicht_lehrer_screen.py``.  ``RULES.md`` is how
to play and how p2ptable reads the rulebook wherever it leaves a choice
(``rules_notes``, for players), then the phases and tests behind each decision (for
developers).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from p2ptable.engine.api import Action, Decision, OptionSpec, Outcome, normalize_options
from p2ptable.engine.last_answer import LastAnswer
from p2ptable.games.notes import player_notes
from p2ptable.games.package import GamePackage
from p2ptable.games.vorsicht_lehrer import bots, rules, scoring
from p2ptable.games.vorsicht_lehrer import view as views
from p2ptable.games.vorsicht_lehrer.state import TRACKS, VorsichtLehrerState

RULES_MD = Path(__file__).with_name("RULES.md")


_LEGAL_ACTIONS = LastAnswer(rules.legal_actions)


class VorsichtLehrer:
    """Vorsicht Lehrer! behind the game-agnostic ``engine.api.Game`` protocol."""

    name = "vorsicht-lehrer"
    title = "Vorsicht Lehrer!"
    # Between peers, hands are dealt from a sealed deck (engine.api.HiddenHands).
    hidden_hands = True
    min_seats = 2
    max_seats = 6
    takes_first = True  # a rematch names its first player (RULES.md)
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "track",
            TRACKS,
            "200",
            "the end field: 200 (the board) or 100 (a short game)",
        ),
        OptionSpec(
            "teacher-choices",
            ("together", "in-turn"),
            "together",
            "a teacher card's take-or-throw: all at once in secret (together), or one "
            "after another seeing the earlier throws (in-turn, as replays before protocol 2)",
            legacy="in-turn",
        ),
    )

    def initial(self, seats: int, options: Mapping[str, str]) -> VorsichtLehrerState:
        return rules.initial(seats, normalize_options(self, seats, options))

    def pending(self, state: VorsichtLehrerState) -> Decision:
        return rules.pending(state)

    def legal_actions(self, state: VorsichtLehrerState, seat: int) -> tuple[Action, ...]:
        return _LEGAL_ACTIONS(state, seat)  # asked again at one position: engine/last_answer.py

    def apply(self, state: VorsichtLehrerState, seat: int, action: Action) -> VorsichtLehrerState:
        return rules.apply(state, seat, action)

    def resolve(self, state: VorsichtLehrerState, outcome: tuple[int, ...]) -> VorsichtLehrerState:
        return rules.resolve(state, outcome)

    def view(self, state: VorsichtLehrerState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: VorsichtLehrerState) -> Outcome | None:
        if state.phase != "over":
            return None
        return scoring.outcome(state.tokens, state.track)

    def outcome_alone(self, state: VorsichtLehrerState, seat: int) -> Outcome:
        """Every other player left a table that keeps going (RULES.md, The end)."""
        return scoring.outcome_alone(state.tokens, state.track, seat)

    def describe(self, state: VorsichtLehrerState, seat: int, action: Action) -> str:
        return views.describe(state, seat, action)

    def describe_chance(self, state: VorsichtLehrerState, outcome: tuple[int, ...]) -> str:
        return views.describe_chance(state, outcome)

    def card_name(self, card: int) -> str:
        return views.card_name(card)

    def face_down(self, state: VorsichtLehrerState) -> tuple[int | None, ...]:
        return state.deck

    def deal_from_sealed(self, state: VorsichtLehrerState, card: int | None) -> VorsichtLehrerState:
        return rules.deal_from_sealed(state, card)

    def hand_card_played(
        self, state: VorsichtLehrerState, seat: int, action: Action
    ) -> tuple[int, int] | None:
        return rules.hand_card_played(state, seat, action)

    def hand_card_given(
        self, state: VorsichtLehrerState, seat: int, action: Action
    ) -> tuple[int, int] | None:
        return None  # no card ever changes hands face down in this game

    def given_card_seen(
        self, state: VorsichtLehrerState, seat: int, card: int
    ) -> VorsichtLehrerState:
        raise ValueError("Vorsicht Lehrer! never gives a card face down")

    def rules_notes(self) -> str:
        return player_notes(RULES_MD)


GAME = VorsichtLehrer()


PACKAGE = GamePackage(GAME, {"greedy": bots.greedy_policy}, RULES_MD)

__all__ = ["GAME", "PACKAGE", "VorsichtLehrer", "VorsichtLehrerState"]
