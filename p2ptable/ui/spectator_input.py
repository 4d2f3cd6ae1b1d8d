"""What a spectator types in ``watch``'s line mode: lines for the spectators'
channel (net/spectator_talk.py), read only when the terminal has one ready.

A spectator has no menu, so any line typed is talk; a leading ``'`` or ``say``
(how a seat talks, ui/prompt.py) is taken off, so both habits work.  The end of
the input (a pipe closed, Ctrl-D) stops the reading, not the watch.
"""

from __future__ import annotations

from typing import TextIO

from p2ptable.ui.prompt import talk_of


class SpectatorInput:
    """The spectator's keyboard, as the watch loop polls it."""

    def __init__(self, stdin: TextIO) -> None:
        self.stdin = stdin
        try:
            self.fd: int | None = stdin.fileno()
        except (OSError, ValueError, AttributeError):
            self.fd = None  # not a file (a test's stand-in): nothing is read

    def read(self) -> str | None:
        """The words of the line typed (None: nothing to say; the input ended,
        then ``fd`` is None and the loop stops polling it)."""
        if self.fd is None:
            return None
        line = self.stdin.readline()
        if line == "":
            self.fd = None
            return None
        said = talk_of(line)
        text = (said if said is not None else line).strip()
        return text or None
