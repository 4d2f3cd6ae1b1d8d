"""What the full-screen table's panes say: the words of a snapshot at a width,
worked out apart from the app (``app.py``) that lays them out.

:func:`words` is the title, the board, the players, the hand and the turn
line of a :class:`~p2ptable.ui.tui.snapshot.Snapshot`, each from the game's
``panes`` (``ui/screens.py``); in the lobby the board holds what was said
(the join line; at the host, that ``start``, ``bots`` or ``remove NAME`` may be
typed).  :func:`options` is the choice pane's lines for a menu, grouped under
their headings.
"""

from __future__ import annotations

import textwrap

from rich.text import Text
from textual.widgets.option_list import Option

from p2ptable.ui.menu import Menu
from p2ptable.ui.screens import screens_for
from p2ptable.ui.tui.snapshot import Snapshot

LOBBY_LINES = 16  # of what was said before the game, the latest shown on the board
YOUR_TURN = "Your turn"  # how the highlighted turn line begins
WAITING = "Waiting for the table to fill: the game begins when every seat is taken."
# What a seat that types may type in the lobby (net/lobby_commands.py).
LOBBY_TYPING = (
    "The host may type start (to begin with the seats taken), bots (to fill the "
    "free seats) or remove NAME: t opens the typing line."
)

Panes = tuple[str, list[str], list[str], list[str], str]  # title, board, players, hand, now


def words(snap: Snapshot, board_width: int, left: int, large: bool) -> Panes:
    """The panes' words of ``snap``: the board ``board_width`` wide (grown when
    ``large``), the players and hand ``left`` wide."""
    if snap.view is None:  # the lobby: what was said, full width (the join line)
        # Wrapped, not cut: the host's hint ("Type 'start' to ...") is longer than 80.
        said = [
            row
            for line in snap.lines[-LOBBY_LINES:]
            for row in textwrap.wrap(line, board_width, break_on_hyphens=False) or [""]
        ]
        waiting = [WAITING, LOBBY_TYPING] if snap.typing else [WAITING]
        return "p2ptable", [*waiting, "", *said], [], [], "Waiting for the game to begin."
    screens = screens_for(snap.game)
    names = list(snap.names)
    if screens.panes is None:  # a game without panes: its line-mode screen, whole
        text = screens.render(snap.view, names, (), (), True, width=board_width)
        return snap.game, text.splitlines(), [], [], ""
    board = screens.panes(snap.view, names, True, board_width, large)
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


def options(menu: Menu) -> list[Option]:
    """The choice pane's lines: a heading, then its entries indented under it."""
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
    return options
