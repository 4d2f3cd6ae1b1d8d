"""The terminal bell when it becomes your turn.

A person who looked away hears when the table waits for them: the bell rings once
as their seat goes from nothing to choose to a choice (a turn, a secret choice
made with the others, a reaction out of turn), never again while that choice
stands, and never for a bot's seat.  ``--no-bell`` turns it off.  Any screen asks
:func:`rings` with what it knew at its last redraw and what it knows now, so every
screen rings on the same moments; the line mode writes :data:`BELL` before the
screen, and only on a terminal (a pipe or a log gets no control characters).
"""

from __future__ import annotations

BELL = "\a"


def rings(was_to_choose: bool, to_choose: bool, enabled: bool = True) -> bool:
    """Whether to ring now: the bell is on and the seat has just come to a choice."""
    return enabled and to_choose and not was_to_choose
