"""What the host's player is told about strangers: counts, at a bounded rate (sans-IO).

A host on a LAN may be knocked at by anyone: a person who mistyped the code, or
a stranger guessing it from many addresses, and sending junk besides.  Its
player should know, but a line per knock would bury the lines that matter
("Ben joined").  So the host lobby counts what strangers cost it (net/host_lobby.py
calls one method per event) and, at most once every ``every`` seconds, makes one
line of it for the screen (the first after GATHER seconds of it), such as

    Strangers knocked 42 times with a wrong code in the last 10 s, from 6
    addresses; 310 more knocks refused (too many join attempts); 500 bad lobby
    frames refused

A knock "with a wrong code" is a handshake that ended without its code proved:
a wrong proof, or no join at all (a stranger learns from the host's proof that
its guess was wrong, and goes away), counted when the host forgets it.  The
addresses are counted up to ``MAX_ADDRESSES`` a line; the counters are four
integers: the tally holds no more however many strangers knock.

The peer's log, which keeps every rejection, is bounded the same way:
:class:`LogLimit` lets at most ``lines`` through a window and then counts the
rest, said in one line when the next window opens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from p2ptable.net.knocks import SUMMARY_EVERY

MAX_ADDRESSES = 1000  # distinct addresses counted for one line ("more than 1000")
GATHER = 2.0  # seconds counted before a first line: one junk frame is no news yet


@dataclass
class StrangerTally:
    every: float = SUMMARY_EVERY
    wrong: int = 0  # handshakes that ended without the code proved
    refused: int = 0  # knocks refused for the rate
    bad: int = 0  # lobby frames that did not open or fit
    replayed: int = 0  # frames refused as not bound to their handshake (replays)
    _addresses: set[str] = field(default_factory=set)
    _start: float | None = None  # the first event since the last line
    _last: float = float("-inf")  # when the last line was made

    def wrong_code(self, address: str, now: float) -> None:
        self.wrong += 1
        self._seen(address, now)

    def rate(self, address: str, now: float) -> None:
        self.refused += 1
        self._seen(address, now)

    def bad_frame(self, address: str, now: float) -> None:
        self.bad += 1
        self._seen(address, now)

    def replay(self, address: str, now: float) -> None:
        self.replayed += 1
        self._seen(address, now)

    def _seen(self, address: str, now: float) -> None:
        if self._start is None:
            self._start = now
        if len(self._addresses) <= MAX_ADDRESSES:
            self._addresses.add(address or "an unknown address")

    def wake_at(self) -> float:
        """When :meth:`summary` has a line to make next (inf: nothing to tell)."""
        if self._start is None:
            return float("inf")
        return max(self._last + self.every, self._start + min(GATHER, self.every))

    def summary(self, now: float) -> str | None:
        """The line to show now, if something happened and the last line is at
        least ``every`` seconds old; the counts start again after it."""
        if self._start is None or now - self._last < self.every:
            return None
        if now - self._start < min(GATHER, self.every):
            return None
        seconds = max(1, math.ceil(now - max(self._start, self._last)))
        count = len(self._addresses)
        where = (
            f"more than {MAX_ADDRESSES} addresses"
            if count > MAX_ADDRESSES
            else f"{count} address{'es' * (count != 1)}"
        )
        if self.wrong:
            head = f"Strangers knocked {_times(self.wrong)} with a wrong code"
        else:
            head = "Strangers at the door"
        parts = [f"{head} in the last {seconds} s, from {where}"]
        if self.refused:
            more = "more " if self.wrong else ""
            parts.append(f"{self.refused} {more}knocks refused (too many join attempts)")
        if self.bad:
            parts.append(f"{self.bad} bad lobby frames refused")
        if self.replayed:
            parts.append(f"{self.replayed} replayed or re-addressed lobby frames refused")
        self.wrong = self.refused = self.bad = self.replayed = 0
        self._addresses.clear()
        self._start, self._last = None, now
        return "; ".join(parts)


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


@dataclass
class LogLimit:
    """At most ``most`` lines a ``window`` of seconds for the peer's log; the rest
    counted, and said in one line when the next window begins."""

    most: int
    window: float
    _start: float = float("-inf")
    _logged: int = 0
    _dropped: int = 0

    def lines(self, line: str, now: float) -> list[str]:
        """What to log for ``line`` at ``now``: nothing, it, or a count first."""
        out = []
        if now - self._start >= self.window:
            if self._dropped:
                out.append(f"({self._dropped} more lobby messages rejected in the last minute)")
            self._start, self._logged, self._dropped = now, 0, 0
        if self._logged < self.most:
            out.append(line)
            self._logged += 1
        else:
            self._dropped += 1
        return out
