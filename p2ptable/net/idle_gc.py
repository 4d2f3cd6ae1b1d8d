"""Python's cyclic garbage collector, run while the peer is idle instead of mid-move.

CPython collects its youngest generation after every ~700 net allocations,
wherever the program happens to be: often in the middle of checking a move that
five other peers are waiting on (a collection costs ~0.15 ms on the reference
machine, a middle-generation one over 1 ms).  A game engine collects between
frames; a peer collects while it waits for the next move.  :class:`IdleCollector`
switches automatic collection off and runs the same collections CPython would
have run (same generations, same thresholds) when the loop is about to sleep for
a while and has already been quiet for ``QUIET`` (a move's burst of frames is
over: collecting right after applying a move would still delay the peers that
share our CPU and are checking the same move), or anyway once far too much is
pending, so memory stays bounded when a table never pauses.
"""

from __future__ import annotations

import gc

IDLE_ENOUGH = 0.002  # seconds the loop expects to sleep: room for a collection
QUIET = 0.003  # seconds without a message before a collection counts as idle
BACKSTOP = 20  # collect even when busy once this many thresholds' worth is pending


class IdleCollector:
    def __init__(self) -> None:
        self.thresholds = gc.get_threshold()
        self._was_enabled = gc.isenabled()

    def start(self) -> None:
        """From now on collect only in :meth:`maybe_collect`.  Everything alive
        now (modules, the rules, the ledger so far) is frozen out of later
        collections: it is long-lived and scanning it again is wasted work.
        (No full collection first: it would cost tens of milliseconds for the
        little garbage that importing leaves.)"""
        gc.freeze()
        gc.disable()

    def stop(self) -> None:
        gc.unfreeze()
        if self._was_enabled:
            gc.enable()

    def generation_due(self) -> int | None:
        """The generation CPython would collect now, or None."""
        count0, count1, count2 = gc.get_count()
        t0, t1, t2 = self.thresholds
        if t0 == 0 or count0 <= t0:
            return None
        if count1 + 1 > t1:
            return 2 if count2 + 1 > t2 else 1
        return 0

    def maybe_collect(self, idle_for: float) -> int | None:
        """Collect what is due if the loop is about to sleep ``idle_for`` seconds
        (or if far too much is pending); the generation collected, or None."""
        generation = self.generation_due()
        if generation is None:
            return None
        if idle_for < IDLE_ENOUGH and gc.get_count()[0] < BACKSTOP * self.thresholds[0]:
            return None
        gc.collect(generation)
        return generation

    def wants_quiet(self, idle_for: float) -> bool:
        """A collection is due and the loop may sleep long enough to first wait
        ``QUIET`` for the burst to end (then call :meth:`maybe_collect`)."""
        return idle_for > QUIET + IDLE_ENOUGH and self.generation_due() is not None
