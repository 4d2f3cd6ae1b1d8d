"""The full-screen table itself: a Textual app that lays a snapshot out in panes.

How it works
------------
The app owns the terminal and nothing else: it is handed snapshots (``link.py``
posts a :class:`Refresh` when there is a new one; the app takes the newest) and
hands back what the person chose; what the panes say is worked out in
``panes.py``, the help and the question before leaving are ``dialogs.py``.
Its panes:

* the title (the game, its Day and Period, the decks);
* the board, from the game's ``panes`` (``ui/screens.py``): Teacher's Pet's
  rooms (a map of boxes at 120 x 40 and up), Vorsicht Lehrer!'s track, Pet
  Quartet's conductors;
* the players with their scores, ``>`` marking whose turn it is, and your hand;
* what happens now (highlighted, with a bell, when it becomes your turn) and the
  choice: the grouped menu (``ui/menu.py``), chosen by its number and Enter, by
  the arrows and Enter, or by a click; under it the typing line
  (``typing.py``), closed until ``'``, ``t`` or a letter opens it, where talk,
  ``break`` and the host's lobby commands are typed and sent as typed;
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
from textual.containers import Container, Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, RichLog, Static

from p2ptable.net.frontend import Leave
from p2ptable.ui import prompt
from p2ptable.ui.bell import rings
from p2ptable.ui.menu import Menu
from p2ptable.ui.style import fit
from p2ptable.ui.tui import panes
from p2ptable.ui.tui.channel import INTERRUPTED, Link, Typed
from p2ptable.ui.tui.dialogs import HELP_KEYS, HelpScreen, LeaveScreen
from p2ptable.ui.tui.snapshot import Snapshot
from p2ptable.ui.tui.typing import HINT, LOBBY_HINT, TypingLine, opening

NARROW = 70  # below this many columns the panes stack
HELP_WIDTH = 84  # the help's box, at most (HelpScreen's max-width)
LARGE = (120, 40)  # from this size on the board grows
LEFT_SHARE = 0.58  # of the width, for the players, hand and events,
LEFT_MOST = 64  # but never more columns than these: the menu gets the rest
NARROW_KEYS = "number ↑↓ Enter: choose  t: talk  ?: help  q: leave"
WATCHING_KEYS = "PgUp/PgDn: events   ?: help   q: leave (a bot plays your seat)"
SPECTATOR_KEYS = "PgUp/PgDn: events   ?: help   q: stop watching"
KEYS = "number/↑↓+Enter: choose   ' or t: talk, break   ?: help   PgUp/PgDn   q: leave"
TYPING_KEYS = "Enter: send the line   Esc: close it   PgUp/PgDn: events   Ctrl-C: leave"
LOBBY_KEYS = "t: type a line (start, bots, remove NAME at the host)   ?: help   q: leave"
# The table's keys that, while the typing line is open, are the line's instead.
TYPED_INTO = frozenset({"digit", "enter", "backspace", "leave", "help"})
YOUR_TURN = panes.YOUR_TURN  # how the highlighted turn line begins


class Refresh(Message):
    """A new snapshot waits in the link."""


class PeerEnded(Message):
    """The peer loop has ended: the table closes."""


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
    #say { height: 1; padding: 0 1; }
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
                    yield TypingLine(id="say")
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
        title, board, players, hand, now = panes.words(snap, board_width, left, self.large)
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
        self.query_one("#keys", Static).update(self._keys(snap, width))
        status_pane = self.query_one("#status", Static)
        status_pane.update(Text("\n".join(status)))
        status_pane.display = bool(status)

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
        choice.add_options(panes.options(menu))
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

    def _keys(self, snap: Snapshot, width: int) -> str:
        """The key line: the keys of what the person may do now."""
        if self.keys != KEYS:  # show's stepping
            return self.keys
        if snap.view is not None and snap.view.get("you") is None:
            return SPECTATOR_KEYS
        if snap.watching:
            return WATCHING_KEYS
        if self._typing.is_open:
            return TYPING_KEYS
        if snap.view is None and snap.typing:
            return LOBBY_KEYS
        return KEYS if width >= len(KEYS) + 2 else NARROW_KEYS

    @property
    def _typing(self) -> TypingLine:
        return self.query_one("#say", TypingLine)

    def _draw_typed(self) -> None:
        snap = self.snapshot
        words = f"Your choice: {self.typed}_" if self.typed else ""
        if self._typing.is_open:
            words = LOBBY_HINT if snap.view is None else HINT
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
        if self.screen is not self.screen_stack[0]:
            return False
        # While the typing line has the focus these keys are its (a digit is text).
        return not (action in TYPED_INTO and self._mounted and self._typing_focused())

    def _typing_focused(self) -> bool:
        """Whether keys go to the typing line now.  The screen's focus, which
        changes at once, not the widget's ``has_focus``, which follows when its
        Focus message is handled: keys that come with the letter that opened the
        line (a fast typist, a paste) are the line's, and so is their Enter."""
        return self.screen.focused is self._typing

    async def on_event(self, event: events.Event) -> None:
        """A key that opens the typing line (typing.py), at a seat that may type,
        opens it as the app takes the key from its queue, before it would hand
        it to the menu: the keys queued behind it (a fast typist, a paste) then
        go to the line, and so does their Enter (handed on, it would choose
        from the menu before the line had opened)."""
        if isinstance(event, events.Key) and not event.is_forwarded and self._opens_line(event):
            line = self._typing
            self.typed = ""
            # Open but left by a click on the menu: the letter goes on where it was.
            text = opening(event.character) or ""
            line.open(line.value + (event.character or "") if line.is_open else text)
            self._draw()
            return
        await super().on_event(event)

    def _opens_line(self, event: events.Key) -> bool:
        if not self._mounted or self.screen is not self.screen_stack[0]:
            return False
        if self._typing_focused() or not self.snapshot.typing:
            return False
        return opening(event.character) is not None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The typed line goes to the peer's side as it is, which reads it as
        the line mode reads a line; the line closes."""
        if event.value.strip():
            self.link.send(Typed(event.value))
        self._close_typing()

    def _close_typing(self) -> None:
        self._typing.close()
        self.query_one("#choice", OptionList).focus()
        self._draw()

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
        if self._typing.is_open:
            self._close_typing()  # unsent
            return
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
        text = HELP_KEYS + ("\n" + prompt.help_text(game) if game else "")
        self.push_screen(HelpScreen("\n".join(prompt.rewrap(text, width))))

    def action_leave(self) -> None:
        def answered(leave: bool | None) -> None:
            if leave:
                self.action_leave_now()

        self.push_screen(LeaveScreen(), answered)

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


def screen_text(app: App) -> str:
    """What the app shows now, as plain text, one line per terminal row (for the
    tests' snapshots and the README's captures)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)
