"""Every honest log ends the same way, in every ending.

Issue 12: "after any proved cheating or equivocation stop the honest logs differ,
because each detector signs its own abort (§9.2)" and "Honest logs end identical
after a proved stop: one agreed abort entry (e.g. the evidence decides it, not the
detector's signature), so every honest replay is byte-identical in every ending."

Decision (wire.md 6.8): an abort is unsigned and every field of it is a function
of what it accuses, so two honest peers that catch the same thing write the same
bytes; two messages signed for one position put the abort in that position's
place (a log that took either message is cut back to it); and when two honest
peers reach different endings, each keeps the better one (a proof before an
accusation, the earliest position, then an order of reasons, then the lower hash).
"""

from __future__ import annotations

import copy

from p2ptable.net.memory import MemoryNet
from p2ptable.net.wire import Message, envelope_of, seal
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, make_body
from p2ptable.replay.verify import verify_bytes

from .test_session_cheating import file_of, first_real_choice
from .test_session_memory import make_table


def honest_logs(logs, cheater):
    return {file_of(log) for seat, log in logs.items() if seat != cheater}


def test_two_detectors_of_one_withholder_write_the_same_abort():
    seats, sessions, logs = make_table(3, "agree-withheld")
    net = MemoryNet(sessions, logs)
    withholder = 2

    def withhold(sender, target, frame):
        # Alive (its pings arrive), but neither its reveals nor the chance
        # entries it could relay as collector ever leave it.
        return (
            None
            if sender == withholder and envelope_of(frame)["k"] in ("reveal", "entries")
            else frame
        )

    net.filter = withhold
    net.pump()
    for _ in range(40):
        net.advance(1.0)
    for seat in (0, 1):
        assert sessions[seat].stopped is not None and sessions[seat].stopped.culprit == withholder
    files = honest_logs(logs, withholder)
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.stopped["reason"] == "withheld" and report.stopped["detector"] is None


def test_a_fork_ends_with_the_same_abort_in_the_contested_position():
    seats, sessions, logs = make_table(3, "agree-fork")
    net = MemoryNet(sessions, logs)
    mover, actions = first_real_choice(sessions, net)
    cheater = mover.seat
    victim = (cheater + 1) % 3
    position = mover.ledger.next_index
    fork = copy.deepcopy(mover.ledger)
    other = authoring.action_entry(fork, cheater, seats[cheater], actions[1])
    forged = seal(
        Message("entry", fork.game_id, cheater, b"\x7f" * 8, 0, {"entry": other.encode()}),
        sessions[victim].links[cheater],
    )

    def swap(sender, target, frame):
        if sender == cheater and target == victim and envelope_of(frame)["k"] == "entry":
            return forged
        return frame

    net.filter = swap
    mover.submit(actions[0], net.now)
    net.pump()
    net.filter = None
    for _ in range(6):
        net.advance(1.0)
    files = honest_logs(logs, cheater)
    assert len(files) == 1, "the honest logs differ"
    honest = [s for s in sessions.values() if s.seat != cheater]
    for session in honest:
        assert session.stopped.reason == "equivocation" and session.stopped.culprit == cheater
        assert session.ledger.next_index == position + 1  # the abort took the contested place
    report = verify_bytes(files.pop())
    assert report.stopped["proved"] and report.error["culprit"] == cheater


def test_a_cheater_cannot_cut_an_honest_log_back_with_an_accusation():
    # An unproved abort for an earlier position proves nothing: it never cuts a log.
    seats, sessions, logs = make_table(3, "agree-no-cut")
    net = MemoryNet(sessions, logs)
    for _ in range(6):
        mover, actions = first_real_choice(sessions, net)
        mover.submit(actions[0], net.now)
    net.pump()
    victim, cheater = sessions[0], 2
    early = victim.ledger.entries[5]
    body = make_body(
        t="abort", i=5, prev=early.body["prev"], reason="withheld", culprit=1,
        detail="seat 1 did not send its part of entry 5 in time", evidence=[],
    )  # fmt: skip
    length = victim.ledger.next_index
    sessions[cheater].send(0, "stop", {"entry": Entry(body, ()).encode()})
    net.pump()
    assert victim.stopped is None and victim.ledger.next_index == length


def test_an_abort_is_unsigned_and_its_bytes_follow_from_what_it_accuses():
    seats, sessions, logs = make_table(2, "agree-bytes")
    net = MemoryNet(sessions, logs)
    net.pump()
    from p2ptable.net.accusations import Accusation, abort_body

    accusation = Accusation("abandoned", "seat 1 stayed out of contact", 1, [])
    assert abort_body(sessions[0].ledger, accusation) == abort_body(sessions[1].ledger, accusation)
    sessions[0].accuse(accusation)
    sessions[1].accuse(Accusation("abandoned", "seat 1 stayed out of contact", 1, []))
    net.pump()
    assert sessions[0].ledger.entries[-1].sigs == ()
    assert file_of(logs[0]) == file_of(logs[1])


def test_an_accusation_may_cut_back_only_entries_nobody_chose():
    # A seat that made a chance entry the others never got, while they stopped the
    # game in its place, takes their ending: the chance entry was nobody's move.
    # An accusation over a seat's move is refused (test above).
    from p2ptable.net.stopping import nobody_chose

    seats, sessions, logs = make_table(3, "agree-cut-chance")
    net = MemoryNet(sessions, logs)
    net.pump()
    ledger = sessions[0].ledger
    assert ledger.entries[1].kind == "chance" and ledger.next_index == 2
    assert nobody_chose(ledger, 1, 2)
    body = make_body(
        t="abort", i=1, prev=ledger.entries[0].hash, reason="withheld", culprit=2,
        detail="seat 2 did not send its part of entry 1 in time", evidence=[],
    )  # fmt: skip
    sessions[1].send(0, "stop", {"entry": Entry(body, ()).encode()})
    net.pump()
    assert sessions[0].stopped is not None and sessions[0].ledger.next_index == 2
    assert sessions[0].ledger.entries[1].kind == "abort"
    assert logs[0][1] == Entry(body, ()).encode()  # cut back on disk too
