"""How the peer loop sleeps: until a frame, the person's input or its next deadline.

How it works
------------
:class:`Waiter` holds what the loop waits on besides the transport's inbox: the
frontend's input (polled while it is open, and not once it is closed), the
lifeline of a bot started by `play` (its stdin: end-of-file there means the
person's process is gone, unless ``DETACH`` came first), and Python's garbage
collector, run while the loop is idle rather than mid-move (net/idle_gc.py).
:meth:`Waiter.wait` sleeps until ``wake`` (at most ``MAX_SLEEP``), never on a
fixed beat, so an idle table costs no CPU and a move never queues behind six
processes waking up for nothing.
"""

from __future__ import annotations

import math
import os
import time

from p2ptable.net.idle_gc import QUIET, IdleCollector
from p2ptable.net.transport import Incoming, Transport

# What the person's process writes on a bot's lifeline before it ends when its
# player left for good: play on to the end of the game without it (issue 27).
DETACH = b"d"

# The loop sleeps until a message, input or the next deadline (a bot's think time,
# a ping, a timeout): never longer than this.
MAX_SLEEP = 1.0


class Waiter:
    """The peer's sleep between two passes of its loop."""

    def __init__(self, transport: Transport, lifeline: bool) -> None:
        self.transport = transport
        self.lifeline = lifeline
        self.input_fd: int | None = None
        self.collector = IdleCollector()
        if lifeline:
            transport.register_fd(0)

    def follow_input(self, fd: int | None) -> None:
        """Poll the frontend's input ``fd``, and stop polling it once it is closed."""
        if fd != self.input_fd:
            self.transport.unregister_fd(self.input_fd)
            if fd is not None:
                self.transport.register_fd(fd)
            self.input_fd = fd

    def lifeline_cut(self) -> bool:
        """Whether the lifeline (stdin of a bot started by `play`) reached its end.
        ``DETACH`` on it first lets the bot go on without it: its person left
        for good, and the table needs the bot to the end (local_table.py)."""
        if not self.lifeline:
            return False
        try:
            data = os.read(0, 4096)
        except BlockingIOError:
            return False
        except OSError:
            return True
        if DETACH in data:
            self.lifeline = False
            self.transport.unregister_fd(0)
            return False
        return data == b""

    def wait(self, wake: float) -> tuple[list[Incoming], bool]:
        """Sleep until ``wake`` (at most MAX_SLEEP), a message or input; what came.
        Garbage that is due is collected once a quiet moment shows the burst of
        frames around a move is over (net/idle_gc.py)."""
        collector, transport = self.collector, self.transport

        def sleep_ms() -> int:
            # Whole milliseconds, rounded up: rounded to the nearest, half the
            # wake-ups came before their deadline (a bot's think time not yet over),
            # and the loop made a pass for nothing right before the one it woke for.
            return math.ceil(min(MAX_SLEEP, max(0.0, wake - time.monotonic())) * 1000)

        if not collector.wants_quiet(sleep_ms() / 1000):
            collector.maybe_collect(0.0)  # only the backstop, if far too much is due
            return transport.poll(sleep_ms())
        incoming, stdin_ready = transport.poll(round(QUIET * 1000))
        if incoming or stdin_ready:
            return incoming, stdin_ready
        collector.maybe_collect(sleep_ms() / 1000)
        return transport.poll(sleep_ms())
