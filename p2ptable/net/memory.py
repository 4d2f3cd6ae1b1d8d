"""An in-memory link joining any number of sessions: whole games, no sockets, no sleeps.

Used by tests and by anyone who wants to exercise the protocol deterministically.
Frames are delivered in FIFO order; ``drop``/``tamper`` hooks let tests simulate a
lossy or hostile network.  What a session produces is carried out by the peer's
own :func:`~p2ptable.net.delivery.deliver` (written, then sent), so a test sees
the order a peer keeps.  For whole peers (lobby, genesis, game) in one process,
over the real peer loop, see net/memory_transport.py.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import partial

from p2ptable.net.delivery import deliver
from p2ptable.net.session import Session


class MemoryNet:
    """Routes each session's outgoing frames to the other sessions."""

    def __init__(
        self, sessions: dict[int, Session], logs: dict[int, list[bytes]] | None = None
    ) -> None:
        """``logs[seat]``, if given, receives what that session persists (its
        entries, in order), as a peer's replay file would."""
        self.sessions = sessions
        self.logs = logs
        self.queue: deque[tuple[int, int, bytes]] = deque()
        self.now = 0.0
        self.delivered = 0
        self.filter: Callable[[int, int, bytes], bytes | None] | None = None
        self.kept: dict[int, list] = {}  # each seat's secret choices, as a peer keeps them

    def collect(self) -> None:
        """Every session's output carried out as a peer does (net/delivery.py):
        its entries into its log, then its frames queued for the others."""
        for seat, session in self.sessions.items():
            log = self.logs.get(seat) if self.logs is not None else None
            if log is None:
                log = []  # nobody reads it: what it holds goes at once
            deliver(
                session,
                write=log.append,
                send=partial(self._queue, seat),
                cut=partial(_cut, log),
                keep_choice=self.kept.setdefault(seat, []).append,
            )

    def _queue(self, seat: int, dest: int | None, frame: bytes) -> None:
        targets = [s for s in self.sessions if s != seat] if dest is None else [dest]
        for target in targets:
            self.queue.append((seat, target, frame))

    def pump(self, max_frames: int = 1_000_000) -> int:
        """Deliver frames until quiet; returns how many were delivered."""
        count = 0
        self.collect()
        while self.queue and count < max_frames:
            sender, target, frame = self.queue.popleft()
            if self.filter is not None:
                filtered = self.filter(sender, target, frame)
                if filtered is None:
                    self.collect()  # the filter may have sent something instead
                    continue
                frame = filtered
            if target in self.sessions:
                self.sessions[target].receive(frame, self.now)
            count += 1
            self.collect()
        self.delivered += count
        return count

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for session in self.sessions.values():
            session.tick(self.now)
        self.pump()


def _cut(log: list[bytes], keep: int) -> None:
    """An agreed abort takes a contested position: the log keeps ``keep`` entries."""
    del log[keep:]
