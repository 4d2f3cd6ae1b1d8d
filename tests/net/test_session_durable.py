"""An entry we sign is on stable storage before it leaves (net/session.py).

Issue 12: "Durable before it is sent: an entry we sign reaches the disk (fsync, or
an equivalent you measure) before it leaves" and "Entries WE sign (our actions,
shuffles; also entries we assemble and send first, like a collector's chance
entry) must be on stable storage (fsync / fdatasync) before their frames leave;
entries others signed can be written without a sync per entry".

Each session's ``write``, ``sync`` and every frame it queues are recorded in one
list, in order, so the tests check the order itself.
"""

from __future__ import annotations

import random

import pytest

from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import CARRIES_ENTRIES, Session
from p2ptable.net.wire import envelope_of
from p2ptable.replay.entries import Entry

from . import test_session_memory as plain
from . import test_session_sealed as sealed
from .test_session_memory import play_out


def record(session: Session) -> list[tuple[str, object]]:
    """Log the session's writes, syncs and queued frames (after the frame is
    queued: a sync inside ``_send`` comes first, as it must)."""
    events: list[tuple[str, object]] = []
    session.write = lambda payload: events.append(("write", payload))
    session.sync = lambda: events.append(("sync", None))
    send = session._send

    def logged(dest, kind, data):
        send(dest, kind, data)
        events.append(("send", (kind, data)))

    session._send = logged
    return events


def carried(kind: str, data: dict) -> list[bytes]:
    if kind == "entries":
        return list(data["entries"])
    return [data["entry"]] if kind in ("entry", "stop") else []


def check_durable(events: list[tuple[str, object]], seat: int) -> dict[str, int]:
    """Every entry a frame carries was written and synced before the frame was
    queued, except our early shuffle (made again byte for byte, see below); a
    sync only ever happens right before such a frame, and only with something
    new written.  Returns how many entries of each kind we sent that we wrote."""
    written: dict[bytes, int] = {}
    early: list[bytes] = []
    last_sync = -1
    sent: dict[str, int] = {}
    for i, (what, value) in enumerate(events):
        if what == "write":
            written[value] = i
        elif what == "sync":
            assert any(w == "write" for w, _ in events[last_sync + 1 : i]), "a sync of nothing"
            following = events[i + 1]
            assert following[0] == "send" and following[1][0] in CARRIES_ENTRIES
            last_sync = i
        else:
            kind, data = value
            for payload in carried(kind, data):
                if payload in written:
                    assert written[payload] < last_sync, f"seat {seat} sent an unsynced entry"
                    entry = Entry.decode(payload)
                    sent[entry.kind] = sent.get(entry.kind, 0) + 1
                else:
                    # A shuffle made on top of the previous seat's before that one is
                    # in our log (wire.md 6.11): not yet written, and it need not
                    # be: it is a function of the log and our deck secret, so after
                    # a crash the same bytes are made again (never equivocation).
                    entry = Entry.decode(payload)
                    assert entry.kind == "shuffle" and entry.body["seat"] == seat
                    early.append(payload)
    assert all(p in written for p in early), "an early shuffle never reached the log"
    return sent


def test_moves_and_a_collectors_chance_entries_are_synced_before_they_leave():
    _, sessions, _ = plain.make_table(3, "durable")
    events = {seat: record(s) for seat, s in sessions.items()}
    play_out(sessions, MemoryNet(sessions), random.Random(12))
    assert all(s.finished for s in sessions.values())
    sent = {seat: check_durable(events[seat], seat) for seat in sessions}
    assert all(sent[seat].get("action", 0) > 0 for seat in sessions)
    # At a table of three the seat that moved last collects the reveals and
    # sends the chance entry first: it is synced like a move.
    assert sum(sent[seat].get("chance", 0) for seat in sessions) > 0


def test_entries_of_others_are_written_without_a_sync_each():
    # "entries others signed can be written without a sync per entry": a peer
    # sends them again if we lose them.  Our one sync before our next own entry
    # covers them (a sync flushes every earlier write to the file).
    _, sessions, _ = plain.make_table(2, "others")
    events = {seat: record(s) for seat, s in sessions.items()}
    play_out(sessions, MemoryNet(sessions), random.Random(5))
    for seat in sessions:
        writes = sum(1 for w, _ in events[seat] if w == "write")
        syncs = sum(1 for w, _ in events[seat] if w == "sync")
        ours = check_durable(events[seat], seat).get("action", 0)
        assert syncs <= ours + 2 < writes  # (+2: an entry or two pushed in catch-up)


def test_shuffles_are_synced_before_they_leave():
    _, sessions, _ = sealed.make_table(2, "durable-sealed")
    events = {seat: record(s) for seat, s in sessions.items()}
    play_out(sessions, MemoryNet(sessions), random.Random(4))
    assert all(s.finished for s in sessions.values())
    sent = {seat: check_durable(events[seat], seat) for seat in sessions}
    assert sum(sent[seat].get("shuffle", 0) for seat in sessions) > 0


def test_an_abort_is_synced_before_it_leaves():
    _, sessions, _ = plain.make_table(3, "durable-abort")
    events = {seat: record(s) for seat, s in sessions.items()}
    net = MemoryNet(sessions)

    def withhold(sender, target, frame):
        # Seat 2 stays in contact (pings) and never reveals (nor relays the
        # chance entry it can still make from the others' reveals).
        withheld = sender == 2 and envelope_of(frame)["k"] in ("reveal", "entries")
        return None if withheld else frame

    net.filter = withhold
    net.pump()
    for _ in range(30):
        net.advance(1.0)
    stoppers = [seat for seat in (0, 1) if check_durable(events[seat], seat).get("abort")]
    assert stoppers, "nobody sent an abort"
    assert all(sessions[seat].stopped is not None for seat in (0, 1))


@pytest.mark.parametrize("fails", [OSError(28, "No space left on device")])
def test_a_failed_sync_sends_nothing(fails):
    # If the disk refuses, the move must not leave: the frame is never queued.
    _, sessions, _ = plain.make_table(2, "full disk")
    net = MemoryNet(sessions)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())

    def refuse():
        raise fails

    mover.sync = refuse
    action = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)[0]
    with pytest.raises(OSError):
        mover.submit(action, net.now)
    assert not any(envelope_of(frame)["k"] == "entry" for _, frame in mover.take_outgoing())
