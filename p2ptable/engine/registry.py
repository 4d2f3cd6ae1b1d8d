"""The registered games, by their command-line name.

Games register here by import so that ``p2ptable rules``, ``sim`` and ``verify``
can find a game from the name stored in a replay's genesis entry.
"""

from __future__ import annotations

from p2ptable.engine.api import Game


def all_games() -> dict[str, Game]:
    """Every playable game, keyed by name (``pet-quartet``, ...)."""
    from p2ptable.games.pet_quartet import GAME as PET_QUARTET
    from p2ptable.games.vorsicht_lehrer import GAME as VORSICHT_LEHRER

    return {g.name: g for g in (PET_QUARTET, VORSICHT_LEHRER)}


def get_game(name: str) -> Game:
    """The game called ``name``; KeyError with the known names otherwise."""
    games = all_games()
    if name not in games:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(sorted(games))})")
    return games[name]
