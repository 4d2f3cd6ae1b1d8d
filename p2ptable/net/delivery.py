"""Carrying out what a session produced, in the one safe order (h11's "the caller
writes what it is handed"): the peer loop (net/peer.py) and the in-memory net of
the tests (net/memory.py) both hand a session's output to :func:`deliver`, so the
order a test sees is the order a peer keeps."""

from __future__ import annotations

from collections.abc import Callable

from p2ptable.net.session import Choice, Session


def deliver(
    session: Session,
    write: Callable[[bytes], None],
    send: Callable[[int | None, bytes], None],
    sync: Callable[[], None] = lambda: None,
    cut: Callable[[int], None] = lambda keep: None,
    keep_choice: Callable[[Choice], None] = lambda choice: None,
) -> None:
    """Carry out what the session produced, in the one safe order: every entry
    written, then synced to stable storage if one of them is ours (an entry we
    signed, or assembled and send first), then every frame sent.  So an entry we
    signed is on disk before any frame that carries it leaves, and a crash or a
    power cut can never make us sign a second, different entry for a position a
    peer already holds.  One sync covers every earlier write to the file, the
    others' entries ours link to included; those alone are never synced (a peer
    sends them again).  Our secret choices are kept (durably) before any frame
    leaves too: our commit to one goes out in the same batch."""
    durable = False
    for item in session.take_writes():
        if item.keep is not None:
            cut(item.keep)  # an agreed abort takes a contested position
        write(item.payload)
        durable = durable or item.durable
    if durable:
        sync()
    for choice in session.take_choices():
        keep_choice(choice)
    for dest, frame in session.take_outgoing():
        send(dest, frame)
