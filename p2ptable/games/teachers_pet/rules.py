"""Teacher's Pet's rules as pure transition functions.

Theory of operation
-------------------
The state (``state.py``) carries a ``phase``; each phase is decided by chance, by
one seat (``state.decider``) or by several seats at once in secret; ``TABLE``
(at the end) lists them all.  A game runs:

1. ``setup-first`` (chance): "The Player who most recently took a class goes
   first" -- software cannot know, so a fair roll over the seats picks the
   first player (a rematch names it instead, the option ``first``: no roll).
2. ``teacher`` (chance): the top Teacher card is drawn face up (an index into
   the sorted Teacher Deck); every pawn goes to its room; ``deal`` (chance, one
   card at a time, clockwise from the first player) gives everyone 7 cards from
   the sealed Play Deck.
3. A Period: each seat, clockwise from the first player, takes one action in
   ``turn`` (a seat with a lost turn to serve is skipped, and serves it).  An
   action may open chance steps (``sneak``, ``deal``, ``pick``) and reaction
   windows (``catch-window``, ``tattle-window``, ``tattler-window``,
   ``bully-window``: ``engine.reactions``, asked whether or not the seat holds
   the card) before the next seat's turn.
4. After Periods 1-6: the Hall Passes in front are discarded, ``monitor``
   (chance, the D10) moves the Hall Monitor to overlap the Hallway and the
   rolled room, and catches there; ``teacher`` turns over the new Active
   Teacher; ``free-move``: everyone not in its room decides at once, in secret,
   whether to go there (an ``engine.phases.TogetherPhase``); then the next
   Period.
5. After Period 7 of Days 1-4: the Monitor returns to the Hallway, a new
   teacher, every pawn to its room, every hand refilled to 7 (``deal``).
6. After Day 5: ``late``: each seat from the first player plays any of its
   Art, Music, Gift and Assignment cards "late" for half their Pet Points,
   rounded down (Assignments as sets, ``turn-in``; the total halved once, or
   each on its own: the ``late`` option), then ``over``.

Every decision the rulebook leaves open is settled in RULES.md, "How p2ptable
settles what the rulebook leaves open", and tested there by name; where players
could read it otherwise, the reading is a game option (``rulings.py``), kept in
the state as ``s.rulings``.

A played card is a *claim*: ``work <slot> <card> ...`` is accepted when the slot
exists, the card fits the action and the card at that slot, if this state knows
it, is that card; between peers the sealed deck's reveal proof checks the claim
(``hand_card_played``).  Nothing here draws a random number, prints or reads a
clock.
"""

from __future__ import annotations

from collections.abc import Mapping

from p2ptable.engine.api import FIRST, FIRST_PLAYER, Action, ChanceStep
from p2ptable.engine.frozen import replace
from p2ptable.engine.phases import ChancePhase, Phase, PhaseTable, TogetherPhase
from p2ptable.engine.reactions import reaction_phase, reaction_played
from p2ptable.games.teachers_pet import actions, flow, sets
from p2ptable.games.teachers_pet.actions import SNEAK
from p2ptable.games.teachers_pet.cards import HALLWAY, TEACHER
from p2ptable.games.teachers_pet.flow import (
    begin_period,
    catch,
    caught_passes,
    caught_shows,
    clockwise,
    deal_next,
    found_in,
    hand_of,
    is_pass,
    refills,
    room_name,
)
from p2ptable.games.teachers_pet.rulings import Rulings
from p2ptable.games.teachers_pet.state import (
    HAND_SIZE,
    START_POINTS,
    TeachersPetState,
    full_play_deck,
    full_teacher_deck,
)

State = TeachersPetState

# -- set-up -----------------------------------------------------------------------


def initial(seats: int, options: Mapping[str, str]) -> State:
    """The school before set-up chance; ``options`` must already be normalized."""
    s = State(
        seats=seats,
        phase="setup-first",
        deck=full_play_deck(),
        hands=((),) * seats,
        points=(START_POINTS,) * seats,
        teacher_deck=full_teacher_deck(),
        rooms=(HALLWAY,) * seats,  # no pawn is on the board before the first teacher
        lost=(0,) * seats,
        detentions=(0,) * seats,
        rulings=Rulings.of(options),
    )
    if FIRST not in options:
        return s
    # A rematch names the first player (RULES.md, "The first player"): no roll.
    return _resolve_first(s, (int(options[FIRST]),))


def _resolve_first(s: State, outcome: tuple[int, ...]) -> State:
    return replace(s, first=outcome[0], phase="teacher", then="setup")


