"""The two threads of the full-screen table meet in ui/tui/link.py: the peer's
side never waits for the app (issue 25: "Redraws never flicker and never block
the peer")."""

from __future__ import annotations

import time

from p2ptable.engine.api import Action
from p2ptable.net.frontend import Leave
from p2ptable.ui.tui.channel import Link
from p2ptable.ui.tui.snapshot import Snapshot


def test_snapshots_the_app_has_not_taken_are_replaced_and_posted_once() -> None:
    link = Link()
    posted: list[int] = []
    link.attach(lambda: posted.append(1))
    start = time.monotonic()
    for n in range(10_000):  # an app that never takes one
        link.publish(Snapshot("", None, lines=(str(n),)))
    assert time.monotonic() - start < 2.0
    assert posted == [1]  # one message waits; the app takes the newest
    taken = link.take()
    assert taken is not None and taken.lines == ("9999",)
    link.publish(Snapshot("", None))
    assert posted == [1, 1]
    link.close()


def test_before_the_app_runs_nothing_is_posted_and_the_newest_waits() -> None:
    link = Link()
    link.publish(Snapshot("", None, lines=("first",)))
    link.publish(Snapshot("", None, lines=("second",)))
    posted: list[int] = []
    link.attach(lambda: posted.append(1))
    assert posted == [1]
    taken = link.take()
    assert taken is not None and taken.lines == ("second",)
    link.close()


def test_choices_come_back_in_order_through_the_pipe() -> None:
    link = Link()
    for n in range(5000):  # far more wake-ups than a pipe holds: none is lost
        link.send(Action("take", (n % 3,)))
    link.send(Leave("interrupted"))
    got = link.received()
    assert len(got) == 5001 and got[-1] == Leave("interrupted")
    assert link.received() == []
    link.close()
