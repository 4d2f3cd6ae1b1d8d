"""The full-screen table itself: a Textual app that lays a snapshot out in panes.

How it works
------------
The app owns the terminal and nothing else: it is handed snapshots (``link.py``
posts a :class:`Refresh` when there is a new one; the app takes the newest) and
hands back what the person chose.  Its panes:

* the title (the game, its Day and Period, the decks);
* the board, from the game's ``panes`` (``ui/screens.py``): Teacher's Pet's
  rooms (a map of boxes at 120 x 40 and up), Vorsicht Lehrer!'s track, Pet
  Quartet's conductors;
* the players with their scores, ``>`` marking whose turn it is, and your hand;
* what happens now (highlighted, with a bell, when it becomes your turn) and the
  choice: the grouped menu (``ui/menu.py``), chosen by its number and Enter, by
  the arrows and Enter, or by a click;
* the events, every one since the table opened, scrollable (PgUp / PgDn);
* the status lines (who the table waits for) and the keys.

At 80 x 24 and wider the choice sits right of the players, hand and events, so
board, scores, hand and choice are all in view at once; below 70 columns the
panes stack in one column that scrolls; at 120 x 40 and up the board grows.
Panes are redrawn in place (Textual writes only what changed), so nothing
flickers.  ``?`` shows the help, ``q`` asks, then leaves as Ctrl-C does (at once).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from p2ptable.net.frontend import Leave, LeaveForGood
from p2ptable.ui import prompt
from p2ptable.ui.bell import rings
from p2ptable.ui.menu import Menu
from p2ptable.ui.screens import screens_for
from p2ptable.ui.style import fit
from p2ptable.ui.tui.channel import INTERRUPTED, Link
from p2ptable.ui.tui.questions import LeaveForGoodScreen, LeaveScreen
from p2ptable.ui.tui.snapshot import Snapshot

NARROW = 70  # below this many columns the panes stack
HELP_WIDTH = 84  # the help's box, at most (HelpScreen's max-width)
LARGE = (120, 40)  # from this size on the board grows
LEFT_SHARE = 0.58  # of the width, for the players, hand and events,
LEFT_MOST = 64  # but never more columns than these: the menu gets the rest
NARROW_KEYS = "number ↑↓ Enter click: choose  ?: help  PgUp/Dn  q: leave"
WATCHING_KEYS = "PgUp/PgDn: events   ?: help   q: leave (a bot plays your seat)"
SPECTATOR_KEYS = "PgUp/PgDn: events   ?: help   q: stop watching"
KEYS = "number+Enter, ↑↓+Enter, click: choose   ?: help   PgUp/PgDn: events   q: leave"
LOBBY_LINES = 16  # of what was said before the game, the latest shown on the board
YOUR_TURN = "Your turn"  # how the highlighted turn line begins
WAITING = "Waiting for the table to fill: the game begins when every seat is taken."


class Refresh(Message):
    """A new snapshot waits in the link."""


class PeerEnded(Message):
    """The peer loop has ended: the table closes."""


class HelpScreen(ModalScreen[None]):
    """The help: the keys, the screen, the game's turn in a nutshell."""

    BINDINGS = [
        Binding("escape,q,question_mark,enter", "close", "close"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 84; height: 90%; border: round $accent; padding: 0 1;
        background: $surface;
    }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.text + "\n\n(Esc, q or ? closes this help)"))

    def action_close(self) -> None:
        self.dismiss(None)


