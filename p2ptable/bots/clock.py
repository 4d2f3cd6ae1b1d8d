"""A clock per decision: when a person's time is up, their own peer moves for them.

How it works: :class:`DecisionClock` notes when this peer first saw the current
decision (the log's length is the position: it moves with every entry) and says
how long is left of ``limit`` seconds; any screen can ask it for whoever must
act.  :class:`ClockedFrontend` wraps the frontend at a person's seat: it asks the
person as before, and when our decision has been pending for ``limit`` seconds
with nothing chosen it answers with the move of the table's default bot (the
game's opponent, ``GamePackage.opponent``) instead, and says so.

Why the seat's own peer, and only it: a move is signed by its seat, so no other
peer can make it, and no other peer can know when our person saw the turn
(messages take time).  A peer that ignores the clock only holds the table up as
a person who walked away would without a clock; it cannot move for anyone else.
Without ``--clock`` nothing of this is built and nothing changes.
"""

from __future__ import annotations

import random

from p2ptable.bots.seat import BotPlayer
from p2ptable.net.frontend import Chosen, Frontend
from p2ptable.net.session import Session


class DecisionClock:
    """Seconds left of ``limit`` for the decision pending at this position."""

    def __init__(self, limit: float) -> None:
        if not limit > 0:
            raise ValueError(f"a clock limit is a positive number of seconds, not {limit}")
        self.limit = limit
        self._position: int | None = None
        self._since = 0.0

    def observe(self, position: int, now: float) -> None:
        """The game is at ``position`` now: a new position starts a new decision."""
        if position != self._position:
            self._position, self._since = position, now

    def left(self, now: float) -> float:
        return max(0.0, self.limit - (now - self._since))

    def deadline(self) -> float:
        return self._since + self.limit


class ClockedFrontend:
    """A person's frontend under a clock: at the limit, the default bot moves."""

    def __init__(
        self, inner: Frontend, limit: float, bot_kind: str, rng: random.Random | None = None
    ) -> None:
        self.inner = inner
        self.clock = DecisionClock(limit)
        self.bot = BotPlayer(bot_kind, rng=rng)
        self.moved_for_us = 0  # how many of our moves the clock made

    def say(self, text: str) -> None:
        self.inner.say(text)

    def show(self, session: Session, events: list, now: float) -> None:
        self.clock.observe(session.log_length, now)
        self.inner.show(session, events, now)

    def choose(self, session: Session | None, now: float, typed: bool) -> Chosen:
        chosen = self.inner.choose(session, now, typed)
        if chosen is not None or session is None:
            return chosen
        self.clock.observe(session.log_length, now)
        if session.my_turn() and self.clock.left(now) <= 0:
            action = self.bot.choose(session, now)
            if action is not None:
                self.moved_for_us += 1
                self.inner.say(f"The clock moved for you ({self.clock.limit:g} s): {action.text}")
            return action
        return None

    def wake_at(self, session: Session, now: float) -> float:
        self.clock.observe(session.log_length, now)
        wake = self.inner.wake_at(session, now)
        if session.my_turn():
            wake = min(wake, self.clock.deadline())
        return wake

    def input_fd(self) -> int | None:
        return self.inner.input_fd()

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
