"""How often the host lets anyone knock: per address and in total, in bounded memory.

Each knock a host answers gives the knocker one online guess at the join code
(net/join_code.py) and costs the host a SPAKE2 run, so the host counts the knocks
it answers in a sliding window: at most ``per_address`` from one IP address and
``total`` from everyone within any ``window`` seconds.  A knock whose handshake
ends in a seat is no guess and stops counting (``refund``).  A knock over either limit
is not answered with a challenge.  The knocker is told to wait (so a person who
mistyped the code a few times learns why), but only once per address and window,
and only for ``max_notices`` addresses at a time: a flood gets silence.

Memory: the window holds only counted knocks, at most ``total`` of them, and the
notices at most ``max_notices``; both forget what is older than the window.  A
stranger knocking in a loop, from one address or many, grows neither.  Sans-IO:
the caller says what time it is.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

KNOCK_WINDOW = 60.0  # seconds
KNOCKS_PER_ADDRESS = 5  # answered knocks from one address per window: 5 guesses a minute
KNOCKS_TOTAL = 30  # answered knocks from everyone per window
MAX_NOTICES = 64  # addresses told to wait, at a time


@dataclass(frozen=True)
class Refusal:
    reason: str  # for the knocker: what to wait for
    notify: bool  # whether to tell the knocker (once per address and window)


@dataclass
class KnockLimiter:
    per_address: int = KNOCKS_PER_ADDRESS
    total: int = KNOCKS_TOTAL
    window: float = KNOCK_WINDOW
    max_notices: int = MAX_NOTICES
    _counted: deque[tuple[float, str]] = field(default_factory=deque)  # (when, address)
    _noticed: dict[str, float] = field(default_factory=dict)  # address -> when told

    def check(self, address: str, now: float) -> Refusal | None:
        """None, and the knock is counted, if it may be answered; else why not."""
        self._forget(now)
        mine = [t for t, a in self._counted if a == address]
        if len(mine) >= self.per_address:
            wait = mine[0] + self.window - now
            return self._refuse(address, now, f"too many join attempts from {address}", wait)
        if len(self._counted) >= self.total:
            wait = self._counted[0][0] + self.window - now
            return self._refuse(address, now, "too many join attempts at this table", wait)
        self._counted.append((now, address))
        return None

    def refund(self, address: str, when: float) -> None:
        """Stop counting the knock counted at ``when`` from ``address``: its
        joiner proved the code, so it was no guess (and players on one machine,
        bots on loopback, say, must all get in, however often they try)."""
        try:
            self._counted.remove((when, address))
        except ValueError:
            pass  # it has left the window already

    def _refuse(self, address: str, now: float, what: str, wait: float) -> Refusal:
        notify = address not in self._noticed and len(self._noticed) < self.max_notices
        if notify:
            self._noticed[address] = now
        return Refusal(f"{what}; try again in {max(1, math.ceil(wait))} s", notify)

    def _forget(self, now: float) -> None:
        while self._counted and self._counted[0][0] <= now - self.window:
            self._counted.popleft()
        if self._noticed:
            # Insertion order is time order: the oldest notices come first.
            for address, when in list(self._noticed.items()):
                if when > now - self.window:
                    break
                del self._noticed[address]

    @property
    def size(self) -> int:
        """Entries held (for tests: never more than ``total + max_notices``)."""
        return len(self._counted) + len(self._noticed)
