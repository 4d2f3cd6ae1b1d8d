"""Sets of Assignments shown one by one, on a turn and after Day 5, and the late plays.

How it works: a Turn In (``actions.turn_in``) shows a set's first Assignment and
moves to the ``turn-in`` phase, where the seat shows more of the same subject one
by one (``add``) and ends with ``done``, scoring the set.  After Day 5 the seats
play their remaining scoring cards "late", in turn (the ``late`` phase): a card
scores half, a late Assignment starts a set that scores half too, and ``finish``
passes to the next seat.  How "half ... rounded down" is read is the ``late``
option (``late_points``; RULES.md).  ``rules.TABLE`` names the two phases.
"""

from __future__ import annotations

from p2ptable.engine.api import Action
from p2ptable.engine.frozen import replace
from p2ptable.engine.phases import SeatPhase
from p2ptable.games.teachers_pet.actions import SCORING_KINDS, claim, discard_card, turn_in
from p2ptable.games.teachers_pet.cards import PLAY, set_points
from p2ptable.games.teachers_pet.flow import end_turn, next_late
from p2ptable.games.teachers_pet.state import TeachersPetState

State = TeachersPetState


def _set_choices(s: State) -> list[Action]:
    seat = s.current
    assert seat is not None
    subject = PLAY[s.shown[0]].subject
    adds = [
        Action("add", (slot, card))
        for slot, card in enumerate(s.hands[seat])
        if card is not None and PLAY[card].subject == subject
    ]
    return [*adds, Action("done")]


def _check_set(s: State, seat: int, action: Action) -> str | None:
    if action == Action("done"):
        return None
    why = claim(s, seat, action)
    if why is not None:
        return why
    if len(action.args) != 2:
        return "add takes a slot and a card"
    card = action.args[1]
    subject = PLAY[s.shown[0]].subject
    if PLAY[card].subject != subject:
        return f"a set of {subject} Assignments takes no {PLAY[card].name}"
    return None


def _add(s: State, seat: int, action: Action) -> State:
    slot, card = action.args
    hand = s.hands[seat]
    return replace(s.with_hand(seat, hand[:slot] + hand[slot + 1 :]), shown=(*s.shown, card))


def _done(s: State, seat: int, action: Action) -> State:
    """ "Scoring their combined Pet Point value, then putting them in the Play
    Deck Discard Pile"; late, half of it rounded down."""
    points = set_points(len(s.shown))
    s = _score_late(s, seat, points) if s.late else s.with_points(seat, s.points[seat] + points)
    s = replace(s, discard=tuple(sorted((*s.discard, *s.shown))), shown=())
    if s.late:
        return replace(s, phase="late", late=False)
    return end_turn(s)


# -- after Day 5: the late plays ------------------------------------------------


def _late_choices(s: State) -> list[Action]:
    seat = s.current
    assert seat is not None
    return [
        Action("late", (slot, card))
        for slot, card in enumerate(s.hands[seat])
        if card is not None and PLAY[card].kind in SCORING_KINDS
    ] + [Action("finish")]


def _check_late(s: State, seat: int, action: Action) -> str | None:
    if action == Action("finish"):
        return None
    if action.verb != "late" or len(action.args) != 2:
        return "after Day 5: `late <slot> <card>` or `finish`"
    why = claim(s, seat, action)
    if why is not None:
        return why
    if PLAY[action.args[1]].kind not in SCORING_KINDS:
        return f"{PLAY[action.args[1]].name} has no Pet Points to score late"
    return None


def _late(s: State, seat: int, action: Action) -> State:
    """ "play your remaining cards from your hand 'late' to score half of the
    number of Pet Points shown on the cards rounded down"."""
    slot, card = action.args
    if PLAY[card].kind == "assignment":
        return turn_in(s, seat, action)
    return _score_late(discard_card(s, seat, slot, card), seat, PLAY[card].points)


def late_points(total: int, more: int, rule: str) -> int:
    """What ``more`` Pet Points played late add to a seat's score, ``total``
    already played late: the total is halved once, rounded down (``late=total``),
    or each card and set on its own (``late=per-card``, the ruling before)."""
    if rule == "per-card":
        return more // 2
    return (total + more) // 2 - total // 2


def _score_late(s: State, seat: int, points: int) -> State:
    s = s.with_points(seat, s.points[seat] + late_points(s.late_total, points, s.rulings.late))
    return replace(s, late_total=s.late_total + points)


def _finish(s: State, seat: int, action: Action) -> State:
    return next_late(replace(s, turn=s.turn + 1, current=None, late_total=0))


# -- the phases (rules.TABLE lists them) --

SET = SeatPhase(_set_choices, {"add": _add, "done": _done}, _check_set)
LATE = SeatPhase(_late_choices, {"late": _late, "finish": _finish}, _check_late)