def _resolve_teacher(s: State, outcome: tuple[int, ...]) -> State:
    index = outcome[0]
    card = s.teacher_deck[index]
    s = replace(
        s,
        teacher_deck=s.teacher_deck[:index] + s.teacher_deck[index + 1 :],
        teacher_discard=(*s.teacher_discard, card),
    )
    room = TEACHER[card].room
    if s.then in ("setup", "day"):  # "place all of the Players Pawns in the ... Room"
        s = replace(s, rooms=(room,) * s.seats)
        dealing = clockwise(s, s.first) * HAND_SIZE if s.then == "setup" else refills(s)
        return deal_next(replace(s, dealing=dealing, then="period"))
    # within a Day: "all players may choose to immediately take a free Move"
    asked = tuple(seat for seat in range(s.seats) if s.rooms[seat] != room)
    if not asked:
        return begin_period(replace(s, then=""))
    return replace(s, phase="free-move", then="", choosing=asked, chosen=())


def _still_choosing(s: State) -> frozenset[int]:
    return frozenset(s.choosing) - {seat for seat, _ in s.chosen}


def _free_move_choices(s: State, seat: int) -> list[Action]:
    return [Action("go"), Action("stay")]


def _chose(s: State, seat: int, action: Action) -> State:
    """One seat's secret choice; the log applies them all together in seat order,
    and the last one carries them out (no roll, no catch: RULES.md)."""
    s = replace(s, chosen=tuple(sorted((*s.chosen, (seat, action.verb)))))
    if _still_choosing(s):
        return s
    room = s.expected
    assert room is not None
    for chooser, verb in s.chosen:
        if verb == "go":
            s = s.with_room(chooser, room)
    return begin_period(s)


def _resolve_monitor(s: State, outcome: tuple[int, ...]) -> State:
    """ "Roll the D10 and move the Hall Monitor Pawn so that the Pawn overlaps the
    Hallway and the School Room number rolled": players there outside the Active
    Teacher's room are caught (before the new teacher: RULES.md)."""
    room = outcome[0] + 1
    s = replace(s, monitor=room, monitor_hallway=True).told(
        f"the Hall Monitor rolls {room}: {room_name(room)}"
    )
    return catch(s, found_in(s, room, s.first), then="new-teacher")


# -- what the sealed deck must prove ----------------------------------------------------------


def hand_card_played(s: State, seat: int, action: Action) -> tuple[int, int] | None:
    """``(slot, card)`` for every action that shows a hand card."""
    if action.verb in ("work", "turn-in", "add", "late") and len(action.args) >= 2:
        return action.args[0], action.args[1]
    return reaction_played(action)


def hand_card_given(s: State, seat: int, action: Action) -> tuple[int, int] | None:
    """``(slot, taker)`` for the card a blind pick chose, handed over."""
    if action.verb == "give" and s.bully is not None and len(action.args) == 1:
        return action.args[0], s.bully[0]
    return None


def hand_card_taken(s: State, seat: int, action: Action) -> int | None:
    """The Assignment Cheat takes face up from the discard pile into the hand."""
    if action.verb == "cheat" and len(action.args) == 1:
        return action.args[0]
    return None


def given_card_seen(s: State, seat: int, card: int) -> State:
    """The taker's own peer learns the card it was given (the last of its hand)."""
    return s.with_hand(seat, (*s.hands[seat][:-1], card))


def hand_shuffled(s: State, seat: int, hand: tuple[int | None, ...]) -> State:
    """The victim shuffled its hand before a blind pick: its new order."""
    return s.with_hand(seat, tuple(hand))


# -- THE TABLE: every phase, who decides it, and what may happen in it ---------------------

TABLE: dict[str, Phase] = {
    "setup-first": ChancePhase(
        lambda s: ChanceStep("roll", FIRST_PLAYER, (s.seats,)), _resolve_first
    ),
    "teacher": ChancePhase(
        lambda s: ChanceStep("draw", "teacher-card", (len(s.teacher_deck),)), _resolve_teacher
    ),
    "deal": ChancePhase(flow.deal_step, flow.resolve_deal),
    "turn": actions.TURN,
    "sneak": actions.SNEAK_ROLL,
    "catch-window": reaction_phase(
        lambda s: s.windows[0], hand_of, is_pass, caught_passes, caught_shows
    ),
    "tattle-window": actions.TATTLE_WINDOW,
    "tattler-window": actions.TATTLER_WINDOW,
    "bully-window": actions.BULLY_WINDOW,
    "pick": actions.PICK,
    "give": actions.GIVE,
    "turn-in": sets.SET,
    "monitor": ChancePhase(lambda s: ChanceStep("roll", "hall-monitor", (10,)), _resolve_monitor),
    "free-move": TogetherPhase(_still_choosing, _free_move_choices, {"go": _chose, "stay": _chose}),
    "late": sets.LATE,
    "over": None,
}


# -- the public functions -----------------------------------------------------------------

RULES: PhaseTable[State] = PhaseTable(TABLE, decider=lambda s: s.decider)
pending = RULES.pending
legal_actions = RULES.legal_actions
apply = RULES.apply
resolve = RULES.resolve

__all__ = ["SNEAK", "TABLE", "apply", "legal_actions", "pending", "resolve"]
