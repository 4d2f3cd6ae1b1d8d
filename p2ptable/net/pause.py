"""A break the whole table agrees to: proposed by one seat, signed by every seat.

How it works: a break is a position of the game (the log length ``at`` and the
hash ``head`` of its last entry).  A seat proposes it by signing
``{"t": "break", "at": at, "head": head}`` under the break domain
(``p2ptable/break/v1``) and the game id, and sends its signature to every seat;
a seat agrees by sending its own signature over the same body.  A break is
agreed when every seat's signature over one body is in hand: then every peer
keeps the :class:`Agreement` beside its replay (``REPLAY.break``) and exits
cleanly, and on resume nobody is named as having abandoned the game for an
absence that began at that position (net/session.py: the break is not a
departure, however long it lasts).

Why this shape: the agreement is evidence, checkable by anyone with the genesis
(every seat's key over the same position), so no seat can claim a break the
others did not agree to, and a proposal cannot be moved to another position or
game.  A position that is no longer ours (a move was made) ends the proposal: a
break is agreed on the game as it stands.

Bounds: a :class:`PauseBook` holds one proposal, for our own current position;
a signature for any other position is ignored, a repeated one is nothing new, so
a seat proposing a thousand times is shown once.  A bad signature is
:class:`PauseRejected` naming the sender.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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


@dataclass
class PauseBook:
    """The break proposed at our current position, and who has signed it."""

    game_id: bytes
    keys: tuple[bytes, ...]
    seat: int
    position: Position | None = None  # our current position, set by :meth:`moved`
    sigs: dict[int, bytes] = field(default_factory=dict)
    proposer: int | None = None

    def moved(self, position: Position) -> None:
        """The game is now at ``position``: a proposal for another one is over."""
        if position != self.position:
            self.position = position
            self.sigs = {}
            self.proposer = None

    def sign(self, key: SigningKey) -> bytes:
        """Our signature for a break here (to propose or to agree): send it to all."""
        if self.position is None:
            raise ValueError("no position to break at yet")
        sig = sign_break(key, self.game_id, self.position)
        self._add(self.seat, sig)
        return sig

    def receive(self, sender: int, position: Position, sig: bytes) -> bool:
        """A seat's break signature; True when it is new for our position (the
        screen may say so).  A signature for another position is not ours to
        count; one that does not check is :class:`PauseRejected`."""
        if position != self.position or sender in self.sigs:
            return False
        if not 0 <= sender < len(self.keys):
            raise PauseRejected(f"a break signed by seat {sender}, not at the table", None)
        if not verify_signature(self.keys[sender], sig, signed_message(self.game_id, position)):
            raise PauseRejected("a break signature that does not check", sender)
        self._add(sender, sig)
        return True

    def _add(self, seat: int, sig: bytes) -> None:
        if not self.sigs:
            self.proposer = seat
        self.sigs[seat] = sig

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose signature the proposal still lacks (none: agreed)."""
        if not self.sigs:
            return ()
        return tuple(s for s in range(len(self.keys)) if s not in self.sigs)

    def agreement(self) -> Agreement | None:
        if self.position is None or not self.sigs or self.waiting_for:
            return None
        return Agreement(self.position, tuple(self.sigs[s] for s in range(len(self.keys))))
