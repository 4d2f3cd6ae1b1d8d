"""A person at a terminal: draws the screen from their view, reads their choices.

How it works
------------
The peer loop (net/peer.py) calls this frontend; it never touches sockets or the
full state, and it never waits on the terminal: what it draws goes through a
writer thread (ui/screen_writer.py), so a paused terminal cannot stall the
peer.  ``show`` is called with what the session applied (and once a second with
nothing, to keep "waiting for Ben (no contact for 12 s)" current) and redraws
the screen: in place on a TTY, printed once per change on a pipe, so a
log of the session stays readable.  ``choose`` is called on every pass of the
loop and whenever the person typed a line (the loop polls stdin with the
sockets, so the network keeps running while the player thinks); it returns the
chosen action or None.  The frontend keeps no choice for later and nobody sets
anything on it: what the person typed is parsed against the legal moves of that
moment and either returned or answered with a message.

What the screen says is our seat's to know and nobody else's: the event lines
name the hidden cards our own ledger read as an entry moved them (the session's
``Seen``: our deals, the card we gave or were given), so another seat's screen and
a spectator's read "a card" there.  The lines passed to the game's screen are the
events since the person's last choice (a few more for context): the screen shows
what fits and says how many it hides, and ``r`` lists them all.  A message (the
help, a hint about what was typed) belongs to the menu it was said under and goes
with it.  The bell rings once as a choice comes (``ui/bell.py``; ``--no-bell``),
on a terminal only.

With a :class:`~p2ptable.bots.seat.BotPlayer` the same screen follows the game
while the bot chooses (``play GAME --bot greedy``: watching bots play).

The end of standard input (Ctrl-D on a terminal, a pipe or /dev/null that
ends) is the person leaving, as Ctrl-C is: ``choose`` returns
:class:`~p2ptable.net.frontend.Leave`, the peer tells the others and ends (exit
status 130), and ``p2ptable resume FILE`` continues the seat at once.  On a
terminal that is at once; when the input was never a terminal and ends before
the game has begun (``host ... < /dev/null``), it is when the game begins, so
the seat leaves a game it can be resumed in, not the lobby.  A seat the others
said they left is shown as "Ben left: input closed; waiting for Ben to resume".
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from p2ptable.bots.seat import BreakManners
from p2ptable.engine.api import Action, Outcome
from p2ptable.net.events import Seen, SpectatorTalked
from p2ptable.net.frontend import Chosen, Leave, LeaveForGood, LobbyCommand, Say, TakeBreak
from p2ptable.net.session import Finished, Session, Stopped
from p2ptable.net.sideline import BreakAgreed, BreakNews, Declined, Talked
from p2ptable.replay.ledger import Applied
from p2ptable.ui import prompt, typed_line
from p2ptable.ui.bell import BELL, rings
from p2ptable.ui.endings import stop_words
from p2ptable.ui.narrative import card_names, event_line, talk_line
from p2ptable.ui.screen_writer import ScreenWriter
from p2ptable.ui.screens import final_view, screens_for
from p2ptable.ui.spectators_shown import SpectatorsShown
from p2ptable.ui.style import RECENT_LINES, color_enabled
from p2ptable.ui.text import listed

if TYPE_CHECKING:
    from p2ptable.bots.seat import BotPlayer

CLEAR = "\x1b[2J\x1b[H"
SILENT_AFTER = 3.0
RECENT_KEPT = 200  # event lines kept for the screen, which shows what fits
CLOCK = 1.0  # seconds between redraws of the status lines
WIDTH = 80  # columns on a pipe; on a terminal, its own
MIN_WIDTH = 40  # narrower than this, lines are cut rather than wrapped into nonsense
INPUT_CLOSED = "input closed"
# How a seat's leaving is said, by the reason its bye gave (net/events.py).
LEFT_WORDS = {"input closed": ": input closed", "interrupted": " (interrupted)", "": ""}


def beside_line(event: Talked | BreakNews, names: Sequence[str]) -> str:
    """A line of talk, or a seat's signature on a break, as the events list says
    it: in the columns of the entries' lines (ui/narrative.py), with no number,
    since it is beside the log, not in it."""
    if isinstance(event, Talked):
        return talk_line(names[event.line.seat], event.line.text)
    # Who proposed is not for us to know (signatures may arrive in any order):
    # each seat that signed wants the break.
    said = f"{names[event.seat]} wants a break (when every seat types break, we stop)"
    return f"{'':5}  {'break':<9} {said}"


class TerminalFrontend:
    def __init__(
        self,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        bot: BotPlayer | None = None,
        bell: bool = True,
        hide_spectators: bool = False,
    ) -> None:
        self.stdin = stdin or sys.stdin
        # The spectators' channel (net/spectator_talk.py) on this screen: hidden
        # by --hide-spectators or `hide spectators`, until `show spectators`.
        self.spectators = SpectatorsShown(hide_spectators)
        self.out = stdout or sys.stdout
        self.writer = ScreenWriter(self.out)  # never blocks the peer (ui/screen_writer.py)
        self.bot = bot
        self._manners = BreakManners()  # a bot at our seat agrees to breaks
        self._wanting: set[int] = set()  # seats whose wish for a break was said
        self.tty = self.out.isatty()
        self.color = color_enabled(os.environ, self.tty)
        self.recent: list[str] = []
        self.message: str | None = None
        self._message_for: tuple[Action, ...] = ()  # the menu the message is about
        self.stdin_closed = bot is not None  # a bot plays: the keyboard is not read
        self.input_ended = False  # the person's input reached its end: they leave
        try:
            self.tty_input = bot is None and self.stdin.isatty()
        except (OSError, ValueError):
            self.tty_input = False
        self._last_screen = ""
        self._last_clock = float("-inf")
        self.bell = bell and bot is None  # a bot's seat never calls anyone
        self._to_choose = False  # whether the last screen drawn had a menu (ui/bell.py)
        self._told = 0  # event lines ever added to recent
        self._chose_at = 0  # ... when the person last made a choice
        # The table's clock, set by bots/clock.py at a table with one: the line
        # of the time left for whoever must act (counted in tens on a pipe).
        self.clock_line: Callable[[Session, float, int], str | None] | None = None

    # -- Frontend protocol -------------------------------------------------------

    def say(self, text: str) -> None:
        self.writer.say(text)

    def close(self) -> None:
        """The peer has ended: what is still to be shown goes out first."""
        self.writer.close()

    def input_fd(self) -> int | None:
        if self.stdin_closed:
            return None
        try:
            return self.stdin.fileno()
        except (OSError, ValueError):
            return None

    def show(self, session: Session, events: list, now: float) -> None:
        # The hidden cards our own ledger read as an entry moved them (ours only).
        seen = {e.index: e.cards for e in events if isinstance(e, Seen)}
        for event in events:
            line = None
            if isinstance(event, Applied):
                cards = card_names(session.game, seen.get(event.index, {}))
                line = event_line(event, session.names, cards)
            elif isinstance(event, Talked):
                line = beside_line(event, session.names)
            elif isinstance(event, SpectatorTalked):
                line = self.spectators.heard(event)  # None while hidden
            elif isinstance(event, BreakNews) and event.seat not in self._wanting:
                # A wish stands from move to move: said once, then in the status lines.
                self._wanting.add(event.seat)
                line = beside_line(event, session.names)
            elif isinstance(event, Declined):
                self.message, self._message_for = event.reason, tuple(self._actions(session))
                self._last_screen = ""
            if line is not None:
                self.recent.append(line)
                self._told += 1
        del self.recent[:-RECENT_KEPT]
        if not events and now - self._last_clock < CLOCK:
            return
        self._last_clock = now
        self.redraw(session, now)
        for event in events:
            if isinstance(event, Finished):
                self.final(session, event.outcome)
            elif isinstance(event, Stopped):
                self.say("\n" + stop_words(event, self._names(session)))
            elif isinstance(event, BreakAgreed):
                self.say(f"\nEvery seat agreed to a break at entry {event.agreement.position.at}.")

    def wake_at(self, session: Session, now: float) -> float:
        clock = self._last_clock + CLOCK
        return clock if self.bot is None else min(clock, self.bot.wake_at(session, now))

    def choose(self, session: Session | None, now: float, typed: bool) -> Chosen:
        """The action chosen now: a bot's, or what the person just typed; or
        :class:`Leave` once the person's input has ended (see the module docstring)."""
        if self.bot is not None:
            if session is None:
                return None
            return self._manners.choose(session, now, self.bot)
        line = None
        if typed and not self.stdin_closed:
            line = self.stdin.readline()
            if line == "":
                self.stdin_closed = self.input_ended = True  # the loop stops polling it
        if self.input_ended:
            if session is None and not self.tty_input:
                return None  # not in the lobby: once the game has begun (see above)
            return Leave(INPUT_CLOSED)
        if line is None:
            return None
        actions = self._actions(session) if session is not None else ()
        choice = typed_line.meaning(session, line, actions)  # ui/typed_line.py
        if isinstance(choice, LobbyCommand):
            return choice  # the lobby's (net/lobby_commands.py)
        if session is None:  # hiding the spectators, for the game to come: ours to keep
            assert isinstance(choice, prompt.Spectators)
            self.say(self.spectators.before_game(choice.shown))
            return None
        self._last_screen = ""  # redraw even if the screen is the same
        self._message_for = tuple(actions)  # said about this menu, and gone with it
        if isinstance(choice, prompt.Help):
            self.message = prompt.help_text(session.game.name, self._width())
        elif isinstance(choice, prompt.Recent):
            self.message = self._since_choice()
        elif isinstance(choice, prompt.Invalid):
            self.message = choice.message
        elif isinstance(choice, Say | TakeBreak | LeaveForGood):
            self.message = None
            return choice  # the screen shows a line once it is said
        elif isinstance(choice, prompt.Spectators):
            self.message = self.spectators.wished(choice.shown, session.ledger.spectators_talk)
        else:
            self.message = None
            self._chose_at = self._told  # the events since this choice are the new ones
            return choice
        self.redraw(session, now)
        return None

    def _since_choice(self) -> str:
        """Every event since the person's last choice (as many as are kept)."""
        lines = self.recent[len(self.recent) - min(self._told - self._chose_at, RECENT_KEPT) :]
        if not lines:
            return "Nothing has happened since your last choice."
        # Wrapped to the terminal, a long line (a deal's cards) under its own words.
        width = shutil.get_terminal_size((80, 40)).columns - 1 if self.tty else 10_000
        said = ["Since your last choice:"]
        for line in lines:
            said += textwrap.wrap(line, max(width, 40), subsequent_indent=" " * 17) or [line]
        return "\n".join(said)

    # -- drawing -----------------------------------------------------------------

    def _names(self, session: Session) -> list[str]:
        return session.names

    def _actions(self, session: Session) -> Sequence[Action]:
        return session.legal_actions()

    def status_lines(self, session: Session, now: float) -> list[str]:
        lines = status_lines(session, now, exact=self.tty)
        # The table's clock first: the time left for whoever must act.
        clock = self.clock_line(session, now, 1 if self.tty else 10) if self.clock_line else None
        return ([clock] if clock is not None else []) + lines

    def screen(self, session: Session, now: float) -> str:
        screens = screens_for(session.game.name)
        view = session.view()
        names = session.names
        below: list[str] = []
        actions = self._actions(session) if self.bot is None else ()
        if self.message and tuple(actions) != self._message_for:
            self.message = None  # the help or the hint was about a menu that is gone
        if actions:
            below.append("")
            menu = prompt.menu_for(session.game.name, view, actions, names)
            below += menu.lines(self._width())
            if session.choosing_together():
                below.append("Everyone chooses at once: nobody sees your choice until all have.")
            if session.can_leave():
                below.append("leave: a bot plays for me (type leave)")
            below.append("Your choice (number, or ? for help):")
        if self.message:
            below += self.message.splitlines()
        rows = None
        if self.tty:
            rows = max(12, shutil.get_terminal_size((80, 40)).lines - len(below) - 1)
        status = self.status_lines(session, now)
        # Every event since our last choice, and a few before for context: the screen
        # shows what fits and says how many earlier ones it does not.
        since = max(self._told - self._chose_at, RECENT_LINES)
        recent = self.recent[-since:]
        top = screens.render(
            view, names, recent, status, self.color, rows=rows, width=self._width()
        )
        return "\n".join([top, *below])

    def _width(self) -> int:
        """The terminal's columns (80 on a pipe): the screen is never wider, and
        never hard-wrapped at 80 on a wider or narrower terminal."""
        if not self.tty:
            return WIDTH
        return max(MIN_WIDTH, shutil.get_terminal_size((WIDTH, 40)).columns)

    def redraw(self, session: Session, now: float) -> None:
        if session.finished or session.stopped is not None:
            return
        text = self.screen(session, now)
        if text == self._last_screen:
            return
        self._last_screen = text
        to_choose = self.bot is None and bool(self._actions(session))
        ring = self.tty and rings(self._to_choose, to_choose, self.bell)
        self._to_choose = to_choose
        bell = BELL if ring else ""
        self.writer.screen(bell + CLEAR + text + "\n" if self.tty else text + "\n\n")
        if not self.tty:
            # Printed, not redrawn: said once, not again under every later screen.
            self.message = None

    def final(self, session: Session, result: Outcome) -> None:
        screens = screens_for(session.game.name)
        view = final_view(session.public_view(), result)
        self.say(
            ("\n" if not self.tty else CLEAR)
            + screens.render_final(view, self._names(session), self.color)
        )


