"""Tables for the full-screen table's tests: one turn of each game, from a
seeded playout, as the seat to move sees it, and Teacher's Pet's turn with the
longest menu found in those playouts."""

from __future__ import annotations

import random

from p2ptable.engine.api import Chance, GameOver, Simultaneous, Turn
from p2ptable.games import get_game
from p2ptable.ui.tui.snapshot import Snapshot, of_view

NAMES = ["Ana", "Ben", "Cleo", "Dan"]
EVENTS = [f"{NAMES[n % 4]} did thing number {n}" for n in range(1, 41)]


def playout(name: str, seed: int, steps: int):  # noqa: ANN201
    """The game ``name`` after ``steps`` decisions of a seeded random playout."""
    game, rng = get_game(name), random.Random(seed)
    s = game.initial(4, {})
    for _ in range(steps):
        decision = game.pending(s)
        if isinstance(decision, GameOver):
            break
        if isinstance(decision, Chance):
            s = game.resolve(s, tuple(rng.randrange(r) for r in decision.step.ranges))
        elif isinstance(decision, Simultaneous):
            for seat in sorted(decision.seats):
                s = game.apply(s, seat, rng.choice(game.legal_actions(s, seat)))
        else:
            s = game.apply(s, decision.seat, rng.choice(game.legal_actions(s, decision.seat)))
    return game, s


def turn(name: str, seed: int, at_least: int) -> Snapshot:
    """The first turn of a person's seat at or after ``at_least`` steps."""
    for steps in range(at_least, at_least + 400):
        game, s = playout(name, seed, steps)
        decision = game.pending(s)
        if isinstance(decision, Turn):
            view = game.view(s, decision.seat)
            # the seats keep their names; the view says which is "you"
            return of_view(name, view, NAMES, EVENTS, game.legal_actions(s, decision.seat))
    raise AssertionError(f"no turn in {name} after {at_least} steps")


def longest_teachers_pet_menu() -> Snapshot:
    """Teacher's Pet's turn with the most choices of the first five seeded
    playouts (tests/ui/test_teachers_pet_screen.py's), 25 lines."""
    from p2ptable.games.teachers_pet import GAME
    from tests.ui.test_teachers_pet_screen import playout_states

    best: tuple[int, Snapshot] | None = None
    for seed in range(1, 6):
        for s in playout_states(4, seed, every=1):
            if s.phase != "turn" or s.current is None:
                continue
            actions = GAME.legal_actions(s, s.current)
            snap = of_view("teachers-pet", GAME.view(s, s.current), NAMES, EVENTS, actions)
            assert snap.menu is not None
            if best is None or len(snap.menu) > best[0]:
                best = (len(snap.menu), snap)
    assert best is not None
    return best[1]


def late_plays_with_the_longest_menu() -> Snapshot:
    """The end of the last Day: the late plays, whose question is the longest
    words in the choice pane, with the most choices of the seeded playouts.  A
    person at 80x24 found the pane scrolled past choice 1 here."""
    from p2ptable.games.teachers_pet import GAME
    from tests.ui.test_teachers_pet_screen import playout_states

    best: tuple[int, Snapshot] | None = None
    for seed in range(1, 6):
        for s in playout_states(4, seed, every=1):
            if s.phase != "late" or s.current is None:
                continue
            actions = GAME.legal_actions(s, s.current)
            snap = of_view("teachers-pet", GAME.view(s, s.current), NAMES, EVENTS, actions)
            if best is None or len(actions) > best[0]:
                best = (len(actions), snap)
    assert best is not None
    return best[1]


def caught_with_a_hall_pass() -> Snapshot:
    """A reaction window out of turn: Ada walked into the Monitor's room and holds
    a Hall Pass (tests/ui/test_teachers_pet_screen.py's school)."""
    from p2ptable.games.teachers_pet import GAME
    from tests.ui.test_teachers_pet_screen import ADA, card, caught

    s = caught([card("Hall Pass"), card("Art 2"), card("Assignment (Science)")])
    actions = GAME.legal_actions(s, ADA)
    return of_view("teachers-pet", GAME.view(s, ADA), NAMES[:3], EVENTS, actions)


def tables() -> dict[str, Snapshot]:
    return {
        "teachers-pet-caught": caught_with_a_hall_pass(),
        "pet-quartet": turn("pet-quartet", 1, 40),
        "vorsicht-lehrer": turn("vorsicht-lehrer", 1, 60),
        "teachers-pet": turn("teachers-pet", 1, 80),
        "teachers-pet-longest-menu": longest_teachers_pet_menu(),
        "teachers-pet-late": late_plays_with_the_longest_menu(),
    }
