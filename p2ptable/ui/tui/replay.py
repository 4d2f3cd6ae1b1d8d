"""``show`` on the full-screen table: a replay stepped through entry by entry.

The same panes as a live seat's (``app.py``), drawn from the replay viewer's
checked ledger (``ui/replay_viewer.py``: every entry up to the one shown is
checked first), everyone's view or one seat's.  ← and → step, Home and End go
to the genesis and the last entry, q leaves; an entry that does not check
stops the stepping there and says why.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import RichLog

from p2ptable.ui.replay_viewer import ReplayError, Viewer
from p2ptable.ui.screens import screens_for
from p2ptable.ui.tui.app import TableApp
from p2ptable.ui.tui.channel import Link
from p2ptable.ui.tui.snapshot import of_view

REPLAY_KEYS = "← →: step   Home End: first, last   PgUp/PgDn: events   ?: help   q: quit"


class ReplayApp(TableApp):
    """A replay on the full-screen table; ``return_code`` 130 after Ctrl-C."""

    BINDINGS = [
        Binding("left,p,b", "step(-1)", "back", priority=True),
        Binding("right,n,space", "step(1)", "next", priority=True),
        Binding("home", "go(0)", "first", priority=True),
        Binding("end", "go(-1)", "last", priority=True),
    ]

    def __init__(self, viewer: Viewer, index: int, seat: int | None = None) -> None:
        super().__init__(Link(), bell=False)
        self.viewer = viewer
        self.seat = seat
        self.index = index
        self.error = ""

    def on_mount(self) -> None:
        super().on_mount()
        self.link.close()  # nothing is chosen here: the link is only the app's shape
        self.keys = REPLAY_KEYS
        self._show(self.index)

    def _show(self, index: int) -> None:
        viewer = self.viewer
        index = max(0, min(index, viewer.last))
        try:
            view, recent, finished = viewer.view_at(index, self.seat)
        except ReplayError as exc:
            self.error = (
                f"The replay is invalid at {exc}: it is shown up to entry {viewer.checked}."
            )
            index = viewer.checked
            view, recent, finished = viewer.view_at(index, self.seat)
        if index == viewer.last and not self.error:
            try:
                viewer.check_tail()  # a file that goes on past its last whole entry
            except ReplayError as exc:
                self.error = f"The replay is invalid at {exc}."
        self.index = index
        who = "everyone's view" if self.seat is None else f"{viewer.names[self.seat]}'s view"
        status = [f"After entry {index} of {viewer.last} ({who})"]
        if self.error:
            status.append(self.error)
        final = ""
        if finished:
            final = screens_for(viewer.game_name).render_final(view, viewer.names, False)
        self.snapshot = of_view(viewer.game_name, view, viewer.names, recent, (), status,
                                final=final)  # fmt: skip
        self._lines_shown = 0
        self.query_one("#events", RichLog).clear()
        self._draw()

    def action_step(self, by: int) -> None:
        self._show(self.index + by)

    def action_go(self, where: int) -> None:
        self._show(self.viewer.last if where < 0 else where)

    def action_leave(self) -> None:
        self.exit()

    def action_leave_now(self) -> None:
        self.exit(return_code=130)
