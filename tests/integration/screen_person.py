"""A person at the full-screen table: the real ``p2ptable`` on a pty, its screen
read through a terminal emulator (pyte), as a person's terminal shows it.

The full-screen table draws by moving the cursor and rewriting cells, so its
output cannot be read as lines; pyte keeps the 80x24 grid of cells the
terminal would show.  Keys are written to the pty as a terminal sends them.
Every wait is bounded, and ``close()`` kills the process group.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte

from .person import AGAIN, _controlling_tty

ENTER, CTRL_C = b"\r", b"\x03"
DOWN = b"\x1b[B"
YOUR_TURN = "Your turn"


class ScreenPerson:
    """One ``p2ptable`` command on a pty of ``cols`` x ``rows``, read through pyte."""

    def __init__(
        self,
        args: list[str],
        workdir: Path,
        cols: int = 80,
        rows: int = 24,
        env: dict | None = None,
    ) -> None:
        self.args = args
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        environment = dict(os.environ, PYTHONUNBUFFERED="1", TERM="xterm-256color")
        for name in ("NO_COLOR", "COLUMNS", "LINES", "TEXTUAL_DRIVER"):
            environment.pop(name, None)
        environment.update(env or {})
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "p2ptable", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=workdir,
            env=environment,
            preexec_fn=_controlling_tty,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.printed = b""  # everything, for the lines printed after the table closes
        self.eof = False

    # -- reading -----------------------------------------------------------------------

    def pump(self, timeout: float) -> None:
        if self.eof:
            time.sleep(timeout)
            return
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            return
        self.printed = (self.printed + data)[-(4 << 20) :]
        self.stream.feed(data)

    @property
    def display(self) -> str:
        """The terminal's screen now, one line per row."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def italic(self, words: str) -> bool:
        """Whether the cells of ``words``, where a row shows them, are drawn in
        italics (the full-screen table's mark of a spectator's line)."""
        for y, row in enumerate(self.screen.display):
            x = row.find(words)
            if x >= 0:
                cells = self.screen.buffer[y]
                return all(cells[x + i].italics for i in range(len(words)))
        raise AssertionError(f"no {words!r} on the screen:\n{self.display}")

    @property
    def text(self) -> str:
        """All that was printed, without escape codes (what stays after the table)."""
        plain = re.sub(rb"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b[()][0-9A-Za-z]|\x1b[=>]", b"",
                       self.printed)  # fmt: skip
        return plain.decode("utf-8", "replace")

    def expect(self, pattern: str, timeout: float = 30.0) -> re.Match:
        """Wait until ``pattern`` is on the screen."""
        end = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.display)
            if found:
                return found
            if time.monotonic() > end or (self.eof and self.proc.poll() is not None):
                raise AssertionError(
                    f"{self.args[0]}: no {pattern!r} within {timeout} s:\n{self.display}"
                )
            self.pump(0.1)

    def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Read until nothing has come for ``quiet`` seconds (the screen is drawn)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and not self.eof:
            ready, _, _ = select.select([self.master], [], [], quiet)
            if not ready:
                return
            self.pump(0)

    # -- typing ------------------------------------------------------------------------

    def key(self, *keys: bytes) -> None:
        for k in keys:
            os.write(self.master, k)
            time.sleep(0.05)  # a person's pace: Textual reads an escape sequence whole

    def type_line(self, text: str) -> None:
        """Type ``text`` on the typing line and send it: ``t`` opens the line
        empty, then the text, then Enter (ui/tui/typing.py)."""
        self.key(b"t", *(c.encode() for c in text), ENTER)

    def play_turns(self, turns: int, timeout: float = 120.0) -> int:
        """Take the first choice (``1`` Enter) at each of ``turns`` turns, or until
        the game is over (the process ends, or it asks to play again: ``wait``
        answers that); the turns played."""
        end = time.monotonic() + timeout
        played, seen = 0, ""
        while played < turns and time.monotonic() < end:
            self.pump(0.1)
            if (self.eof and self.proc.poll() is not None) or AGAIN in self.display:
                return played
            shown = self.at_a_new_turn(seen)
            if shown is not None:
                seen = shown
                self.key(b"1", ENTER)
                played += 1
                self.settle(0.1, 2.0)
        return played

    def at_a_new_turn(self, seen: str) -> str | None:
        """The screen, if it shows a turn of ours not answered yet (not ``seen``)."""
        shown = self.display
        return shown if YOUR_TURN in shown and "1) " in shown and shown != seen else None

    # -- ending ------------------------------------------------------------------------

    def wait(self, timeout: float = 60.0, again: bytes = b"n") -> int:
        """The exit status; the question at the end of a finished game ("Play
        again at this table?", asked after the full-screen table closed) is
        answered ``again`` (no, unless a test says otherwise)."""
        end = time.monotonic() + timeout
        answered = False
        while self.proc.poll() is None and time.monotonic() < end:
            self.pump(0.1)
            if not answered and AGAIN in self.display:
                answered = True
                self.key(again, ENTER)
        for _ in range(50):  # what is left to read, bounded
            if self.eof:
                break
            self.pump(0.05)
        code = self.proc.poll()
        if code is None:
            raise AssertionError(f"{self.args[0]} did not end in {timeout} s:\n{self.display}")
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)
        try:
            os.close(self.master)
        except OSError:
            pass


def play_together(
    people: list[ScreenPerson], timeout: float = 300.0, until: Callable[[], bool] | None = None
) -> None:
    """Take the first choice at every turn of any of ``people`` (several people
    at one table, each waiting for the others) until each one's table closed:
    its process ended or it asks to play again (``wait`` answers that); or,
    with ``until``, as soon as it holds."""
    end = time.monotonic() + timeout
    seen = {id(p): "" for p in people}
    while time.monotonic() < end:
        playing = [p for p in people if not (p.eof or AGAIN in p.display)]
        if not playing or (until is not None and until()):
            return
        for person in playing:
            person.pump(0.05)
            shown = person.at_a_new_turn(seen[id(person)])
            if shown is not None:
                seen[id(person)] = shown
                person.key(b"1", ENTER)
    raise AssertionError("the game did not end in time:\n" + people[0].display)
