"""A person at a terminal: a real ``p2ptable`` process on a pseudo-terminal.

The process gets a pty as its controlling terminal (stdin, stdout and stderr), so
it sees a TTY exactly as under a person's terminal emulator: it clears and
redraws its screen, and Ctrl-C (``\\x03`` typed) sends SIGINT to its foreground
process group, bot peers of ``play`` included.  The helper reads what the
process prints, keeps the latest screen (the text after the last clear-screen),
and types lines.  Every wait is bounded; ``close()`` kills the whole process
group, so no process outlives its test.
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

CLEAR = "\x1b[2J\x1b[H"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = "Your choice (number, or ? for help):"
MAX_OUTPUT = 8 << 20  # what a test keeps of a process's output


def _controlling_tty() -> None:  # runs in the child, before exec
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # A person's terminal delivers Ctrl-C.  A suite started in the background of
    # a non-interactive shell (`cmd &`) runs with SIGINT ignored, and an ignored
    # signal stays ignored across exec: Python would then never see Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Person:
    """One ``p2ptable`` command run on a pty, read and typed like a person."""

    def __init__(
        self,
        args: list[str],
        workdir: Path,
        rows: int = 60,
        cols: int = 100,
        env: dict | None = None,
        prefix: tuple[str, ...] = (),  # e.g. ("ip", "netns", "exec", NAME): another "laptop"
    ) -> None:
        self.args = args
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        environment = dict(os.environ, PYTHONUNBUFFERED="1", TERM="xterm", COLUMNS=str(cols))
        environment.pop("NO_COLOR", None)
        environment.update(env or {})
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "p2ptable", *args],
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
        self.raw = ""  # everything printed so far (ANSI kept)
        self.screens = 0  # clear-screens seen: one per redraw
        self._answered = -1  # the redraw last answered

    # -- reading ---------------------------------------------------------------

    def _pump(self, timeout: float) -> bool:
        """Read what is there (waiting up to ``timeout``); False at end of output."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the process closed the terminal
            return False
        if not data:
            return False
        text = data.decode("utf-8", errors="replace")
        self.screens += text.count(CLEAR)
        self.raw = (self.raw + text)[-MAX_OUTPUT:]
        return True

    @property
    def text(self) -> str:
        """All output, without colours (clears become form feeds)."""
        return _ANSI.sub("", self.raw.replace(CLEAR, "\f"))

    @property
    def screen(self) -> str:
        """The latest screen: what follows the last clear, without colours."""
        return self.text.rsplit("\f", 1)[-1]

    def expect(self, pattern: str, timeout: float = 30.0, on: str = "text") -> re.Match:
        """Wait until ``pattern`` (a regex) appears in the output (or the screen)."""
        end = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.screen if on == "screen" else self.text)
            if found:
                return found
            left = end - time.monotonic()
            if left <= 0 or (not self._pump(min(left, 0.2)) and self.proc.poll() is not None):
                tail = self.text[-3000:]
                raise AssertionError(f"{self.args[0]}: no {pattern!r} within {timeout} s:\n{tail}")

    # -- typing ----------------------------------------------------------------

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def ctrl_c(self) -> None:
        os.write(self.master, b"\x03")

    def answer(self, choose: Callable[[str], str] = lambda screen: "1") -> bool:
        """Type a choice if the latest screen asks for one that is not answered
        yet (``choose`` picks it from the screen); True if it typed."""
        if PROMPT in self.screen and self.screens != self._answered:
            self._answered = self.screens
            self.type(choose(self.screen))
            return True
        return False

    def play(
        self,
        until: Callable[[Person], bool] | None = None,
        choose: Callable[[str], str] = lambda screen: "1",
        timeout: float = 120.0,
        moves: int = 2000,
    ) -> int:
        """Answer every menu the process shows, until the process ends or
        ``until`` holds; the number of moves typed."""
        return play_together([self], until, choose, timeout, moves)

    # -- ending ----------------------------------------------------------------

    def wait(self, timeout: float = 60.0) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._pump(0.1)
        while self._pump(0.05) and self.proc.poll() is not None:
            if not select.select([self.master], [], [], 0)[0]:
                break
        code = self.proc.poll()
        if code is None:
            raise AssertionError(f"{self.args[0]} did not end in {timeout} s:\n{self.text[-3000:]}")
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
    people: list[Person],
    until: Callable[[Person], bool] | None = None,
    choose: Callable[[str], str] = lambda screen: "1",
    timeout: float = 120.0,
    moves: int = 4000,
) -> int:
    """Several people at one table: answer whichever terminal asks, until every
    process ended (or ``until`` holds for one); the number of moves typed."""
    end = time.monotonic() + timeout
    typed = 0
    while typed < moves:
        running = 0
        for person in people:
            if until is not None and until(person):
                return typed
            alive = person._pump(0.02) or person.proc.poll() is None
            running += alive
            typed += person.answer(choose)
        if not running:
            return typed
        if time.monotonic() > end:
            raise AssertionError(f"still playing after {timeout} s")
    raise AssertionError(f"more than {moves} moves")
