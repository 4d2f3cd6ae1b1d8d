"""Vorsicht Lehrer!'s state: one frozen value holding the whole classroom.

How it works
------------
Cards are ids (see ``cards.py``).  The school deck, the school discards and the
teacher deck are *sorted* tuples: they have no order until a card is dealt or drawn,
which is a chance step whose outcome is an index into the sorted pile (exactly as
likely as the top card of a shuffled deck).  A hand is a tuple of card ids in the
order the cards were dealt; ``None`` stands for a card this state does not know.  In a
one-process simulation every state knows every card; between peers the school deck is
sealed (``p2ptable.sealed``): once dealing starts, the deck is face-down ``None``
cards and other players' hand cards are ``None`` until played.  The teacher discards
keep the order they were revealed in, since they lie face up.

The score track runs from 0 to ``track`` (the "Vorsicht Lehrer!" end field); the black
marker fields are every ``MARKER_STEP`` points below it.  ``tokens[s]`` is seat s's
negative points, ``patience`` the black patience pawn.

``VorsichtLehrerState`` never changes; the rules return a new one with
``dataclasses.replace``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from p2ptable.engine.frozen import replace
from p2ptable.games.vorsicht_lehrer.cards import SCHOOL, TEACHER

#: "Each player has been assigned 4 start-up cards."
HAND_SIZE = 4
#: "the black markers on the game board (Field 20, 40, 60, etc)"
MARKER_STEP = 20
#: the end field's number; 200 is the board's, 100 a short game.
TRACKS: tuple[str, ...] = ("200", "100")


def markers(track: int) -> tuple[int, ...]:
    """The black fields below the end field: 20, 40, ..., track - 20."""
    return tuple(range(MARKER_STEP, track, MARKER_STEP))


@dataclass(frozen=True)
class Throw:
    """A risk throw: who threw, the three dice (1..6), the risk number it had to
    reach and the negative points it cost (0: escaped)."""

    seat: int
    dice: tuple[int, ...]
    risk: int
    points: int


def with_throw(throws: tuple[Throw, ...], throw: Throw) -> tuple[Throw, ...]:
    """``throws`` (each seat's latest) with ``throw`` as its thrower's latest, last."""
    return (*(t for t in throws if t.seat != throw.seat), throw)


@dataclass(frozen=True)
class VorsichtLehrerState:
    """The whole table.  See the module docstring and ``rules.py`` for the phases.

    ``current`` is the active player; ``turn_start`` the patience pawn's field when
    the turn began (to see whether it reached a marker); ``played`` the school card
    played this turn; ``teacher`` the teacher card being resolved.  ``dealing`` lists
    the seats still to be dealt a card during set-up, the next first; ``deciding`` the
    seats still to choose negative points or a risk throw for the teacher card, the
    one choosing first (with ``teacher_mode`` "together", every seat still to
    choose, or to take or throw, in clockwise order from the active player; and
    ``chosen`` their choices once all are revealed).  ``throws`` holds each
    seat's latest risk throw (at most one per seat), the latest last, so a
    screen can say who threw last and how each seat's own last throw went.
    Nothing in the rules reads it.
    """

    seats: int
    track: int
    phase: str
    deck: tuple[int | None, ...]
    hands: tuple[tuple[int | None, ...], ...]
    tokens: tuple[int, ...]
    teacher_deck: tuple[int, ...]
    discard: tuple[int, ...] = ()
    teacher_discard: tuple[int, ...] = ()
    patience: int = 0
    current: int | None = None
    turn_start: int = 0
    played: int | None = None
    teacher: int | None = None
    dealing: tuple[int, ...] = ()
    deciding: tuple[int, ...] = ()
    throws: tuple[Throw, ...] = ()
    teacher_mode: str = "together"  # the option teacher-choices (rules.py)
    chosen: tuple[tuple[int, str], ...] = ()  # (seat, "take" | "risk"), in seat order

    @property
    def last_throw(self) -> tuple[int, ...] | None:
        """The last risk throw's three dice (1..6), whoever threw them."""
        return self.throws[-1].dice if self.throws else None

    @property
    def decider(self) -> int | None:
        """The seat that decides now, if a seat does (see ``rules.TABLE``)."""
        if self.phase.startswith("teacher-"):
            return self.deciding[0] if self.deciding else None
        return self.current

    def with_hand(self, seat: int, hand: tuple[int | None, ...]) -> VorsichtLehrerState:
        return replace(self, hands=self.hands[:seat] + (hand,) + self.hands[seat + 1 :])

    def with_token(self, seat: int, points: int) -> VorsichtLehrerState:
        return replace(self, tokens=self.tokens[:seat] + (points,) + self.tokens[seat + 1 :])


def all_school_cards(state: VorsichtLehrerState) -> Counter[int | None]:
    """Every school card id the state holds, wherever it is (conservation check)."""
    total: Counter[int | None] = Counter(state.deck)
    total.update(state.discard)
    for hand in state.hands:
        total.update(hand)
    return total


def all_teacher_cards(state: VorsichtLehrerState) -> Counter[int]:
    """Every teacher card id the state holds (the one being resolved is discarded)."""
    return Counter(state.teacher_deck) + Counter(state.teacher_discard)


def full_school_deck() -> tuple[int, ...]:
    return tuple(card.id for card in SCHOOL)


def full_teacher_deck() -> tuple[int, ...]:
    return tuple(card.id for card in TEACHER)
