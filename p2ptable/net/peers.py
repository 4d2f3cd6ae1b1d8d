"""What a session knows of the other seats' peers: freshness and contact.

How it works
------------
:class:`PeerStates` owns, for every other seat, the replay protection of its
frames (``boot`` and ``seq``, protocol/wire.md 4.5), when it was last heard
from, and the log length it last claimed.  It sends nothing; the session and
the genesis round ask it.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2ptable.crypto.links import link_key
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.replay.seat_secrets import SeatSecrets


def boot_number(boot: bytes) -> int:
    """A frame's ``boot``: the sender's start counter, 8 bytes big-endian."""
    return int.from_bytes(boot, "big")


def boot_bytes(number: int) -> bytes:
    return number.to_bytes(8, "big")


@dataclass
class PeerState:
    boot: int = -1  # the sender's start counter we last accepted (-1: none yet)
    seq: int = -1
    last_contact: float | None = None
    their_len: int = 0
    their_head: bytes = b""  # the head of their log, as their last ping said


class PeerStates:
    """Every other seat's freshness and contact.  ``known_boots`` are the start
    counters seen before we restarted (kept with our secrets), so a frame
    recorded from an earlier run of a peer is refused after our restart too."""

    def __init__(self, seats: int, me: int, known_boots: dict[int, int] | None = None) -> None:
        self.by_seat = {s: PeerState() for s in range(seats) if s != me}
        self._unheard: set[int] = set()
        self._resuming = False
        for seat, boot in (known_boots or {}).items():
            if seat in self.by_seat:
                self.by_seat[seat].boot = boot

    def __getitem__(self, seat: int) -> PeerState:
        return self.by_seat[seat]

    def __iter__(self):  # noqa: ANN204 - the seats, in order
        return iter(self.by_seat)

    def items(self):  # noqa: ANN201
        return self.by_seat.items()

    def values(self):  # noqa: ANN201
        return self.by_seat.values()

    def check_fresh(self, message: Message) -> None:
        """RemoteProtocolError unless ``message`` is newer than all we accepted
        from its sender: a later ``seq`` of its current start, or a start counter
        above it (it restarted: its secrets keep the counter, bound into every
        authenticated frame, so only the seat itself can send a higher one).  A
        frame recorded from an earlier start is refused and changes nothing: a
        replay can never displace the sender's current start (wire.md 4.5)."""
        peer = self.by_seat.get(message.sender)
        if peer is None:
            raise RemoteProtocolError("message claims to come from our own seat", message.sender)
        boot = boot_number(message.boot)
        if boot == peer.boot:
            if message.seq <= peer.seq:
                raise RemoteProtocolError(
                    f"replayed message (seq {message.seq} already seen)", message.sender
                )
        elif boot < peer.boot:
            raise RemoteProtocolError("replayed message from an earlier run", message.sender)
        else:
            peer.boot = boot
        peer.seq = message.seq

    def boots(self) -> dict[int, int]:
        """Every seat's start counter we accepted (for our secrets file)."""
        return {seat: peer.boot for seat, peer in self.by_seat.items() if peer.boot >= 0}

    # -- after a resume (protocol/wire.md 6.10) --------------------------------------
    # The seats that have not told us their log length yet.  Until none is left
    # and we hold as much as the longest, a resumed session signs no move and no
    # accusation: a move it sent and lost comes back from a peer instead.

    def wait_after_resume(self) -> None:
        self._unheard = set(self.by_seat)
        self._resuming = True

    def heard_length(self, seat: int) -> None:
        """``seat`` told us its log length, knowing we are back: its hello, or
        its welcome (its answer to ours).  A ping is not enough: it may have
        left before its sender heard our hello, so it cannot say what the sender
        holds of ours (a commit we sent before the crash: net/parts.py)."""
        if self._resuming:
            self._unheard.discard(seat)

    def unanswered(self) -> list[int]:
        """After a resume, the seats that have not answered our hello yet."""
        return sorted(self._unheard) if self._resuming else []

    def catching_up(self, length: int) -> bool:
        """True while a resumed session may not sign a move or an accusation.  Once
        False it stays False (from then on every entry we sign is durable before
        it leaves)."""
        if not self._resuming:
            return False
        if self._unheard or any(p.their_len > length for p in self.by_seat.values()):
            return True
        self._resuming = False
        return False

    def resume_waiting_on(self, length: int) -> list[int]:
        """The seats a resumed session waits on: unheard, or holding entries we lack."""
        if not self.catching_up(length):
            return []
        return sorted(
            s for s, p in self.by_seat.items() if s in self._unheard or p.their_len > length
        )

    def last_contacts(self) -> dict[int, float | None]:
        return {seat: peer.last_contact for seat, peer in self.by_seat.items()}

    def silent(self, now: float, after: float) -> list[tuple[int, float | None]]:
        """Seats we have not heard from for ``after`` seconds (None: never)."""
        out = []
        for seat, peer in self.by_seat.items():
            if peer.last_contact is None or now - peer.last_contact >= after:
                out.append((seat, None if peer.last_contact is None else now - peer.last_contact))
        return out


def link_keys(
    secrets: SeatSecrets, seat: int, publics: list[bytes], game_id: bytes
) -> list[bytes | None]:
    """The key this seat shares with every other seat (None at its own place)."""
    mine = secrets.link_public
    return [
        None if i == seat else link_key(secrets.link, mine, public, game_id)
        for i, public in enumerate(publics)
    ]
