"""What sits at a seat, as the peer loop sees it: a person or a bot.

A frontend is told what happened (``show``) and asked what the seat does
(``choose``); it answers by returning (a move, or that its person left) and
nothing is ever set on it.  One
protocol for people (ui/terminal.py) and bots (bots/seat.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from p2ptable.engine.api import Action
from p2ptable.net.session import Session


@dataclass(frozen=True)
class Leave:
    """What ``choose`` returns when the seat's person is gone (the end of their
    input, net/events.py ``LEAVE_REASONS``): the peer tells the others (a bye)
    and ends, and the seat can be resumed at once."""

    reason: str


@dataclass(frozen=True)
class ClockMove:
    """What ``choose`` returns when the seat's clock ran out (bots/clock.py): the
    table's default bot chose ``action`` for the person, and the move says so
    in the log (only its own seat can sign that)."""

    action: Action


@dataclass(frozen=True)
class LobbyCommand:
    """What ``choose`` returns for a line a person typed before the game began
    (``start``, ``remove NAME``: net/lobby_commands.py)."""

    line: str


@dataclass(frozen=True)
class Say:
    """What ``choose`` returns when the seat's person says a line to the table
    (net/sideline.py): it goes to every seat at once, whoever's turn it is."""

    text: str


@dataclass(frozen=True)
class TakeBreak:
    """What ``choose`` returns when the seat proposes a break, or agrees to the
    one proposed (net/sideline.py)."""


@dataclass(frozen=True)
class LeaveForGood:
    """What ``choose`` returns when the seat's person leaves a table that keeps
    going for good ("leave: a bot plays for me", at their turn): the peer
    publishes the seat's deck secret in a signed departure and ends once the
    others have it (net/departure_round.py); a bot plays the seat from then on."""


# What goes beside the game, whoever's turn it is (net/session_shell.py).
Beside = Say | TakeBreak | LeaveForGood

# What ``choose`` may return.
Chosen = Action | ClockMove | LobbyCommand | Leave | LeaveForGood | Say | TakeBreak | None


class Frontend(Protocol):
    """What sits at a seat: a person at a terminal (ui/terminal.py) or a bot
    (bots/seat.py).  The loop tells it what happened and asks it what the seat
    does; it answers by returning, and nothing is ever set on it."""

    def say(self, text: str) -> None:
        """A line about the lobby or the connection, before or beside the game."""
        ...

    def show(self, session: Session, events: list, now: float) -> None:
        """What the session just reported (possibly nothing: then it is the clock,
        at the time ``wake_at`` asked for)."""
        ...

    def choose(self, session: Session | None, now: float, typed: bool) -> Chosen:
        """The seat's move now, or None.  Asked on every pass of the loop, and
        with ``typed`` when ``input_fd`` is readable (a person typed a line;
        ``session`` is None then if the game has not started).  The loop submits
        the action if it is still the seat's turn; :class:`Leave` ends the peer;
        :class:`Say` and :class:`TakeBreak` go beside the game at any time."""
        ...

    def wake_at(self, session: Session, now: float) -> float:
        """When the frontend next needs a call with no input (a bot's think time
        ending, a screen's clock): the loop sleeps until then or until a message."""
        ...

    def input_fd(self) -> int | None:
        """The file descriptor a person types on, or None (a bot; input closed)."""
        ...

    # Optional: ``close()``, called once when the peer ends, so that output the
    # frontend holds back (ui/screen_writer.py) is out before the process goes on.
