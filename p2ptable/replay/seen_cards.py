"""The hidden cards one entry moved that a reader may know.

A ledger made with ``readers`` (seat -> deck secret) reads those seats' hands.
Around an entry that deals (``open``) or hands over a card face down (an action
with a ``transfer``), the sealed book before and after says which cards the
readers saw move: a live seat's own ledger reads only its own hand, so what it is
told is what that seat may know ("you gave Gift 2"); an audited record reads every
hand.  Nothing here decides who may read what: the caller chooses the readers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.sealed_book import SealedBook

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Applied, Ledger


def append_seeing(ledger: Ledger, entry: Entry) -> tuple[Applied, dict[int, list[int]]]:
    """``ledger.append(entry)``, and the hidden cards it moved that the ledger's own
    readers see (:func:`moved_cards`; empty in a game without hidden hands)."""
    book = ledger.book
    applied = ledger.append(entry)
    after = ledger.book
    if book is None or after is None:
        return applied, {}
    return applied, moved_cards(book, after, after.readers, entry, applied.seat)


def moved_cards(
    before: SealedBook,
    after: SealedBook,
    readers: Mapping[int, int],
    entry: Entry,
    actor: int | None,
) -> dict[int, list[int]]:
    """The hidden cards ``entry`` moved that the readers see: per seat, the cards
    dealt to it (an ``open``); or the card an action handed over face down, under
    the acting seat (the giver sees it leave, the taker sees it come)."""
    # A hand whose sealed cards did not change moved nothing: not read again (a
    # live seat asks after every entry, and reading a hand decrypts each card).
    changed = [s for s in sorted(readers) if before.state.hands[s] != after.state.hands[s]]
    if entry.kind == Kind.OPEN:
        dealt = {}
        for seat in changed:
            known = set(before.seen_hand(seat))
            got = [card for card in after.seen_hand(seat) if card not in known]
            if got:
                dealt[seat] = got
        return dealt  # type: ignore[return-value]
    if entry.kind != Kind.ACTION or "transfer" not in entry.body or actor is None:
        return {}
    given: list[int] = []
    for seat in changed:
        old, new = before.seen_hand(seat), after.seen_hand(seat)
        for card in [c for c in new if c not in old] + [c for c in old if c not in new]:
            if card is not None and card not in given:
                given.append(card)
    return {actor: given} if given else {}
