"""Where the two threads of the full-screen table meet: the newest snapshot one
way, the person's choices the other (see ``link.py`` for who sits on each side).

The peer's thread publishes snapshots and never waits: only the newest is kept,
and the app is posted one message (Textual's ``post_message``, safe from
another thread) until it takes it.  The app's thread sends the person's choices
on a queue and writes a byte to a pipe whose other end the peer loop polls with
its sockets, so a choice wakes the loop at once.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable

from p2ptable.engine.api import Action
from p2ptable.net.frontend import Leave, LeaveForGood
from p2ptable.ui.tui.snapshot import Snapshot

INTERRUPTED = "interrupted"  # the reason our bye gives, as Ctrl-C's in the line mode


class Link:
    """The newest snapshot one way, the person's choices the other (see above)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: Snapshot | None = None
        self._posted = False
        self._post: Callable[[], None] | None = None
        self._choices: queue.SimpleQueue[Action | Leave | LeaveForGood] = queue.SimpleQueue()
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

    def received(self) -> list[Action | Leave | LeaveForGood]:
        """What the person chose since the last call, oldest first."""
        try:
            while os.read(self.read_fd, 4096):
                pass
        except BlockingIOError:
            pass
        items = []
        while True:
            try:
                items.append(self._choices.get_nowait())
            except queue.Empty:
                return items

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

    def send(self, item: Action | Leave | LeaveForGood) -> None:
        self._choices.put(item)
        try:
            os.write(self._write_fd, b".")
        except BlockingIOError:
            pass  # the pipe is full of wake-ups already: the peer will look

    def close(self) -> None:
        for fd in (self.read_fd, self._write_fd):
            try:
                os.close(fd)
            except OSError:
                pass
