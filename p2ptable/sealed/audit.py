"""The record of a game's sealed operations, replaying it, and the end-of-game audit.

How it works: a game's sealed history is a list of operations (:data:`Op`), each
holding the public messages that made it.  :func:`apply_op` checks one and moves
the state on, exactly as a live peer does, so replaying a record re-verifies every
shuffle, share, transfer and reveal.  At the end every seat publishes its secret
(:class:`SecretMessage`); :func:`audit` checks each against the seat's key, then
replays the record and, holding all the secrets, decrypts every face-down card
after every step: the report lists every hand (and the deck order) at every
moment, so the game layer can check any claim a seat made about its hidden cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Union

from p2ptable.sealed import elgamal
from p2ptable.sealed.dealing import open_cards
from p2ptable.sealed.deck import (
    SealedState,
    Table,
    add_cards,
    apply_reveal,
    apply_shuffle,
    apply_transfer,
    decode_plaintext,
    make_table,
    new_state,
)
from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.messages import (
    KeyMessage,
    RevealMessage,
    SecretMessage,
    SharesMessage,
    ShuffleMessage,
    TransferMessage,
)


@dataclass(frozen=True)
class AddCards:
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Shuffle:
    msg: ShuffleMessage


@dataclass(frozen=True)
class Open:
    to: tuple[int | None, ...]
    msgs: tuple[SharesMessage, ...]


@dataclass(frozen=True)
class Reveal:
    msg: RevealMessage


@dataclass(frozen=True)
class Transfer:
    msg: TransferMessage


Op = Union[AddCards, Shuffle, Open, Reveal, Transfer]  # noqa: UP007 (a runtime alias)


def apply_op(state: SealedState, op: Op) -> tuple[SealedState, tuple[int | None, ...]]:
    """Check and apply one operation; returns the new state and the faces it showed."""
    if isinstance(op, AddCards):
        return add_cards(state, op.cards), ()
    if isinstance(op, Shuffle):
        return apply_shuffle(state, op.msg), ()
    if isinstance(op, Open):
        return open_cards(state, op.to, op.msgs)
    if isinstance(op, Reveal):
        new, card = apply_reveal(state, op.msg)
        return new, (card,)
    if isinstance(op, Transfer):
        return apply_transfer(state, op.msg), ()
    raise TypeError(f"not a sealed operation: {op!r}")


def op_name(op: Op) -> str:
    """``add-cards``, ``shuffle``, ``hand-shuffle``, ``open``, ``reveal`` or ``transfer``."""
    if isinstance(op, Shuffle) and op.msg.hand:
        return "hand-shuffle"
    return {
        AddCards: "add-cards",
        Shuffle: "shuffle",
        Open: "open",
        Reveal: "reveal",
        Transfer: "transfer",
    }[type(op)]


@dataclass(frozen=True)
class Snapshot:
    """Everything face down, decrypted, after one operation."""

    step: int
    op: str
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    faces: tuple[int | None, ...]


@dataclass(frozen=True)
class AuditReport:
    table: Table
    snapshots: tuple[Snapshot, ...]  # the first is the start, one per operation after it

    @property
    def final_hands(self) -> tuple[tuple[int, ...], ...]:
        return self.snapshots[-1].hands


def _snapshot(
    state: SealedState, secrets: Sequence[int], op: str, faces: Sequence[int | None]
) -> Snapshot:
    total = sum(secrets)
    hands = tuple(
        tuple(decode_plaintext(state, elgamal.decrypt(ct, secrets[seat])) for ct in hand)
        for seat, hand in enumerate(state.hands)
    )
    deck = tuple(decode_plaintext(state, elgamal.decrypt(ct, total)) for ct in state.deck)
    return Snapshot(state.step, op, hands, deck, tuple(faces))


def check_secrets(table: Table, secrets: Sequence[SecretMessage]) -> tuple[int, ...]:
    """Each published secret must be the one behind that seat's key."""
    if len(secrets) != table.seats:
        raise SealedDeckError(None, f"{len(secrets)} secrets for {table.seats} seats")
    out = []
    for seat, msg in enumerate(secrets):
        if msg.seat != seat or elgamal.public_key(msg.secret) != table.keys[seat]:
            raise SealedDeckError(seat, "revealed secret does not match its key")
        out.append(msg.secret)
    return tuple(out)


def audit(
    game_id: bytes,
    keys: Sequence[KeyMessage],
    secrets: Sequence[SecretMessage],
    ops: Sequence[Op],
) -> AuditReport:
    """Re-check a whole sealed record and return every hand at every moment."""
    table = make_table(game_id, keys)
    xs = check_secrets(table, secrets)
    state = new_state(table)
    snapshots = [_snapshot(state, xs, "start", ())]
    for op in ops:
        state, faces = apply_op(state, op)
        snapshots.append(_snapshot(state, xs, op_name(op), faces))
    return AuditReport(table, tuple(snapshots))
