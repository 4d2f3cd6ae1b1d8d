"""What a hostile seat or a stranger can make a peer hold stays under a bound.

Issue 12: "Memory a peer can be made to hold: 1,200 result-signature frames ->
240 MB (no bound on indexes); reveals are capped at 4,096 indexes but each may
hold ~256 KB (~1 GiB per seat) ..." and "Bounded everything: every buffer keyed by
data a peer or stranger controls has a bound in count and bytes ... Figure: the
most memory a hostile seat and a hostile stranger can make a peer hold, measured
by a test that tries, under a documented bound (e.g. 64 MB)."

The hostile seat holds a seat's keys, so every frame it sends is authentic; it
sends as much as a frame can carry, of every kind a session keeps something of,
for every index it can name.  The stranger has no keys.  The victim's Python
allocations are measured with tracemalloc while it takes all of it.
"""

from __future__ import annotations

import os
import tracemalloc

from p2ptable.net.memory import MemoryNet
from p2ptable.net.wire import MAX_FRAME
from p2ptable.replay.entries import make_body, sign_body

from .test_session_memory import make_table

BOUND = 64 << 20  # documented in protocol/wire.md section 7
BIG = MAX_FRAME - 4096  # as much as one frame can carry, with its envelope


def hostile_frames(sessions, hostile: int, victim: int, seats):
    """Every frame the hostile seat can make the victim keep something of."""
    session = sessions[hostile]
    ledger = session.ledger
    base = ledger.next_index
    head = ledger.head
    for i in range(1_300):  # result signatures for every index it can name
        session.send(victim, "rsig", {"i": base + i, "sig": os.urandom(64)})
        session.send(victim, "rsig", {"i": base + i, "sig": os.urandom(BIG // 4)})
    for i in range(300):  # reveals, each as large as a frame allows
        big = os.urandom(BIG // 2)
        session.send(victim, "reveal", {"i": base + i, "prev": big, "step": 0, "pre": big})
        session.send(victim, "reveal", {"i": base + i, "prev": head, "step": 0, "pre": bytes(32)})
    for i in range(1, 220):  # well-formed signed entries from ahead of the log
        body = make_body(t="action", i=base + i, prev=head, seat=hostile, action="x" * (BIG - 2048))
        entry = sign_body(ledger.game_id, body, {hostile: seats[hostile].key})
        session.send(victim, "entries", {"from": base + i, "entries": [entry.encode()]})
    return [frame for dest, frame in session.take_outgoing() if dest == victim]


def test_a_hostile_seat_and_a_stranger_cannot_make_a_peer_hold_more_than_the_bound():
    seats, sessions, logs = make_table(3, "memory")
    net = MemoryNet(sessions, logs)
    net.pump()
    victim, hostile = 0, 1
    frames = hostile_frames(sessions, hostile, victim, seats)
    junk = [os.urandom(BIG) for _ in range(50)]  # the stranger: no keys
    target = sessions[victim]
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        for frame in frames:
            target.receive(frame, net.now)
            target.take_events()
        for frame in junk:
            target.receive(frame, net.now)
            target.take_events()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    held = current - start
    assert sum(len(f) for f in frames) > 3 * BOUND  # it really tried
    print(f"held {held / 2**20:.1f} MiB, peak {(peak - start) / 2**20:.1f} MiB")
    assert held < BOUND, f"the victim holds {held / 2**20:.1f} MiB"
    assert peak - start < BOUND + 2 * MAX_FRAME  # never more, even for a moment
    assert target.failed is None and target.stopped is None
    # The game goes on for the honest seats.
    net.pump()
    assert target.my_turn() or any(s.my_turn() for s in sessions.values())
