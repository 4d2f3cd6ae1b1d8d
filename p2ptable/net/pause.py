"""A break the whole table agrees to: proposed by one seat, signed by every seat.

How it works: a break is a position of the game (the log length ``at`` and the
hash ``head`` of its last entry). A seat proposes it by signing ``{"t":
"break", "at": at, "head": head}`` under the break domain
(``p2ptable/break/v1``) and the game id, and sends its signature to every
seat; a seat agrees by sending its own signature over the same body. A break
is agreed when every seat's signature over one body is in hand: then every
peer keeps the :class:`Agreement` beside its replay (``REPLAY.break``) and
exits cleanly (the records are the replay's format, replay/break_record.py),
and on resume nobody is named as having abandoned the game for an absence that
began at that position (net/session.py: the break is not a departure, however
long it lasts).

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

from dataclasses import dataclass, field

from p2ptable.crypto.signing import SigningKey, verify_signature

# The signed records are the replay's format (replay/break_record.py), named
# here too, where the table comes to agree on them.
from p2ptable.replay.break_record import BREAK_DOMAIN as BREAK_DOMAIN
from p2ptable.replay.break_record import Agreement as Agreement
from p2ptable.replay.break_record import PauseRejected as PauseRejected
from p2ptable.replay.break_record import Position as Position
from p2ptable.replay.break_record import decode_signal as decode_signal
from p2ptable.replay.break_record import encode_signal as encode_signal
from p2ptable.replay.break_record import sign_break as sign_break
from p2ptable.replay.break_record import signed_message as signed_message


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
