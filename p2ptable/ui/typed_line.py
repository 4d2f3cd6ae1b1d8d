"""What a line a person typed means at their seat now: one reading for the line
mode (``ui/terminal.py``, a line of its standard input) and the full-screen
table (``ui/tui/typing.py``, its typing line).

How it works
------------
Before the game begins there is no menu: the line goes to the lobby as a
:class:`~p2ptable.net.frontend.LobbyCommand` (``start``, ``bots``, ``remove
NAME``: net/lobby_commands.py reads it, and answers anything else with what the
lobby waits for).  Once the game has begun the line is read against the seat's
menu of the moment (``ui/prompt.py``'s :func:`~p2ptable.ui.prompt.parse_choice`):
a chosen action, a line of talk (:class:`~p2ptable.net.frontend.Say`), a break
(:class:`~p2ptable.net.frontend.TakeBreak`), leaving for good at a table that
keeps going (``leave``: :class:`~p2ptable.net.frontend.LeaveForGood`), or what the frontend answers
itself (help, the recent events, why the line is not a choice, hiding or showing the
spectators' channel: ``hide spectators``, in the lobby too).  Nothing here
reads a keyboard or draws.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2ptable.engine.api import Action
from p2ptable.net.frontend import LeaveForGood, LobbyCommand, Say, TakeBreak
from p2ptable.net.session import Session
from p2ptable.ui import prompt
from p2ptable.ui.screens import screens_for

# What a typed line may mean: for the peer (an action, a lobby command, talk, a
# break) or for the frontend to answer (help, the recent events, a hint).
Meaning = (
    Action
    | LobbyCommand
    | Say
    | TakeBreak
    | LeaveForGood
    | prompt.Help
    | prompt.Recent
    | prompt.Spectators
    | prompt.Invalid
)


def meaning(session: Session | None, line: str, actions: Sequence[Action]) -> Meaning:
    """What ``line`` means now: in the lobby (``session`` None) a lobby command,
    else a choice among the seat's legal ``actions`` as its menu shows them."""
    if session is None:
        wish = prompt.parse_choice(line, [])
        if isinstance(wish, prompt.Spectators):  # for the game to come: the seat's own
            return wish
        return LobbyCommand(line.strip())
    screens = screens_for(session.game.name)
    view = session.view()
    names = session.names
    shown = prompt.menu_for(session.game.name, view, actions, names).actions
    choice = prompt.parse_choice(
        line, shown, lambda a: screens.describe(view, a, names), legal=actions
    )
    if isinstance(choice, prompt.Talk):
        return Say(choice.text)
    if isinstance(choice, prompt.Break):
        return TakeBreak()
    if isinstance(choice, prompt.LeaveTable):  # for good, a bot plays the seat (issue 27)
        if session.may_leave():  # at once at our turn, else at the next one
            return LeaveForGood()
        if session.seat in session.gone_hands():  # a seat resumed after it left
            return prompt.Invalid("You left the table already: a bot plays for you.")
        return prompt.Invalid("This table does not go on without a player who leaves.")
    return choice
