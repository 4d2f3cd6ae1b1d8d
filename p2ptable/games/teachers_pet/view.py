"""What a seat sees of a Teacher's Pet school, and log phrases.

How it works
------------
Everything is public except the hands and the Play Deck.  ``view(state, seat)``
shows ``seat`` its own hand (cards by id with kind, subject and Pet Points) and
every other hand only as a count; ``view(state, None)`` shows no hand at all.
The Play Deck appears only as its size.  The rooms, the Hall Monitor, the Active
Teacher, Pet Points, lost turns, Detentions, Hall Passes in front, the discard
pile, the Assignments of a set being shown and the game's options (``rulings``)
are public.  A reaction window
reads the same whether or not the asked seat holds the card: the view says
whose window is open and for what, never what the seat holds.  A dealt or
blindly taken card is never named in a log phrase (``card_name`` names one for a
reader who may know it).  ``moment`` says when in the school week a log entry
falls: "Day 2, Period 3", or "After Day 5" for the late plays.  Views are plain
JSON data.
"""

from __future__ import annotations

from typing import Any

from p2ptable.engine.api import Action, Simultaneous, Turn
from p2ptable.games.teachers_pet import rules, scoring
from p2ptable.games.teachers_pet.cards import HALLWAY, PLAY, ROOMS, TEACHER
from p2ptable.games.teachers_pet.state import DAYS, TeachersPetState
from p2ptable.games.teachers_pet.verb_words import VERBS

#: what an open reaction window asks, by kind (the same words whatever the hand)
WINDOW_QUESTIONS = {
    "catch": "The Hall Monitor caught {who}: show a Hall Pass, or take the Detention?",
    "tattle": "{accuser} tattles on {who}: show a Hall Pass, or take the Detention?",
    "tattler": "{whose} Tattle backfired: show a Hall Pass to cancel the Detention, or take it?",
    "bully": "{accuser} bullies {who}: show Goody Two-Shoes to cancel it, or let it happen?",
}


def play_card(card: int | None) -> dict[str, Any] | None:
    """A Play card as view data (``None`` for an unknown card)."""
    if card is None:
        return None
    c = PLAY[card]
    return {"id": c.id, "kind": c.kind, "subject": c.subject, "points": c.points, "name": c.name}


def teacher_card(card: int | None) -> dict[str, Any] | None:
    if card is None:
        return None
    c = TEACHER[card]
    return {"id": c.id, "teacher": c.teacher, "room": c.room, "room_name": ROOMS[c.room - 1]}


def _window(state: TeachersPetState) -> dict[str, Any] | None:
    if not state.phase.endswith("-window"):
        return None
    seat = state.windows[0]
    accuser = None
    if state.window == "tattle" and state.tattle is not None:
        accuser = state.tattle[0]
    elif state.window == "bully" and state.bully is not None:
        accuser = state.bully[0]
    return {"kind": state.window, "seat": seat, "by": accuser}


