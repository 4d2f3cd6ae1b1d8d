"""The peer carries out what the session produced: writes first, then sends.

Issue 13: "The session returns the entries to persist along with the frames to
send; the peer writes, then sends, and a test that fails when the order is
swapped proves it."
"""

from __future__ import annotations

from p2ptable.net.delivery import deliver
from p2ptable.net.memory import MemoryNet
from p2ptable.replay.entries import Entry

from .test_session_memory import make_table


def test_our_move_is_written_before_any_frame_carrying_it_is_sent():
    _, sessions, logs = make_table(3, "order")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    action = mover.legal_actions()[0]
    mover.submit(action, net.now, advance=False)
    done: list[tuple[str, bytes]] = []
    deliver(
        mover,
        write=lambda payload: done.append(("write", payload)),
        send=lambda dest, frame: done.append(("send", frame)),
    )
    kinds = [kind for kind, _ in done]
    assert kinds[0] == "write" and "send" in kinds
    assert kinds == sorted(kinds, key=lambda k: k != "write")  # every write before every send
    move = Entry.decode(done[0][1])
    assert move.kind == "action" and move.body["action"] == action.text
    assert move.encode() in b"".join(frame for kind, frame in done if kind == "send")
