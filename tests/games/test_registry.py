"""One package per game, listed in one place; the engine imports no game.

Issue 13: "Adding a game means editing three registries (engine/registry.py,
ui/screens.py, bots/__init__.py), and engine imports games" -> "One descriptor per
game (rules, screen, bots, rules notes), registered in one place, so a third game
is one new package plus one line; no engine -> games import."
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import p2ptable.engine
import p2ptable.games
import p2ptable.ui.screens
from p2ptable.bots import BOT_KINDS, make_bot
from p2ptable.engine.api import Chance, Game, HiddenHands, Turn
from p2ptable.engine.playout import random_chance, random_policy
from p2ptable.games import PACKAGES, all_games, all_packages, get_game, get_package
from p2ptable.games.notes import player_notes
from p2ptable.games.package import GamePackage
from p2ptable.ui.screens import GENERIC, GameScreens, screens_for
from tests.sealed.toy_game import GAME as TOY

ENGINE = Path(p2ptable.engine.__file__).parent
NAMES = ["Ana", "Ben", "Cleo"]


def first_turn(game: Game, seats: int, seed: int = 0):
    """The state at the first seat's decision (chance resolved at random) and the seat."""
    state, chance = game.initial(seats, {}), random_chance(random.Random(seed))
    for _ in range(1000):
        decision = game.pending(state)
        if isinstance(decision, Turn):
            return state, decision.seat
        assert isinstance(decision, Chance), decision
        state = game.resolve(state, chance(decision.step))
    raise AssertionError(f"{game.name}: no turn within 1000 chance steps")


# -- every registered game is complete ---------------------------------------------------


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_a_registered_game_has_rules(package):
    rules = package.rules
    assert isinstance(rules, Game) and package.name == rules.name
    assert rules.title and 1 <= rules.min_seats <= rules.max_seats
    if getattr(rules, "hidden_hands", False):  # a sealed deck carries its hands
        assert isinstance(rules, HiddenHands)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_a_registered_game_has_screens_and_the_terminal_uses_them(package):
    screens = screens_for(package.name)
    assert isinstance(screens, GameScreens) and screens != GENERIC
    assert screens.help.strip()
    state, seat = first_turn(package.rules, len(NAMES))
    view = package.rules.view(state, seat)
    assert package.rules.title in screens.render(view, NAMES, ["a recent line"])
    action = package.rules.legal_actions(state, seat)[0]
    assert screens.describe(view, action, NAMES).strip()


def test_the_bot_kinds_are_those_the_games_name():
    # A game that brings a kind makes it a choice everywhere (``--bot``, ``sim``).
    assert BOT_KINDS[:2] == ("random", "greedy")
    # each game's kinds, listed without importing it, are its package's own
    assert {p.name: tuple(p.bots) for p in PACKAGES} == p2ptable.games.BOT_KINDS_OF
    assert set(BOT_KINDS) == {"random"} | {kind for p in PACKAGES for kind in p.bots}
    assert "strong" in BOT_KINDS  # Teacher's Pet's


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_a_registered_game_plays_every_kind_with_its_own_bots(package):
    # "random" is every game's (engine.playout.random_policy); the others its own,
    # and a kind a game does not have is played by its greedy bot.
    assert "greedy" in package.bots and package.opponent in BOT_KINDS
    state, seat = first_turn(package.rules, len(NAMES))
    legal = package.rules.legal_actions(state, seat)
    for kind in BOT_KINDS[1:]:
        factory = package.bots.get(kind, package.bots["greedy"])
        bot = make_bot(package.rules, kind, random.Random(1))
        assert bot.__qualname__ == factory(random.Random(1)).__qualname__
        assert bot(package.rules, state, seat) in legal


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_a_registered_game_has_rules_notes_from_its_own_rules_md(package):
    module = sys.modules[type(package.rules).__module__]
    assert package.notes == Path(module.__file__).with_name("RULES.md")
    notes = package.rules.rules_notes()  # what `p2ptable rules` prints
    assert notes.startswith(f"# {package.rules.title}: how to play")
    assert notes == player_notes(package.notes)


# -- one place -------------------------------------------------------------------------


def test_every_game_is_found_by_its_name_and_names_are_unique():
    names = [package.name for package in PACKAGES]
    assert len(set(names)) == len(names)
    assert list(all_packages()) == names and list(all_games()) == names
    for package in PACKAGES:
        assert get_package(package.name) is package and get_game(package.name) is package.rules
    with pytest.raises(KeyError, match="unknown game 'chess' \\(known: pet-quartet, "):
        get_package("chess")


def test_a_game_listed_once_is_found_by_the_log_the_screens_and_the_bots(monkeypatch):
    # A third game is one package and one line in the games' list (the log, the
    # bots and `p2ptable rules` ask it), and its screens one line in the
    # terminal's (ui/screens.py): the rules never import the terminal.
    screens = replace(GENERIC, help="Toy help")
    greedy = lambda rng: random_policy(rng)  # noqa: E731
    toy = GamePackage(TOY, {"greedy": greedy}, Path("RULES.md"))
    assert screens_for(TOY.name) is GENERIC
    monkeypatch.setitem(p2ptable.games._BY_NAME, TOY.name, toy)
    assert get_game(TOY.name) is TOY
    assert screens_for(TOY.name) is GENERIC  # a game with no screens of its own
    monkeypatch.setitem(p2ptable.ui.screens.SCREENS, TOY.name, lambda: screens)
    assert screens_for(TOY.name) is screens
    assert make_bot(TOY, "greedy", random.Random(0)).__qualname__.startswith("random_policy")


def test_a_game_without_a_bot_kind_plays_it_at_random_and_unknown_kinds_are_refused():
    assert make_bot(TOY, "greedy", random.Random(0)).__qualname__.startswith("random_policy")
    with pytest.raises(ValueError, match="unknown bot 'clever' \\(known: random, greedy, "):
        make_bot(TOY, "clever", random.Random(0))


# -- the engine is game-agnostic -------------------------------------------------------


def imported_modules(path: Path) -> list[tuple[str, bool]]:
    """Every module ``path`` imports, each with whether the import is at module level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, id(node) in top))
    return found


GAMES = ENGINE.parent / "games"


@pytest.mark.parametrize(
    "path", sorted(GAMES.rglob("*.py")), ids=lambda p: str(p.relative_to(GAMES))
)
def test_no_game_module_imports_the_people_or_the_network(path):
    # Issue 24: "Games import no UI. A game package is rules, bots and RULES.md;
    # screens are registered in ui/."  At module level or inside a function.
    for module, _at_top in imported_modules(path):
        assert not module.startswith(
            ("p2ptable.ui", "p2ptable.bots", "p2ptable.net", "p2ptable.cli", "p2ptable.replay")
        ), f"{path} imports {module}"


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_no_engine_module_imports_a_game(path):
    for module, _at_top in imported_modules(path):
        assert not module.startswith(("p2ptable.games", "p2ptable.ui", "p2ptable.bots")), (
            f"{path.name} imports {module}"
        )


def test_importing_the_whole_engine_loads_no_game():
    modules = [f"p2ptable.engine.{path.stem}" for path in sorted(ENGINE.glob("*.py"))]
    code = (
        f"import sys\nfor name in {modules!r}: __import__(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('p2ptable.games', 'p2ptable.ui'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"
