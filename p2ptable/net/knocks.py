"""How often the host lets anyone knock: per address, in total, fairly, in bounded memory.

Each knock a host answers gives the knocker one online guess at the join code
(net/join_code.py) and costs the host a SPAKE2 run, about 10 ms of CPU
(``scripts/bench_knocks.py``).  So the host answers:

* at most ``per_address`` knocks from one IP address in any ``window`` seconds
  (5 a minute: one address guesses a generated code in 168 years on average);
* at most ``rate`` knocks a second from all addresses together, after a burst of
  ``burst``: a token bucket sized to what the host's CPU affords (10 a second is
  about a tenth of one core), not to a small fixed number, so strangers knocking
  at their limit from a few addresses, or a hundred, leave the others' knocks
  their answers;
* fairly when that budget runs short: an address answered ``k`` times in the
  window takes a token only while the bucket holds ``1 + k * burst / (2 *
  per_address)`` of them (1, 3, 5, 7, 9), so addresses that keep knocking are
  cut first, and one that has not knocked lately (a person arriving) still gets
  the next token.

A knock whose handshake ends in a seat is no guess and stops counting
(``refund``): players sharing one address all get in.  A knock over a limit is
not answered with a challenge; its knocker is told how long to wait
(:class:`Refusal`), and a joiner waits that long and knocks again.  Every denial
costs the host a signature, so a knocker (an address and a key) is told at most
once a second, and at most ``max_notices`` of them in a second (``may_tell``):
a flood gets silence, and a joiner that had no answer knocks again.

Memory: an address is held only while a knock of it answered in the window is,
and answers are bounded by the rate, so at most ``burst + rate * window``
addresses (``max_addresses`` is a backstop); the notices hold ``max_notices``.
A stranger knocking in a loop, from one address or many, grows neither.
Sans-IO: the caller says what time it is.
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from dataclasses import dataclass, field

KNOCK_WINDOW = 60.0  # seconds
KNOCKS_PER_ADDRESS = 5  # answered knocks from one address per window: 5 guesses a minute
KNOCKS_PER_SECOND = 10.0  # from all addresses: a SPAKE2 run is ~10 ms, a tenth of a core
KNOCK_BURST = 20  # ... after a burst of this many
MAX_ADDRESSES = 1024  # addresses with answered knocks in the window (the rate keeps it < 620)
MAX_NOTICES = 64  # knockers told why, remembered at a time (for NOTICE_GAP each)
NOTICE_GAP = 1.0  # seconds between two denials to one knocker
SUMMARY_EVERY = 10.0  # seconds between two lines about strangers on the host's screen


@dataclass(frozen=True)
class Refusal:
    reason: str  # for the knocker: what to wait for
    wait: int  # seconds until a knock from it may be answered again (at least 1)


@dataclass
class KnockLimiter:
    per_address: int = KNOCKS_PER_ADDRESS
    window: float = KNOCK_WINDOW
    rate: float = KNOCKS_PER_SECOND
    burst: int = KNOCK_BURST
    max_addresses: int = MAX_ADDRESSES
    max_notices: int = MAX_NOTICES
    # address -> when its counted knocks were answered (at most per_address), the
    # address whose last answer is oldest first
    _recent: OrderedDict[str, deque[float]] = field(default_factory=OrderedDict)
    _tokens: float = float("nan")  # the global bucket (nan: full, at the first knock)
    _filled: float = 0.0  # when the bucket was last topped up
    _told: dict[tuple[str, bytes], float] = field(default_factory=dict)  # -> when told

    def check(self, address: str, now: float) -> Refusal | None:
        """None, and the knock is counted, if it may be answered; else why not."""
        self._forget(now)
        self._fill(now)
        mine = self._recent.get(address)
        while mine and mine[0] <= now - self.window:
            mine.popleft()
        if mine is not None and not mine:  # a refund took its last young answer
            del self._recent[address]
            mine = None
        used = len(mine) if mine is not None else 0
        if used >= self.per_address:
            wait = (mine[0] if mine else now) + self.window - now
            return _refusal(f"too many join attempts from {address}", wait)
        need = 1 + used * self.burst / (2 * self.per_address)  # who knocked less goes first
        if self._tokens < need or (mine is None and len(self._recent) >= self.max_addresses):
            wait = (need - self._tokens) / self.rate
            return _refusal("too many join attempts at this table", wait)
        self._tokens -= 1
        if mine is None:
            mine = self._recent[address] = deque()
        mine.append(now)
        self._recent.move_to_end(address)
        return None

    def refund(self, address: str, when: float) -> None:
        """Stop counting the knock counted at ``when`` from ``address``: its
        joiner proved the code, so it was no guess (and players on one machine,
        bots on loopback, say, must all get in, however often they try)."""
        mine = self._recent.get(address)
        if mine is None:
            return  # it has left the window already
        try:
            mine.remove(when)
        except ValueError:
            return
        if not mine:
            del self._recent[address]

    def may_tell(self, address: str, now: float, who: bytes = b"") -> bool:
        """Whether to send a denial now to ``who`` (a knocker's key) at
        ``address``: at most one a second to each, and to max_notices of them a
        second in all (so two players on one machine are both told); if so, it
        is noted."""
        last = self._told.get((address, who))
        if last is not None and now - last < NOTICE_GAP:
            return False
        if last is None and len(self._told) >= self.max_notices:
            for told, when in list(self._told.items()):
                if now - when >= NOTICE_GAP:
                    del self._told[told]
            if len(self._told) >= self.max_notices:
                return False
        self._told[(address, who)] = now
        return True

    def _fill(self, now: float) -> None:
        if math.isnan(self._tokens):
            self._tokens, self._filled = float(self.burst), now
        elapsed = max(0.0, now - self._filled)
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.rate)
        self._filled = max(self._filled, now)

    def _forget(self, now: float) -> None:
        # The first address is the one whose last answer is the oldest.
        while self._recent:
            address, times = next(iter(self._recent.items()))
            if times and times[-1] > now - self.window:
                break
            del self._recent[address]

    @property
    def size(self) -> int:
        """Addresses held (for tests: never more than max_addresses + max_notices)."""
        return len(self._recent) + len(self._told)


def _refusal(what: str, wait: float) -> Refusal:
    seconds = max(1, math.ceil(wait))
    return Refusal(f"{what}; try again in {seconds} s", seconds)
