"""Test helpers for Pet Quartet: start a table and push scripted moves through it.

Chance is always resolved from a fixed script, never from a random generator:

* ``start`` resolves set-up with a given first player (and Maestro tiles by name);
* ``play`` takes moves in order: ``"1: take 0"`` is seat 1's action, an ``int`` is the
  *value* of the card chance reveals (converted to its index in the sorted deck), a
  ``tuple`` is a raw chance outcome;
* ``FixedChance`` is an ``engine.playout`` chance source that hands out a fixed list
  of outcomes and fails loudly when the list runs out or a value does not fit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from p2ptable.engine.api import Action, Chance, ChanceStep
from p2ptable.games.pet_quartet import GAME
from p2ptable.games.pet_quartet.state import TILES, PetQuartetState

Move = str | int | tuple[int, ...]


def tile_picks(names: Sequence[str]) -> tuple[int, ...]:
    """The ``maestro-tiles`` outcome that gives Conductor i the tile ``names[i]``."""
    unused, picks = list(TILES), []
    for name in names:
        picks.append(unused.index(name))
        unused.remove(name)
    return tuple(picks)


def start(
    seats: int = 3,
    variant: str = "standard",
    scoring: str = "basic",
    first: int = 0,
    tiles: Sequence[str] | None = None,
) -> PetQuartetState:
    """A table after set-up: ``first`` plays first; Maestro tiles in the given order."""
    state = GAME.initial(seats, {"variant": variant, "scoring": scoring})
    if variant == "maestro":
        state = GAME.resolve(state, tile_picks(tiles or TILES[:seats]))
    return GAME.resolve(state, (first,))


def play(state: PetQuartetState, *moves: Move) -> PetQuartetState:
    """Apply scripted moves (see the module docstring)."""
    for move in moves:
        if isinstance(move, str):
            seat, text = move.split(":", 1)
            state = GAME.apply(state, int(seat), Action.parse(text.strip()))
        elif isinstance(move, int):
            decision = GAME.pending(state)
            assert isinstance(decision, Chance) and decision.step.kind == "draw", decision
            state = GAME.resolve(state, (state.deck.index(move),))
        else:
            state = GAME.resolve(state, move)
    return state


def draw_place(seat: int, value: int, conductor: int) -> tuple[Move, ...]:
    """The three moves of a turn in which ``seat`` draws ``value`` and places it."""
    return (f"{seat}: draw", value, f"{seat}: place {conductor}")


def with_piles(state: PetQuartetState, *piles: Iterable[int]) -> PetQuartetState:
    """``state`` with the given cards beneath Conductors 0, 1, ... (taken from the deck)."""
    conductors, deck = list(state.conductors), list(state.deck)
    for index, pile in enumerate(piles):
        for card in pile:
            deck.remove(card)
        conductors[index] = replace(conductors[index], cards=tuple(pile))
    return replace(state, conductors=tuple(conductors), deck=tuple(deck))


def texts(actions: Iterable[Action]) -> list[str]:
    return [a.text for a in actions]


class FixedChance:
    """A chance source that returns ``outcomes`` in order (deterministic playouts)."""

    def __init__(self, outcomes: Iterable[tuple[int, ...]]) -> None:
        self._outcomes = list(outcomes)
        self.steps: list[ChanceStep] = []

    def __call__(self, step: ChanceStep) -> tuple[int, ...]:
        if not self._outcomes:
            raise AssertionError(f"no scripted outcome left for {step.purpose}")
        outcome = self._outcomes.pop(0)
        step.check(outcome)
        self.steps.append(step)
        return outcome
