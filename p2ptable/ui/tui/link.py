"""The peer's side of the full-screen table, and running the peer loop beside it.

How it works
------------
:class:`FullScreenFrontend` is a frontend (``net/frontend.py``) like the line
mode's: the peer loop tells it what happened (``show``, ``say``) and asks it
what the seat does (``choose``).  It never draws.  It builds a
:class:`~p2ptable.ui.tui.snapshot.Snapshot` and hands it to the app through
a :class:`~p2ptable.ui.tui.channel.Link`, which keeps only the newest one and
posts the app one message (Textual's ``post_message``, safe from another
thread, which never waits); the app takes the newest snapshot when it gets to
it.  So a terminal that does not
move (Ctrl-S, a stalled ssh link) holds up the app's thread, never the peer's.

The person's choices go the other way: the app puts an action (or a
:class:`~p2ptable.net.frontend.Leave`, or a line typed on its typing line) on a
queue and writes a byte to a pipe whose other end is this frontend's
``input_fd``, which the peer loop polls with its sockets; ``choose`` then takes
the oldest (one a pass), and a move no longer legal (the table moved on) is
answered with a message, never submitted.  A typed line means what it means in
the line mode (``ui/typed_line.py``): in the lobby a lobby command (``start``,
``bots``, ``remove NAME``), during the game a choice, a line of talk or
``break``.  Talk and a seat's wish for a break are among the event lines as the
line mode words them; a line or a break that could not go ("slow down: ...") is
the message under the choice.  So are the spectators' lines at a table that
lets them talk ("(spectator) Eve says: ...", which the app marks apart), unless
the person hid them (``hide spectators``, ``--hide-spectators``:
``ui/spectators_shown.py``, as the line mode keeps it).

:meth:`FullScreenFrontend.run_peer` runs the peer loop in a thread of its own
and the app in the calling (main) thread, and returns the loop's exit status;
what must stay readable after the table closes (the final scores, the words
that stopped the game) is printed once the app is gone.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from p2ptable.bots.seat import BreakManners
from p2ptable.engine.api import Action
from p2ptable.net.events import Seen, SpectatorTalked
from p2ptable.net.frontend import Chosen, Leave, LeaveForGood, LobbyCommand, Say, TakeBreak
from p2ptable.net.session import Finished, Session, Stopped
from p2ptable.net.sideline import BreakAgreed, BreakNews, Declined, Talked
from p2ptable.replay.ledger import Applied
from p2ptable.ui import prompt, typed_line
from p2ptable.ui.endings import stop_words
from p2ptable.ui.narrative import card_names, event_line
from p2ptable.ui.screens import final_view, screens_for
from p2ptable.ui.spectators_shown import SpectatorsShown
from p2ptable.ui.terminal import beside_line, status_lines
from p2ptable.ui.text import name_seats
from p2ptable.ui.tui.channel import INTERRUPTED, Link, Typed
from p2ptable.ui.tui.snapshot import Snapshot, of_view

if TYPE_CHECKING:
    from p2ptable.bots.seat import BotPlayer

T = TypeVar("T")
CLOCK = 1.0  # seconds between redraws of the status lines ("no contact for 12 s")
PEER_GONE_WAIT = 10.0  # seconds the app's end waits for the peer loop to leave
# What a typed line the line mode answers on its screen is answered with here.
TYPED_HELP = "For the help press ? (Esc first closes the typing line)."
TYPED_RECENT = "Every event is in the events pane: PgUp/PgDn scroll it."
NOT_YET = "The game has not started yet: waiting for the table to fill."
MOVED_ON = "That choice is no longer possible: the table moved on."


class FullScreenFrontend:
    """A person (or a bot they watch) at the full-screen table: the peer's side."""

    def __init__(
        self,
        bot: BotPlayer | None = None,
        bell: bool = True,
        out: TextIO | None = None,
        hide_spectators: bool = False,
    ) -> None:
        self.bot = bot
        self.bell = bell
        self.out = out or sys.stdout
        self.link = Link()
        self.lines: list[str] = []  # every event and every line said: nothing is lost
        self.after: list[str] = []  # printed once the table has closed
        self.message = ""
        self.final = ""
        self._last_clock = float("-inf")
        self._session: Session | None = None
        self._left = False
        self._manners = BreakManners()  # a bot at our seat agrees to breaks
        self._wanting: set[int] = set()  # seats whose wish for a break was said
        # The spectators' channel on this screen (--hide-spectators, `hide spectators`).
        self.spectators = SpectatorsShown(hide_spectators)
        # The table's clock, set by bots/clock.py at a table with one: the line
        # of the time left for whoever must act, first of the status lines.
        self.clock_line: Callable[[Session, float, int], str | None] | None = None

    # -- Frontend protocol -------------------------------------------------------------

    def say(self, text: str) -> None:
        self.lines += text.strip("\n").splitlines() or [""]
        self._publish(self._session, None)

    def input_fd(self) -> int | None:
        return None if self._left else self.link.read_fd

    def show(self, session: Session, events: list, now: float) -> None:
        self._session = session
        # The hidden cards our own ledger read as an entry moved them (ours only),
        # named in its line as the line mode names them (ui/terminal.py).
        seen = {e.index: e.cards for e in events if isinstance(e, Seen)}
        for event in events:
            if isinstance(event, Applied):
                cards = card_names(session.game, seen.get(event.index, {}))
                line = event_line(event, session.names, cards)
                self.lines.append(name_seats(line, session.names))
            elif isinstance(event, Finished):
                screens = screens_for(session.game.name)
                view = final_view(session.public_view(), event.outcome)
                self.final = screens.render_final(view, session.names, False)
                self.after.append(self.final)
            elif isinstance(event, Stopped):
                words = stop_words(event, session.names)
                self.lines.append(words)
                self.after.append(words)
            elif isinstance(event, Talked):
                self.lines.append(beside_line(event, session.names))
            elif isinstance(event, SpectatorTalked):
                heard = self.spectators.heard(event)  # None while hidden
                self.lines += [heard] if heard is not None else []
            elif isinstance(event, BreakNews) and event.seat not in self._wanting:
                # A wish stands from move to move: said once, then in the status lines.
                self._wanting.add(event.seat)
                self.lines.append(beside_line(event, session.names))
            elif isinstance(event, Declined):
                self.message = event.reason  # "slow down: ...", under the choice
            elif isinstance(event, BreakAgreed):
                words = f"Every seat agreed to a break at entry {event.agreement.position.at}."
                self.lines.append(words)
                self.after.append(words)
        if not events and now - self._last_clock < CLOCK:
            return
        self._last_clock = now
        self._publish(session, now)

    def wake_at(self, session: Session, now: float) -> float:
        clock = self._last_clock + CLOCK
        return clock if self.bot is None else min(clock, self.bot.wake_at(session, now))

    def choose(self, session: Session | None, now: float, typed: bool) -> Chosen:
        item = self.link.next() if typed else None  # one a pass (channel.py)
        if isinstance(item, Leave):
            self._left = True
            return item
        if self.bot is not None:  # the person watches: their keys choose nothing
            return None if session is None else self._manners.choose(session, now, self.bot)
        if item is None:
            return None
        chosen = self._meant(session, item)
        self._publish(session, now)
        return chosen

    def _meant(self, session: Session | None, item: Action | Typed) -> Chosen:
        """What the person picked or typed, for the peer; anything else is
        answered with the message under the choice."""
        self.message = ""
        if isinstance(item, Typed):
            over = session is None or session.finished or session.stopped is not None
            actions = () if session is None or over else session.legal_actions()
            meant = typed_line.meaning(session, item.line, actions)
            if not isinstance(meant, Action):
                return self._answered(session, meant)
            item = meant
        if session is None:
            self.message = NOT_YET
        elif item in session.legal_actions():
            return item
        else:
            self.message = MOVED_ON
        return None

    def _answered(self, session: Session | None, meant: typed_line.Meaning) -> Chosen:
        """A typed line that is not a move: for the peer (the lobby, or every
        seat, says what came of it), or answered here as the line mode answers."""
        if isinstance(meant, LobbyCommand | Say | TakeBreak | LeaveForGood):
            return meant
        if isinstance(meant, prompt.Help):
            self.message = TYPED_HELP
        elif isinstance(meant, prompt.Recent):
            self.message = TYPED_RECENT
        elif isinstance(meant, prompt.Invalid):
            self.message = meant.message[:1].upper() + meant.message[1:] + "."
        elif isinstance(meant, prompt.Spectators):
            if session is None:  # the lobby: kept for the game to come
                self.message = self.spectators.before_game(meant.shown)
            else:
                talks = session.ledger.spectators_talk
                self.message = self.spectators.wished(meant.shown, talks)
        return None

    def close(self) -> None:
        """The peer has ended (nothing is held back here: the app draws)."""

    # -- the snapshot ------------------------------------------------------------------

    def snapshot(self, session: Session | None, now: float | None) -> Snapshot:
        lines = tuple(self.lines)
        typing = self.bot is None  # talk, break and the lobby's commands
        if session is None:
            return Snapshot("", None, lines=lines, message=self.message, typing=typing)
        over = session.finished or session.stopped is not None
        return of_view(
            session.game.name,
            session.view(),
            session.names,
            lines,
            () if self.bot is not None or over else session.legal_actions(),
            self._status(session, now),
            together=session.choosing_together(),
            message=self.message,
            final=self.final,
            watching=self.bot is not None,
            typing=typing,
        )

    def _status(self, session: Session, now: float | None) -> tuple[str, ...]:
        if now is None:
            return ()
        clock = self.clock_line(session, now, 1) if self.clock_line is not None else None
        # The menu's "leave: a bot plays for me", at a table that keeps going.
        over = session.finished or session.stopped is not None
        leave = self.bot is None and not over and session.can_leave()
        offer = ["leave: a bot plays for me (type leave)"] if leave else []
        return (*([clock] if clock is not None else []), *status_lines(session, now), *offer)

    def _publish(self, session: Session | None, now: float | None) -> None:
        self.link.publish(self.snapshot(session, now))

    # -- running -----------------------------------------------------------------------

    def run_peer(self, loop: Callable[[], int]) -> int:
        """Run the peer ``loop`` beside the table (:func:`run_beside`); its exit
        status.  Leaving the app (its leave key, Ctrl-C) makes the loop leave as
        Ctrl-C does; the loop ending closes the app."""
        status = run_beside(self.link, loop, self.bell)
        # A table that never began ends with what was said (a host that did not
        # answer, and what to check): it stays readable once the table has closed.
        after = self.after if self._session is not None else self.lines
        for text in after:
            print(text, file=self.out, flush=True)
        return 130 if status is None else int(status)


def run_beside(link: Link, loop: Callable[[], T], bell: bool = True) -> T | None:
    """Run ``loop`` in a thread of its own and the table in this one (the main
    thread: Textual's signals need it), and return what the loop returned; None
    if it did not end within PEER_GONE_WAIT of the app closing.  The app closing
    first (an interrupt) hands the loop a :class:`Leave`."""
    from p2ptable.ui.tui.app import TableApp

    done: list[Any] = []
    app = TableApp(link, bell=bell)

    def work() -> None:
        try:
            done.append(loop())
        except BaseException as exc:  # a bug of ours: raised again in the main thread
            done.append(exc)
        finally:
            app.peer_ended()

    thread = threading.Thread(target=work, name="peer", daemon=True)
    app.on_start = thread.start
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    finally:
        if thread.is_alive():
            link.send(Leave(INTERRUPTED))
            thread.join(PEER_GONE_WAIT)
        link.close()
    if not done:
        return None
    if isinstance(done[0], BaseException):
        raise done[0]
    return done[0]
