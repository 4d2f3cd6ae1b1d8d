"""The ledger's handlers for the entries of a sealed deck (the table in
``replay/sealed_book.py``): ``shuffle``, ``open``, ``secrets``, and the ``reveal`` and
``transfer`` proofs an action carries when it plays or gives a hand card.

How it works
------------
Each handler is a pure function, as the ledger's own handlers are: the genesis
facts (``GenesisInfo``: the game, the seats' keys, the game id), the current
:class:`~p2ptable.replay.position.Position`, and the entry already matched to
``expected()``, in; what the entry did and the next position out, or
:class:`InvalidEntry` naming the seat whose signed content is wrong.  The sealed
book is a frozen value, so an action whose transfer checks out and whose reveal
then fails leaves the position it started from untouched: there is nothing to
restore.

:func:`settle` is how any handler moves the rules to a new state: the sealed deck
takes the cards the rules put face down since (the start, a reshuffled pile).
:func:`deals` is the look-ahead that lets one ``open`` deal every card the rules
deal in a row.
"""

from __future__ import annotations

from typing import Any

from p2ptable.crypto.encoding import pack
from p2ptable.engine.api import Action, Chance, ChanceStep, Game
from p2ptable.engine.frozen import replace
from p2ptable.replay import stand_in
from p2ptable.replay.entries import Entry, MalformedEntry, bundled_parts
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import (
    GenesisInfo,
    check_author,
    hand_shuffling_rules,
    sealed_rules,
)
from p2ptable.replay.kinds import Kind
from p2ptable.replay.position import Applied, Expected, Position, advanced
from p2ptable.replay.sealed_book import SealedBook
from p2ptable.sealed.errors import SealedDeckError


def settle(
    game: Game[Any],
    state: Any,
    book: SealedBook | None,
    chain_tips: tuple[bytes, ...],
    chance_steps: int,
) -> Position:
    """The position after an entry that moved the rules to ``state``: the sealed
    deck ``book`` takes any cards the rules put face down since."""
    if book is not None:
        book = book.filled(sealed_rules(game).face_down(state))
    return advanced(state, chain_tips, chance_steps, book)


def deals(game: Game[Any], position: Position, step: ChanceStep) -> tuple[int | None, ...]:
    """The seats of the deals the rules make in a row from here, for one open:
    each resolved with an unknown card, as every peer but the receiver does."""
    assert position.book is not None
    if step.seat is None:
        return (None,)  # a face-up card may change what the rules do next
    rules = sealed_rules(game)  # a book: hidden hands
    targets: list[int | None] = [step.seat]
    state = rules.deal_from_sealed(position.state, None)
    left = len(position.book.state.deck)
    while len(targets) < left:
        decision = game.pending(state)
        if not (isinstance(decision, Chance) and decision.step.kind == "deal"):
            break
        if decision.step.seat is None or len(rules.face_down(state)) != left - len(targets):
            break  # a face-up card, or new cards going into the deck
        targets.append(decision.step.seat)
        state = rules.deal_from_sealed(state, None)
    return tuple(targets)


def hand_card_proofs(
    game: Game[Any],
    book: SealedBook | None,
    before: Any,
    after: Any,
    seat: int,
    action: Action,
    body: dict[str, Any],
    index: int,
) -> tuple[SealedBook | None, Any]:
    """Check the ``transfer`` and ``reveal`` of seat's legal ``action`` (the rules
    went from ``before`` to ``after``): the next book and rules state.  A game
    without a sealed deck (``book`` None) plays and gives no hand card."""
    shown = None if book is None else sealed_rules(game).hand_card_played(before, seat, action)
    given = None if book is None else sealed_rules(game).hand_card_given(before, seat, action)
    if shown is None and "reveal" in body:
        raise InvalidEntry(index, "carries a reveal but plays no hand card", seat)
    if given is None and "transfer" in body:
        raise InvalidEntry(index, "carries a transfer but gives no hand card", seat)
    if given is not None:
        assert book is not None
        if "transfer" not in body:
            why = f"gives a hand card without its proof: {action.text}"
            raise InvalidEntry(index, why, seat)
        try:
            book, seen = book.apply_transfer(seat, given[0], given[1], body["transfer"])
        except SealedDeckError as exc:
            why = f"transfer of {action.text!r}: {exc.reason}"
            raise InvalidEntry(index, why, seat) from None
        if seen is not None:
            after = sealed_rules(game).given_card_seen(after, given[1], seen)
    taken = None if book is None else getattr(game, "hand_card_taken", None)
    if taken is not None:
        card = taken(before, seat, action)
        if card is not None:  # a face-up card, into the seat's hidden hand
            assert book is not None  # ``taken`` is None without a book
            book = book.take_known(seat, card)
    if shown is not None:
        assert book is not None
        if "reveal" not in body:
            why = f"plays a hand card without its proof: {action.text}"
            raise InvalidEntry(index, why, seat)
        try:
            book = book.apply_reveal(seat, shown[0], shown[1], body["reveal"])
        except SealedDeckError as exc:
            why = f"reveal of {action.text!r}: {exc.reason}"
            raise InvalidEntry(index, why, seat) from None
    return book, after


