"""A bot at a seat of a live game: when it moves, what it chooses, what it prints.

How it works
------------
:class:`BotPlayer` is the bot's mind at a live table: it is asked on every pass of
the peer loop (``choose``) and answers with the action of its policy once its
think time (``delay``) is over, or None; ``wake_at`` tells the loop when that
will be, so the loop sleeps instead of spinning.  The policy is made from the
game the table plays the first time the bot is asked, so a joiner's bot can be
created before the handshake says which game that is.

:class:`BotFrontend` is the frontend (net/peer.py's ``Frontend``) for a seat that
nobody watches: a line per finished or stopped game, or nothing when quiet.  A bot
that a person watches is a terminal frontend that asks a :class:`BotPlayer`
instead of the keyboard (ui/terminal.py).
"""

from __future__ import annotations

import random

from p2ptable.engine.api import Action
from p2ptable.engine.playout import Policy
from p2ptable.net.frontend import TakeBreak
from p2ptable.net.session import Finished, Session, Stopped
from p2ptable.ui.endings import stop_words
from p2ptable.ui.text import result_lines

# Asked when it is not our turn: only messages wake the loop then.
IDLE = 3600.0


class BotPlayer:
    """Chooses for one seat with the bot called ``kind``, after ``delay`` seconds."""

    def __init__(
        self, kind: str, delay: float = 0.0, rng: random.Random | None = None, policy=None
    ) -> None:  # noqa: ANN001 - policy: a Policy, for tests
        self.kind = kind
        self.delay = delay  # "thinking" time, so people can follow a bot's moves
        self.rng = rng or random.Random()
        self._policy: Policy | None = policy
        self._turn_seen: tuple[int, float] | None = None  # (log length, since when)

    def policy(self, session: Session) -> Policy:
        if self._policy is None:
            from p2ptable.bots import make_bot

            self._policy = make_bot(session.game, self.kind, self.rng)
        return self._policy

    def choose(self, session: Session, now: float) -> Action | None:
        """Our move if it is our turn and the think time is over, else None."""
        if not session.my_turn():
            return None
        if self.delay > 0 and now - self._thinking_since(session, now) < self.delay:
            return None
        return session.ask(self.policy(session))

    def wake_at(self, session: Session, now: float) -> float:
        """When to choose: at the end of our think time, which starts when the loop
        first meets our turn here or in :meth:`choose`.  (Answering "at once" for a
        turn first met here, after our own move made it, cost a pass of the loop
        that only started the think time.)"""
        if not session.my_turn():
            return now + IDLE
        if self.delay > 0:
            return self._thinking_since(session, now) + self.delay
        return now  # our turn: decide at once

    def _thinking_since(self, session: Session, now: float) -> float:
        """When our think time for this turn began (``now``, if it begins now)."""
        index = session.log_length
        if self._turn_seen is None or self._turn_seen[0] != index:
            self._turn_seen = (index, now)
        return self._turn_seen[1]


# How long a bot that signed a break holds its move while the others agree: a
# move ends the proposal, and a bot without think time would always move first.
BREAK_HOLD = 10.0


class BreakManners:
    """A bot agrees to every break the people at the table propose (it has no
    evening to plan), and holds its move at that position a while for the
    others to agree; otherwise its player moves (:meth:`choose`)."""

    def __init__(self) -> None:
        # When we first held for a break, and when we last saw one proposed: a
        # person's wish stands from move to move, so if the others play on we
        # hold once, not at every move (a new hold only after BREAK_HOLD with none).
        self._since = self._seen = float("-inf")

    def choose(self, session: Session, now: float, player: BotPlayer) -> Action | TakeBreak | None:
        proposal = session.sideline.proposal(session.ledger)
        if proposal is not None and proposal.waiting_for:
            if session.seat in proposal.waiting_for:
                return TakeBreak()
            if now - self._seen > BREAK_HOLD:
                self._since = now
            self._seen = now
            if now - self._since < BREAK_HOLD:
                return None  # signed: no move while the others agree
        return player.choose(session, now)


class BotFrontend:
    """A bot seat that nobody watches: prints the end of the game unless quiet."""

    def __init__(self, player: BotPlayer, quiet: bool = False) -> None:
        self.player = player
        self.quiet = quiet
        self.manners = BreakManners()

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    def show(self, session: Session, events: list, now: float) -> None:
        for event in events:
            if isinstance(event, Finished):
                self.say(result_lines(event.outcome, session.names))
            elif isinstance(event, Stopped):
                self.say(stop_words(event, session.names))

    def choose(self, session: Session | None, now: float, typed: bool) -> Action | TakeBreak | None:
        if session is None:
            return None
        return self.manners.choose(session, now, self.player)

    def wake_at(self, session: Session, now: float) -> float:
        return self.player.wake_at(session, now)

    def input_fd(self) -> int | None:
        return None
