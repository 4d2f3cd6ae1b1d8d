"""What happens now at a Teacher's Pet table, in one line for the screen's
bottom, from one seat's view: a lookup by the rules' phase (``PHASES``), each
row a function of the view and the players' names.  An open reaction window
asks its question instead (``view.window_question``: the same words whether or
not the asked seat holds the card).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from p2ptable.games.teachers_pet.state import DAYS
from p2ptable.games.teachers_pet.view import window_question
from p2ptable.ui.teachers_pet_menu import the_room
from p2ptable.ui.text import possessive_name, pronoun_name

View = dict[str, Any]
Names = Sequence[str]


def listed(words: Sequence[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def what_happens_now(view: View, names: Names) -> str:
    """What happens next, in words."""
    if view["window"] is not None:
        return window_question(view, lambda s: names[s])
    phase = view["phase"]
    said = PHASES.get(phase)
    if said is not None:
        return said(view, names)
    if view["turn_of"] is None:
        return phase
    return f"{possessive_name(view, names, view['turn_of'])} turn ({phase})."


def _teacher(view: View, names: Names) -> str:
    if view["teacher"] is None:
        return "Setting up: the first Active Teacher is turned over."
    return "A new Active Teacher is turned over."


def _free_move(view: View, names: Names) -> str:
    room = the_room(view["expected"])
    asked = listed([pronoun_name(view, names, s) for s in view["choosing"]])
    return (
        f"Everyone not in {room} decides at once, in secret, whether to take the "
        f"free Move there: {asked}. Nobody sees a choice until all are made."
    )


def _pick(view: View, names: Names) -> str:
    if view["bully"] is None:
        return _seat_phase(view, names)
    taker, victim, left = view["bully"]
    bullies = "You bully" if taker == view["you"] else f"{names[taker]} bullies"
    hand = "your hand" if victim == view["you"] else f"{names[victim]}'s hand"
    return (
        f"{bullies} {pronoun_name(view, names, victim)}: chance picks a card blindly "
        f"from {hand} ({left} still to take)."
    )


def _give(view: View, names: Names) -> str:
    if view["bully"] is None:
        return _seat_phase(view, names)
    taker, victim, _ = view["bully"]
    giver = "You hand" if victim == view["you"] else f"{names[victim]} hands"
    return f"{giver} the card chance picked to {pronoun_name(view, names, taker)}."


def _seat_phase(view: View, names: Names) -> str:
    """A phase of one seat's with no words of its own."""
    seat = view["turn_of"]
    if seat is None:
        return view["phase"]
    return f"{possessive_name(view, names, seat)} turn ({view['phase']})."


def _whose(view: View, names: Names) -> str | None:
    seat = view["turn_of"]
    return None if seat is None else possessive_name(view, names, seat)


def _turn(view: View, names: Names) -> str:
    whose = _whose(view, names)
    if whose is None:
        return view["phase"]
    return f"{whose} turn, in {the_room(view['rooms'][view['turn_of']])}: take one Action."


def _sneak(view: View, names: Names) -> str:
    whose = _whose(view, names)
    if whose is None or view["moving"] is None:
        return _seat_phase(view, names)
    return (
        f"{whose} Move to {the_room(view['moving'])}: the D10 is rolled, "
        "4 or higher sneaks past the Hall Monitor."
    )


def _turn_in(view: View, names: Names) -> str:
    whose = _whose(view, names)
    if whose is None:
        return view["phase"]
    subject = view["shown"][0]["subject"] if view["shown"] else "?"
    return f"{whose} turn: show more {subject} Assignments, or turn in the set."


def _late(view: View, names: Names) -> str:
    whose = _whose(view, names)
    if whose is None:
        return view["phase"]
    return f"Day {DAYS} is over. {whose} late plays: Art, Music, Gift and Assignment " + (
        "cards score half their Pet Points, rounded down."
        if view["rulings"]["late"] == "per-card"
        else "cards score half of their total Pet Points, rounded down once "
        f"(played late so far: {view['late_total']})."
    )


#: the rules' phase -> what the screen says happens now
PHASES: dict[str, Callable[[View, Names], str]] = {
    "setup-first": lambda view, names: "Setting up: choosing who goes first.",
    "over": lambda view, names: "The game is over.",
    "teacher": _teacher,
    "monitor": lambda view, names: (
        f"Before Period {view['period']}: the Hall Monitor rolls the D10."
    ),
    "deal": lambda view, names: "Cards are dealt from the Play Deck.",
    "free-move": _free_move,
    "pick": _pick,
    "give": _give,
    "turn": _turn,
    "sneak": _sneak,
    "turn-in": _turn_in,
    "late": _late,
}
