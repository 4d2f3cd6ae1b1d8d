"""Where the two threads of the full-screen table meet: the newest snapshot one
way, the person's choices the other (see ``link.py`` for who sits on each side).

The peer's thread publishes snapshots and never waits: only the newest is kept,
and the app is posted one message (Textual's ``post_message``, safe from
another thread) until it takes it.  The app's thread sends the person's choices
on a queue and writes a byte to a pipe whose other end the peer loop polls with
its sockets, so a choice wakes the loop at once.  A choice is an action picked
from the menu, a :class:`Typed` line (the typing line: talk, ``break``, the
lobby's commands, read by the peer's side as the line mode reads a line), or
leaving.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from p2ptable.engine.api import Action
from p2ptable.net.frontend import Leave
from p2ptable.ui.tui.snapshot import Snapshot

INTERRUPTED = "interrupted"  # the reason our bye gives, as Ctrl-C's in the line mode


@dataclass(frozen=True)
class Typed:
    """A line the person typed on the typing line, read on the peer's side
    (ui/typed_line.py) against the menu of that moment."""

    line: str


Sent = Action | Typed | Leave  # what the app hands the peer


class Link:
    """The newest snapshot one way, the person's choices the other (see above)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: Snapshot | None = None
        self._posted = False
        self._post: Callable[[], None] | None = None
        self._choices: queue.SimpleQueue[Sent] = queue.SimpleQueue()
        self.read_fd, self._write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        os.set_blocking(self._write_fd, False)

    # -- the peer's thread ---------------------------------------------------------

    def publish(self, snapshot: Snapshot) -> None:
        """Hand over the newest snapshot; never waits for the app."""
        with self._lock:
            self._latest = snapshot
            post = None if self._posted else self._post
            self._posted = self._posted or post is not None
        if post is not None:
            post()

    def received(self) -> list[Sent]:
        """What the person chose since the last call, oldest first."""
        self._drain()
        items = []
        while True:
            try:
                items.append(self._choices.get_nowait())
            except queue.Empty:
                return items

    def next(self) -> Sent | None:
        """The oldest thing the person chose, or None; while more wait, the pipe
        stays readable, so the peer loop asks again at once (one per pass)."""
        self._drain()
        try:
            item = self._choices.get_nowait()
        except queue.Empty:
            return None
        if not self._choices.empty():
            self._wake()
        return item

    def _drain(self) -> None:
        try:
            while os.read(self.read_fd, 4096):
                pass
        except BlockingIOError:
            pass

    def _wake(self) -> None:
        try:
            os.write(self._write_fd, b".")
        except BlockingIOError:
            pass  # the pipe is full of wake-ups already: the peer will look

    # -- the app's thread ----------------------------------------------------------

    def attach(self, post: Callable[[], None]) -> None:
        """The app is running: ``post`` tells it a snapshot waits (thread-safe)."""
        with self._lock:
            self._post = post
            waiting = self._latest is not None
            self._posted = waiting
        if waiting:
            post()

    def take(self) -> Snapshot | None:
        """The newest snapshot (the app will be told again when there is another)."""
        with self._lock:
            self._posted = False
            return self._latest

    def send(self, item: Sent) -> None:
        self._choices.put(item)
        self._wake()

    def close(self) -> None:
        for fd in (self.read_fd, self._write_fd):
            try:
                os.close(fd)
            except OSError:
                pass
