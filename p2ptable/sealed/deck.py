"""Sealed decks and hidden hands as pure functions on a frozen state.

How it works: a :class:`Table` holds the seats' public keys (each checked with its
Schnorr proof) and their sum, the joint key.  A :class:`SealedState` holds what
every seat knows in public: the face-down deck (ciphertexts under the joint key,
position 0 on top), each seat's hand (ciphertexts under that seat's key alone),
the cards that were ever put in (to decode plaintexts) and a step counter that
every proof is bound to.  Each operation is a ``make_*`` function for the acting
seat (its secret and randomness in, a message out) and an ``apply_*`` function
for everyone (state and message in, new state out, or a :class:`SealedDeckError`
naming the seat).  The acting seat applies its own message like everyone else.

=============  ============================  ======================================
operation      who sends                     effect
=============  ============================  ======================================
add_cards      nobody (public)               cards go under the deck, known order
shuffle        any seat, each in turn        deck re-encrypted and permuted
open           every seat its shares         top cards dealt to seats or face up
reveal         the holder                    hand card shown to all, leaves hand
transfer       the holder                    hand card moves to another seat
hand shuffle   the holder                    its own hand re-encrypted, permuted
=============  ============================  ======================================

Cards added to the deck cannot be opened until every seat has shuffled the deck
since (so one honest seat's secret permutation hides the order).  Opening takes
the top cards; a seat's shares cover every card not dealt to itself, so a card
dealt to seat ``r`` ends up under ``x_r`` alone and a face-up card is decrypted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from p2ptable.sealed import elgamal
from p2ptable.sealed.elgamal import Ciphertext, card_table, decode_card
from p2ptable.sealed.errors import SealedDeckError, SealedUsageError
from p2ptable.sealed.group import Point, Rand, random_scalar
from p2ptable.sealed.messages import (
    KeyMessage,
    RevealMessage,
    ShuffleMessage,
    TransferMessage,
)
from p2ptable.sealed.proofs import prove_dleq, prove_key, prove_transfer, verify_dleq, verify_key
from p2ptable.sealed.proofs import verify_transfer as _verify_transfer
from p2ptable.sealed.shuffle import prove_shuffle, verify_shuffle


def context(game_id: bytes, step: int, seat: int, purpose: str, *items: object) -> list[object]:
    """What every Fiat–Shamir challenge is bound to."""
    return [game_id, step, seat, purpose, list(items)]


@dataclass(frozen=True)
class Table:
    game_id: bytes
    keys: tuple[Point, ...]
    joint: Point

    @property
    def seats(self) -> int:
        return len(self.keys)


def new_secret(rand: Rand) -> int:
    return random_scalar(rand)


def make_key(game_id: bytes, seat: int, secret: int, rand: Rand) -> KeyMessage:
    proof = prove_key(context(game_id, 0, seat, "key"), secret, rand)
    return KeyMessage(seat, elgamal.public_key(secret), proof)


def check_key(game_id: bytes, msg: KeyMessage) -> None:
    if not verify_key(context(game_id, 0, msg.seat, "key"), msg.key, msg.proof):
        raise SealedDeckError(msg.seat, "proof of knowledge of its key fails")


def make_table(game_id: bytes, msgs: Sequence[KeyMessage]) -> Table:
    """Check every seat's key (message ``i`` is seat ``i``'s) and join them."""
    if len(game_id) != 32:
        raise SealedUsageError("the game id is 32 bytes")
    for seat, msg in enumerate(msgs):
        if msg.seat != seat:
            raise SealedUsageError(f"the key of seat {msg.seat} in the place of seat {seat}")
        check_key(game_id, msg)
    for seat, msg in enumerate(msgs):
        for earlier in range(seat):
            if msgs[earlier].key == msg.key:  # both proved knowledge: a shared secret
                raise SealedDeckError(seat, f"reuses the key of seat {earlier}")
    keys = tuple(m.key for m in msgs)
    return Table(game_id, keys, elgamal.joint_key(keys))


@dataclass(frozen=True)
class SealedState:
    table: Table
    step: int
    deck: tuple[Ciphertext, ...]
    hands: tuple[tuple[Ciphertext, ...], ...]
    cards: frozenset[int]  # every card ever added, for decoding
    shuffled: frozenset[int]  # seats that shuffled the deck since cards were last added

    @property
    def ready(self) -> bool:
        """Every seat has shuffled since the last cards went in: the deck may be opened."""
        return len(self.shuffled) == self.table.seats


def new_state(table: Table) -> SealedState:
    hands = tuple(() for _ in range(table.seats))
    return SealedState(table, 0, (), hands, frozenset(), frozenset())


def advance(state: SealedState, **changes: Any) -> SealedState:
    """The state after one more accepted operation."""
    return replace(state, step=state.step + 1, **changes)


def add_cards(state: SealedState, cards: Sequence[int]) -> SealedState:
    """Put face-up cards (a new deck, a discard pile) under the deck, in this order."""
    if not all(type(c) is int and 0 <= c <= elgamal.MAX_CARD for c in cards):
        raise SealedUsageError(f"card numbers are 0 .. {elgamal.MAX_CARD}: {list(cards)!r}")
    new = tuple(elgamal.trivial(c, state.table.joint) for c in cards)
    return advance(
        state, deck=state.deck + new, cards=state.cards | set(cards), shuffled=frozenset()
    )


def _check_step(state: SealedState, seat: int, step: int) -> None:
    if step != state.step:
        raise SealedDeckError(seat, f"message for step {step} at step {state.step}")


def _check_seat(state: SealedState, seat: int) -> None:
    if not 0 <= seat < state.table.seats:
        raise SealedUsageError(f"no seat {seat}")


# -- shuffle ----------------------------------------------------------------


def _shuffle_target(
    state: SealedState, seat: int, hand: bool
) -> tuple[tuple[Ciphertext, ...], Point]:
    if hand:
        return state.hands[seat], state.table.keys[seat]
    return state.deck, state.table.joint


def make_shuffle(
    state: SealedState,
    seat: int,
    rand: Rand,
    *,
    hand: bool = False,
    perm: Sequence[int] | None = None,
) -> ShuffleMessage:
    """Shuffle the deck (or, with ``hand``, the seat's own hand) with a proof."""
    _check_seat(state, seat)
    cards, key = _shuffle_target(state, seat, hand)
    if not cards:
        raise SealedUsageError("nothing to shuffle")
    if perm is not None and sorted(perm) != list(range(len(cards))):
        raise SealedUsageError(f"{perm!r} is not a permutation of {len(cards)} cards")
    ctx = context(state.table.game_id, state.step, seat, "shuffle", hand)
    out, proof = prove_shuffle(ctx, key, cards, rand, perm)
    return ShuffleMessage(seat, state.step, hand, out, proof)


def apply_shuffle(state: SealedState, msg: ShuffleMessage, *, own: bool = False) -> SealedState:
    """Check a shuffle and take its cards.

    ``own=True`` is only for the message this peer just made with
    :func:`make_shuffle`: its proof is not re-verified (a verification of an 88-card
    deck costs about 50 ms, and the other peers verify it anyway).
    """
    _check_seat(state, msg.seat)
    _check_step(state, msg.seat, msg.step)
    cards, key = _shuffle_target(state, msg.seat, msg.hand)
    what = "its hand" if msg.hand else "the deck"
    if len(msg.cards) != len(cards):
        raise SealedDeckError(
            msg.seat, f"shuffled {what} into {len(msg.cards)} cards, not {len(cards)}"
        )
    ctx = context(state.table.game_id, state.step, msg.seat, "shuffle", msg.hand)
    reason = None if own else verify_shuffle(ctx, key, cards, msg.cards, msg.proof)
    if reason is not None:
        raise SealedDeckError(msg.seat, f"bad shuffle of {what}: {reason}")
    if msg.hand:
        hands = state.hands[: msg.seat] + (msg.cards,) + state.hands[msg.seat + 1 :]
        return advance(state, hands=hands)
    return advance(state, deck=msg.cards, shuffled=state.shuffled | {msg.seat})


# -- reading, revealing and moving hand cards -------------------------------


def own_key(state: SealedState, seat: int, secret: int) -> Point:
    """Seat's key, after checking that ``secret`` is behind it (our own misuse if not)."""
    _check_seat(state, seat)
    key = state.table.keys[seat]
    if elgamal.public_key(secret) != key:
        raise SealedUsageError(f"that is not the secret of seat {seat}")
    return key


def _hand_card(state: SealedState, seat: int, index: int) -> Ciphertext | None:
    hand = state.hands[seat]
    return hand[index] if 0 <= index < len(hand) else None


@lru_cache(maxsize=8)
def _card_table(cards: frozenset[int]) -> dict[bytes, int]:
    return card_table(cards)


def decode_plaintext(state: SealedState, m: Point) -> int:
    """The card whose point is ``m``, among the cards put into this game."""
    card = decode_card(m, _card_table(state.cards))
    if card is None:  # every ciphertext in the state was proved to hold a card
        raise SealedUsageError("a ciphertext does not decrypt to a card: corrupt state")
    return card


def read_hand(state: SealedState, seat: int, secret: int) -> tuple[int, ...]:
    """The cards in seat ``seat``'s hand, in order, as only that seat can see them."""
    own_key(state, seat, secret)
    return tuple(decode_plaintext(state, elgamal.decrypt(ct, secret)) for ct in state.hands[seat])


def make_reveal(
    state: SealedState, seat: int, secret: int, index: int, rand: Rand
) -> RevealMessage:
    key = own_key(state, seat, secret)
    ct = _hand_card(state, seat, index)
    if ct is None:
        raise SealedUsageError(f"seat {seat} has no hand card {index}")
    d = elgamal.share(secret, ct)
    ctx = context(state.table.game_id, state.step, seat, "reveal", index)
    proof = prove_dleq(ctx, secret, key, ct.a, d, rand)
    card = decode_plaintext(state, ct.b - d)
    return RevealMessage(seat, state.step, index, card, d, proof)


def apply_reveal(state: SealedState, msg: RevealMessage) -> tuple[SealedState, int]:
    """Check a reveal; the card leaves the hand and is returned."""
    _check_seat(state, msg.seat)
    _check_step(state, msg.seat, msg.step)
    ct = _hand_card(state, msg.seat, msg.index)
    if ct is None:
        raise SealedDeckError(msg.seat, f"revealed hand card {msg.index}, which it does not hold")
    ctx = context(state.table.game_id, state.step, msg.seat, "reveal", msg.index)
    if not verify_dleq(ctx, state.table.keys[msg.seat], ct.a, msg.share, msg.proof):
        raise SealedDeckError(msg.seat, f"decryption share proof fails for hand card {msg.index}")
    card = decode_plaintext(state, ct.b - msg.share)
    if card != msg.card:
        raise SealedDeckError(
            msg.seat, f"claims card {msg.card} but hand card {msg.index} is card {card}"
        )
    hand = state.hands[msg.seat]
    hands = list(state.hands)
    hands[msg.seat] = hand[: msg.index] + hand[msg.index + 1 :]
    return advance(state, hands=tuple(hands)), card


def take_known(state: SealedState, seat: int, card: int) -> SealedState:
    """A face-up card everyone knows (from a discard pile) goes last into seat's
    hand: encrypted under the seat's key with the public randomness 1, as cards go
    into the deck (``elgamal.trivial``), so every peer makes the same ciphertext
    and no proof is needed; the seat can later play it with a reveal proof like
    any dealt card.  Everyone knows where it sits until the seat shuffles its hand."""
    _check_seat(state, seat)
    if type(card) is not int or not 0 <= card <= elgamal.MAX_CARD:
        raise SealedUsageError(f"card numbers are 0 .. {elgamal.MAX_CARD}: {card!r}")
    hands = list(state.hands)
    hands[seat] = (*hands[seat], elgamal.trivial(card, state.table.keys[seat]))
    return advance(state, hands=tuple(hands), cards=state.cards | {card})


def make_transfer(
    state: SealedState, seat: int, secret: int, index: int, to: int, rand: Rand
) -> TransferMessage:
    """Re-encrypt seat's hand card ``index`` to seat ``to``, proving it is the same card."""
    key = own_key(state, seat, secret)
    _check_seat(state, to)
    ct = _hand_card(state, seat, index)
    if ct is None or to == seat:
        raise SealedUsageError(f"seat {seat} cannot give hand card {index} to seat {to}")
    s = random_scalar(rand)
    m = elgamal.decrypt(ct, secret)
    new = elgamal.encrypt(m, state.table.keys[to], s)
    ctx = context(state.table.game_id, state.step, seat, "transfer", index, to)
    proof = prove_transfer(ctx, secret, key, ct, state.table.keys[to], new, s, rand)
    return TransferMessage(seat, state.step, index, to, new, proof)


def apply_transfer(
    state: SealedState, msg: TransferMessage, *, index: int | None = None, to: int | None = None
) -> SealedState:
    """Check a transfer; the card leaves the holder's hand and goes last in ``to``'s.

    ``index`` and ``to``, when given, are what the rules asked for (the position the
    taker picked, the taker): a transfer of anything else is refused.
    """
    _check_seat(state, msg.seat)
    _check_step(state, msg.seat, msg.step)
    if index is not None and msg.index != index:
        raise SealedDeckError(msg.seat, f"gave hand card {msg.index}, not the picked card {index}")
    if to is not None and msg.to != to:
        raise SealedDeckError(msg.seat, f"gave its card to seat {msg.to}, not seat {to}")
    ct = _hand_card(state, msg.seat, msg.index)
    if ct is None:
        raise SealedDeckError(msg.seat, f"gave hand card {msg.index}, which it does not hold")
    if not 0 <= msg.to < state.table.seats or msg.to == msg.seat:
        raise SealedDeckError(msg.seat, f"gave a card to seat {msg.to}")
    keys = state.table.keys
    ctx = context(state.table.game_id, state.step, msg.seat, "transfer", msg.index, msg.to)
    if not _verify_transfer(ctx, keys[msg.seat], ct, keys[msg.to], msg.card, msg.proof):
        raise SealedDeckError(msg.seat, f"transfer proof fails for hand card {msg.index}")
    hands = list(state.hands)
    hand = hands[msg.seat]
    hands[msg.seat] = hand[: msg.index] + hand[msg.index + 1 :]
    hands[msg.to] = hands[msg.to] + (msg.card,)
    return advance(state, hands=tuple(hands))