class TableApp(App[None]):
    """The full-screen table (see the module docstring)."""

    TITLE = "p2ptable"
    ENABLE_COMMAND_PALETTE = False  # every key the table has is on its key line
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; text-style: bold; }
    #body { height: 1fr; overflow: hidden hidden; }
    #board { height: auto; padding: 0 1; }
    #middle {
        layout: grid; grid-size: 2 2; grid-columns: 58% 1fr; grid-rows: auto 1fr;
        height: 1fr; border-top: solid $primary-darken-2;
    }
    #mine { height: auto; }
    #players, #hand { height: auto; padding: 0 1; }
    #right { row-span: 2; border-left: solid $primary-darken-2; }
    #now { height: auto; padding: 0 1; text-style: bold; }
    #now.my-turn { background: $warning; color: $text; }
    #choice { height: 1fr; border: none; padding: 0 0 0 1; scrollbar-size-vertical: 1; }
    #choice:focus { border: none; }
    #typed { height: auto; padding: 0 1; color: $warning; }
    #events { height: 1fr; min-height: 2; padding: 0 1; scrollbar-size-vertical: 1; }
    #status { height: auto; padding: 0 1; color: $warning; }
    #keys { height: 1; background: $panel; color: $text-muted; padding: 0 1; }

    .narrow #body { overflow-y: auto; }
    .narrow #middle { grid-size: 1; grid-columns: 1fr; grid-rows: auto; height: auto; }
    .narrow #right { row-span: 1; height: auto; border-left: none; border-top: solid $primary; }
    .narrow #choice { height: auto; max-height: 20; }
    .narrow #events { height: 10; border-top: solid $primary-darken-2; }
    """
    BINDINGS = [
        Binding("question_mark", "help", "help", priority=True),
        Binding("q", "leave", "leave", priority=True),
        Binding("l", "leave_for_good", "leave for good", priority=True, show=False),
        Binding("ctrl+c,ctrl+d", "leave_now", "leave now", priority=True, show=False),
        Binding("pageup", "events(-1)", "events up", priority=True, show=False),
        Binding("pagedown", "events(1)", "events down", priority=True, show=False),
        Binding("enter", "enter", "choose", priority=True, show=False),
        Binding("backspace", "backspace", show=False, priority=True),
        Binding("escape", "clear", show=False),
        *(Binding(str(n), f"digit({n})", show=False, priority=True) for n in range(10)),
    ]

    def __init__(self, link: Link, bell: bool = True) -> None:
        super().__init__()
        self.link = link
        self.ring = bell
        self.bells = 0  # how many times the turn bell rang (the tests count them)
        self.on_start: Callable[[], None] | None = None  # starts the peer loop
        self.snapshot: Snapshot = Snapshot("", None)
        self.typed = ""  # digits typed so far
        self._menu: Menu | None = None
        self._lines_shown = 0
        self._leaving = False
        self._ended = False
        self._mounted = False
        self.keys = KEYS  # the key line (show's stepping has its own)

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Container(id="body"):
            yield Static(id="board")
            with Container(id="middle"):
                with Vertical(id="mine"):
                    yield Static(id="players")
                    yield Static(id="hand")
                with Vertical(id="right"):
                    yield Static(id="now")
                    yield OptionList(id="choice")
                    yield Static(id="typed")
                yield RichLog(id="events", wrap=True, markup=False, max_lines=None, min_width=10)
        yield Static(id="status")
        yield Static(KEYS, id="keys")

    def on_mount(self) -> None:
        self._mounted = True
        self.query_one("#events", RichLog).can_focus = False
        self.query_one("#choice", OptionList).focus()
        self._resized(self.size.width)
        self.link.attach(lambda: self._post(Refresh()))
        if self.on_start is not None:
            self.on_start()

    def on_resize(self, event: events.Resize) -> None:
        self._resized(event.size.width)

    def _resized(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")
        if width >= NARROW:
            self.query_one("#middle").styles.grid_columns = f"{self._left(width)} 1fr"
        self._draw()

    @staticmethod
    def _left(width: int) -> int:
        """The columns of the players, hand and events beside the choice."""
        return min(int(width * LEFT_SHARE), LEFT_MOST)

    @property
    def large(self) -> bool:
        return self.size.width >= LARGE[0] and self.size.height >= LARGE[1]

    # -- the peer's messages -----------------------------------------------------------

    def _post(self, message: Message) -> None:
        """From the peer's thread: Textual's post_message is safe there, and never
        waits; an app already closing has nothing more to show."""
        try:
            self.post_message(message)
        except RuntimeError:
            pass

    def peer_ended(self) -> None:
        """Called from the peer's thread when its loop has ended."""
        self._post(PeerEnded())

    def on_refresh(self, message: Refresh) -> None:
        snapshot = self.link.take()
        if snapshot is None:
            return
        if rings(self.snapshot.my_turn, snapshot.my_turn, self.ring and not snapshot.watching):
            self.bell()  # as the line mode rings (ui/bell.py)
            self.bells += 1
        self.snapshot = snapshot
        self._draw()

    def on_peer_ended(self, message: PeerEnded) -> None:
        self._ended = True
        self.exit()

    # -- drawing -----------------------------------------------------------------------

    def _draw(self) -> None:
        if not self._mounted:
            return
        snap, width = self.snapshot, self.size.width
        narrow = width < NARROW
        left = width - 3 if narrow else self._left(width) - 2
        board_width = width - 3 if narrow else width - 2
        title, board, players, hand, now = self._panes(snap, board_width, left)
        self.query_one("#title", Static).update(Text(fit(title, width - 2)))
        self.query_one("#board", Static).update(_text(board))
        self.query_one("#players", Static).update(_text(players))
        hand_pane = self.query_one("#hand", Static)
        hand_pane.update(_text(hand))
        hand_pane.display = bool(hand)
        now_pane = self.query_one("#now", Static)
        now_pane.update(Text(now))
        now_pane.set_class(snap.my_turn, "my-turn")
        self._draw_menu(snap)
        self._draw_typed()
        log = self.query_one("#events", RichLog)
        log.display = snap.view is not None  # in the lobby the board holds what was said
        for line in snap.lines[self._lines_shown :]:
            log.write(Text(line))
        self._lines_shown = max(self._lines_shown, len(snap.lines))
        status = list(snap.status)
        if self._leaving:
            status.append("Leaving the table…")
        spectator = snap.view is not None and snap.view.get("you") is None
        keys = self.keys if width >= len(self.keys) + 2 or self.keys != KEYS else NARROW_KEYS
        if spectator:
            keys = SPECTATOR_KEYS
        elif snap.watching:
            keys = WATCHING_KEYS
        self.query_one("#keys", Static).update(keys)
        status_pane = self.query_one("#status", Static)
        status_pane.update(Text("\n".join(status)))
        status_pane.display = bool(status)

    def _panes(self, snap: Snapshot, board_width: int, left: int) -> tuple:
        if snap.view is None:  # the lobby: what was said, full width (the join line)
            said = [line[:board_width] for line in snap.lines[-LOBBY_LINES:]]
            return "p2ptable", [WAITING, "", *said], [], [], "Waiting for the game to begin."
        screens = screens_for(snap.game)
        names = list(snap.names)
        if screens.panes is None:  # a game without panes: its line-mode screen, whole
            text = screens.render(snap.view, names, (), (), True, width=board_width)
            return snap.game, text.splitlines(), [], [], ""
        board = screens.panes(snap.view, names, True, board_width, self.large)
        mine = screens.panes(snap.view, names, True, left, False)
        now = mine.now
        if snap.final:
            final = [line[:board_width] for line in snap.final.splitlines()]
            return board.title, final, [], [], "The game is over."
        if snap.my_turn and not now.startswith(YOUR_TURN):
            now = f"{YOUR_TURN}: {now}"  # the same words wherever the choice comes from
        if snap.together and snap.my_turn and "at once" not in now:
            now += " Everyone chooses at once: nobody sees your choice until all have."
        if snap.watching:
            now += " (a bot plays your seat)"
        return board.title, board.board, mine.players, mine.hand, now

    def _draw_menu(self, snap: Snapshot) -> None:
        menu = snap.menu
        if menu == self._menu:
            return
        self._menu = menu
        self.typed = ""
        choice = self.query_one("#choice", OptionList)
        choice.clear_options()
        if menu is None:
            return
        options: list[Option] = []
        for group in menu.groups:
            if group.title and len(group.entries) > 1:
                options.append(Option(Text(group.title + ":", style="bold"), disabled=True))
                for entry in group.entries:
                    options.append(Option(f"  {entry.number}) {entry.words}", id=str(entry.number)))
            else:
                for entry in group.entries:
                    words = entry.full if group.title else entry.words
                    options.append(Option(f"{entry.number}) {words}", id=str(entry.number)))
        choice.add_options(options)
        self._highlight(1)
        # A new menu opens at its top, choice 1 in view, whatever the pane showed
        # of the one before (a person at 80x24 found it scrolled past choice 1
        # once the question above it had grown).
        self.call_after_refresh(choice.scroll_home, animate=False)
        if self.has_class("narrow"):
            self.call_after_refresh(self.query_one("#right").scroll_visible, animate=False)

    def _highlight(self, number: int) -> None:
        choice = self.query_one("#choice", OptionList)
        for index in range(choice.option_count):
            if choice.get_option_at_index(index).id == str(number):
                choice.highlighted = index
                return

    def _draw_typed(self) -> None:
        snap = self.snapshot
        words = f"Your choice: {self.typed}_" if self.typed else ""
        if snap.message:
            words = (words + "  " if words else "") + snap.message
        pane = self.query_one("#typed", Static)
        pane.update(Text(words))
        pane.display = bool(words)

    # -- the person's keys -------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The table's keys act on the table only, not over a help or a question."""
        if action in ("leave_now",):
            return True
        return self.screen is self.screen_stack[0]

    def _choose(self, number: int) -> None:
        menu = self.snapshot.menu
        if menu is None:
            self._say("There is nothing to choose right now.")
            return
        for entry in menu.entries:
            if entry.number == number:
                self.typed = ""
                self.link.send(entry.action)
                self._say(f"Chosen: {entry.full}")
                return
        self._say(f"There is no choice {number}: choose 1-{len(menu)}, or ? for help.")

    def _say(self, words: str) -> None:
        pane = self.query_one("#typed", Static)
        pane.update(Text(words))
        pane.display = True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self._choose(int(event.option.id))

    def action_digit(self, digit: int) -> None:
        self.typed = (self.typed + str(digit))[-3:]
        self._draw_typed()
        if self.typed.isdigit():
            self._highlight(int(self.typed))

    def action_backspace(self) -> None:
        self.typed = self.typed[:-1]
        self._draw_typed()

    def action_clear(self) -> None:
        self.typed = ""
        self._draw_typed()

    def action_enter(self) -> None:
        if self.typed:
            typed, self.typed = self.typed, ""  # a number not on the menu is typed again
            self._choose(int(typed))
            return
        choice = self.query_one("#choice", OptionList)
        if choice.highlighted is not None:
            option = choice.get_option_at_index(choice.highlighted)
            if option.id is not None:
                self._choose(int(option.id))

    def action_events(self, pages: int) -> None:
        log = self.query_one("#events", RichLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_help(self) -> None:
        game = self.snapshot.game
        width = max(30, min(HELP_WIDTH, int(self.size.width * 0.9)) - 4)  # border, padding
        text = _help_keys() + ("\n" + prompt.help_text(game) if game else "")
        self.push_screen(HelpScreen("\n".join(prompt.rewrap(text, width))))

    def action_leave(self) -> None:
        def answered(leave: bool | None) -> None:
            if leave:
                self.action_leave_now()

        self.push_screen(LeaveScreen(), answered)

    def action_leave_for_good(self) -> None:
        if not self.snapshot.can_leave:
            self._say("You can leave for good at your turn, at a table that keeps going.")
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.link.send(LeaveForGood())

        self.push_screen(LeaveForGoodScreen(), answered)

    def action_leave_now(self) -> None:
        if self._ended:
            self.exit()
            return
        if not self._leaving:
            self._leaving = True
            self.link.send(Leave(INTERRUPTED))
            self._draw()


def _text(lines: list[str]) -> Text:
    """Lines styled as the line mode styles them (ANSI), as Rich text."""
    return Text.from_ansi("\n".join(lines)) if lines else Text("")


def _help_keys() -> str:
    return """\
Keys
  1-9 then Enter   choose by number (as in the line mode)
  ↑ ↓ and Enter    choose the highlighted line; a click chooses too
  PgUp PgDn        scroll the events (every one since the table opened)
  ?                this help
  q                leave the table (asks first); Ctrl-C leaves at once
  l                at a table that keeps going, at your turn: leave for
                   good, a bot plays for you (asks first)
  The turn line is highlighted, and the terminal's bell rings, when it
  becomes your turn (--no-bell: no bell)."""


def screen_text(app: App) -> str:
    """What the app shows now, as plain text, one line per terminal row (for the
    tests' snapshots and the README's captures)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)
