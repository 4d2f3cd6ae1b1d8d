"""The full-screen table's questions before leaving (ui/tui/app.py): each a
small modal screen answered with y or n, since a leave key is one slip away
from a choice."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

_CSS = """
{name} {{ align: center middle; }}
{name} > Static {{
    width: 60; max-width: 95%; height: auto; border: round $warning; padding: 1 2;
    background: $surface;
}}
"""


class LeaveScreen(ModalScreen[bool]):
    """Asks before leaving for now (q): the others are told, and resume continues."""

    BINDINGS = [
        Binding("y", "answer(True)", "leave"),
        Binding("n,escape,q", "answer(False)", "stay"),
    ]
    DEFAULT_CSS = _CSS.format(name="LeaveScreen")

    def compose(self) -> ComposeResult:
        yield Static(
            "Leave the table?\n\nThe others are told, your replay is kept, and "
            "`p2ptable resume` continues the game where it stopped.\n\n"
            "y: leave    n or Esc: stay"
        )

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


class LeaveForGoodScreen(ModalScreen[bool]):
    """Asks before leaving for good (l, at a table that keeps going, at our turn):
    a bot plays our seat from then on, and we cannot take it back (issue 27)."""

    BINDINGS = [
        Binding("y", "answer(True)", "leave for good"),
        Binding("n,escape,q,l", "answer(False)", "stay"),
    ]
    DEFAULT_CSS = _CSS.format(name="LeaveForGoodScreen")

    def compose(self) -> ComposeResult:
        yield Static(
            "Leave for good?\n\nA bot plays for you from this move on, your cards face "
            "up for everyone; the others go on at once. `p2ptable resume` lets you "
            "watch the rest, not play.\n\n"
            "y: leave for good    n or Esc: stay"
        )

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
