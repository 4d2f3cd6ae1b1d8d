"""A person's terminal never holds up their peer (ui/screen_writer.py).

The brief: "a crash or power cut never makes an honest seat look like a
cheater", and "no input from anyone ends a peer".  A terminal nobody reads (a
paused one: Ctrl-S; a stalled ssh link) used to block the peer in its redraw, so
its reveals and signatures waited, and after the withholding timeout the others
would have named an honest seat.  Here the terminal is a real pipe that nobody
reads until the test says so; every call is made on a thread joined with a
bound, so a call that blocks fails the test instead of hanging it.
"""

from __future__ import annotations

import fcntl
import io
import os
import threading
import time
from collections.abc import Callable

from test_terminal import to_move  # tests/ui is on the path: it has no __init__

from p2ptable.ui import screen_writer
from p2ptable.ui.screen_writer import ScreenWriter

BOUND = 10.0  # seconds a call that must not block is given before the test fails


def returns(call: Callable[[], object]) -> bool:
    """Whether ``call`` returns (on a thread, within BOUND)."""
    done = threading.Event()

    def run() -> None:
        call()
        done.set()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND)
    return done.is_set()


def taken(writer: ScreenWriter) -> bool:
    """Whether the writer's thread took what waited (within BOUND): it is then
    blocked writing it to the full pipe."""
    end = time.monotonic() + BOUND
    while writer.waiting and time.monotonic() < end:
        time.sleep(0.001)
    return not writer.waiting


def full_pipe() -> tuple[int, io.TextIOWrapper]:
    """A pipe whose buffer is full (a terminal nobody reads): its read end and
    its write end as a text stream."""
    read, write = os.pipe()
    flags = fcntl.fcntl(write, fcntl.F_GETFL)
    fcntl.fcntl(write, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        while True:
            os.write(write, b"x" * 65536)
    except BlockingIOError:
        pass
    fcntl.fcntl(write, fcntl.F_SETFL, flags)  # blocking again, as a terminal is
    return read, io.TextIOWrapper(os.fdopen(write, "wb"), encoding="utf-8")


def drain(read: int) -> bytes:
    """Everything in the pipe until the writer closes it."""
    out = b""
    while chunk := os.read(read, 65536):
        out += chunk
    return out


def read_once_moved(read: int, out: io.TextIOWrapper, close: Callable[[], object]) -> str:
    """The terminal moves again: what the writer wrote once ``close`` (which
    must report everything written) returned, less the bytes that filled it."""
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(drain(read)), daemon=True)
    reader.start()
    assert close() is not False
    out.close()
    reader.join(BOUND)
    return got[0].decode().replace("x", "")


def test_a_terminal_nobody_reads_does_not_block_the_screens_or_the_lines():
    read, out = full_pipe()
    writer = ScreenWriter(out)
    assert returns(lambda: [writer.screen(f"screen {i}\n") for i in range(1000)])
    assert returns(lambda: [writer.say(f"line {i}") for i in range(100)])
    os.close(read)  # the reader is gone for good: the writer stops writing, nothing raises
    assert returns(writer.close)


def test_when_the_terminal_moves_again_the_lines_come_in_order_and_only_the_last_screen():
    read, out = full_pipe()
    writer = ScreenWriter(out)
    writer.screen("first screen\n")  # the thread takes it, and blocks writing it
    assert taken(writer)
    for i in range(50):
        writer.screen(f"old screen {i}\n")
        writer.say(f"line {i}")
    writer.screen("newest screen\n")
    text = read_once_moved(read, out, writer.close)
    lines = [f"line {i}\n" for i in range(50)]
    positions = [text.index(line) for line in lines]
    assert positions == sorted(positions)  # every line, in order
    assert "newest screen\n" in text and text.index("newest screen") > positions[-1]
    assert "old screen 0\n" not in text and "old screen 48\n" not in text  # replaced


def test_the_bell_of_a_replaced_screen_rings_with_the_newer_one():
    # Issue 25: the bell as a turn comes (ui/bell.py) is not lost with its redraw.
    read, out = full_pipe()
    writer = ScreenWriter(out)
    writer.screen("first screen\n")
    assert taken(writer)
    writer.screen("\aour turn\n")
    writer.screen("our turn, a second later\n")  # replaces it before it is written
    text = read_once_moved(read, out, writer.close)
    assert text.endswith("first screen\n\aour turn, a second later\n")
    assert text.count("\a") == 1


def test_a_stuck_terminal_delays_the_end_of_the_game_only_a_little(monkeypatch):
    monkeypatch.setattr(screen_writer, "CLOSE_WAIT", 0.2)
    read, out = full_pipe()
    writer = ScreenWriter(out)
    writer.say("Ana wins")
    assert returns(lambda: writer.close(timeout=0.2))
    os.close(read)


def test_lines_beyond_the_bound_are_dropped_oldest_first_and_counted(monkeypatch):
    monkeypatch.setattr(screen_writer, "MAX_LINES", 10)
    read, out = full_pipe()
    writer = ScreenWriter(out)
    writer.say("taken by the thread")
    assert taken(writer)
    for i in range(30):
        writer.say(f"line {i}")
    text = read_once_moved(read, out, writer.close)
    assert "line 29\n" in text and "line 20\n" in text and "line 19\n" not in text
    assert "lines not shown: output stalled)" in text


def test_a_stream_without_a_descriptor_is_written_at_once():
    out = io.StringIO()
    writer = ScreenWriter(out)
    writer.screen("a screen\n")
    writer.say("a line")
    assert out.getvalue() == "a screen\na line\n"


def test_the_terminal_frontend_draws_through_it_and_never_waits_on_the_terminal():
    # The frontend's redraw on a terminal nobody reads: the peer loop goes on.
    from p2ptable.ui.terminal import TerminalFrontend

    _, net, mover = to_move()
    read, out = full_pipe()
    ui = TerminalFrontend(stdin=io.StringIO(""), stdout=out)
    assert returns(lambda: [ui.show(mover, [], net.now + i * 2.0) for i in range(20)])
    assert returns(lambda: ui.say("a lobby line"))
    text = read_once_moved(read, out, ui.close)
    assert "Your choice (number, or ? for help):" in text and text.endswith("a lobby line\n")
