"""The sealed deck of a hidden-hand game, as the log carries it.

How it works
------------
A game with ``hidden_hands`` (``engine.api.HiddenHands``) is played with a sealed
deck (``p2ptable.sealed``, protocol/sealed-decks.md).  Every seat's deck key is in
the signed genesis with a Schnorr proof bound to the table nonce and the seat's
signing key (so nobody can copy or cancel another seat's key).  The ledger's
position holds one :class:`SealedBook` next to the game state, and the rules'
``"deal"`` chance steps are answered from it instead of by the hash chains
(``replay/sealed_entries.py`` checks these entries against the book):

=====================================  ======================================  ==========
the book / the rules say               next entry                              signed by
=====================================  ======================================  ==========
cards went into the deck since every   ``shuffle`` by the lowest seat that     that seat
seat last shuffled it                  has not shuffled since
deals to seats (the deck is ready)     ``open``: every seat's decryption       nobody
                                       shares for the top cards (``parts``)    (proofs)
an action that shows a hand card       ``action`` carrying ``reveal``          the actor
an action that gives a hand card       ``action`` carrying ``transfer``        the giver
an action that takes a face-up card    ``action`` (nothing more: the card is   the actor
into a hand                            public, its ciphertext made alike)
a ``pick`` from a seat's hand whose    ``shuffle`` of that hand by its seat    that seat
order someone else may know
the game is over                       ``secrets``: every seat's deck secret   nobody
                                       (``parts``), then the ``result``        (keys)
=====================================  ======================================  ==========

One ``open`` deals every card the rules deal in a row: the ledger looks ahead,
resolving each pending ``"deal"`` step with an unknown card (as every peer but the
receiver does anyway, so the rules cannot make the next deal depend on a hidden
card), and opens the top cards to those seats in one round.  A face-up draw is
opened on its own, since the rules may act on the card it shows.

Cards go into the deck without an entry: whenever the sealed deck is empty and the
rules' face-down deck is not (the start, a reshuffled discard pile), those cards,
all face up and known, are added in the rules' order.

The ``open`` and ``secrets`` entries carry no signature, like a chance entry: a
decryption share's proof can only be made with the seat's secret, and a secret is
checked against its key.  On the wire each seat sends its part as a signed
``part`` body, so a part that fails its check is signed evidence against its
sender (an ``abort`` with reason ``cheated``).

Every sealed message a seat makes draws its randomness from :func:`sealed_rand`,
a stream keyed by the seat's deck secret and bound to the log position, as
Ed25519 derives its nonces: a seat that restarts makes exactly the same message
again, so it can never equivocate by accident.

A book made with ``readers`` (seat -> deck secret) reads those seats' cards as
they are dealt: a peer reads its own, ``verify`` after the ``secrets`` entry reads
everyone's.

A blind pick (a ``pick`` chance step over a seat's hand positions) must not tell
anyone but the taker which card was taken.  Another seat may know where a card
sits in that hand: one it gave there (a transfer), or the last one dealt to it.
So before a pick, unless its hand is *fresh* (shuffled by it, and nothing added
since), the seat shuffles its own hand with a proof (re-encrypted under its own
key and permuted): only it knows the new order, and the rules' states of every
other seat forget where its cards are (``hand_shuffled``).

A book is a frozen value, as the sealed deck's state is: checking a message
returns the next book and changes nothing, so a refused entry leaves no trace.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from p2ptable.engine.frozen import replace
from p2ptable.replay.kinds import Kind
from p2ptable.sealed import deck, elgamal
from p2ptable.sealed.dealing import Targets, add_shares, begin_open, finish_open, make_shares
from p2ptable.sealed.deck import SealedState, Table
from p2ptable.sealed.errors import SealedDeckError, SealedUsageError
from p2ptable.sealed.escrow import EscrowMessage
from p2ptable.sealed.group import GroupError, Point, Rand, SeededRandom, decode_point, scalar_bytes
from p2ptable.sealed.messages import (
    RevealMessage,
    SecretMessage,
    SharesMessage,
    ShuffleMessage,
    TransferMessage,
    message_from_value,
)
from p2ptable.sealed.proofs import SigmaProof, prove_key, verify_key

DECK_KEY_DOMAIN = "p2ptable/deck-key/v1"
RAND_DOMAIN = b"p2ptable/sealed-rand/v1\x00"


def _key_context(nonce: bytes, signing_key: bytes) -> list[str | bytes]:
    return [DECK_KEY_DOMAIN, nonce, signing_key]


def make_deck_key(nonce: bytes, signing_key: bytes, secret: int, rand: Rand) -> dict[str, Any]:
    """The genesis ``deck`` field of a seat: its public deck key and the proof."""
    proof = prove_key(_key_context(nonce, signing_key), secret, rand)
    return {"key": elgamal.public_key(secret).to_bytes(), "proof": proof.to_value()}


def parse_deck_key(value: Any, nonce: bytes, signing_key: bytes) -> Point:
    """Check a seat's genesis ``deck`` field; ValueError with the reason if bad."""
    if not (isinstance(value, dict) and set(value) == {"key", "proof"}):
        raise ValueError("a deck key is a map of exactly key and proof")
    try:
        key = decode_point(value["key"])
        proof = SigmaProof.from_value(value["proof"], 1)
    except GroupError as exc:
        raise ValueError(f"malformed deck key: {exc}") from None
    if not verify_key(_key_context(nonce, signing_key), key, proof):
        raise ValueError("the proof of knowledge of the deck key fails")
    return key


