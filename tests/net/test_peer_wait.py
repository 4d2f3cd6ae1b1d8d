"""The peer loop's sleep (net/peer_wait.py): never woken before its deadline.

A deadline 0.4 ms away was slept as round(0.4) = 0 ms: the loop woke before a
bot's think time was over, made a pass that did nothing, and slept again."""

from __future__ import annotations

import time

from p2ptable.net.peer_wait import MAX_SLEEP, Waiter


class Asked:
    """A transport that only notes how long each poll may sleep."""

    def __init__(self) -> None:
        self.timeouts: list[int] = []

    def poll(self, timeout_ms: int) -> tuple[list, bool]:
        self.timeouts.append(timeout_ms)
        return [], False

    def register_fd(self, fd: int) -> None: ...

    def unregister_fd(self, fd: int | None) -> None: ...


def test_a_deadline_within_the_next_millisecond_is_slept_a_whole_millisecond() -> None:
    transport = Asked()
    waiter = Waiter(transport, lifeline=False)  # type: ignore[arg-type]
    waiter.collector.generation_due = lambda: None  # no garbage due: one plain poll
    for ahead in (0.0004, 0.0011, 0.0199):
        waiter.wait(time.monotonic() + ahead)
    assert transport.timeouts[0] >= 1
    assert transport.timeouts[1] >= 2  # 1.1 ms: not 1
    assert transport.timeouts[2] >= 20


def test_a_deadline_passed_or_far_away_is_bounded() -> None:
    transport = Asked()
    waiter = Waiter(transport, lifeline=False)  # type: ignore[arg-type]
    waiter.collector.generation_due = lambda: None
    waiter.wait(time.monotonic() - 5)
    waiter.wait(time.monotonic() + 3600)
    assert transport.timeouts == [0, round(MAX_SLEEP * 1000)]
