"""The game session's I/O shell inside the peer: what the session produced,
carried out and noted.

How it works
------------
The session (net/session.py) is sans-IO: it hands out entries to write, frames
to send and events.  :class:`SessionShell` is the peer's collaborator that takes
them: :meth:`SessionShell.flush` writes the entries to the replay (ours synced),
then sends the frames (``deliver``, net/delivery.py), then notes each event (the
peer's log, its stats, a seat's new endpoint) and shows them on the frontend.
:meth:`SessionShell.submit` hands our move to the session and sends it before
anything that follows it; :meth:`SessionShell.advance` does the automatic steps
now due, one at a time, each sent before the next begins.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from p2ptable.engine.api import Action
from p2ptable.net.arrival import Arrival
from p2ptable.net.delivery import deliver
from p2ptable.net.events import Recovered
from p2ptable.net.frontend import Beside, Frontend, LeaveForGood, Say
from p2ptable.net.peer_log import seats_named
from p2ptable.net.seat_files import SeatFiles
from p2ptable.net.session import (
    Failed,
    Finished,
    Moved,
    PeerLeft,
    Rejected,
    Session,
    Stopped,
)
from p2ptable.net.sideline import BreakAgreed, Talked
from p2ptable.net.transport import Transport
from p2ptable.replay.ledger import Applied

# Our bye (wire.md 6.13) is handed to the transport (ZeroMQ's I/O thread puts it
# on the wire within a millisecond or so); the process then waits this long
# before it closes its sockets (which drops what is still queued), and ends.
BYE_WAIT = 0.1
# Automatic steps done in one go (Session.step): more than a whole game's chance,
# open and result entries in a row, so only a bug could reach it.
MAX_STEPS = 10_000


class SessionShell:
    """Carries out one session's output for the peer (module docstring).

    ``note`` writes a line to the peer's log, ``rejected(who, reason, now)``
    counts a refused message there; ``stats`` collects when moves were made and
    applied (``--stats``)."""

    def __init__(
        self,
        session: Session,
        files: SeatFiles,
        arrival: Arrival,
        transport: Transport,
        ui: Frontend,
        note: Callable[[str], None],
        rejected: Callable[[str, str, float], None],
        stats: list[dict],
    ) -> None:
        self.session, self.files, self.arrival = session, files, arrival
        self.transport, self.ui = transport, ui
        self.note, self.rejected, self.stats = note, rejected, stats

    def submit(self, action: Action, now: float, clock: bool = False) -> None:
        session = self.session
        self.stats.append({"i": session.ledger.next_index, "submitted": time.monotonic()})
        session.submit(action, now, advance=False, clock=clock)
        self.flush(now)  # the move leaves before anything that follows it
        self.advance(now)

    def beside(self, wish: Beside, now: float) -> None:
        """A line of talk, or our signature on a break: sent at once, whoever's
        turn it is (net/sideline.py); what the session reports comes in flush.
        Or our player leaves for good, at their turn (:meth:`leave_for_good`)."""
        if isinstance(wish, LeaveForGood):
            if self.session.can_leave():
                self.leave_for_good(now)
            elif self.session.may_leave():
                self.session.departure.wish(self.session)  # at our turn (Session.step)
            return
        if isinstance(wish, Say):
            self.session.say(wish.text, now)
        else:
            self.session.propose_break()
        self.flush(now)

    def leave_for_good(self, now: float) -> None:
        """Our player leaves for good: our signed secret goes out in a departure
        (written, synced, then sent) and a bot plays our seat from then on."""
        self.session.departure.leave(self.session)
        self.flush(now)
        self.advance(now)

    def leave(self, why: str) -> None:
        """We leave during the game: the others are told, with a bye and nothing
        else (wire.md 6.13).  What an interrupt found queued stays unsent: it may
        have come between writing and sending (``deliver``), so its entries may
        not be on disk; a peer sends again what we lack when we are back."""
        session = self.session
        session.take_outgoing()
        session.leave(why)
        try:
            for dest, frame in session.take_outgoing():
                self.arrival.send(dest, frame)
            time.sleep(BYE_WAIT)
        except KeyboardInterrupt:
            pass  # a second Ctrl-C: we go without waiting

    def advance(self, now: float) -> None:
        """The automatic steps now due, each one's frames sent and its entry noted
        as applied before the next one starts (Session.step)."""
        for _ in range(MAX_STEPS):
            progressed = self.session.step(now)
            self.flush(now)
            if not progressed:
                return

    def flush(self, now: float) -> None:
        """What the session produced: its entries written first (the ones we
        signed durably), then its frames sent, then its events shown."""
        session, writer = self.session, self.files.writer
        assert writer is not None
        events = session.take_events()
        stamp = time.monotonic()  # when the session had applied what it reports
        deliver(
            session,
            writer.append,
            self.arrival.send,
            writer.sync,
            writer.keep_only,
            self.files.keep_choice,
        )
        if events:
            self._keep_peer_boots()
            for event in events:
                self._noted(event, stamp, now)
            self.ui.show(session, events, now)

    def _noted(self, event: object, stamp: float, now: float) -> None:
        """One of the session's events, in the stats or the peer's log."""
        if isinstance(event, Applied):
            self.stats.append({"i": event.index, "kind": event.kind, "applied": stamp})
        elif isinstance(event, Rejected):
            who = "unknown sender" if event.seat is None else self.name(event.seat)
            self.rejected(who, self._seats_named(event.reason), now)
        elif isinstance(event, Stopped):
            self.note(f"game stopped: {event.reason}")
        elif isinstance(event, Finished):
            self.note(f"game over: {self._seats_named(event.outcome.explanation)}")
        elif isinstance(event, Failed):
            self.note(f"stopped by a bug of p2ptable: {event.reason}\n{event.trace}")
        elif isinstance(event, Moved):
            self._moved(event)
        elif isinstance(event, Recovered):
            self.note(event.text)
            self.ui.say(f"Note: {event.text}.")
        elif isinstance(event, Talked):
            self.files.keep_talk(event.record)
        elif isinstance(event, BreakAgreed):
            self.files.keep_break(event.agreement)
            self.note(f"the table agreed to a break at entry {event.agreement.position.at}")
        elif isinstance(event, PeerLeft):
            self.note(f"{self.name(event.seat)} left ({event.reason or 'no reason'})")

    def _moved(self, event: Moved) -> None:
        """A seat listens on another port now: our link goes there, and so does
        the endpoint kept with our secrets."""
        members = self.arrival.members
        old = members[event.seat]
        members[event.seat] = replace(old, endpoint=event.endpoint)
        self.transport.forget(old.endpoint)
        self.transport.connect(event.endpoint)
        self.save_secrets(self.files.boots)
        self.note(f"{self.name(event.seat)} listens at {event.endpoint} now")

    def _keep_peer_boots(self) -> None:
        """A peer restarted (its start counter rose): note it with our secrets, so
        a recording of its earlier run is refused after we restart too."""
        boots = self.session.peers.boots()
        if boots != self.files.boots:
            self.files.boots = boots
            self.save_secrets(boots)

    def save_secrets(self, peer_boots: dict[int, int]) -> None:
        endpoints = [m.endpoint for m in self.arrival.members]
        self.files.save_secrets(self.session.seat, self.arrival.boot, endpoints, peer_boots)

    def _seats_named(self, text: str) -> str:
        return seats_named(text, [member.name for member in self.arrival.members])

    def name(self, seat: int) -> str:
        # Seats count from 1 wherever a person reads them.
        members = self.arrival.members
        if seat < len(members):
            return f"seat {seat + 1} ({members[seat].name})"
        return f"seat {seat + 1}"
