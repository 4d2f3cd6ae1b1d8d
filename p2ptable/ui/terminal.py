"""A person at a terminal: draws the screen from their view, reads their choices.

The peer loop calls this frontend; it never touches sockets or the full state.
On a TTY the screen is redrawn in place; on a pipe it is printed once per change,
so a log of the session stays readable.  Input is read a line at a time when the
peer loop's poll says stdin is readable, so the network keeps running while the
player thinks.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

from p2ptable.engine.api import Action
from p2ptable.net.session import Finished, Rejected, Session, Stopped
from p2ptable.replay.ledger import Applied
from p2ptable.ui import prompt
from p2ptable.ui.screens import screens_for
from p2ptable.ui.style import color_enabled
from p2ptable.ui.text import event_line

CLEAR = "\x1b[2J\x1b[H"
SILENT_AFTER = 3.0


class TerminalFrontend:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.tty = self.out.isatty()
        self.color = color_enabled(os.environ, self.tty)
        self.recent: list[str] = []
        self.message: str | None = None
        self.chosen: Action | None = None
        self.stdin_closed = False
        self._last_screen = ""
        self._last_tick = 0.0

    # -- Frontend protocol -------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def stdin_fd(self) -> int | None:
        try:
            return self.stdin.fileno()
        except (OSError, ValueError):
            return None

    def on_events(self, session: Session, events: list, now: float) -> None:
        for event in events:
            if isinstance(event, Applied):
                self.recent.append(event_line(event, session.ledger))
                self.recent = self.recent[-20:]
            elif isinstance(event, Rejected):
                pass  # recorded in the peer log; nothing a player can act on
        self.redraw(session, now)
        for event in events:
            if isinstance(event, Finished):
                self.final(session)
            elif isinstance(event, Stopped):
                self.say(f"\nThe game was stopped: {event.reason}")

    def tick(self, session: Session, now: float) -> None:
        """Called every loop: keeps "waiting for Ben (no contact for 12 s)" current."""
        if now - self._last_tick >= 1.0:
            self._last_tick = now
            self.redraw(session, now)

    def wake_at(self, session: Session, now: float) -> float:
        return self._last_tick + 1.0

    def decide(self, session: Session, now: float) -> Action | None:
        self.redraw(session, now)
        action, self.chosen = self.chosen, None
        return action

    def on_stdin(self, session: Session | None, now: float) -> Action | None:
        line = self.stdin.readline()
        if line == "":
            self.stdin_closed = True
            self.say("Input closed: this seat can no longer move (use --bot to let a bot play).")
            return None
        if session is None:
            return None
        actions = self._actions(session)
        screens = screens_for(session.ledger.game.name)
        view = session.ledger.game.view(session.ledger.state, session.seat)
        names = self._names(session)
        choice = prompt.parse_choice(line, actions, lambda a: screens.describe(view, a, names))
        if isinstance(choice, prompt.Help):
            self.message = prompt.help_text(session.ledger.game.name)
        elif isinstance(choice, prompt.Invalid):
            self.message = choice.message
        else:
            self.message = None
            self._last_screen = ""
            return choice
        self._last_screen = ""
        self.redraw(session, now)
        return None

    # -- drawing -----------------------------------------------------------------

    def _names(self, session: Session) -> list[str]:
        return [s.name for s in session.ledger.seats]

    def _actions(self, session: Session) -> Sequence[Action]:
        if not session.my_turn():
            return ()
        return session.ledger.game.legal_actions(session.ledger.state, session.seat)

    def status_lines(self, session: Session, now: float) -> list[str]:
        names = self._names(session)
        lines = []
        for seat, quiet in session.silent_peers(now, SILENT_AFTER):
            if quiet is None:
                lines.append(f"waiting for {names[seat]} (not connected yet)")
            else:
                # On a pipe, count in tens so the log gets a line per 10 s, not per second.
                shown = int(quiet) if self.tty else int(quiet) // 10 * 10
                lines.append(f"waiting for {names[seat]} (no contact for {shown} s)")
        return lines

    def screen(self, session: Session, now: float) -> str:
        game = session.ledger.game
        screens = screens_for(game.name)
        view = game.view(session.ledger.state, session.seat)
        names = self._names(session)
        parts = [
            screens.render(view, names, self.recent, self.status_lines(session, now), self.color)
        ]
        actions = self._actions(session)
        if actions:
            parts.append("")
            parts += prompt.menu_lines(actions, lambda a: screens.describe(view, a, names))
            parts.append("Your choice (number, or ? for help):")
        if self.message:
            parts.append(self.message)
        return "\n".join(parts)

    def redraw(self, session: Session, now: float) -> None:
        if session.finished or session.stopped is not None:
            return
        text = self.screen(session, now)
        if text == self._last_screen:
            return
        self._last_screen = text
        if self.tty:
            self.out.write(CLEAR + text + "\n")
        else:
            self.out.write(text + "\n\n")
        self.out.flush()

    def final(self, session: Session) -> None:
        game = session.ledger.game
        screens = screens_for(game.name)
        view = game.view(session.ledger.state, None)
        self.say(
            ("\n" if not self.tty else CLEAR)
            + screens.render_final(view, self._names(session), self.color)
        )
