"""Moved: the registry of games is ``p2ptable.games`` (``get_game``, ``all_games``).

The engine is the game-agnostic API and imports no game.  This module only keeps
``from p2ptable.engine.registry import get_game`` working for the callers that
still say so; it forwards on first use and is to be deleted once they import from
``p2ptable.games``.
"""

from __future__ import annotations

from typing import Any

_MOVED = ("all_games", "get_game")


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import p2ptable.games  # deferred: importing the engine never loads a game

        return getattr(p2ptable.games, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
