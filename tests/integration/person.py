"""A person at a terminal: a real ``p2ptable`` process on a pseudo-terminal.

The process gets a pty as its controlling terminal (stdin, stdout and stderr), so
it sees a TTY exactly as under a person's terminal emulator: in the line mode
(``--plain``, which this helper asks for) it clears and redraws its screen, and
Ctrl-C (``\\x03`` typed) sends SIGINT to its foreground process group, bot peers
of ``play`` included.  The helper reads what the
process prints, keeps the latest screen (the text after the last clear-screen),
and types lines.  Every wait is bounded; ``close()`` kills the whole process
group, so no process outlives its test.

What is read is cleaned once: a screen's text, without colours, is kept as soon
as the next clear ends it, so reading the latest screen costs one screen, not
the whole game (a game prints megabytes: cleaning all of it at every prompt took
seconds of CPU from the peer processes the test waits for).
"""

from __future__ import annotations

import codecs
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
# The commands that open the full-screen table on a terminal unless told --plain
# (tests/integration/test_people_full_screen.py reads that one through a terminal
# emulator); the line mode is what this helper reads.
FULL_SCREEN = ("play", "host", "join", "resume", "watch")


def _controlling_tty() -> None:  # runs in the child, before exec
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # A person's terminal delivers Ctrl-C.  A suite started in the background of
    # a non-interactive shell (`cmd &`) runs with SIGINT ignored, and an ignored
    # signal stays ignored across exec: Python would then never see Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _clean(printed: str) -> str:
    """Printed text without colours, clears as form feeds.  Cleaning is the same
    piece by piece when the pieces are cut at a clear: no code spans one."""
    return _ANSI.sub("", printed.replace(CLEAR, "\f"))


_ENTRY = re.compile(r"(\d+)\) (.*?)(?=   \d+\) |$)")
_HEADING = re.compile(r"^(\S.*?): (?=\d+\) )")


def menu_entries(screen: str) -> list[tuple[str, str]]:
    """The menu on a line-mode screen as (number, words), in order: an entry of
    a group (``Move to: 2) the Library   3) ...``, ui/menu.py) worded with its
    heading ("Move to the Library ...")."""
    found: list[tuple[str, str]] = []
    heading = None
    for line in screen.splitlines():
        head = _HEADING.match(line)
        if head:
            heading, rest = head.group(1), line[head.end() :]
        elif heading is not None and re.match(r"^  \d+\) ", line):
            rest = line[2:]  # a group's wrapped line
        elif re.match(r"^ ?\d+\) ", line):
            heading, rest = None, line.strip()
            found.append(tuple(re.match(r"(\d+)\) (.*)", rest).groups()))  # type: ignore[union-attr, arg-type]
            continue
        else:
            heading = None
            continue
        for number, words in _ENTRY.findall(rest):
            found.append((number, f"{heading} {words.strip()}"))
    return found


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
        plain: bool = True,  # the line mode, which these helpers read (issue 25)
    ) -> None:
        if plain and args and args[0] in FULL_SCREEN:
            args = [args[0], "--plain", *args[1:]]
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
        self.screens = 0  # clear-screens seen: one per redraw
        self._answered = -1  # the redraw last answered
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._ended: list[str] = []  # each screen a clear ended, cleaned, with its "\f"
        self._ended_chars = 0
        self._latest = ""  # printed since the last clear, as printed (colours kept)
        self._text: str | None = ""  # caches of text and screen, until more is read
        self._screen: str | None = ""
        self.eof = False  # the process closed its terminal: nothing more to read

    # -- reading ---------------------------------------------------------------

    def _pump(self, timeout: float) -> bool:
        """Read what is there (waiting up to ``timeout``); False at end of output."""
        if self.eof:
            if self.proc.poll() is None:
                time.sleep(timeout)  # nothing will come, but it runs: wait, never spin
            return False
        ready, _, _ = select.select([self.master], [], [], timeout)
        return self._read() if ready else True

    def _read(self) -> bool:
        """Read once from a terminal that is ready; False at end of output."""
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the process closed the terminal
            data = b""
        if not data:
            self.eof = True
            return False
        latest = self._latest + self._decoder.decode(data)
        cleared = latest.count(CLEAR)
        if cleared:
            before, _, latest = latest.rpartition(CLEAR)
            self._keep(_clean(before) + "\f")
            self.screens += cleared
        self._latest = latest
        self._text = self._screen = None
        return True

    def _keep(self, ended: str) -> None:
        """Keep the text of ended screens, the last MAX_OUTPUT characters at least."""
        self._ended.append(ended)
        self._ended_chars += len(ended)
        while self._ended_chars - len(self._ended[0]) >= MAX_OUTPUT:
            self._ended_chars -= len(self._ended.pop(0))

    @property
    def text(self) -> str:
        """All output, without colours (clears become form feeds)."""
        if self._text is None:
            self._text = "".join(self._ended) + _clean(self._latest)
        return self._text

    @property
    def screen(self) -> str:
        """The latest screen: what follows the last clear, without colours."""
        if self._screen is None:
            self._screen = _clean(self._latest).rsplit("\f", 1)[-1]
        return self._screen

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

    def ctrl_d(self) -> None:
        """The end of the input, as a terminal gives it at the start of a line."""
        os.write(self.master, b"\x04")

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
        if until is not None and any(until(person) for person in people):
            return typed
        _pump_any(people, 0.02)
        running = 0
        for person in people:
            running += not person.eof or person.proc.poll() is None
            typed += person.answer(choose)
        if not running:
            return typed
        if time.monotonic() > end:
            raise AssertionError(f"still playing after {timeout} s")
    raise AssertionError(f"more than {moves} moves")


def _pump_any(people: list[Person], timeout: float) -> None:
    """Wait up to ``timeout`` until any terminal has output, and read every one
    that has: one wait for all, so whoever is asked first is answered at once."""
    reading = {person.master: person for person in people if not person.eof}
    if not reading:
        time.sleep(timeout)
        return
    ready, _, _ = select.select(list(reading), [], [], timeout)
    for master in ready:
        reading[master]._read()
