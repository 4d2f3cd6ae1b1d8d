"""The games p2ptable can play: the one list of them, one line per game.

Each game is a package here (rules, scoring, view, bots, RULES.md) whose
``__init__`` exports a :class:`~p2ptable.games.package.GamePackage` as ``PACKAGE``.
Adding a game is a new package and one line in :data:`MODULES`; the log (a
replay's genesis names its game), the network, the terminal's screens, the bots and
``p2ptable rules`` all find it here.

A game's package is imported the first time its name is asked for: ``p2ptable
verify`` of a Vorsicht Lehrer! game imports neither of the other two (about a
fifth of the command's start-up, README "Speed, issue 29").  ``all_packages()``
and ``PACKAGES`` import every game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from p2ptable.games.package import GamePackage

if TYPE_CHECKING:
    from p2ptable.engine.api import Game

#: Every game's name and the module whose ``PACKAGE`` it is, in the order listed.
MODULES: dict[str, str] = {
    "pet-quartet": "p2ptable.games.pet_quartet",
    "vorsicht-lehrer": "p2ptable.games.vorsicht_lehrer",
    "teachers-pet": "p2ptable.games.teachers_pet",
}

#: The bot kinds each listed game's package brings (``GamePackage.bots``), in its
#: order: named here so that the CLI's ``--bot`` choices (``bots.BOT_KINDS``) are
#: known without importing every game into every peer process (about 65 ms of its
#: start-up).  tests/games/test_registry.py holds each package to its line.
BOT_KINDS_OF: dict[str, tuple[str, ...]] = {
    "pet-quartet": ("greedy",),
    "vorsicht-lehrer": ("greedy",),
    "teachers-pet": ("greedy", "strong"),
}

# The packages imported so far, by name (and a test's or a benchmark's own game,
# registered here directly).
_BY_NAME: dict[str, GamePackage] = {}


def get_package(name: str) -> GamePackage:
    """The package of the game called ``name``; KeyError with the known names otherwise."""
    package = _BY_NAME.get(name)
    if package is None:
        module = MODULES.get(name)
        if module is None:
            known = ", ".join(sorted({*MODULES, *_BY_NAME}))
            raise KeyError(f"unknown game {name!r} (known: {known})")
        package = importlib.import_module(module).PACKAGE
        if package.name != name:  # one line in MODULES that names another game
            raise AssertionError(f"{module} holds {package.name!r}, not {name!r}")
        _BY_NAME[name] = package
    return package


def all_packages() -> dict[str, GamePackage]:
    """Every registered game's package, keyed by name (``pet-quartet``, ...)."""
    listed = {name: get_package(name) for name in MODULES}
    return {**listed, **_BY_NAME}


def all_games() -> dict[str, Game]:
    """Every playable game's rules, keyed by name (``pet-quartet``, ...)."""
    return {name: package.rules for name, package in all_packages().items()}


def get_game(name: str) -> Game:
    """The rules of the game called ``name``; KeyError with the known names otherwise."""
    return get_package(name).rules


def __getattr__(name: str) -> tuple[GamePackage, ...]:
    # ``PACKAGES``, every listed game's package in order, imports them all.
    if name == "PACKAGES":
        return tuple(get_package(game) for game in MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BOT_KINDS_OF", "MODULES", "PACKAGES", "GamePackage", "all_games", "all_packages"]
__all__ += ["get_game", "get_package"]
