"""Game-agnostic rules API, the registry of games and a pure playout driver."""

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
from p2ptable.engine.registry import all_games, get_game

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
    "all_games",
    "get_game",
    "normalize_options",
]
