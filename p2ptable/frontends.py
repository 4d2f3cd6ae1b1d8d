"""Who sits at our seat: a person at this terminal, or a bot.

A person plays on the full-screen table (ui/tui/) or in the line mode
(ui/terminal.py), under the table's clock if it has one (bots/clock.py); a bot
plays on a screen the person watches, or silently (``--quiet``, or no terminal).
"""

from __future__ import annotations

import os
import random
import sys

from p2ptable.bots.clock import ClockedFrontend
from p2ptable.bots.seat import BotFrontend, BotPlayer
from p2ptable.net.frontend import Frontend


def full_screen(plain: bool, person: bool) -> bool:
    """Whether a seat is drawn on the full-screen table (ui/tui/) rather than in
    the line mode (ui/terminal.py): not when ``plain`` asks for the line mode, nor
    when the output (or a ``person``'s input) is not a terminal or TERM is
    ``dumb`` (screen readers, pipes, logs)."""
    if plain or os.environ.get("TERM", "") in ("", "dumb"):
        return False
    try:
        return sys.stdout.isatty() and (not person or sys.stdin.isatty())
    except (OSError, ValueError):
        return False


def make_frontend(
    bot: str | None,
    quiet: bool,
    delay: float = 0.0,
    bell: bool = True,
    plain: bool = False,
    hide_spectators: bool = False,
) -> Frontend:
    """A person at this terminal (the bell rings at their turn unless not ``bell``),
    or a bot: watched on a screen when this is a terminal and not ``quiet``,
    otherwise printing only the end of the game.  The screen is the full-screen
    table unless ``plain`` or the terminal cannot show it (:func:`full_screen`).
    ``hide_spectators``: the line mode starts with the spectators' channel hidden."""
    player = None if bot is None else BotPlayer(bot, delay, random.Random())
    if player is not None and (quiet or not sys.stdout.isatty()):
        return BotFrontend(player, quiet=quiet)
    if full_screen(plain, person=player is None):
        from p2ptable.ui.tui.link import FullScreenFrontend

        screen: Frontend = FullScreenFrontend(bot=player, bell=bell)
    else:
        from p2ptable.ui.terminal import TerminalFrontend

        screen = TerminalFrontend(bot=player, bell=bell, hide_spectators=hide_spectators)
    # A person plays under the table's clock if its genesis has one (bots/clock.py).
    return screen if player is not None else ClockedFrontend(screen)
