"""The genesis round, sans-IO: every seat signs the body the roster determines.

How it works
------------
Once the lobby has a full roster (net/lobby.py), every member knows the genesis
body; :class:`GenesisRound` takes it from there (protocol/wire.md section 5).  It
signs the body, derives the link key shared with every other seat, and queues a
``gsig`` frame with our signature for each of them, again every ``RESEND``
seconds (a peer that connected late still gets it).  Each game frame that
arrives is opened once: a fresh ``gsig`` whose signature verifies is recorded;
any other frame that opens is kept, as received, for the session (a fast peer
may already have moved; the session checks its freshness), within a bound in
count and bytes; a frame that does not open is dropped and counted.  A sender's
session frames always come after its ``gsig`` frames on one connection and
carry higher ``seq`` numbers, so checking the ``gsig`` frames here and the rest
in the session sees every sender's numbers grow.  When every seat's signature is in, ``genesis`` is
the assembled entry, and the session starts with our ``boot``, the next
``seq`` and the freshness already seen (``peers``), so no frame of the round
can be replayed into it.

Nothing here reads a clock or a socket: the caller passes ``now`` and carries
out ``take_outgoing``.
"""

from __future__ import annotations

from p2ptable.crypto.signing import verify_signature
from p2ptable.net.peers import PeerStates, link_keys
from p2ptable.net.wire import Message, RemoteProtocolError, open_frame, seal_many
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, game_id_of, signed_message

RESEND = 1.0  # seconds between our gsig rounds
MAX_KEPT_FRAMES = 2_000  # fresh non-gsig frames kept for the session
MAX_KEPT_BYTES = 8 << 20


class GenesisRound:
    """Gathering every seat's signature on one genesis body."""

    def __init__(
        self,
        body: bytes,
        keys: list[bytes],
        links: list[bytes],
        seat: int,
        secrets: authoring.SeatSecrets,
        boot: bytes,
        now: float,
    ) -> None:
        self.body = body
        self.game_id = game_id_of(body)
        self.keys = keys
        self.seat = seat
        self.boot = boot
        self.seq = 0
        self.links = link_keys(secrets, seat, links, self.game_id)
        self.peers = PeerStates(len(keys), seat)
        self.sigs: dict[int, bytes] = {seat: authoring.sign_genesis(body, secrets)}
        self.outgoing: list[tuple[int | None, bytes]] = []
        self.kept: list[bytes] = []  # frames for the session, in arrival order
        self._kept_bytes = 0
        self.dropped = 0  # frames that did not open, or did not fit
        self._message = signed_message(self.game_id, body)
        self._next_send = now
        self.tick(now)

    @property
    def genesis(self) -> Entry | None:
        """The assembled genesis once every seat has signed, else None."""
        if len(self.sigs) < len(self.keys):
            return None
        return authoring.assemble_genesis(self.body, [self.sigs[i] for i in range(len(self.keys))])

    def missing(self) -> list[int]:
        """The seats whose signature has not come yet."""
        return [s for s in range(len(self.keys)) if s not in self.sigs]

    def tick(self, now: float) -> None:
        """Our signature to every other seat, once every RESEND seconds."""
        if now < self._next_send or self.genesis is not None:
            return
        self._next_send = now + RESEND
        targets = [s for s in range(len(self.keys)) if s != self.seat]
        message = Message(
            "gsig", self.game_id, self.seat, self.boot, self.seq, {"sig": self.sigs[self.seat]}
        )
        self.seq += 1
        frames = seal_many(message, [self.links[t] for t in targets])  # type: ignore[misc]
        self.outgoing.extend(zip(targets, frames, strict=True))

    def wake_at(self, now: float) -> float:
        return self._next_send

    def receive(self, frame: bytes, now: float) -> None:
        """One game frame: a signature recorded, a frame kept, or a drop counted."""
        try:
            message = open_frame(frame, self.game_id, self.links)
            if message.kind == "gsig":
                self.peers.check_fresh(message)
        except RemoteProtocolError:
            self.dropped += 1
            return
        self.peers[message.sender].last_contact = now
        if message.kind == "gsig":
            sig = message.data["sig"]
            if verify_signature(self.keys[message.sender], sig, self._message):
                self.sigs[message.sender] = sig
            else:
                self.dropped += 1
            return
        if len(self.kept) >= MAX_KEPT_FRAMES or self._kept_bytes + len(frame) > MAX_KEPT_BYTES:
            self.dropped += 1  # a seat flooding us: catch-up brings what mattered
            return
        self.kept.append(frame)
        self._kept_bytes += len(frame)

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        out, self.outgoing = self.outgoing, []
        return out

    def take_kept(self) -> list[bytes]:
        out, self.kept, self._kept_bytes = self.kept, [], 0
        return out