def gone_line(game: Any, name: str, hand: Sequence[int]) -> str:
    """The line that says a player left a table that keeps going, with the
    cards a bot now plays for them, face up for everyone."""
    card_name = getattr(game, "card_name", None)
    cards = ", ".join(card_name(c) if card_name else f"card {c}" for c in hand) or "none"
    return f"{name} left the table: a bot plays for {name}, cards face up: {cards}"


def gone_lines(
    game: Any, names: Sequence[str], gone: Mapping[int, Sequence[int]], but: int | None = None
) -> list[str]:
    """A :func:`gone_line` for each seat gone from a table that keeps going
    (``gone``: seat -> hand, ``SealedBook.gone_hands``), except ``but`` (the
    reader's own seat, told in other words)."""
    return [gone_line(game, names[seat], hand) for seat, hand in gone.items() if seat != but]


def status_lines(session: Session, now: float, exact: bool = True) -> list[str]:
    """What the table waits for, in words: secret choices, seats that left or are
    silent, a break proposed.  Silences count seconds when ``exact``, else tens (a log on a pipe
    gets a line per 10 s, not per second)."""
    names = session.names
    lines = []
    mine, others, chosen = session.secret_choice()
    if mine is not None and others:
        said = screens_for(session.game.name).describe(session.view(), mine, names)
        who = listed([names[s] for s in others])
        lines.append(f"waiting for {who} to choose; you chose: {said} (secret until then)")
    elif mine is None and chosen:
        who = listed([names[s] for s in chosen])
        lines.append(f"{who} chose already (nobody sees what until everyone has)")
    gone = session.gone_hands()
    if session.leaving_at_turn:  # typed leave away from our turn (net/departure_round.py)
        lines.append("You leave at your turn: a bot plays for you from then on")
    if session.seat in gone:
        why = (
            "you chose to leave"
            if session.left_on_purpose(session.seat)
            else "you were out of contact too long, and the others rebuilt your cards"
        )
        # A seat that just typed leave is on its way out (its peer ends); one
        # resumed after it left stays to watch.
        then = "" if session.left_for_good else "; you watch the rest"
        lines.append(f"You left the table ({why}): a bot plays for you{then}")
    lines += gone_lines(session.game, names, gone, but=session.seat)
    for seat, why in session.left_seats().items():
        if seat in gone:
            continue
        said = LEFT_WORDS.get(why, "")
        lines.append(f"{names[seat]} left{said}; waiting for {names[seat]} to resume")
    proposal = session.sideline.proposal(session.ledger)
    if proposal is not None and proposal.waiting_for:
        if session.seat in proposal.waiting_for:
            signed = [n for s, n in enumerate(names) if s not in proposal.waiting_for]
            lines.append(f"a break: {listed(signed)} agreed; type break to agree, or play on")
        else:
            waiting = listed([names[s] for s in proposal.waiting_for])
            lines.append(f"a break: waiting for {waiting} to agree (type break)")
    behind = session.resume_waiting_on()
    if behind:
        who = listed([names[s] for s in behind])
        lines.append(f"resumed: waiting for {who} to say where the game stands")
    for seat, quiet in session.silent_peers(now, SILENT_AFTER):
        if seat in gone:
            continue  # nobody waits for a seat a bot plays
        if quiet is None:
            lines.append(f"waiting for {names[seat]} (not connected yet)")
        else:
            shown = int(quiet) if exact else int(quiet) // 10 * 10
            lines.append(f"waiting for {names[seat]} (no contact for {shown} s)")
    return lines
