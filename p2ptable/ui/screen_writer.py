"""A person's terminal, written without ever holding up the peer.

How it works
------------
The peer loop (net/peer.py) draws the screen between network steps.  Writing to
a terminal blocks when nobody reads it: a paused terminal (Ctrl-S), a stalled
ssh link, a pty whose reader went away.  A peer blocked there stops answering:
its reveals, parts and result signatures wait, and after the withholding timeout
the others would stop the game naming an honest seat.  So the terminal is
written by a thread of its own, and the loop only hands it text:

* ``screen(text)``: a whole redraw.  Only the newest matters, so a redraw still
  waiting replaces the one before it (the person sees the current state when
  the terminal moves again, not a backlog of old ones).
  A bell that opened the replaced redraw (ui/bell.py) opens the newer one.
* ``say(text)``: a line that must be read (a lobby line, the final scores): kept
  in order with the screens, at most ``MAX_LINES`` waiting; beyond that the
  oldest go, and a line says how many.

Nothing waits on the thread but ``close``, when the peer ends (for at most
``CLOSE_WAIT`` seconds, so a terminal that never moves again cannot keep the
process: the game is in the replay file anyway).  A stream with no file
descriptor (a test's StringIO) is written at once, as before.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from typing import TextIO

from p2ptable.ui.bell import BELL

MAX_LINES = 500  # lines kept while the terminal does not move
CLOSE_WAIT = 3.0  # seconds the end of the game waits for a stuck terminal


class ScreenWriter:
    """Writes screens and lines to ``out`` from a thread of its own (see above)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        try:
            self._fd: int | None = out.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None  # io.UnsupportedOperation is an OSError and a ValueError
        self.encoding = getattr(out, "encoding", None) or "utf-8"
        self._lock = threading.Condition()
        self._lines: deque[str] = deque()  # lines and screens, in order
        self._screen_at: int | None = None  # the index in _lines of a waiting screen
        self.dropped = 0
        self._broken = False
        self._closed = False
        self._busy = False
        self._thread: threading.Thread | None = None

    @property
    def waiting(self) -> int:
        """How many screens and lines wait for the terminal (not yet taken)."""
        with self._lock:
            return len(self._lines)

    # -- what the frontend hands over --------------------------------------------------

    def screen(self, text: str) -> None:
        """A redraw: replaces a redraw that is still waiting."""
        if self._fd is None or self._closed:
            self._now(text)
            return
        with self._lock:
            if self._screen_at is not None:
                replaced = self._lines[self._screen_at]
                del self._lines[self._screen_at]
                if replaced.startswith(BELL) and not text.startswith(BELL):
                    text = BELL + text  # the bell of a redraw never shown still rings
            self._screen_at = len(self._lines)
            self._lines.append(text)
            self._wake()

    def say(self, text: str) -> None:
        """A line to keep (``text`` and a newline), in order with the screens."""
        if self._fd is None or self._closed:
            self._now(text + "\n")
            return
        with self._lock:
            self._lines.append(text + "\n")
            while len(self._lines) > MAX_LINES:
                self._lines.popleft()
                self.dropped += 1
                if self._screen_at is not None:
                    self._screen_at -= 1
                    if self._screen_at < 0:
                        self._screen_at = None
            self._wake()

    def close(self, timeout: float = CLOSE_WAIT) -> bool:
        """Wait until everything handed over is written, or ``timeout``; True
        when it all went out.  What comes after is written at once (the peer has
        ended: nothing is held up by it any more)."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
            done = self._lock.wait_for(lambda: not self._lines and not self._busy, timeout)
        return done or self._broken

    # -- the writing thread ----------------------------------------------------------

    def _now(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def _wake(self) -> None:
        if self._thread is None:
            # Whatever was printed through the stream before (the join line, a
            # notice) goes first; then the stream is only ours.
            self.out.flush()
            self._thread = threading.Thread(target=self._run, name="screen", daemon=True)
            self._thread.start()
        self._lock.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._lines or self._closed)
                if not self._lines:
                    return
                if self.dropped:
                    self._lines.appendleft(f"({self.dropped} lines not shown: output stalled)\n")
                    self.dropped = 0
                    if self._screen_at is not None:
                        self._screen_at += 1
                parts = list(self._lines)
                self._lines.clear()
                self._screen_at = None
                self._busy = True
            self._write("".join(parts))
            with self._lock:
                self._busy = False
                self._lock.notify_all()

    def _write(self, text: str) -> None:
        if self._broken:
            return
        data = text.encode(self.encoding, errors="replace")
        try:
            while data:
                written = os.write(self._fd, data)  # type: ignore[arg-type]
                data = data[written:]
        except OSError:
            self._broken = True  # the terminal is gone: nothing more to show
