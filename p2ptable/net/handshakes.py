"""The host's unfinished handshakes: knocks it answered whose join (or watch) has
not come yet, bounded in number and in time (sans-IO; net/host_lobby.py).

A joiner answers a challenge at once, so a handshake still open after
``PENDING_SECONDS`` is a stranger's wrong guess: it is forgotten and counted as
one (lobby_tally.py).  At most ``MAX_PENDING`` are kept; a new one beyond that
pushes out the oldest (the knock rate bounds how fast they come, knocks.py), and
a key that knocks again replaces its own, whose guess proved nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2ptable.net.lobby_frames import MAX_PENDING, PENDING_SECONDS
from p2ptable.net.lobby_tally import StrangerTally


@dataclass
class Handshake:
    """A knock the host answered: what the joiner's join must match."""

    message: bytes  # the joiner's SPAKE2 message X
    confirm: bytes  # the confirmation key C
    endpoint: str
    address: str
    since: float
    watch: bool = False  # a spectator's knock (gallery.py): answered by `watch`


@dataclass
class Handshakes:
    """The open handshakes, by the joiner's signing key, oldest first."""

    tally: StrangerTally
    _open: dict[bytes, Handshake] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self._open)

    def get(self, key: bytes) -> Handshake | None:
        return self._open.get(key)

    def take(self, key: bytes, now: float) -> Handshake | None:
        """The handshake ``key``'s answer finishes (None if there is none), the
        expired ones forgotten first."""
        self.forget(now)
        return self._open.pop(key, None)

    def open(self, key: bytes, handshake: Handshake, now: float) -> None:
        """A knock answered: ``key``'s earlier one, and the oldest beyond
        MAX_PENDING, forgotten (each a wrong guess)."""
        if self._open.pop(key, None) is not None:
            self.tally.wrong_code(handshake.address, now)  # its earlier knock proved nothing
        while len(self._open) >= MAX_PENDING:  # the oldest goes (the rate bounds them)
            oldest = self._open.pop(next(iter(self._open)))
            self.tally.wrong_code(oldest.address, now)
        self._open[key] = handshake

    def forget(self, now: float) -> None:
        """Forget handshakes whose join never came: a stranger's wrong guess (a
        joiner answers a challenge at once)."""
        for key in [k for k, p in self._open.items() if now - p.since >= PENDING_SECONDS]:
            self.tally.wrong_code(self._open.pop(key).address, now)

    def close_seats(self) -> list[Handshake]:
        """The table is full: every player's handshake ends (the caller tells
        them); a spectator's goes on, it takes no seat."""
        players = [key for key, p in self._open.items() if not p.watch]
        return [self._open.pop(key) for key in players]

    def wake_at(self) -> float:
        """When the oldest open handshake expires (inf: none is open)."""
        return min((p.since + PENDING_SECONDS for p in self._open.values()), default=float("inf"))
