"""A clock per decision (bots/clock.py).

Issue 26: "A clock: `host --clock SECONDS` (a limit per decision ...).  When a
person's time runs out, their own peer makes the move the table's default bot
would make ... a person who walked away no longer holds the table up.  Without
`--clock`, nothing changes."
"""

from __future__ import annotations

import pytest

from p2ptable.bots.clock import ClockedFrontend, DecisionClock
from p2ptable.net.memory import MemoryNet

from .test_session_memory import make_table


class Walked:
    """A person who walked away: never types, and notes what is said to them."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def show(self, session, events, now) -> None:  # noqa: ANN001
        pass

    def choose(self, session, now, typed):  # noqa: ANN001, ANN201
        return None

    def wake_at(self, session, now) -> float:  # noqa: ANN001
        return now + 3600

    def input_fd(self) -> None:
        return None


def test_the_clock_counts_from_when_the_position_was_first_seen():
    clock = DecisionClock(30)
    clock.observe(5, now=100.0)
    clock.observe(5, now=110.0)  # the same decision: the clock runs on
    assert clock.left(120.0) == 10.0 and clock.deadline() == 130.0
    clock.observe(6, now=125.0)  # a new position: a new decision
    assert clock.left(125.0) == 30.0
    assert clock.left(1000.0) == 0.0


@pytest.mark.parametrize("limit", [0, -1, float("nan")])
def test_a_limit_is_a_positive_number_of_seconds(limit):
    with pytest.raises(ValueError):
        DecisionClock(limit)


def test_a_person_who_walked_away_is_moved_for_at_the_limit_and_not_before():
    seats, sessions, logs = make_table(2, "clock")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    person = Walked()
    front = ClockedFrontend(person, limit=20.0, bot_kind="greedy")
    front.show(mover, [], now=50.0)
    assert front.choose(mover, 60.0, typed=False) is None  # 10 s left
    assert front.wake_at(mover, 60.0) == 70.0  # the loop wakes at the limit
    action = front.choose(mover, 70.0, typed=False)
    assert action is not None and action in mover.legal_actions()
    assert front.moved_for_us == 1
    assert person.said == [f"The clock moved for you (20 s): {action.text}"]


def test_the_clock_never_moves_for_a_seat_whose_turn_it_is_not():
    seats, sessions, logs = make_table(2, "clock2")
    net = MemoryNet(sessions, logs)
    net.pump()
    waiting = next(s for s in sessions.values() if not s.my_turn())
    front = ClockedFrontend(Walked(), limit=1.0, bot_kind="greedy")
    front.show(waiting, [], now=0.0)
    assert front.choose(waiting, 1000.0, typed=False) is None
    assert front.wake_at(waiting, 1000.0) == 1000.0 + 3600  # nothing to wake for


def test_a_person_who_answers_in_time_is_not_moved_for():
    seats, sessions, logs = make_table(2, "clock3")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    chosen = mover.legal_actions()[-1]

    class Quick(Walked):
        def choose(self, session, now, typed):  # noqa: ANN001, ANN201
            return chosen

    front = ClockedFrontend(Quick(), limit=5.0, bot_kind="greedy")
    front.show(mover, [], now=0.0)
    assert front.choose(mover, 100.0, typed=True) == chosen  # the person's, late or not
    assert front.moved_for_us == 0
