"""The public messages of the sealed decks, and their bytes.

How it works: every message is a small frozen value with ``to_value()`` (a msgpack
map with a text field ``t`` naming its kind, ready to sit inside a log entry) and
``encode()`` (its canonical msgpack bytes, ``p2ptable.crypto.encoding.pack``).
:func:`decode_message` is the only way in from the network: it requires canonical
bytes, exactly the kind's fields with their types, every point a valid group
element and every scalar below the group order, and that the message is signed
for the seat that sent it.  Anything else is a :class:`SealedDeckError` naming
the sender: malformed input is that peer's fault, and it is refused before any
arithmetic is done on it.  protocol/sealed-decks.md section 8 lists the formats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.sealed.elgamal import Ciphertext
from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.group import GroupError, Point, decode_point, decode_scalar, scalar_bytes
from p2ptable.sealed.proofs import SigmaProof
from p2ptable.sealed.shuffle import ShuffleProof


@dataclass(frozen=True)
class KeyMessage:
    """A seat's public key ``x·G`` with its Schnorr proof (before the game)."""

    seat: int
    key: Point
    proof: SigmaProof

    def to_value(self) -> dict[str, Any]:
        return {
            "key": self.key.to_bytes(),
            "proof": self.proof.to_value(),
            "seat": self.seat,
            "t": "sealed-key",
        }

    def encode(self) -> bytes:
        return pack(self.to_value())


@dataclass(frozen=True)
class ShuffleMessage:
    """The shuffled deck (or, with ``hand``, the seat's own shuffled hand) and its proof."""

    seat: int
    step: int
    hand: bool
    cards: tuple[Ciphertext, ...]
    proof: ShuffleProof

    def to_value(self) -> dict[str, Any]:
        return {
            "cards": [ct.to_value() for ct in self.cards],
            "hand": self.hand,
            "proof": self.proof.to_value(),
            "seat": self.seat,
            "step": self.step,
            "t": "sealed-shuffle",
        }

    def encode(self) -> bytes:
        return pack(self.to_value())


@dataclass(frozen=True)
class SharesMessage:
    """A seat's decryption shares, each with its DLEQ proof, for the cards being opened."""

    seat: int
    step: int
    shares: tuple[tuple[Point, SigmaProof], ...]

    def to_value(self) -> dict[str, Any]:
        shares = [[d.to_bytes(), proof.to_value()] for d, proof in self.shares]
        return {"seat": self.seat, "shares": shares, "step": self.step, "t": "sealed-shares"}

    def encode(self) -> bytes:
        return pack(self.to_value())


@dataclass(frozen=True)
class RevealMessage:
    """A hand card shown to everyone: the holder's share of it, with proof."""

    seat: int
    step: int
    index: int
    card: int
    share: Point
    proof: SigmaProof

    def to_value(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "index": self.index,
            "proof": self.proof.to_value(),
            "seat": self.seat,
            "share": self.share.to_bytes(),
            "step": self.step,
            "t": "sealed-reveal",
        }

    def encode(self) -> bytes:
        return pack(self.to_value())


@dataclass(frozen=True)
class TransferMessage:
    """A hand card re-encrypted from its holder ``seat`` to seat ``to``, with proof."""

    seat: int
    step: int
    index: int
    to: int
    card: Ciphertext
    proof: SigmaProof

    def to_value(self) -> dict[str, Any]:
        return {
            "card": self.card.to_value(),
            "index": self.index,
            "proof": self.proof.to_value(),
            "seat": self.seat,
            "step": self.step,
            "t": "sealed-transfer",
            "to": self.to,
        }

    def encode(self) -> bytes:
        return pack(self.to_value())


@dataclass(frozen=True)
class SecretMessage:
    """A seat's secret, published at the end of the game for the audit."""

    seat: int
    secret: int

    def to_value(self) -> dict[str, Any]:
        return {"seat": self.seat, "secret": scalar_bytes(self.secret), "t": "sealed-secret"}

    def encode(self) -> bytes:
        return pack(self.to_value())


Message = Union[  # noqa: UP007 (a runtime alias)
    KeyMessage, ShuffleMessage, SharesMessage, RevealMessage, TransferMessage, SecretMessage
]

_FIELDS = {
    "sealed-key": {"key", "proof", "seat"},
    "sealed-shuffle": {"cards", "hand", "proof", "seat", "step"},
    "sealed-shares": {"seat", "shares", "step"},
    "sealed-reveal": {"card", "index", "proof", "seat", "share", "step"},
    "sealed-transfer": {"card", "index", "proof", "seat", "step", "to"},
    "sealed-secret": {"seat", "secret"},
}
_MAX_INT = (1 << 32) - 1


def _int(value: Any, name: str) -> int:
    if type(value) is not int or not 0 <= value <= _MAX_INT:
        raise GroupError(f"{name} must be an integer 0 .. 2^32-1")
    return value


def message_from_value(value: Any, sender: int) -> Message:
    """Check and decode a message value received from seat ``sender``."""
    try:
        msg = _from_value(value)
    except (GroupError, EncodingError) as exc:
        raise SealedDeckError(sender, f"malformed sealed message: {exc}") from None
    if msg.seat != sender:
        raise SealedDeckError(sender, f"sent a message for seat {msg.seat}")
    return msg


def decode_message(data: bytes, sender: int) -> Message:
    """Check and decode the bytes of a message received from seat ``sender``."""
    try:
        value = unpack_canonical(data)
    except EncodingError as exc:
        raise SealedDeckError(sender, f"malformed sealed message: {exc}") from None
    return message_from_value(value, sender)


def _from_value(value: Any) -> Message:
    if type(value) is not dict or type(value.get("t")) is not str:
        raise GroupError("a sealed message is a map with a kind t")
    kind = value["t"]
    if kind not in _FIELDS:
        raise GroupError(f"unknown message kind {kind!r}")
    if set(value) != _FIELDS[kind] | {"t"}:
        raise GroupError(f"{kind} must have exactly the fields {sorted(_FIELDS[kind])}")
    seat = _int(value["seat"], "seat")
    if kind == "sealed-key":
        return KeyMessage(
            seat, decode_point(value["key"]), SigmaProof.from_value(value["proof"], 1)
        )
    if kind == "sealed-secret":
        return SecretMessage(seat, decode_scalar(value["secret"]))
    step = _int(value["step"], "step")
    if kind == "sealed-shuffle":
        if type(value["hand"]) is not bool or type(value["cards"]) is not list:
            raise GroupError("hand must be a boolean and cards a list")
        cards = tuple(Ciphertext.from_value(ct) for ct in value["cards"])
        shuffle_proof = ShuffleProof.from_value(value["proof"], len(cards))
        return ShuffleMessage(seat, step, value["hand"], cards, shuffle_proof)
    if kind == "sealed-shares":
        if type(value["shares"]) is not list:
            raise GroupError("shares must be a list")
        shares = []
        for item in value["shares"]:
            if type(item) is not list or len(item) != 2:
                raise GroupError("a share is [point, proof]")
            shares.append((decode_point(item[0]), SigmaProof.from_value(item[1], 1)))
        return SharesMessage(seat, step, tuple(shares))
    index = _int(value["index"], "index")
    if kind == "sealed-reveal":
        share = decode_point(value["share"])
        proof = SigmaProof.from_value(value["proof"], 1)
        return RevealMessage(seat, step, index, _int(value["card"], "card"), share, proof)
    card = Ciphertext.from_value(value["card"])
    proof = SigmaProof.from_value(value["proof"], 2)
    return TransferMessage(seat, step, index, _int(value["to"], "to"), card, proof)