def shuffle(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    seat = body["seat"]
    if seat != expected.seat:
        raise InvalidEntry(index, f"seat {seat} shuffled out of turn (seat {expected.seat})")
    assert position.book is not None
    check_author(info, index, entry, seat, position.book.gone)
    try:
        book = position.book.apply_shuffle(seat, body["msg"], hand=expected.hand)
    except SealedDeckError as exc:
        raise InvalidEntry(index, exc.reason, seat) from None
    if expected.hand:
        # Only the seat knows its new order: every other state forgets where its
        # cards are (a reader, the seat itself, reads them again).
        shuffled = hand_shuffling_rules(info.game)  # a hand shuffle is expected
        state = shuffled.hand_shuffled(position.state, seat, book.seen_hand(seat))
        cards = len(book.state.hands[seat])
        applied = Applied(index, Kind.SHUFFLE, seat, f"shuffles its hand ({cards} cards, proved)")
        return applied, replace(position, book=book, state=state)
    cards = len(book.state.deck)
    applied = Applied(index, Kind.SHUFFLE, seat, f"shuffles the deck ({cards} cards, proved)")
    return applied, replace(position, book=book)


def open_cards(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    if entry.sigs:
        raise InvalidEntry(index, "an open entry carries no signatures (its proofs prove it)")
    assert position.book is not None
    parts = _bundled_parts(info, index, body, position.book, expected)
    try:
        book, dealt = position.book.apply_open(expected.targets, parts)
    except SealedDeckError as exc:
        who = "" if exc.seat is None else f"the part of seat {exc.seat}: "
        raise InvalidEntry(index, f"{who}{exc.reason}") from None
    game, seats = info.game, info.seats
    state = position.state
    for card in dealt:
        state = sealed_rules(game).deal_from_sealed(state, card.card)
    after = settle(game, state, book, position.chain_tips, position.chance_steps)
    if dealt[0].to is None:
        return Applied(index, Kind.OPEN, None, f"a card is drawn face up: {dealt[0].card}"), after
    if len(dealt) == 1:
        text = f"a card is dealt to {seats[dealt[0].to].name}"
        return Applied(index, Kind.OPEN, dealt[0].to, text), after
    counts = {s: sum(1 for d in dealt if d.to == s) for s in dict.fromkeys(d.to for d in dealt)}
    if len(set(counts.values())) == 1 and len(counts) == len(seats):
        each = next(iter(counts.values()))
        text = f"{len(dealt)} cards are dealt, {each} to each"
        return Applied(index, Kind.OPEN, None, text), after
    who = ", ".join(f"{n} to {seats[s].name}" for s, n in counts.items())  # type: ignore[index]
    return Applied(index, Kind.OPEN, None, f"{len(dealt)} cards are dealt: {who}"), after


def secrets(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    if entry.sigs:
        raise InvalidEntry(index, "a secrets entry carries no signatures (keys prove it)")
    assert position.book is not None
    parts = _bundled_parts(info, index, body, position.book, expected)
    try:
        book = position.book.apply_secrets(parts)
    except SealedDeckError as exc:
        who = "" if exc.seat is None else f"the part of seat {exc.seat}: "
        raise InvalidEntry(index, f"{who}{exc.reason}") from None
    text = "every seat shows its deck secret for the audit"
    return Applied(index, Kind.SECRETS, None, text), replace(position, book=book)


def _bundled_parts(
    info: GenesisInfo, index: int, body: dict[str, Any], book: SealedBook, expected: Expected
) -> list[Entry]:
    """The messages of a bundle's parts, each signed by its seat (checked); a
    gone seat's, unsigned, is the one its rebuilt secret makes (replay/stand_in.py)."""
    try:
        parts = bundled_parts(body)
    except MalformedEntry as exc:
        raise InvalidEntry(index, str(exc)) from None
    if len(parts) != len(info.seats):
        raise InvalidEntry(index, f"needs one part per seat ({len(info.seats)})")
    for seat, part in enumerate(parts):
        if seat in book.gone:
            made = stand_in.gone_part(book, info.game_id, body["prev"], expected, seat)
            if part.sigs[0][1] != b"" or pack(part.body["msg"]) != pack(made):
                raise InvalidEntry(index, f"the part of seat {seat}, gone, is not its stand-in's")
        elif not info.signed_by(seat, part.sigs[0][1], part.body_bytes):
            raise InvalidEntry(index, f"the part of seat {seat} is not signed by it")
    return [part.body["msg"] for part in parts]
