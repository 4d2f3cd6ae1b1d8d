"""The envelope a sealed-deck message travels in between seats, and the history hash.

How it works: an envelope is the canonical msgpack map ``{"basis", "body", "kind"}``.
``kind`` names the message (``key``, ``shuffle``, ``shares``, ``reveal``,
``secret``) so a receiver can route it; ``body`` is the library message's own
canonical bytes (``Message.encode()``, protocol/sealed-decks.md section 8),
carried unchanged so that every seat hashes exactly the bytes the sender made;
``basis`` is the 32-byte hash of the history the message was made on.

The history is a hash chain over the message bodies in protocol order, started
from the table's configuration (game id, seats, cards, hand size, reveal turns):
every key, then every shuffle in seat order, every seat's shares, then every
reveal in turn order.  Messages that are made at the same time (keys, shares,
secrets) all carry the hash from before their phase.  A seat whose basis differs
from the receiver's history at that point saw different messages (a seat sent
different messages to different seats) or plays a different table; comparing it
before checking any proof means an honest seat is never blamed for building on
what it was sent.

:func:`decode_envelope` is the only way in: anything that is not exactly a
well-formed envelope around a well-formed message *from the sender* raises
:class:`SealedDeckError` naming the sender, before any arithmetic.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.messages import (
    KeyMessage,
    Message,
    RevealMessage,
    SecretMessage,
    SharesMessage,
    ShuffleMessage,
    decode_message,
)

KINDS: dict[str, type] = {
    "key": KeyMessage,
    "shuffle": ShuffleMessage,
    "shares": SharesMessage,
    "reveal": RevealMessage,
    "secret": SecretMessage,
}
_KIND_OF = {cls: kind for kind, cls in KINDS.items()}
_FIELDS = {"basis", "body", "kind"}
_DOMAIN = b"p2ptable/sealed-table/v1/"
HASH_LEN = 32


@dataclass(frozen=True)
class Envelope:
    kind: str
    basis: bytes
    body: bytes  # the message's canonical bytes, hashed into the history
    msg: Message


def seal_message(basis: bytes, msg: Message) -> Envelope:
    """Our own message, wrapped on the history ``basis``."""
    return Envelope(_KIND_OF[type(msg)], basis, msg.encode(), msg)


def encode_envelope(env: Envelope) -> bytes:
    return pack({"basis": env.basis, "body": env.body, "kind": env.kind})


def decode_envelope(data: bytes, sender: int) -> Envelope:
    """Check and decode an envelope that seat ``sender`` sent (the transport says who)."""
    try:
        value = unpack_canonical(data)
    except EncodingError as exc:
        raise SealedDeckError(sender, f"malformed envelope: {exc}") from None
    if type(value) is not dict or set(value) != _FIELDS:
        raise SealedDeckError(sender, f"an envelope is a map with exactly {sorted(_FIELDS)}")
    kind, basis, body = value["kind"], value["basis"], value["body"]
    if type(kind) is not str or kind not in KINDS:
        raise SealedDeckError(sender, f"unknown envelope kind {kind!r}")
    if type(basis) is not bytes or len(basis) != HASH_LEN or type(body) is not bytes:
        raise SealedDeckError(sender, "an envelope's basis is 32 bytes and its body bytes")
    msg = decode_message(body, sender)  # names the sender if malformed or another seat's
    if type(msg) is not KINDS[kind]:
        raise SealedDeckError(sender, f"a {kind} envelope holds a {type(msg).__name__}")
    return Envelope(kind, basis, body, msg)


def start_of_history(
    game_id: bytes, seats: int, cards: Sequence[int], hand: int, turns: Sequence[int]
) -> bytes:
    """The hash every key message is made on: the table every seat agreed to play."""
    config = pack([game_id, seats, list(cards), hand, list(turns)])
    return hashlib.sha256(_DOMAIN + b"start\x00" + config).digest()


def extend_history(head: bytes, *bodies: bytes) -> bytes:
    """The history after ``bodies`` (message bytes, in protocol order)."""
    for body in bodies:
        head = hashlib.sha256(_DOMAIN + b"chain\x00" + head + body).digest()
    return head
