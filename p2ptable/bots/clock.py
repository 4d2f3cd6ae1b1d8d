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
from typing import Any

from p2ptable.bots import opponent_for
from p2ptable.bots.seat import BotPlayer
from p2ptable.net.frontend import Chosen, ClockMove, Frontend
from p2ptable.net.session import Session
from p2ptable.replay.kinds import Kind
from p2ptable.replay.ledger import Ledger
from p2ptable.ui.text import listed


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
    """A person's frontend under the table's clock: at the limit, the default bot moves.

    Built for every person's seat (``play.py``); it does nothing until the game
    starts, and nothing at all at a table whose genesis has no clock, so a
    joiner learns the limit from the genesis it signed (``Session.clock``).  A
    ``limit`` given here is used instead (tests)."""

    def __init__(
        self,
        inner: Frontend,
        limit: float | None = None,
        bot_kind: str | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.inner = inner
        self.clock: DecisionClock | None = None
        self.bot: BotPlayer | None = None
        self._kind, self._rng = bot_kind, rng
        self._armed = False
        self.moved_for_us = 0  # how many of our moves the clock made
        if limit is not None:
            self._arm(limit, bot_kind or "greedy")

    def _arm(self, limit: float, kind: str) -> None:
        self.clock = DecisionClock(limit)
        self.bot = BotPlayer(kind, rng=self._rng)
        if hasattr(self.inner, "clock_line"):  # a screen shows the time left
            self.inner.clock_line = self.line

    def _observe(self, session: Session, now: float) -> DecisionClock | None:
        if not self._armed:
            self._armed = True
            if self.clock is None and session.clock is not None:
                self._arm(session.clock, self._kind or opponent_for(session.game))
        if self.clock is not None:
            self.clock.observe(session.log_length, now)
        return self.clock

    def say(self, text: str) -> None:
        self.inner.say(text)

    def show(self, session: Session, events: list, now: float) -> None:
        self._observe(session, now)
        self.inner.show(session, events, now)

    def choose(self, session: Session | None, now: float, typed: bool) -> Chosen:
        chosen = self.inner.choose(session, now, typed)
        if chosen is not None or session is None:
            return chosen
        clock = self._observe(session, now)
        if clock is None or self.bot is None or not session.my_turn() or clock.left(now) > 0:
            return None
        action = self.bot.choose(session, now)
        if action is None:
            return None
        self.moved_for_us += 1
        self.inner.say(f"The clock moved for you ({clock.limit:g} s): {action.text}")
        return ClockMove(action)

    def wake_at(self, session: Session, now: float) -> float:
        clock = self._observe(session, now)
        wake = self.inner.wake_at(session, now)
        if clock is not None and session.my_turn():
            wake = min(wake, clock.deadline())
        return wake

    def line(self, session: Session, now: float, step: int = 1) -> str | None:
        """The time left for whoever must act now, in whole ``step`` seconds (a
        screen on a pipe counts in tens), or None when nobody is on the clock."""
        clock = self._observe(session, now)
        if clock is None:
            return None
        seats = on_the_clock(session)
        if not seats:
            return None
        left = int(clock.left(now) + 0.999)
        left = left if step <= 1 else (left + step - 1) // step * step
        names = session.names
        others = [names[s] for s in seats if s != session.seat]
        if session.seat in seats:
            more = f" ({listed(others)} too)" if others else ""
            return f"clock: {left} s left for you{more}, then the clock moves for you"
        return f"clock: {left} s left for {listed(others)}"

    def input_fd(self) -> int | None:
        return self.inner.input_fd()

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()

    def __getattr__(self, name: str) -> Any:
        # What else the screen offers (the full-screen table's run_peer).
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def on_the_clock(session: Session) -> list[int]:
    """The seats whose decision the clock counts now: the seat to move (not a
    forced move, which its peer makes at once), or the seats yet to make a secret
    choice; none while chance, shuffles or the end are pending."""
    if session.finished or session.stopped is not None:
        return []
    expected = session.ledger.expected()
    if expected.kind == Kind.ACTION and expected.seat is not None and not expected.forced:
        return [expected.seat]
    if expected.kind == Kind.COMMITS:
        mine, waiting, _chosen = session.secret_choice()
        asked = list(waiting)
        if session.my_turn():
            asked.append(session.seat)
        return sorted(asked)
    return []


class WatchedClock:
    """A spectator's view of the table's clock (watch.py): the time left for
    whoever must act, counted from when this spectator saw the decision; a
    secret choice's seats are all shown, as a spectator cannot tell who chose."""

    def __init__(self, limit: float) -> None:
        self.clock = DecisionClock(limit)

    def line(self, ledger: Ledger, names: list[str], now: float, step: int = 1) -> str | None:
        self.clock.observe(ledger.next_index, now)
        if ledger.finished or ledger.stopped is not None:
            return None
        expected = ledger.expected()
        if expected.kind == Kind.ACTION and expected.seat is not None and not expected.forced:
            seats = [expected.seat]
        elif expected.kind == Kind.COMMITS:
            seats = [s for s in expected.targets if s is not None]
        else:
            return None
        left = int(self.clock.left(now) + 0.999)
        left = left if step <= 1 else (left + step - 1) // step * step
        return f"clock: {left} s left for {listed([names[s] for s in seats])}"
