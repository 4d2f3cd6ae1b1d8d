"""Sealed decks: hidden hands and hidden deck order that no seat can cheat.

How it works, in layers (each module has its own "how it works"):

* ``group``: secp256k1 points and scalars, validation of received points,
  domain-separated hashing to scalars and to points;
* ``elgamal``: ElGamal with a joint key, card points, decryption shares;
* ``proofs``: Schnorr (key), Chaum–Pedersen (share) and re-encryption-to-a-key
  (transfer) proofs, all Fiat–Shamir bound to game, step, seat and purpose;
* ``shuffle``: re-encryption shuffle with a Terelius–Wikström proof;
* ``messages``: the public messages and their canonical bytes;
* ``deck`` and ``dealing``: the public state and every operation, as ``make_*``
  (the acting seat) and ``apply_*`` (everyone) pure functions;
* ``audit``: the record of operations, replay, and the end-of-game audit (what
  the test vectors, vectors/sealed.json, are checked with).

A game's log carries these operations through ``p2ptable.replay.sealed_book``;
the session (``p2ptable.net``) runs that log between peers.

Nothing here does I/O, reads a clock or draws randomness by itself: randomness is a
``Rand`` argument (``os.urandom`` in play, :class:`SeededRandom` in tests).  A peer
that sends anything that does not verify gets a :class:`SealedDeckError` naming it.
The construction is specified in protocol/sealed-decks.md.
"""

from p2ptable.sealed.audit import (
    AddCards,
    AuditReport,
    Op,
    Open,
    Reveal,
    Shuffle,
    Snapshot,
    Transfer,
    apply_op,
    audit,
    check_secrets,
)
from p2ptable.sealed.dealing import (
    OpenRound,
    add_shares,
    begin_open,
    finish_open,
    make_shares,
    open_cards,
)
from p2ptable.sealed.deck import (
    SealedState,
    Table,
    add_cards,
    apply_reveal,
    apply_shuffle,
    apply_transfer,
    check_key,
    make_key,
    make_reveal,
    make_shuffle,
    make_table,
    make_transfer,
    new_secret,
    new_state,
    read_hand,
)
from p2ptable.sealed.errors import SealedDeckError, SealedUsageError
from p2ptable.sealed.group import Rand, SeededRandom
from p2ptable.sealed.messages import (
    KeyMessage,
    Message,
    RevealMessage,
    SecretMessage,
    SharesMessage,
    ShuffleMessage,
    TransferMessage,
    decode_message,
    message_from_value,
)

__all__ = [
    "AddCards",
    "AuditReport",
    "KeyMessage",
    "Message",
    "Op",
    "Open",
    "OpenRound",
    "Rand",
    "Reveal",
    "RevealMessage",
    "SealedDeckError",
    "SealedState",
    "SealedUsageError",
    "SecretMessage",
    "SeededRandom",
    "SharesMessage",
    "Shuffle",
    "ShuffleMessage",
    "Snapshot",
    "Table",
    "Transfer",
    "TransferMessage",
    "add_cards",
    "add_shares",
    "apply_op",
    "apply_reveal",
    "apply_shuffle",
    "apply_transfer",
    "audit",
    "begin_open",
    "check_key",
    "check_secrets",
    "decode_message",
    "finish_open",
    "make_key",
    "make_reveal",
    "make_shares",
    "make_shuffle",
    "make_table",
    "make_transfer",
    "message_from_value",
    "new_secret",
    "new_state",
    "open_cards",
    "read_hand",
]
