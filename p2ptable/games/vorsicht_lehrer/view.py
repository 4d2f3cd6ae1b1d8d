"""What a seat sees of a Vorsicht Lehrer! classroom, and log phrases.

How it works
------------
Everything is face up except the hands and the school deck.  ``view(state, seat)``
shows ``seat`` its own hand (cards by id with their values) and every other hand only
as a count; ``view(state, None)`` shows no hand at all.  The school deck appears only
as its size; the school discards (played face up), the teacher card being resolved
and the teacher discards are public.  A dealt card is never named in a log phrase
(``card_name`` names one for a reader who may know it).  There is no ``moment``
(the optional hook of ``engine.api.Game``): the game has no rounds, and the state
counts no turns, only the patience pawn and each seat's negative points.  Views are
plain JSON data.
"""

from __future__ import annotations

from typing import Any

from p2ptable.engine.api import Action, Simultaneous, Turn
from p2ptable.games.vorsicht_lehrer import rules, scoring
from p2ptable.games.vorsicht_lehrer.cards import SCHOOL, TEACHER, SchoolCard, TeacherCard
from p2ptable.games.vorsicht_lehrer.state import VorsichtLehrerState, markers


def _card(c: Any) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "patience": c.patience,
        "negative": c.negative,
        "risk": c.risk,
    }


def school_card(card: int | None) -> dict[str, Any] | None:
    """A school card as view data (``None`` for an unknown card)."""
    return None if card is None else _card(SCHOOL[card])


def teacher_card(card: int | None) -> dict[str, Any] | None:
    """A teacher card as view data, with its detention star."""
    if card is None:
        return None
    return {**_card(TEACHER[card]), "detention": TEACHER[card].detention}


def view(state: VorsichtLehrerState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may see (``None``: the public view, no hand)."""
    decision = rules.pending(state)
    result = scoring.outcome(state.tokens, state.track) if state.phase == "over" else None
    return {
        "game": "vorsicht-lehrer",
        "track": state.track,
        "markers": list(markers(state.track)),
        "seats": state.seats,
        "you": seat,
        "phase": state.phase,
        "turn_of": state.current,
        "to_act": decision.seat if isinstance(decision, Turn) else None,
        # Seats choosing at once, in secret (a teacher card): who, never what.
        "choosing": sorted(decision.seats) if isinstance(decision, Simultaneous) else [],
        "patience": state.patience,
        "turn_start": state.turn_start,
        "tokens": list(state.tokens),
        "hand": None if seat is None else [school_card(c) for c in state.hands[seat]],
        "hand_sizes": [len(hand) for hand in state.hands],
        "deck_left": len(state.deck),
        "discard": [school_card(c) for c in state.discard],
        "played": school_card(state.played),
        "teacher": teacher_card(state.teacher),
        "teacher_deck_left": len(state.teacher_deck),
        "teacher_discard": [teacher_card(c) for c in state.teacher_discard],
        "deciding": list(state.deciding),
        # Every choice on the teacher card, once all are revealed (never before:
        # the log applies them together, replay/choices.py).
        "chosen": [[seat, verb] for seat, verb in state.chosen],
        "last_throw": None if state.last_throw is None else list(state.last_throw),
        # Each seat's latest risk throw, the latest last: the dice are public.
        "throws": [
            {
                "seat": t.seat,
                "dice": list(t.dice),
                "total": sum(t.dice),
                "risk": t.risk,
                "points": t.points,
            }
            for t in state.throws
        ],
        "outcome": None if result is None else result.to_view(),
    }


def card_numbers(patience: int, negative: int, risk: int, detention: bool = False) -> str:
    """A card's numbers in words: ``patience 9, 11 negative, risk 12+`` (and
    ``detention`` for a teacher card's star).  What a card does not do is left out,
    and a card that does nothing says so: "The school teachers cards 'Test' and
    'Inattentive Teacher' are lucky for students: the teacher ... can not give the
    students any negatives, and his patience is not overstretched."
    """
    if not patience and not negative and not detention:
        return "no effect: no negative points, the pawn stays"
    parts = [f"patience {patience}"] if patience else []
    parts.append(f"{negative} negative, risk {risk}+" if negative else "no negative points")
    if detention:
        parts.append("detention")
    return ", ".join(parts)


def describe(state: VorsichtLehrerState, seat: int, action: Action) -> str:
    """A log phrase for ``action`` taken in ``state`` (before it is applied)."""
    if action.verb == "play" and len(action.args) == 2:
        c = SCHOOL[action.args[1]]
        return f"plays {c.name} ({card_numbers(c.patience, c.negative, c.risk)})"
    card: SchoolCard | TeacherCard | None = None
    if state.phase == "choose" and state.played is not None:
        card = SCHOOL[state.played]
    elif state.phase in ("teacher-choose", "teacher-together") and state.teacher is not None:
        card = TEACHER[state.teacher]
    if card is not None and action.verb == "take":
        return f"takes {card.negative} negative points"
    if card is not None and action.verb == "risk":
        return f"dares a risk throw ({card.risk}+ or {2 * card.negative} negative points)"
    return action.text


def describe_chance(state: VorsichtLehrerState, outcome: tuple[int, ...]) -> str:
    """A log phrase for the pending chance step coming out as ``outcome``; a dealt
    card is not named (only its owner may know it)."""
    phase = state.phase
    if phase == "setup-first":
        return f"seat {outcome[0]} starts"
    if phase in ("setup-deal", "refill"):
        step = rules.pending(state)
        return f"a card is dealt to seat {step.step.seat}"  # type: ignore[union-attr]
    if phase in ("risk", "teacher-risk"):
        if phase == "risk":
            c: Any = SCHOOL[state.played]  # type: ignore[index]
        else:
            c = TEACHER[state.teacher]  # type: ignore[index]
        total, points = rules.throw_result(c.risk, c.negative, outcome)
        dice = "+".join(str(v + 1) for v in outcome)
        how = "escapes" if points == 0 else f"misses {c.risk}: {points} negative points"
        return f"seat {state.decider} throws {dice} = {total}: {how}"
    if phase == "teacher":
        c = TEACHER[state.teacher_deck[outcome[0]]]
        return (
            f"teacher card: {c.name} ({card_numbers(c.patience, c.negative, c.risk, c.detention)})"
        )
    return f"chance: {outcome}"


def card_name(card: int) -> str:
    """A school card as a log phrase names it: "Whispering" (its name says its
    numbers: every card of a name has the same)."""
    return SCHOOL[card].name
