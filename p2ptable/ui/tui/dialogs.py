"""The full-screen table's dialogs over the table: the help (``?``), and the
question before leaving (``q``: one slip away from a choice, so it asks).
Each is a modal screen: while it is up, the table's keys do nothing
(``TableApp.check_action``)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


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


class LeaveScreen(ModalScreen[bool]):
    """Asks before leaving: the leave key is one slip away from a choice."""

    BINDINGS = [
        Binding("y", "answer(True)", "leave"),
        Binding("n,escape,q", "answer(False)", "stay"),
    ]
    DEFAULT_CSS = """
    LeaveScreen { align: center middle; }
    LeaveScreen > Static {
        width: 60; max-width: 95%; height: auto; border: round $warning; padding: 1 2;
        background: $surface;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(
            "Leave the table?\n\nThe others are told, your replay is kept, and "
            "`p2ptable resume` continues the game where it stopped.\n\n"
            "y: leave    n or Esc: stay"
        )

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


# The table's keys, first in the help (the game's turn in a nutshell follows).
HELP_KEYS = """\
Keys
  1-9 then Enter   choose by number (as in the line mode)
  ↑ ↓ and Enter    choose the highlighted line; a click chooses too
  ' or t           open the typing line, under the choice ('words, or any
                   letter but q, opens it too): type 'words (or say words)
                   to talk to the table, break to propose a break or agree
                   to one, and in the host's lobby start, bots or remove
                   NAME; Enter sends the line, Esc closes it unsent, and
                   while it is open digits go into the line
  PgUp PgDn        scroll the events (every one since the table opened)
  ?                this help
  q                leave the table (asks first); Ctrl-C leaves at once
  The turn line is highlighted, and the terminal's bell rings, when it
  becomes your turn (--no-bell: no bell)."""
