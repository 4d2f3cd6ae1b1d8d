"""Sealed-deck seats in separate processes: signed frames over a ZeroMQ full mesh.

How it works: each process is one seat and runs one
:class:`~p2ptable.sealed.table_protocol.SealedSeat`.  It binds one ROUTER
(:class:`~p2ptable.net.zmq_transport.ZmqTransport`) and connects a DEALER to every
other seat's ROUTER: it sends to seat ``t`` through its DEALER to ``t``'s ROUTER
and hears everyone on its own ROUTER.  Every frame is

    pack({"body": pack({"data", "game", "kind", "seat", "seq"}), "sig": signature})

with an Ed25519 signature (:class:`~p2ptable.crypto.signing.SigningKey`) over
``DOMAIN || body``: the signature, not the socket, says which seat sent it, binds
the frame to this game, and ``seq`` (increasing per sender) refuses replays.  The
first frame of each seat is a ``hello`` whose data is its public key, signed with
that key; every other frame (``sealed``) carries one envelope of the seat machine.

**Trust on first use.**  The first hello for a seat fixes that seat's key; a later
hello with another key is refused.  That is enough for a demonstration on one
machine, not for play: whoever reaches a port first can take a seat.  The game
binds every seat's key in its signed genesis entry (protocol/replay.md), and there
the sealed messages will travel inside signed log entries instead.

:class:`FrameGate` is the sans-IO check of incoming frames; :func:`run_seat` is
the only I/O loop, with bounded waits: it returns when the table is done, a
cheater is caught, or the deadline passes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.signing import SigningKey, verify_signature
from p2ptable.net.zmq_transport import GAME, ZmqTransport
from p2ptable.sealed.table_events import Event, Phase
from p2ptable.sealed.table_protocol import SealedSeat

DOMAIN = b"p2ptable/sealed-mesh/v1\x00"
HELLO, SEALED = "hello", "sealed"
_BODY = {"data", "game", "kind", "seat", "seq"}


class FrameError(Exception):
    """A frame refused before it reached the seat machine."""


class FrameSigner:
    """Our frames: signed, numbered, bound to the game."""

    def __init__(self, key: SigningKey, game_id: bytes, seat: int) -> None:
        self.key, self.game_id, self.seat, self.seq = key, game_id, seat, 0

    def frame(self, kind: str, data: bytes) -> bytes:
        body = pack(
            {"data": data, "game": self.game_id, "kind": kind, "seat": self.seat, "seq": self.seq}
        )
        self.seq += 1
        return pack({"body": body, "sig": self.key.sign(DOMAIN + body)})

    def hello(self) -> bytes:
        return self.frame(HELLO, self.key.public)


class FrameGate:
    """Checks every incoming frame; learns each seat's key from its first hello."""

    def __init__(self, game_id: bytes, seat: int, seats: int) -> None:
        self.game_id, self.seat, self.seats = game_id, seat, seats
        self.keys: dict[int, bytes] = {}
        self._seq: dict[int, int] = {}

    def open(self, frame: bytes) -> tuple[int, str, bytes]:
        """The sender's seat, the kind and the data of a good frame; else FrameError."""
        try:
            outer = unpack_canonical(frame)
            if type(outer) is not dict or set(outer) != {"body", "sig"}:
                raise FrameError("a frame is a map of body and sig")
            raw, sig = outer["body"], outer["sig"]
            if type(raw) is not bytes or type(sig) is not bytes:
                raise FrameError("body and sig are bytes")
            body = unpack_canonical(raw)
        except EncodingError as exc:
            raise FrameError(f"malformed frame: {exc}") from None
        if type(body) is not dict or set(body) != _BODY:
            raise FrameError(f"a frame body has exactly {sorted(_BODY)}")
        seat, seq, kind, data = body["seat"], body["seq"], body["kind"], body["data"]
        if body["game"] != self.game_id:
            raise FrameError("a frame for another game")
        if type(seat) is not int or not 0 <= seat < self.seats or seat == self.seat:
            raise FrameError(f"a frame from seat {seat!r}")
        if kind not in (HELLO, SEALED) or type(seq) is not int or type(data) is not bytes:
            raise FrameError(f"seat {seat}: a frame of kind {kind!r}")
        if kind == HELLO:
            if seat in self.keys and self.keys[seat] != data:
                raise FrameError(f"seat {seat} announced a second key")
            key = data
        elif seat in self.keys:
            key = self.keys[seat]
        else:
            raise FrameError(f"seat {seat}: a frame before its hello")
        if not verify_signature(key, sig, DOMAIN + raw):
            raise FrameError(f"seat {seat}: bad signature")
        if seq <= self._seq.get(seat, -1):
            raise FrameError(f"seat {seat}: replayed frame (seq {seq})")
        self._seq[seat] = seq
        self.keys[seat] = key
        return seat, kind, data


@dataclass
class SeatRun:
    """How a seat's run ended, and what happened when (``time.monotonic`` stamps)."""

    phase: Phase = Phase.KEYS
    waiting_for: tuple[int, ...] = ()
    timeline: list[tuple[float, Event, float]] = field(default_factory=list)  # stamp, event, cost
    refused: list[str] = field(default_factory=list)


def run_seat(
    machine: SealedSeat,
    ports: list[int],
    *,
    choose: Callable[[SealedSeat], int],
    timeout: float,
    on_event: Callable[[float, Event, float], None] = lambda stamp, event, cost: None,
    host: str = "127.0.0.1",
) -> SeatRun:
    """Play ``machine``'s seat against the seats listening on ``ports`` until it settles.

    ``choose`` picks the hand card to reveal on our turn.  Each event goes to
    ``on_event`` with its stamp and the seconds of work that produced it (for a
    reveal by another seat: checking its frame and its proof).
    """
    seat, clock = machine.seat, time.monotonic
    signer = FrameSigner(SigningKey.generate(), machine.game_id, seat)
    gate = FrameGate(machine.game_id, seat, machine.seats)
    transport = ZmqTransport(host, ports[seat])
    run = SeatRun()
    peers = {t: f"tcp://{host}:{port}" for t, port in enumerate(ports) if t != seat}
    frame_cost = dict.fromkeys(peers, 0.0)

    def send(frame: bytes, dest: int | None = None) -> None:
        for t in peers if dest is None else (dest,):
            transport.send(peers[t], GAME, frame)

    def flush(cost: float) -> None:
        for dest, payload in machine.take_outgoing():
            send(signer.frame(SEALED, payload), dest)
        now = clock()
        for event in machine.take_events():
            extra = frame_cost.get(getattr(event, "seat", None), 0.0)
            run.timeline.append((now, event, cost + extra))
            on_event(now, event, cost + extra)

    try:
        for endpoint in peers.values():
            transport.connect(endpoint)
        send(signer.hello())
        deadline, busy = clock() + timeout, True
        while machine.phase not in (Phase.DONE, Phase.ERROR) and clock() < deadline:
            incoming, _ = transport.poll(0 if busy else 50)
            for item in incoming:
                start = clock()
                try:
                    sender, kind, data = gate.open(item.payload)
                except FrameError as exc:
                    run.refused.append(str(exc))
                    continue
                if kind == SEALED:
                    machine.receive(sender, data)
                    frame_cost[sender] = clock() - start
            start = clock()
            busy = machine.step()
            if not busy and machine.my_turn:
                machine.reveal(choose(machine))
                busy = True
            flush(clock() - start)
    finally:
        flush(0.0)  # what the last step made (our secret) must still leave
        transport.close(linger_ms=2000)
    run.phase, run.waiting_for = machine.phase, machine.waiting_for()
    return run
