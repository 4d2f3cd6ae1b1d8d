"""Pet Quartet's state: small frozen values and the card-multiset helpers.

How it works
------------
Every card is just its value (3..13).  Piles of cards whose order does not matter (the
deck, a player's collection, the discards, the cards returned to the box) are kept as
*sorted* tuples, i.e. multisets: two states that hold the same cards compare equal and
hash alike.  The deck in particular has no order at all until a card is drawn: a draw
is a chance step whose outcome is an index into the sorted deck (see ``rules.py``).
Only the cards beneath a Conductor keep their placement order, because they are laid
out on the table in that order.

``PetQuartetState`` never changes; the rules return a new one with
``dataclasses.replace``.  Which seats are out for the round is not stored: a seat is
out exactly when some Conductor is ``taken_by`` it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

#: The six Maestro tiles, in the rulebook's order.  This order is canonical: the
#: ``maestro-tiles`` chance step picks from the tiles still unused in this order.
TILES: tuple[str, ...] = (
    "limit-2",  # "No more than 2 cards may be placed beneath this Conductor."
    "bonus-draw",  # "... you must draw a random card from the deck and keep it."
    "return-from-pile",  # "... choose one of its cards to return to the box."
    "return-collected",  # "... choose one of your previously collected cards to return ..."
    "take-after-place",  # "When you place a card beneath this Conductor, take [it] if you like."
    "pass-left",  # "... choose one card to pass to the player on your left."
)

#: Highest card value used for each player count ("Cards to Return to the Box").
HIGHEST_VALUE: dict[int, int] = {2: 9, 3: 10, 4: 11, 5: 12, 6: 13}

#: Duet: "Set the game up for a 3-player game, using the cards numbered 3-10 and 3
#: Conductor tokens"; the three Duet tiles forbid the 3rd, 4th and 5th card.
DUET_HIGHEST_VALUE = 10
DUET_LIMITS: tuple[int, ...] = (2, 3, 4)

#: "Each Conductor may only have 4 cards."
CONDUCTOR_LIMIT = 4

VARIANTS: tuple[str, ...] = ("standard", "maestro", "duet")
SCORINGS: tuple[str, ...] = ("basic", "advanced")


@dataclass(frozen=True)
class Conductor:
    """One Conductor token with the cards beneath it (in placement order)."""

    cards: tuple[int, ...] = ()
    limit: int = CONDUCTOR_LIMIT
    tile: str | None = None
    taken_by: int | None = None


@dataclass(frozen=True)
class PetQuartetState:
    """The whole table.  See the module docstring and ``rules.py`` for the phases.

    ``current`` is the seat whose turn it is (also while chance resolves its draw);
    ``focus`` is the Conductor whose tile is being resolved; ``last_card`` is the card
    drawn and not yet placed.  ``triggered_by`` is the seat that drew the last card;
    ``final_turns`` is ``None`` until that seat's turn is over, then the seats still to
    take their last turn, the one taking it first.  ``draws`` holds each seat's latest
    drawn card as ``(seat, card)`` (at most one per seat, the latest last; a Maestro
    bonus card counts), so a screen can show a seat the card it drew last.  Nothing
    in the rules reads it.
    """

    seats: int
    variant: str
    scoring: str
    deck: tuple[int, ...]
    conductors: tuple[Conductor, ...]
    collections: tuple[tuple[int, ...], ...]
    phase: str
    current: int | None = None
    round: int = 1
    round_starter: int | None = None
    last_card: int | None = None
    focus: int | None = None
    triggered_by: int | None = None
    final_turns: tuple[int, ...] | None = None
    discarded: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()
    draws: tuple[tuple[int, int], ...] = ()

    def is_out(self, seat: int) -> bool:
        """The seat has taken a Conductor this round."""
        return any(c.taken_by == seat for c in self.conductors)


def replaced(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """The tuple ``items`` with ``items[index]`` replaced by ``item``.

    The rules gather a move's changes with this and copy the state once (see
    ``engine/frozen.py``: copying the state is most of the cost of a move).
    """
    return items[:index] + (item,) + items[index + 1 :]


def with_draw(
    draws: tuple[tuple[int, int], ...], seat: int, card: int
) -> tuple[tuple[int, int], ...]:
    """``draws`` (each seat's latest) with ``card`` as ``seat``'s latest, last."""
    return (*(d for d in draws if d[0] != seat), (seat, card))


def starting_deck(seats: int, variant: str) -> tuple[int, ...]:
    """n copies of each value n, from 3 up to the highest value for this game."""
    top = DUET_HIGHEST_VALUE if variant == "duet" else HIGHEST_VALUE[seats]
    return tuple(value for value in range(3, top + 1) for _ in range(value))


def starting_conductors(seats: int, variant: str) -> tuple[Conductor, ...]:
    """One Conductor per player; Duet: three, under the Duet tiles' limits."""
    if variant == "duet":
        return tuple(Conductor(limit=limit) for limit in DUET_LIMITS)
    return tuple(Conductor() for _ in range(seats))


def add_cards(cards: tuple[int, ...], new: Iterable[int]) -> tuple[int, ...]:
    """The multiset ``cards`` with ``new`` added (still sorted)."""
    return tuple(sorted((*cards, *new)))


def remove_card(cards: tuple[int, ...], value: int) -> tuple[int, ...]:
    """The multiset ``cards`` with one ``value`` removed; ValueError if absent."""
    index = cards.index(value)
    return cards[:index] + cards[index + 1 :]


def all_cards(state: PetQuartetState) -> Counter[int]:
    """Every card the game knows of, wherever it is (for the conservation check)."""
    total: Counter[int] = Counter(state.deck)
    for conductor in state.conductors:
        total.update(conductor.cards)
    for collection in state.collections:
        total.update(collection)
    total.update(state.discarded)
    total.update(state.returned)
    if state.last_card is not None:
        total[state.last_card] += 1
    return total
