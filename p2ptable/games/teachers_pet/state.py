"""Teacher's Pet's state: one frozen value holding the whole school.

How it works
------------
Cards are ids (``cards.py``).  The Play Deck, its discard pile and the Teacher
Deck are *sorted* tuples: they have no order until a card is dealt or drawn, a
chance step whose outcome indexes the sorted pile.  A hand is a tuple of card ids
in the order the cards came; ``None`` stands for a card this state does not know
(between peers the Play Deck is sealed, ``p2ptable.sealed``, and every other
seat's hand is ``None`` cards until they are shown).  The Teacher discards keep
the order they came in: the last is the Active Teacher.

Everything else is public: the pawns' rooms, the Hall Monitor, Pet Points, lost
turns, the Hall Passes shown in front of their players, the cards played and the
Assignments shown in a set being Turned In.  ``news`` keeps the last few things
the rules did on their own (a Detention, a lost turn, a Hall Pass discarded), in
words, for the screens; nothing in the rules reads it.

``TeachersPetState`` never changes; the rules return a new one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from p2ptable.engine.frozen import replace
from p2ptable.games.teachers_pet.cards import HALLWAY, PLAY, TEACHER
from p2ptable.games.teachers_pet.rulings import Rulings

#: "Place your Score Cube on the 5 Pet Points space"
START_POINTS = 5
#: "Each Player Draws Cards from the Play Deck until they have 7 Cards in their Hand."
HAND_SIZE = 7
#: "The Game is Played across 5 Days, or Rounds, split up into 7 Periods"
DAYS, PERIODS = 5, 7
#: "lose a Turn, and move down 5 Pet Points"
DETENTION_POINTS = 5
NEWS = 8  # how many of the rules' own happenings the state keeps for the screens


@dataclass(frozen=True)
class TeachersPetState:
    """The whole school.  See the module docstring and ``rules.py`` for the phases.

    ``first`` is the first player; ``turn`` how many seats' turns of this Period
    are over (the next is ``(first + turn) % seats``); ``current`` the seat whose
    action is being resolved.  ``lost[s]``: turns seat s still has to lose.
    ``passes``: ``(seat, card)`` for every Hall Pass face up in front of a player,
    until the end of the Period.  ``dealing``: seats still to be dealt a card, the
    next first.  ``then``: what comes after the dealing, the reaction windows or
    the Teacher card now pending (``rules._carry_on``).  ``windows``: seats whose
    reaction window is still to open, the next first; ``window`` the kind
    (``catch``, ``tattle``, ``tattler``, ``bully``).  ``tattle``: (accuser, target).
    ``bully``: (taker, victim, cards still to take); ``picked`` the slot a blind
    pick chose.  ``moving``: the room a sneaking pawn heads for.  ``shown``: the
    Assignments shown so far in a set being Turned In (``late`` for the late plays
    after Day 5, which score half).  ``choosing``: seats asked whether to take the
    free Move to the new Active Teacher's room, and ``chosen`` their choices once
    all are revealed.  ``rulings``: the game's options (``rulings.py``);
    ``late_total``: the Pet Points of the cards the seat now playing late has
    played so far, before halving (``late=total``).
    """

    seats: int
    phase: str
    deck: tuple[int | None, ...]
    hands: tuple[tuple[int | None, ...], ...]
    points: tuple[int, ...]
    teacher_deck: tuple[int, ...]
    rooms: tuple[int, ...]
    lost: tuple[int, ...]
    detentions: tuple[int, ...]
    discard: tuple[int, ...] = ()
    teacher_discard: tuple[int, ...] = ()
    monitor: int = HALLWAY
    monitor_hallway: bool = True  # the Monitor overlaps (or is in) the Hallway
    day: int = 1
    period: int = 1
    first: int = 0
    turn: int = 0
    current: int | None = None
    passes: tuple[tuple[int, int], ...] = ()
    dealing: tuple[int, ...] = ()
    then: str = ""
    windows: tuple[int, ...] = ()
    window: str = ""
    tattle: tuple[int, int] | None = None
    bully: tuple[int, int, int] | None = None
    picked: int | None = None
    moving: int | None = None
    shown: tuple[int, ...] = ()
    late: bool = False
    choosing: tuple[int, ...] = ()
    chosen: tuple[tuple[int, str], ...] = ()
    news: tuple[str, ...] = ()
    rulings: Rulings = Rulings()
    late_total: int = 0

    @property
    def teacher(self) -> int | None:
        """The Active Teacher card: "the top face-up Teacher Card" of the discards."""
        return self.teacher_discard[-1] if self.teacher_discard else None

    @property
    def expected(self) -> int | None:
        """The room pawns are "expected" in: the Active Teacher's."""
        return None if self.teacher is None else TEACHER[self.teacher].room

    @property
    def decider(self) -> int | None:
        """The seat that decides now, if one seat does (see ``rules.TABLE``)."""
        if self.phase.endswith("-window"):
            return self.windows[0]
        if self.phase == "give":
            assert self.bully is not None
            return self.bully[1]
        return self.current

    def with_hand(self, seat: int, hand: tuple[int | None, ...]) -> TeachersPetState:
        return replace(self, hands=self.hands[:seat] + (hand,) + self.hands[seat + 1 :])

    def with_room(self, seat: int, room: int) -> TeachersPetState:
        return replace(self, rooms=self.rooms[:seat] + (room,) + self.rooms[seat + 1 :])

    def with_points(self, seat: int, points: int) -> TeachersPetState:
        return replace(self, points=self.points[:seat] + (points,) + self.points[seat + 1 :])

    def has_pass(self, seat: int) -> bool:
        """Whether a Hall Pass lies face up in front of ``seat``."""
        return any(owner == seat for owner, _ in self.passes)

    def told(self, line: str) -> TeachersPetState:
        """This state with ``line`` as the latest of the rules' own happenings."""
        return replace(self, news=(*self.news, line)[-NEWS:])


def all_play_cards(state: TeachersPetState) -> Counter[int | None]:
    """Every Play card the state holds, wherever it is (conservation check)."""
    total: Counter[int | None] = Counter(state.deck)
    total.update(state.discard)
    total.update(card for _, card in state.passes)
    total.update(state.shown)
    for hand in state.hands:
        total.update(hand)
    return total


def full_play_deck() -> tuple[int, ...]:
    return tuple(card.id for card in PLAY)


def full_teacher_deck() -> tuple[int, ...]:
    return tuple(card.id for card in TEACHER)
