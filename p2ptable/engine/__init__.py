"""The game-agnostic rules API and a pure playout driver (no game lives here:
the registry of games is ``p2ptable.games``)."""

from p2ptable.engine.api import (
    Action,
    BadOptions,
    Chance,
    ChanceStep,
    Decision,
    Game,
    GameOver,
    HiddenHands,
    IllegalAction,
    OptionSpec,
    Outcome,
    RulesError,
    Seat,
    Simultaneous,
    Turn,
    normalize_options,
)

__all__ = [
    "Action",
    "BadOptions",
    "Chance",
    "ChanceStep",
    "Decision",
    "Game",
    "GameOver",
    "HiddenHands",
    "IllegalAction",
    "OptionSpec",
    "Outcome",
    "RulesError",
    "Seat",
    "Simultaneous",
    "Turn",
    "normalize_options",
]
