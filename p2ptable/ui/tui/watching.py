"""A spectator's full-screen table (``p2ptable watch``): the public table drawn
by the same app as a seat's (``app.py``), with a typing line for the
spectators' channel at a table that lets spectators talk.

How it works
------------
:class:`SpectatorScreen` is the watch loop's screen (``p2ptable/watch.py``, as
its line mode's ``_Screen``): told what the follower accepted (``draw``), a
line of the table's talk or the spectators' channel (``heard``) and what the
watch says (``say``), it hands the app a snapshot each time through a
:class:`~p2ptable.ui.tui.channel.Link`, never waiting for it.  The snapshot's
``spectator`` marks the public table (the app shows a spectator's keys and
help); its ``typing`` opens the typing line once the genesis says spectators
may talk (:meth:`SpectatorScreen.may_talk`), and closes it when the game is
over.  What the person sends back is read in the watch loop's own thread
(:meth:`SpectatorScreen.typed`): a line typed (``'`` and ``say`` taken off, as
in the line mode: ``ui/spectator_input.py``) to say, or leaving (``q``, then
``y``; Ctrl-C).  A line the channel refused ("slow down: ...") is the message
under the choice, as a seat's refused talk is; a line said is among the events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p2ptable.net.frontend import Leave
from p2ptable.ui.narrative import event_line
from p2ptable.ui.screens import final_view, screens_for
from p2ptable.ui.spectator_input import spoken
from p2ptable.ui.text import name_seats
from p2ptable.ui.tui.channel import Link, Typed
from p2ptable.ui.tui.snapshot import Snapshot, of_view

if TYPE_CHECKING:
    from p2ptable.net.spectator import Follower

WATCHING = "You are watching: no seat, no hand; every entry is checked as it arrives."
MAY_TALK = "Spectators may talk at this table: ' or t opens the typing line, Enter sends."


class SpectatorScreen:
    """The public table on the full-screen table (see the module docstring)."""

    def __init__(self) -> None:
        self.link = Link()
        self.lines: list[str] = []
        self.after: list[str] = []  # printed once the table has closed
        self.message = ""  # under the choice: why a line was not said
        self.talks = False  # the table lets spectators talk (its genesis)
        self.gone = False  # the person left (the leave key, Ctrl-C)
        self._game = ""
        self._view: dict[str, Any] | None = None
        self._names: tuple[str, ...] = ()
        self._status: tuple[str, ...] = (WATCHING,)
        self.dirty = False  # a line of talk came, or the clock ticked: draw again

    # -- told by the watch loop --------------------------------------------------------

    def say(self, text: str) -> None:
        self.lines += text.strip("\n").splitlines()
        self._publish()

    def heard(self, line: str) -> None:
        """A line of the table's talk or of the spectators' channel, among the events."""
        self.lines.append(line)
        self.dirty = True

    def may_talk(self) -> None:
        """The genesis says spectators may talk here: the typing line opens."""
        self.talks = True
        self.heard(MAY_TALK)

    def said(self, line: str) -> None:
        """Our own line, said: among the events; the last refusal is gone."""
        self.message = ""
        self.heard(line)

    def refused(self, reason: str) -> None:
        """Our line was not said (``reason``: "slow down: ..."), under the choice."""
        self.message = f"Not said: {reason}."
        self.dirty = True

    def draw(self, follower: Follower, applied: list, status: list[str]) -> None:
        ledger = follower.ledger
        if ledger is None:
            return
        names = [s.name for s in ledger.seats]
        self.dirty = False
        self.lines += [name_seats(event_line(a, names), names) for a in applied]
        self._game, self._names = ledger.game.name, tuple(names)
        view = self._view = ledger.game.view(ledger.state, None)
        if follower.over and ledger.result is not None:
            final = screens_for(self._game).render_final(
                final_view(view, ledger.result), names, False
            )
            self.after = [final]
        self._status = tuple(status)
        self._publish()

    # -- what the person sent ----------------------------------------------------------

    def typed(self) -> list[str]:
        """The lines typed since the last call, to say (see the module
        docstring); leaving sets ``gone``."""
        texts = []
        for item in self.link.received():
            if isinstance(item, Leave):
                self.gone = True
            elif isinstance(item, Typed):
                text = spoken(item.line)
                texts += [text] if text is not None else []
        return texts

    # -- the snapshot ------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        lines = tuple(self.lines)
        if self._view is None:
            return Snapshot("", None, lines=lines, status=self._status, spectator=True)
        final = self.after[0] if self.after else ""
        return of_view(
            self._game, self._view, self._names, lines, (), self._status,
            message=self.message, final=final, typing=self.talks and not final,
            spectator=True,
        )  # fmt: skip

    def _publish(self) -> None:
        self.link.publish(self.snapshot())
