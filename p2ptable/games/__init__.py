"""The games p2ptable can play: the one list of them, one line per game.

Each game is a package here (rules, scoring, view, bots, RULES.md) whose
``__init__`` exports a :class:`~p2ptable.games.package.GamePackage` as ``PACKAGE``.
Adding a game is a new package and one line in :data:`PACKAGES`; the log (a
replay's genesis names its game), the network, the terminal's screens, the bots and
``p2ptable rules`` all find it here.
"""

from __future__ import annotations

from p2ptable.engine.api import Game
from p2ptable.games import pet_quartet, teachers_pet, vorsicht_lehrer
from p2ptable.games.package import GamePackage

PACKAGES: tuple[GamePackage, ...] = (
    pet_quartet.PACKAGE,
    vorsicht_lehrer.PACKAGE,
    teachers_pet.PACKAGE,
)

_BY_NAME = {package.name: package for package in PACKAGES}


def all_packages() -> dict[str, GamePackage]:
    """Every registered game's package, keyed by name (``pet-quartet``, ...)."""
    return dict(_BY_NAME)


def get_package(name: str) -> GamePackage:
    """The package of the game called ``name``; KeyError with the known names otherwise."""
    package = _BY_NAME.get(name)
    if package is None:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(sorted(_BY_NAME))})")
    return package


def all_games() -> dict[str, Game]:
    """Every playable game's rules, keyed by name (``pet-quartet``, ...)."""
    return {name: package.rules for name, package in _BY_NAME.items()}


def get_game(name: str) -> Game:
    """The rules of the game called ``name``; KeyError with the known names otherwise."""
    return get_package(name).rules


__all__ = ["PACKAGES", "GamePackage", "all_games", "all_packages", "get_game", "get_package"]
