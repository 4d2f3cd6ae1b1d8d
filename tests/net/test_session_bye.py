"""A seat that leaves says so: the ``bye`` message (protocol/wire.md 4.4 and 6.13).

Issue 22: "Ctrl-D (end of input) at a move prompt ... the table is told nothing
and waits for ever ... End of input is leaving, like Ctrl-C: the seat's peer
tells the others ("Ben left: input closed; waiting for Ben to resume")."

A bye is a courtesy, not a decision: it changes nothing in anyone's log, accuses
nobody and shortens no timeout.  It is an authenticated game frame like any
other, so only the seat itself can send it, and a recorded one replayed later is
refused as any replayed frame is; a seat that sends anything after its bye is
simply back.
"""

from __future__ import annotations

import random

import pytest

from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import LocalProtocolError, PeerLeft, Rejected
from p2ptable.net.wire import Message, open_frame, seal

from .test_session_memory import make_table, play_out


def started(players: int = 3, seed: str = "bye"):  # noqa: ANN201
    seats, sessions, logs = make_table(players, seed)
    net = MemoryNet(sessions, logs)
    net.pump()
    for _ in range(6):  # a few moves in: a game under way
        mover = next(s for s in sessions.values() if s.my_turn())
        mover.submit(mover.legal_actions()[0], net.now)
        net.pump()
    for session in sessions.values():
        session.take_events()  # what the moves did: the tests look at what follows
    return sessions, net, logs


def events(session) -> list:  # noqa: ANN001
    return session.take_events()


def test_a_bye_reaches_every_other_seat_and_changes_nothing_else():
    sessions, net, logs = started()
    before = {seat: (s.ledger.next_index, s.ledger.head) for seat, s in sessions.items()}
    lengths = {seat: len(log) for seat, log in logs.items()}
    sessions[1].leave("input closed")
    sent = sessions[1].take_outgoing()
    assert {dest for dest, _ in sent} == {0, 2}  # one frame for each other seat, and only those
    assert {open_frame(f, sessions[d].ledger.game_id, sessions[d].links).kind for d, f in sent} == {
        "bye"
    }
    for dest, frame in sent:
        sessions[dest].receive(frame, net.now)
    for seat in (0, 2):
        seen = events(sessions[seat])
        assert seen == [PeerLeft(1, "input closed")]
        assert sessions[seat].left_seats() == {1: "input closed"}
        assert sessions[seat].take_writes() == []  # nothing for the log
        assert sessions[seat].take_outgoing() == []  # nothing to answer
    assert {seat: (s.ledger.next_index, s.ledger.head) for seat, s in sessions.items()} == before
    assert {seat: len(log) for seat, log in logs.items()} == lengths
    assert sessions[1].left_seats() == {}  # leaving is said, not kept by the one who leaves


def test_a_seat_that_leaves_and_comes_back_finishes_the_game():
    sessions, net, logs = started(seed="back")
    sessions[1].leave("interrupted")
    net.pump()
    assert sessions[0].left_seats() == {1: "interrupted"}
    net.advance(1.0)  # its next ping (a resumed seat's hello alike): it is back
    assert sessions[0].left_seats() == {} and sessions[2].left_seats() == {}
    play_out(sessions, net, random.Random(5))
    assert all(s.finished and s.stopped is None for s in sessions.values())
    assert len({b"".join(log) for log in logs.values()}) == 1


def test_a_replayed_bye_is_refused():
    sessions, net, _ = started(seed="replayed")
    sessions[1].leave("interrupted")
    recorded = dict(sessions[1].take_outgoing())[0]  # the frame for seat 0, kept by a stranger
    sessions[0].receive(recorded, net.now)
    assert sessions[0].left_seats() == {1: "interrupted"}
    net.advance(1.0)  # seat 1 goes on (it was only interrupted for a moment): back
    assert sessions[0].left_seats() == {}
    sessions[0].take_events()
    sessions[0].receive(recorded, net.now)  # the stranger plays the bye again
    seen = sessions[0].take_events()
    assert seen == [Rejected(1, seen[0].reason)] and "replayed message" in seen[0].reason
    assert sessions[0].left_seats() == {}  # still back


def test_a_bye_from_someone_else_is_refused():
    sessions, net, _ = started(seed="forged")
    sessions[1].leave("interrupted")
    frame = dict(sessions[1].take_outgoing())[2]  # sealed for seat 2, not seat 0
    sessions[0].receive(frame, net.now)
    seen = sessions[0].take_events()
    assert [type(e) for e in seen] == [Rejected]
    assert sessions[0].left_seats() == {}


def test_a_reason_this_version_does_not_know_is_not_repeated():
    # What a peer sends never reaches a screen as it is: only the known words do.
    sessions, net, _ = started(seed="words")
    sender = sessions[1]
    message = Message("bye", sender.ledger.game_id, 1, sender.boot, sender.seq,
                      {"why": "\x1b[2Jgone to lunch"})  # fmt: skip
    sender.seq += 1
    sessions[0].receive(seal(message, sessions[0].links[1]), net.now)
    assert sessions[0].take_events() == [PeerLeft(1, "")]
    assert sessions[0].left_seats() == {1: ""}


def test_only_the_known_reasons_can_be_said():
    sessions, _, _ = started(seed="ours")
    with pytest.raises(LocalProtocolError, match="no such reason"):
        sessions[1].leave("bored")


def stop_time(with_bye: bool) -> tuple[float, str]:
    """When the table names the seat that left, and why, with or without its bye."""
    sessions, net, _ = started(seed="clock")
    mover = next(s for s in sessions.values() if s.my_turn())
    gone = mover.seat
    if with_bye:
        mover.leave("input closed")
    net.collect()
    del net.sessions[gone]  # its process ends: nothing more from it
    for _ in range(400):
        net.advance(1.0)
        stopped = [s.stopped for s in net.sessions.values() if s.stopped is not None]
        if stopped:
            return net.now, stopped[0].reason
    raise AssertionError("nobody was named in 400 s")


def test_a_bye_accuses_nobody_and_shortens_no_timeout():
    # The seat whose turn it is leaves: the table waits for it to resume exactly as
    # long as for a seat that vanished without a word (5 minutes), then names it.
    with_bye, reason = stop_time(True)
    without, same = stop_time(False)
    assert with_bye >= without >= 300
    assert reason == same == "abandoned"
