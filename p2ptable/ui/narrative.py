"""The words of each log entry: one place for every command that shows them.

How it works
------------
The ledger says what an accepted entry did in a short phrase (``Applied.text``,
from the game's ``describe``/``describe_chance`` or the ledger's own words for
deals, shuffles, choices and the result), with seats as "seat N" counted from 0.
:func:`entry_words` turns that into what a person reads: the seats' names put in
(``ui/text.name_seats``), the subject when the phrase has none ("Ana" for "moves
to the Classroom"), and, when the reader may know them, the hidden cards the entry
moved ("a card is dealt to Ana [Gift 2]").  Nothing here decides which cards a
reader may know: the caller hands over only the cards its ledger could read
(``ui/record.py``), so the public words can never name a hidden card.

A live seat's screen names the cards its own ledger read (its own deals, the
card it gave or was given: ``net.events.Seen``), a spectator's and every other
seat's never do, since their ledgers cannot read them.

Every command that lists entries formats them from :class:`EntryWords`:
:func:`event_line` is the line of ``verify --events``, ``sim``, the live screens'
recent events and ``show``'s screens; ``export`` writes :attr:`EntryWords.sentence`
after the entry's number and the game's moment ("Day 2, Period 3").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2ptable.replay.kinds import Kind
from p2ptable.replay.rows import ROWS
from p2ptable.ui.text import Verbatim, name_seats

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Applied


@dataclass(frozen=True)
class EntryWords:
    """One entry in words.  ``phrase`` has the seats' names in it and no subject;
    ``actor`` is the seat's name when the phrase needs one, else None; ``column``
    is what the event lines print before the phrase (the actor, ``deal``, or the
    kind of entry)."""

    index: int
    kind: Kind
    seat: int | None
    actor: str | None
    column: str
    phrase: str

    @property
    def sentence(self) -> str:
        """The phrase with its subject: "Ana moves to the Classroom"."""
        return self.phrase if self.actor is None else f"{self.actor} {self.phrase}"


def entry_words(
    applied: Applied, names: Sequence[str], seen: Mapping[int, Sequence[str]] | None = None
) -> EntryWords:
    """``applied`` in words.  ``seen`` (seat -> names of cards) are hidden cards
    the entry dealt or handed over that the reader may know; they follow the phrase
    in brackets, with the seat's name unless the phrase is about that one seat."""
    phrase = name_seats(applied.text, names)
    if seen:
        phrase = f"{phrase} [{_seen(applied, names, seen)}]"
    actor = None
    words = ROWS[applied.kind].words  # the registry's words for the kind
    if words.actor and applied.seat is not None:  # a seat's own entry: its subject
        actor = column = names[applied.seat]
    else:
        column = words.column  # "deal" for an open: the phrase names the receivers
    return EntryWords(applied.index, applied.kind, applied.seat, actor, column, phrase)


def _seen(applied: Applied, names: Sequence[str], seen: Mapping[int, Sequence[str]]) -> str:
    # A card handed over, or dealt to one seat: the phrase says whose it is.
    one = ROWS[applied.kind].words.one_seat and applied.seat is not None
    if one and len(seen) == 1:
        return ", ".join(next(iter(seen.values())))
    return "; ".join(f"{names[seat]}: {', '.join(cards)}" for seat, cards in seen.items())


def event_line(
    applied: Applied, names: Sequence[str], seen: Mapping[int, Sequence[str]] | None = None
) -> str:
    """One narrative line: index, who, what (``names``: the seats' names; ``seen``:
    as for :func:`entry_words`, the hidden cards this reader may know it moved)."""
    words = entry_words(applied, names, seen)
    return f"{words.index:5d}  {words.column:<9} {words.phrase}"


def talk_line(name: str, text: str) -> str:
    """A line of talk in the columns of :func:`event_line`, unnumbered: it is
    beside the log, not in it (net/sideline.py)."""
    return Verbatim(f"{'':5}  {'talk':<9} {name} says: {text}")


def spectator_line(name: str, text: str) -> str:
    """A line of the spectators' channel (net/spectator_talk.py), in the columns
    of :func:`talk_line`, never to be taken for a seat's: it says who spoke."""
    return Verbatim(f"{'':5}  {'talk':<9} (spectator) {name} says: {text}")


def card_names(game: object, cards: Mapping[int, Sequence[int]]) -> dict[int, list[str]]:
    """``cards`` (seat -> card numbers) by the game's names for them ("Gift 2")."""
    name = getattr(game, "card_name", None) or (lambda card: f"card {card}")
    return {seat: [name(card) for card in held] for seat, held in cards.items()}


def genesis_words(names: Sequence[str], title: str) -> EntryWords:
    """Entry 0, which the ledger does not narrate: who sat down to what."""
    if len(names) > 1:
        who = ", ".join(names[:-1]) + f" and {names[-1]}"
    else:
        who = "".join(names)
    phrase = f"{who} sit down to {title}, each signing the genesis"
    return EntryWords(0, Kind.GENESIS, None, None, ROWS[Kind.GENESIS].words.column, phrase)
