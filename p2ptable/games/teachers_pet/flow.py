"""The flow of a Teacher's Pet school week: turns, Periods, Days, dealing, catches.

How it works
------------
Every action ends in one of these functions, which move the game on by the
rulebook's order: ``end_turn`` (the next seat of the Period, skipping and serving
a lost turn; after the last seat ``end_period``: the Hall Passes in front are
discarded, then the Monitor's roll, a new Day or the late plays), ``deal_next``
(one card at a time to the seats in ``dealing``, the discard pile becoming a new
Play Deck when the deck runs out) and ``catch`` (one catch after another: a
reaction window for each caught seat that may show a Hall Pass).  When the
dealing or the windows are done, ``carry_on`` goes where ``state.then`` says.
``detention`` is the one penalty.  Pure functions; nothing here draws, prints or
reads a clock.
"""

from __future__ import annotations

from p2ptable.engine.api import ChanceStep
from p2ptable.engine.frozen import replace
from p2ptable.games.teachers_pet.cards import HALLWAY, NURSES_OFFICE, PLAY, ROOMS
from p2ptable.games.teachers_pet.state import (
    DAYS,
    DETENTION_POINTS,
    HAND_SIZE,
    PERIODS,
    TeachersPetState,
)

State = TeachersPetState


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def room_name(room: int) -> str:
    return ROOMS[room - 1]


def clockwise(s: State, start: int) -> tuple[int, ...]:
    """Every seat, clockwise from ``start``."""
    return tuple((start + i) % s.seats for i in range(s.seats))


# -- dealing ------------------------------------------------------------------------


def deal_step(s: State) -> ChanceStep:
    return ChanceStep("deal", "deal", (len(s.deck),), seat=s.dealing[0])


def deal_next(s: State) -> State:
    """Deal the next card, or carry on when nobody is owed one.  An empty Play
    Deck is first replaced by the discard pile ("when it runs out, the Play Deck
    Discard Pile becomes a new sealed deck"); with both empty nobody is dealt."""
    if not s.dealing:
        return carry_on(s)
    if not s.deck:
        if not s.discard:
            told = "the Play Deck and its discard pile are empty: nothing left to draw"
            return carry_on(replace(s, dealing=()).told(told))
        s = replace(s, deck=s.discard, discard=()).told(
            "the discard pile is shuffled into a new Play Deck"
        )
    return replace(s, phase="deal")


def _dealt(s: State, card: int | None, deck: tuple[int | None, ...]) -> State:
    seat = s.dealing[0]
    s = replace(s, deck=deck, dealing=s.dealing[1:])
    return deal_next(s.with_hand(seat, (*s.hands[seat], card)))


def resolve_deal(s: State, outcome: tuple[int, ...]) -> State:
    index = outcome[0]
    return _dealt(s, s.deck[index], s.deck[:index] + s.deck[index + 1 :])


def deal_from_sealed(s: State, card: int | None) -> State:
    """Resolve the pending deal with the sealed deck's card (None: not ours to see)."""
    if s.phase != "deal":
        raise ValueError(f"no deal is pending in phase {s.phase!r}")
    return _dealt(s, card, (None,) * (len(s.deck) - 1))


def refills(s: State) -> tuple[int, ...]:
    """Seats owed cards up to 7, clockwise from the first player, one per card."""
    return tuple(
        seat
        for seat in clockwise(s, s.first)
        for _ in range(max(0, HAND_SIZE - len(s.hands[seat])))
    )


# -- the flow of Periods and Days -------------------------------------------------------


def carry_on(s: State) -> State:
    """What comes after the dealing, the windows or the teacher now done (``then``)."""
    then = s.then
    s = replace(s, then="", windows=(), window="")
    if then == "turn-end":
        return end_turn(s)
    if then == "period":  # the dealing after a Day began, or a set-up
        return begin_period(s)
    if then == "new-teacher":
        return replace(s, phase="teacher", then="free-move")
    raise AssertionError(f"nothing to carry on to from {then!r}")


def begin_period(s: State) -> State:
    return next_turn(replace(s, turn=0))


def next_turn(s: State) -> State:
    """The next seat of this Period takes its turn; a seat owing a lost turn
    serves it instead ("lose a Turn"); after the last seat, the Period ends."""
    while s.turn < s.seats:
        seat = (s.first + s.turn) % s.seats
        if s.lost[seat]:
            lost = s.lost[:seat] + (s.lost[seat] - 1,) + s.lost[seat + 1 :]
            s = replace(s, lost=lost, turn=s.turn + 1).told(
                f"{seat_name(seat)} loses this turn (Detention)"
            )
            continue
        return replace(s, phase="turn", current=seat)
    return end_period(s)


