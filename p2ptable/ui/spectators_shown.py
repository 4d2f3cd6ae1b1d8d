"""Whether a seat's screen shows the spectators' channel (net/spectator_talk.py),
and what it says when the person hides or shows it: one keeper for the line
mode (``ui/terminal.py``) and the full-screen table (``ui/tui/link.py``).

How it works
------------
A seat starts with the channel shown, or hidden by ``--hide-spectators``; a
typed ``hide spectators`` / ``show spectators`` (``ui/prompt.py``'s
:class:`~p2ptable.ui.prompt.Spectators`, in the lobby too) changes it.  While
it is hidden every line heard is counted, not shown, and ``show spectators``
says how many were said meanwhile.  Each line shown is worded by
:func:`~p2ptable.ui.narrative.spectator_line` ("(spectator) Eve says: ..."),
never as a seat's.  Nothing here draws: the frontend puts the line (or the
answer) where its screen shows such things.
"""

from __future__ import annotations

from p2ptable.net.events import SpectatorTalked
from p2ptable.ui.narrative import spectator_line

NOT_HERE = "Spectators do not talk at this table (host --spectators-talk)."
HIDDEN = "The spectators' channel is hidden (show spectators shows it again)."


class SpectatorsShown:
    """The spectators' channel on one seat's screen: shown or hidden, and how
    many lines it missed while hidden."""

    def __init__(self, hidden: bool = False) -> None:
        self.hidden = hidden
        self.missed = 0  # lines heard while hidden, not yet told

    def heard(self, event: SpectatorTalked) -> str | None:
        """The line to show for ``event``, or None while the channel is hidden."""
        if self.hidden:
            self.missed += 1
            return None
        return spectator_line(event.line.name, event.line.text)

    def wished(self, shown: bool, talks: bool) -> str:
        """``show spectators`` (``shown``) or ``hide spectators`` typed during a
        game; ``talks``: the table's genesis lets spectators talk.  What it did."""
        if not talks:
            return NOT_HERE
        self.hidden = not shown
        if not shown:
            return HIDDEN
        missed, self.missed = self.missed, 0
        lines = "1 line was" if missed == 1 else f"{missed} lines were"
        since = f" ({lines} said while it was hidden)" if missed else ""
        return f"The spectators' channel is shown{since}."

    def before_game(self, shown: bool) -> str:
        """The same typed in the lobby: kept for the game to come."""
        self.hidden = not shown
        return f"The spectators' channel will be {'shown' if shown else 'hidden'}."