def sealed_rand(secret: int, game_id: bytes, prev: bytes, purpose: str) -> Rand:
    """The randomness of one sealed message: keyed by the secret, bound to the position."""
    seed = hashlib.sha512(
        RAND_DOMAIN + scalar_bytes(secret) + game_id + prev + purpose.encode()
    ).digest()
    return SeededRandom(seed)


@dataclass(frozen=True)
class Dealt:
    """One card an ``open`` dealt: the seat (None: face up) and the card if known."""

    to: int | None
    card: int | None


@dataclass(frozen=True)
class SealedBook:
    """The public sealed-deck state of one log, and the cards its readers may see.

    A frozen value, like the rules' state: each ``apply_*`` checks what a seat sent
    and returns the next book (or raises SealedDeckError naming the seat), so a
    ledger that refuses an entry still holds the book it had."""

    table: Table
    readers: Mapping[int, int]  # seat -> deck secret, for the hands this book reads
    state: SealedState
    secrets: tuple[int, ...] | None = None  # once the secrets entry is in
    # Seats whose hand order only they know: shuffled by them, nothing added since.
    fresh: frozenset[int] = frozenset()
    # The seats' escrows in seat order (replay/escrow_entries.py); None: no
    # escrow at this table (the genesis does not keep going).
    escrows: tuple[EscrowMessage, ...] | None = None
    # Seats that left a keep_going table, in the order they left: their deck
    # secrets were rebuilt from the escrow and are readers now (replay/departure.py).
    gone: tuple[int, ...] = ()

    @classmethod
    def new(
        cls, game_id: bytes, keys: Sequence[Point], readers: Mapping[int, int] | None = None
    ) -> SealedBook:
        """The book of a new game: the seats' deck keys, an empty deck."""
        keys = tuple(keys)
        for seat, key in enumerate(keys):
            if key in keys[:seat]:
                raise ValueError(f"seat {seat} reuses the deck key of seat {keys.index(key)}")
        table = Table(game_id, keys, elgamal.joint_key(keys))
        state = deck.new_state(table)
        readers = MappingProxyType(dict(readers or {}))
        for seat, secret in readers.items():
            deck.own_key(state, seat, secret)  # our bug if the secret is wrong
        return cls(table, readers, state)

    @property
    def seats(self) -> int:
        return self.table.seats

    def _with(self, state: SealedState) -> SealedBook:
        return replace(self, state=state)

    def departed(self, seat: int, secret: int) -> SealedBook:
        """This book after ``seat`` left and its deck ``secret`` was rebuilt: the
        seat is gone, and its cards are read by this book from now on."""
        deck.own_key(self.state, seat, secret)  # the caller checked it
        readers = MappingProxyType({**self.readers, seat: secret})
        gone = self.gone if seat in self.gone else (*self.gone, seat)
        return replace(self, readers=readers, gone=gone)

    def gone_hands(self) -> dict[int, tuple[int, ...]]:
        """Each gone seat (a bot plays for it, replay/stand_in.py) and its hand,
        which every reader of the log reads from its departure on."""
        return {seat: self.hand(seat) for seat in self.gone}

    # -- what comes next ---------------------------------------------------------

    def filled(self, face_down: Sequence[int | None]) -> SealedBook:
        """This book with the rules' face-down cards put into an empty sealed deck
        (see the docstring); itself when there is nothing to put in."""
        if self.state.deck or not face_down:
            if len(self.state.deck) != len(face_down):
                raise AssertionError(
                    f"sealed deck of {len(self.state.deck)} cards, rules say {len(face_down)}"
                )
            return self
        if any(card is None for card in face_down):
            raise AssertionError("cards for a new sealed deck must all be known")
        return self._with(deck.add_cards(self.state, list(face_down)))  # type: ignore[arg-type]

    def needs_hand_shuffle(self, seat: int) -> bool:
        """Whether ``seat`` must shuffle its hand before a blind pick from it."""
        return seat not in self.fresh and len(self.state.hands[seat]) > 1

    def next_shuffler(self) -> int | None:
        """The seat that must shuffle before the deck may be opened, if any."""
        missing = [s for s in range(self.seats) if s not in self.state.shuffled]
        return missing[0] if missing and self.state.deck else None

    # -- checking what seats sent: each returns the next book -------------------------

    def apply_shuffle(self, seat: int, value: Any, hand: bool = False) -> SealedBook:
        """A shuffle of the deck or, with ``hand``, of the seat's own hand."""
        msg = message_from_value(value, seat)
        if not isinstance(msg, ShuffleMessage) or msg.hand != hand:
            what = "its own hand" if hand else "the deck"
            raise SealedDeckError(seat, f"a shuffle entry must hold a shuffle of {what}")
        book = self._with(deck.apply_shuffle(self.state, msg))
        return replace(book, fresh=self.fresh | {seat}) if hand else book

    def check_part(self, kind: Kind, to: Targets | None, seat: int, value: Any) -> Any:
        """Check one seat's part of an ``open`` (card k to ``to[k]``) or ``secrets``
        entry; SealedDeckError naming the seat if it is wrong.  Returns the message."""
        msg = message_from_value(value, seat)
        if kind == Kind.OPEN:
            if not isinstance(msg, SharesMessage):
                raise SealedDeckError(seat, "its part of an opening is not decryption shares")
            assert to is not None  # an open's targets: None only for the secrets
            add_shares(begin_open(self.state, to), msg)
        else:
            if not isinstance(msg, SecretMessage):
                raise SealedDeckError(seat, "its part of the secrets is not a secret")
            if elgamal.public_key(msg.secret) != self.table.keys[seat]:
                raise SealedDeckError(seat, "published a secret that does not match its key")
        return msg

    def apply_open(self, to: Targets, parts: Sequence[Any]) -> tuple[SealedBook, list[Dealt]]:
        """Open the top cards, card k to seat ``to[k]`` (None: face up), with every
        seat's shares: the next book, and each card as this book may see it, in order."""
        if len(parts) != self.seats:
            raise SealedDeckError(None, f"an opening needs one part per seat ({self.seats})")
        round_ = begin_open(self.state, to)
        for seat, value in enumerate(parts):
            msg = message_from_value(value, seat)
            if not isinstance(msg, SharesMessage):
                raise SealedDeckError(seat, "its part of an opening is not decryption shares")
            round_ = add_shares(round_, msg)
        state, faces = finish_open(round_)
        fresh = self.fresh - {seat for seat in to if seat is not None}
        dealt = []
        for k, target in enumerate(to):
            card = faces[k]
            if target is not None and target in self.readers:
                later = sum(1 for s in to[k + 1 :] if s == target)  # its cards dealt after
                card = self._read(state, target, len(state.hands[target]) - 1 - later)
            dealt.append(Dealt(target, card))
        return replace(self, state=state, fresh=fresh), dealt

    def _read(self, state: SealedState, seat: int, slot: int) -> int:
        """A reader's hand card (only that card is decrypted: this runs on every deal)."""
        ct = state.hands[seat][slot]
        return deck.decode_plaintext(state, elgamal.decrypt(ct, self.readers[seat]))

    def apply_reveal(self, seat: int, slot: int, card: int, value: Any) -> SealedBook:
        """Check that ``value`` shows seat's hand card ``slot`` and that it is ``card``."""
        msg = message_from_value(value, seat)
        if not isinstance(msg, RevealMessage):
            raise SealedDeckError(seat, "the reveal of a played card is not a reveal")
        if msg.index != slot:
            raise SealedDeckError(seat, f"plays slot {slot} but reveals slot {msg.index}")
        state, shown = deck.apply_reveal(self.state, msg)  # checks the proof first
        if shown != card:
            raise SealedDeckError(
                seat, f"plays card {card} but its reveal proves slot {slot} holds card {shown}"
            )
        return self._with(state)

    def apply_transfer(
        self, seat: int, slot: int, to: int, value: Any
    ) -> tuple[SealedBook, int | None]:
        """Check that ``value`` gives seat's hand card ``slot`` to seat ``to``: the next
        book, and the card if ``to`` is a reader (it may see it now), else None."""
        msg = message_from_value(value, seat)
        if not isinstance(msg, TransferMessage):
            raise SealedDeckError(seat, "the transfer of a given card is not a transfer")
        state = deck.apply_transfer(self.state, msg, index=slot, to=to)
        seen = self._read(state, to, -1) if to in self.readers else None
        return replace(self, state=state, fresh=self.fresh - {to}), seen

    def take_known(self, seat: int, card: int) -> SealedBook:
        """A face-up card goes last into seat's hand (``deck.take_known``)."""
        state = deck.take_known(self.state, seat, card)
        return replace(self, state=state, fresh=self.fresh - {seat})

    def apply_secrets(self, parts: Sequence[Any]) -> SealedBook:
        if len(parts) != self.seats:
            raise SealedDeckError(None, f"the secrets need one part per seat ({self.seats})")
        secrets = [self.check_part(Kind.SECRETS, None, s, v).secret for s, v in enumerate(parts)]
        return replace(self, secrets=tuple(secrets))

    # -- making our own messages --------------------------------------------------------

    def make_shuffle(self, seat: int, rand: Rand, hand: bool = False) -> dict[str, Any]:
        return deck.make_shuffle(self.state, seat, rand, hand=hand).to_value()

    def seen_hand(self, seat: int) -> tuple[int | None, ...]:
        """Seat's hand as this book may see it: its cards for a reader, else None each."""
        if seat in self.readers:
            return self.hand(seat)
        return (None,) * len(self.state.hands[seat])

    def make_part(
        self, kind: Kind, to: Targets, seat: int, secret: int, rand: Rand
    ) -> dict[str, Any]:
        if kind == Kind.OPEN:
            return make_shares(self.state, seat, secret, to, rand).to_value()
        deck.own_key(self.state, seat, secret)
        return SecretMessage(seat, secret).to_value()

    def make_reveal(self, seat: int, secret: int, slot: int, rand: Rand) -> dict[str, Any]:
        return deck.make_reveal(self.state, seat, secret, slot, rand).to_value()

    def make_transfer(
        self, seat: int, secret: int, slot: int, to: int, rand: Rand
    ) -> dict[str, Any]:
        return deck.make_transfer(self.state, seat, secret, slot, to, rand).to_value()

    def hand(self, seat: int) -> tuple[int, ...]:
        """A reader's hand as the sealed deck holds it (for checks and tests)."""
        if seat not in self.readers:
            raise SealedUsageError(f"this book cannot read seat {seat}'s hand")
        return deck.read_hand(self.state, seat, self.readers[seat])