def end_turn(s: State) -> State:
    s = replace(s, current=None, moving=None, tattle=None, bully=None, picked=None)
    return next_turn(replace(s, turn=s.turn + 1))


def end_period(s: State) -> State:
    """ "At the end of the Period, discard the Hall Pass Card"; then the Monitor's
    roll (Periods 1-6), the end of the Day (Period 7 of Days 1-4) or the late
    plays (after Day 5)."""
    if s.passes:
        s = replace(s, discard=tuple(sorted((*s.discard, *(c for _, c in s.passes)))), passes=())
        s = s.told("the Hall Passes in front are discarded")
    s = replace(s, current=None, choosing=(), chosen=())  # the free Move's are done with
    if s.period < PERIODS:
        return replace(s, phase="monitor", period=s.period + 1)
    if s.day < DAYS:
        s = replace(s, day=s.day + 1, period=1, monitor=HALLWAY, monitor_hallway=True)
        return replace(s, phase="teacher", then="day")
    return next_late(replace(s, turn=0))


# -- catches, Detentions and the Hall Pass ------------------------------------------------


def found_in(s: State, room: int, start: int) -> tuple[int, ...]:
    """The seats the Monitor catches on entering ``room``, clockwise from
    ``start``: pawns there outside the Active Teacher's room.  The Hallway holds
    no pawn; in the Nurse's Office a catch "carries no penalty"."""
    if room in (HALLWAY, NURSES_OFFICE, s.expected):
        return ()
    return tuple(seat for seat in clockwise(s, start) if s.rooms[seat] == room)


def detention(s: State, seat: int) -> State:
    """ "If you suffer a Detention, you are Moved to the Active Teacher's School
    Room, lose a Turn, and move down 5 Pet Points" (below 0 too, unless
    ``floor=zero``: RULES.md)."""
    assert s.expected is not None
    expected = s.expected  # with_room and with_points keep it
    s = s.with_room(seat, expected)
    points = s.points[seat] - DETENTION_POINTS
    s = s.with_points(seat, max(0, points) if s.rulings.floor == "zero" else points)
    lost = s.lost[:seat] + (s.lost[seat] + 1,) + s.lost[seat + 1 :]
    counted = s.detentions[:seat] + (s.detentions[seat] + 1,) + s.detentions[seat + 1 :]
    return replace(s, lost=lost, detentions=counted).told(
        f"{seat_name(seat)} gets a Detention: back to the {room_name(expected)}, "
        f"-{DETENTION_POINTS} Pet Points, loses a turn"
    )


def catch(s: State, seats: tuple[int, ...], then: str) -> State:
    """Catch ``seats`` one after another: a seat with a Hall Pass in front is
    safe; every other seat holding cards gets a window to show one."""
    return next_catch(replace(s, window="catch", windows=seats, then=then))


def next_catch(s: State) -> State:
    while s.windows:
        seat = s.windows[0]
        if s.has_pass(seat):
            s = replace(s, windows=s.windows[1:]).told(
                f"{seat_name(seat)} is caught, but has a Hall Pass in front"
            )
        elif not s.hands[seat]:  # an empty hand is public: nothing to show
            s = detention(replace(s, windows=s.windows[1:]), seat)
        else:
            return replace(s, phase="catch-window")
    return carry_on(s)


def show_pass(s: State, seat: int, slot: int, card: int) -> State:
    """The Hall Pass at ``slot`` goes face up in front of ``seat`` until the end of
    the Period."""
    hand = s.hands[seat]
    s = s.with_hand(seat, hand[:slot] + hand[slot + 1 :])
    return replace(s, passes=(*s.passes, (seat, card)))


def is_pass(card: int) -> bool:
    return PLAY[card].kind == "hall-pass"


def is_goody(card: int) -> bool:
    return PLAY[card].kind == "goody"


def hand_of(s: State, seat: int) -> tuple[int | None, ...]:
    return s.hands[seat]


def caught_passes(s: State, seat: int) -> State:
    return next_catch(detention(replace(s, windows=s.windows[1:]), seat))


def caught_shows(s: State, seat: int, slot: int, card: int) -> State:
    s = show_pass(replace(s, windows=s.windows[1:]), seat, slot, card)
    return next_catch(s.told(f"{seat_name(seat)} shows a Hall Pass and stays"))


# -- after Day 5: the late plays ------------------------------------------------------------


def next_late(s: State) -> State:
    """The next seat, clockwise from the first player, plays its cards late; a seat
    with an empty hand has nothing to play."""
    while s.turn < s.seats:
        seat = (s.first + s.turn) % s.seats
        if s.hands[seat]:
            return replace(s, phase="late", current=seat)
        s = replace(s, turn=s.turn + 1)
    return replace(s, phase="over", current=None)
