"""Test helpers for Vorsicht Lehrer!: build a classroom and push scripted moves.

* ``card(name, n)`` is the id of the n-th school card called ``name``;
  ``teacher(name)`` the id of the first teacher card called ``name``;
* ``classroom`` is a table at the start of a turn with chosen hands (the cards are
  taken from the deck), pawn, tokens and first player;
* ``play`` takes moves in order: ``"1: take"`` is seat 1's action, a ``tuple`` is a
  raw chance outcome (``dice(a, b, c)``: a throw showing a, b and c), ``Dealt(id)``
  a school card dealt and ``Drawn(id)`` a teacher card drawn, each converted to its
  index in the sorted pile when applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from p2ptable.engine.api import Action, Chance
from p2ptable.games.vorsicht_lehrer import GAME
from p2ptable.games.vorsicht_lehrer.cards import SCHOOL, TEACHER
from p2ptable.games.vorsicht_lehrer.state import VorsichtLehrerState


def card(name: str, n: int = 0) -> int:
    return [c.id for c in SCHOOL if c.name == name][n]


def teacher(name: str) -> int:
    return next(c.id for c in TEACHER if c.name == name)


def dice(*faces: int) -> tuple[int, ...]:
    return tuple(f - 1 for f in faces)


@dataclass(frozen=True)
class Dealt:
    card: int


@dataclass(frozen=True)
class Drawn:
    card: int


def classroom(
    seats: int = 3,
    hands: Mapping[int, Iterable[int]] | None = None,
    first: int = 0,
    patience: int = 0,
    tokens: Iterable[int] | None = None,
    track: str = "200",
    teacher_choices: str = "together",
) -> VorsichtLehrerState:
    """A table at the start of ``first``'s turn: given hands, the rest filled up."""
    state = GAME.initial(seats, {"track": track, "teacher-choices": teacher_choices})
    deck = list(state.deck)
    chosen = {s: list(h) for s, h in (hands or {}).items()}
    for cards in chosen.values():
        for c in cards:
            deck.remove(c)
    full = []
    for s in range(seats):
        hand = chosen.get(s, [])
        while len(hand) < 4:
            hand.append(deck.pop())  # the highest ids: stink bombs, cheating, ...
        full.append(tuple(hand))
    return replace(
        state,
        phase="turn",
        deck=tuple(deck),
        hands=tuple(full),
        current=first,
        patience=patience,
        turn_start=patience,
        tokens=tuple(tokens) if tokens is not None else (0,) * seats,
    )


def play(state: VorsichtLehrerState, *moves: object) -> VorsichtLehrerState:
    """Apply scripted moves (see the module docstring)."""
    for move in moves:
        if isinstance(move, str):
            seat, text = move.split(":", 1)
            state = GAME.apply(state, int(seat), Action.parse(text.strip()))
        elif isinstance(move, Dealt):
            assert isinstance(GAME.pending(state), Chance) and state.phase in (
                "refill",
                "setup-deal",
            )
            state = GAME.resolve(state, (state.deck.index(move.card),))
        elif isinstance(move, Drawn):
            assert state.phase == "teacher", state.phase
            state = GAME.resolve(state, (state.teacher_deck.index(move.card),))
        else:
            assert isinstance(move, tuple)
            state = GAME.resolve(state, move)
    return state


def slot_of(state: VorsichtLehrerState, seat: int, c: int) -> str:
    """The ``play`` text for card ``c`` in ``seat``'s hand."""
    return f"{seat}: play {state.hands[seat].index(c)} {c}"


def texts(actions: Iterable[Action]) -> list[str]:
    return [a.text for a in actions]
