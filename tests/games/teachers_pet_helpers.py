"""Building Teacher's Pet states for rules tests: a school in a chosen situation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2ptable.engine.api import Action, Chance
from p2ptable.engine.frozen import replace
from p2ptable.games.teachers_pet import GAME, rules
from p2ptable.games.teachers_pet.cards import PLAY, TEACHER
from p2ptable.games.teachers_pet.state import TeachersPetState


def teacher(name: str) -> int:
    """The first Teacher card of the teacher called ``name``."""
    return next(c.id for c in TEACHER if c.teacher == name)


def cards(kind: str, n: int = 1, subject: str = "", points: int | None = None) -> list[int]:
    """``n`` distinct Play card ids of ``kind`` (and subject / points if given)."""
    found = [
        c.id
        for c in PLAY
        if c.kind == kind
        and (not subject or c.subject == subject)
        and (points is None or c.points == points)
    ]
    assert len(found) >= n, (kind, subject, n)
    return found[:n]


def card(kind: str, subject: str = "", points: int | None = None) -> int:
    return cards(kind, 1, subject, points)[0]


def set_up(
    seats: int = 3,
    first: int = 0,
    teacher_name: str = "Homeroom Teacher",
    options: Mapping[str, str] | None = None,
) -> TeachersPetState:
    """A real set-up: ``first`` goes first, ``teacher_name`` is the Active Teacher,
    and the deals take the lowest card left each time; ``options`` the game's."""
    s = GAME.initial(seats, options or {})
    s = GAME.resolve(s, (first,))
    s = GAME.resolve(s, (s.teacher_deck.index(teacher(teacher_name)),))
    while s.phase == "deal":
        s = GAME.resolve(s, (0,))
    return s


def school(
    seats: int = 3,
    teacher_name: str = "Homeroom Teacher",
    hands: Mapping[int, Sequence[int]] | None = None,
    rooms: Mapping[int, int] | None = None,
    first: int = 0,
    options: Mapping[str, str] | None = None,
    **fields: object,
) -> TeachersPetState:
    """A school at the first turn of Day 1 with the hands and rooms given; the
    cards taken out of other hands or the deck for them are moved so that every
    card stays somewhere (the rest of each hand keeps its dealt cards)."""
    s = set_up(seats, first, teacher_name, options)
    hands = dict(hands or {})
    wanted = {c for hand in hands.values() for c in hand}
    pool = [c for c in s.deck if c not in wanted]
    new_hands = []
    for seat in range(seats):
        if seat in hands:
            new_hands.append(tuple(hands[seat]))
        else:
            kept = tuple(c for c in s.hands[seat] if c not in wanted)
            new_hands.append(kept)
    returned = [c for seat in hands for c in s.hands[seat] if c not in wanted]
    deck = tuple(sorted(pool + returned))
    s = replace(s, hands=tuple(new_hands), deck=deck)
    if rooms:
        s = replace(s, rooms=tuple(rooms.get(seat, s.rooms[seat]) for seat in range(seats)))
    return replace(s, **fields) if fields else s


def act(s: TeachersPetState, seat: int, text: str) -> TeachersPetState:
    return GAME.apply(s, seat, Action.parse(text))


def roll(s: TeachersPetState, *outcome: int) -> TeachersPetState:
    assert isinstance(GAME.pending(s), Chance), GAME.pending(s)
    return GAME.resolve(s, tuple(outcome))


def legal(s: TeachersPetState, seat: int) -> list[str]:
    return [a.text for a in GAME.legal_actions(s, seat)]


def finish_turns(s: TeachersPetState, until_phase: str = "monitor") -> TeachersPetState:
    """Every remaining seat of the Period studies until ``until_phase``."""
    for _ in range(40):
        if s.phase == until_phase:
            return s
        if s.phase == "deal":
            s = GAME.resolve(s, (0,))
        elif s.phase == "turn":
            s = act(s, s.current, "study")
        else:
            raise AssertionError(f"unexpected phase {s.phase}")
    raise AssertionError("the Period did not end")


__all__ = [
    "act",
    "card",
    "cards",
    "finish_turns",
    "legal",
    "roll",
    "rules",
    "school",
    "set_up",
    "teacher",
]