def view(state: TeachersPetState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may see (``None``: the public view, no hand)."""
    decision = rules.pending(state)
    over = state.phase == "over"
    result = scoring.outcome(state.points, state.detentions, state.rulings.tie) if over else None
    return {
        "game": "teachers-pet",
        "seats": state.seats,
        "you": seat,
        "phase": state.phase,
        "day": state.day,
        "period": state.period,
        "first": state.first,
        "turn_of": state.current,
        "to_act": decision.seat if isinstance(decision, Turn) else None,
        # Seats deciding the free Move at once, in secret: who, never what.
        "choosing": sorted(decision.seats) if isinstance(decision, Simultaneous) else [],
        "chosen": [[s, verb] for s, verb in state.chosen],
        "rooms": list(state.rooms),
        "room_names": list(ROOMS),
        "monitor": state.monitor,
        "monitor_hallway": state.monitor_hallway,
        "teacher": teacher_card(state.teacher),
        "expected": state.expected,
        "teacher_deck_left": len(state.teacher_deck),
        # the Teacher discards lie face up: which teachers have come, in order
        "teacher_discard": [TEACHER[c].teacher for c in state.teacher_discard],
        "points": list(state.points),
        "lost": list(state.lost),
        "detentions": list(state.detentions),
        "passes": [[s, play_card(card)] for s, card in state.passes],
        "hand": None if seat is None else [play_card(c) for c in state.hands[seat]],
        "hand_sizes": [len(hand) for hand in state.hands],
        "deck_left": len(state.deck),
        "discard": [play_card(c) for c in state.discard],
        "shown": [play_card(c) for c in state.shown],
        "window": _window(state),
        "bully": None if state.bully is None else list(state.bully),
        # the room a sneaking pawn heads for (the Move was announced), and whether
        # the set being shown is a late play (it scores half)
        "moving": state.moving,
        "late": state.late,
        # the Pet Points of the cards played late so far by the seat playing late,
        # before halving, and the game's options (rulings.py)
        "late_total": state.late_total,
        "rulings": state.rulings.options(),
        "news": list(state.news),
        "outcome": None if result is None else result.to_view(),
    }


def window_question(view: dict[str, Any], name: Any = None) -> str:
    """The question of the open reaction window in words, the same whether or not
    the asked seat holds the card; ``name(seat)`` names a seat."""
    window = view["window"]
    name = name or (lambda s: f"seat {s}")
    who = "you" if window["seat"] == view["you"] else name(window["seat"])
    whose = "Your" if who == "you" else f"{who}'s"
    accuser = "" if window["by"] is None else name(window["by"])
    return WINDOW_QUESTIONS[window["kind"]].format(who=who, whose=whose, accuser=accuser)


def describe(state: TeachersPetState, seat: int, action: Action) -> str:
    """A log phrase for ``action`` taken in ``state`` (before it is applied): the
    verb's row in verb_words.py, which holds the menu's words for it too."""
    words = VERBS.get(action.verb)
    phrase = None if words is None else words.log(state, action.args)
    return action.text if phrase is None else phrase


def describe_chance(state: TeachersPetState, outcome: tuple[int, ...]) -> str:
    """A log phrase for the pending chance step coming out as ``outcome``; a dealt
    card is not named (only its owner may know it)."""
    phase = state.phase
    if phase == "setup-first":
        return f"seat {outcome[0]} goes first"
    if phase == "teacher":
        card = TEACHER[state.teacher_deck[outcome[0]]]
        return f"the new Active Teacher is the {card.teacher} ({ROOMS[card.room - 1]})"
    if phase == "deal":
        return f"a card is dealt to seat {state.dealing[0]}"
    if phase == "sneak":
        roll = outcome[0] + 1
        how = "sneaks past" if roll >= rules.SNEAK else "is caught by"
        into = "" if state.moving is None else f" to sneak into the {ROOMS[state.moving - 1]}"
        return (
            f"seat {state.current} rolls {roll}{into} (needs {rules.SNEAK}) and {how} "
            "the Hall Monitor"
        )
    if phase == "monitor":
        room = outcome[0] + 1
        if room == HALLWAY:
            return f"the Hall Monitor rolls {room}: it stays in the Hallway"
        return f"the Hall Monitor rolls {room}: the Hallway and the {ROOMS[room - 1]}"
    if phase == "pick" and state.bully is not None:
        return f"chance picks a card from seat {state.bully[1]}'s hand"
    return f"chance: {outcome}"


def moment(state: TeachersPetState) -> str:
    """When in the school week ``state`` stands: "Day 2, Period 3"; once Day 5 is
    over, the late plays (a set shown late too) and the end are "After Day 5"."""
    if state.late or state.phase in ("late", "over"):
        return f"After Day {DAYS}"
    return f"Day {state.day}, Period {state.period}"


def card_name(card: int) -> str:
    """A Play card as a log phrase names it: "Gift 2", "Assignment (History)"."""
    return PLAY[card].name
