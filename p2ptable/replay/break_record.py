"""A break's signatures as records: every seat signs one position of the game
(the log length ``at`` and the hash ``head`` of its last entry) under the break
domain (``p2ptable/break/v1``) and the game id; the :class:`Agreement`, every
seat's signature over one position, is what a replay keeps beside itself in
``REPLAY.break`` (replay/break_file.py).  The format is the replay's
(protocol/replay.md section 11); how a table comes to agree is net/pause.py.

The agreement is evidence, checkable by anyone with the genesis (every seat's
key over the same position), so no seat can claim a break the others did not
agree to, and a proposal cannot be moved to another position or game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.signing import SIG_LEN, SigningKey, verify_signature

BREAK_DOMAIN = b"p2ptable/break/v1\x00"


class PauseRejected(Exception):
    """A break signature a peer sent that does not check; ``seat`` sent it."""

    def __init__(self, reason: str, seat: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


@dataclass(frozen=True)
class Position:
    """Where the game stands: the log's length and the hash of its last entry."""

    at: int
    head: bytes

    def body_bytes(self) -> bytes:
        return pack({"at": self.at, "head": self.head, "t": "break"})


def signed_message(game_id: bytes, position: Position) -> bytes:
    return BREAK_DOMAIN + game_id + position.body_bytes()


def sign_break(key: SigningKey, game_id: bytes, position: Position) -> bytes:
    return key.sign(signed_message(game_id, position))


def decode_signal(data: object) -> tuple[Position, bytes]:
    """``(position, signature)`` from a ``break`` frame's data; ValueError if malformed."""
    if type(data) is not dict or set(data) != {"at", "head", "sig"}:
        raise ValueError("a break signal is a map of at, head and sig")
    at, head, sig = data["at"], data["head"], data["sig"]
    if type(at) is not int or at < 1 or type(head) is not bytes or len(head) != 32:
        raise ValueError("a break names a log length and a 32-byte head")
    if type(sig) is not bytes or len(sig) != SIG_LEN:
        raise ValueError("a break signature is 64 bytes")
    return Position(at, head), sig


def encode_signal(position: Position, signature: bytes) -> dict[str, Any]:
    return {"at": position.at, "head": position.head, "sig": signature}


@dataclass(frozen=True)
class Agreement:
    """Every seat's signature over one break position: the table agreed."""

    position: Position
    sigs: tuple[bytes, ...]  # by seat

    def to_bytes(self) -> bytes:
        return pack({"at": self.position.at, "head": self.position.head, "sigs": list(self.sigs)})

    @classmethod
    def from_bytes(cls, data: bytes, game_id: bytes, keys: Sequence[bytes]) -> Agreement:
        """An agreement read back (a file, a peer); ValueError unless every seat's
        signature checks over its position."""
        try:
            value = unpack_canonical(data)
        except EncodingError as exc:
            raise ValueError(f"not a break agreement: {exc}") from None
        if type(value) is not dict or set(value) != {"at", "head", "sigs"}:
            raise ValueError("not a break agreement")
        position, _ = decode_signal({"at": value["at"], "head": value["head"], "sig": bytes(64)})
        sigs = value["sigs"]
        if type(sigs) is not list or len(sigs) != len(keys):
            raise ValueError(f"a break agreement holds {len(keys)} signatures")
        message = signed_message(game_id, position)
        for seat, (key, sig) in enumerate(zip(keys, sigs, strict=True)):
            if type(sig) is not bytes or not verify_signature(key, sig, message):
                raise ValueError(f"seat {seat}'s signature of the break does not check")
        return cls(position, tuple(sigs))
