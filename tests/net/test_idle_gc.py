"""The peer runs Python's garbage collector while it waits, not mid-move.

Issue 3's figures are medians of a move's trip to every peer: a collection
(0.15 ms, or over 1 ms for an older generation) landing in the middle of checking
a move delays every peer waiting on it.  net/idle_gc.py collects the same
generations CPython would, at the loop's idle moments, with a backstop that
keeps memory bounded when the loop never idles.
"""

from __future__ import annotations

import gc

import pytest

from p2ptable.net.idle_gc import BACKSTOP, IDLE_ENOUGH, IdleCollector


@pytest.fixture
def collector():
    c = IdleCollector()
    c.start()
    yield c
    c.stop()


def garbage(n: int) -> list:
    keep = []
    for _ in range(n):
        cycle: list = []
        cycle.append(cycle)  # only the cyclic collector frees these
        keep.append({"x": cycle})
    return keep


def test_automatic_collection_is_off_while_it_runs_and_back_after():
    was = gc.isenabled()
    c = IdleCollector()
    c.start()
    assert not gc.isenabled()
    c.stop()
    assert gc.isenabled() == was


def test_nothing_is_collected_while_busy_below_the_backstop(collector):
    gc.collect()
    keep = garbage(2 * collector.thresholds[0])
    assert collector.generation_due() is not None
    assert collector.maybe_collect(idle_for=0.0) is None  # a move is being handled
    assert collector.maybe_collect(idle_for=IDLE_ENOUGH) is not None  # now idle: collect
    assert collector.generation_due() is None
    del keep


def test_the_backstop_collects_even_when_never_idle(collector):
    gc.collect()
    keep = garbage(BACKSTOP * collector.thresholds[0] + 100)
    assert collector.maybe_collect(idle_for=0.0) is not None
    del keep


def test_the_generation_is_the_one_cpython_would_choose(collector):
    gc.collect()
    t0, t1, t2 = collector.thresholds
    assert collector.generation_due() is None
    keep = garbage(t0 + 10)
    due = collector.generation_due()
    assert due in (0, 1, 2)
    count0, count1, count2 = gc.get_count()
    assert due == (0 if count1 + 1 <= t1 else 1 if count2 + 1 <= t2 else 2)
    del keep


def test_it_waits_for_a_quiet_moment_only_when_garbage_is_due_and_time_allows(collector):
    from p2ptable.net.idle_gc import QUIET

    gc.collect()
    assert not collector.wants_quiet(1.0)  # nothing due: sleep at once
    keep = garbage(2 * collector.thresholds[0])
    assert collector.wants_quiet(1.0)  # due, and the loop may sleep long enough
    assert not collector.wants_quiet(QUIET)  # a deadline is too close to wait first
    del keep
