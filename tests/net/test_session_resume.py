"""A resumed seat signs no move before its peers have told it where the log is.

Issue 12: "Power loss makes an honest seat a proved equivocator ... after a power
loss the seat's last sent move can be missing from disk, and on resume it may sign
a different one before catching up." and "after a resume the seat asks its peers
for what follows its log and signs nothing new at a position they already hold."
(protocol/wire.md 6.10)

A power cut is played on the in-memory network: the seat's session is replaced by
one built from what its disk held, with a new boot, as `p2ptable resume` does.
"""

from __future__ import annotations

import random

import pytest

from p2ptable.engine.playout import random_policy
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import LocalProtocolError, Session, Stopped
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.verify import verify_bytes

from .test_session_memory import make_table, play_out
from .test_session_sealed import log_file


def play_until(sessions, net, rng, done, max_moves=2000) -> None:
    """Random moves until ``done()`` holds (checked whenever the network is quiet)."""
    policies = {s: random_policy(random.Random(rng.random())) for s in sessions}
    for _ in range(max_moves):
        net.pump()
        if done():
            return
        mover = next(s for s in sessions.values() if s.my_turn())
        mover.submit(
            policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat), net.now
        )
    raise AssertionError("the state asked for never came")


def restart(sessions, net, seats, seat, disk, resumed=True) -> Session:
    """Seat ``seat``'s process died; it starts again from ``disk`` (its log as the
    disk kept it), with a new boot, like `p2ptable resume`."""
    ledger = Ledger(Entry.decode(disk[0]))
    for payload in disk[1:]:
        ledger.append(Entry.decode(payload))
    net.queue = type(net.queue)(item for item in net.queue if seat not in item[:2])
    session = Session(ledger, seat, seats[seat], net.now, boot=b"\x42" * 8, resumed=resumed)
    sessions[seat] = session
    if net.logs is not None:
        net.logs[seat] = disk  # what it persists goes to its disk
    return session


def lose_the_last_move(players: int, seed: str):
    """Seat 1 makes a move (not its only legal one), every peer gets it, then the
    power fails and seat 1's disk has lost it: the state the review describes."""
    seats, sessions, logs = make_table(players, seed)
    net = MemoryNet(sessions, logs)
    rng = random.Random(seed)

    def seat_1_chooses():
        s = sessions[1]
        legal = s.ledger.game.legal_actions(s.ledger.state, 1) if s.my_turn() else []
        return s.ledger.next_index >= 10 and len(legal) >= 2

    play_until(sessions, net, rng, seat_1_chooses)
    mover = sessions[1]
    index = mover.ledger.next_index
    first, second = mover.ledger.game.legal_actions(mover.ledger.state, 1)[:2]
    mover.submit(first, net.now)
    net.pump()
    sent = logs[1][index]
    assert all(logs[s][index] == sent for s in sessions)  # everyone holds it
    disk = logs[1][:index]  # the power cut: the move never reached the disk
    return seats, sessions, logs, net, index, sent, second, disk


@pytest.mark.parametrize("players", [2, 3])
def test_a_seat_that_lost_its_sent_move_gets_it_back_and_signs_no_other(players):
    seats, sessions, logs, net, index, sent, other, disk = lose_the_last_move(
        players, f"power-{players}"
    )
    resumed = restart(sessions, net, seats, 1, disk)
    logs[1] = disk
    # Before any peer has answered: its ledger says it is to move, and it must not.
    assert resumed.ledger.expected().seat == 1
    assert not resumed.my_turn()
    assert resumed.resume_waiting_on() == [s for s in sessions if s != 1]
    with pytest.raises(LocalProtocolError, match="not your turn"):
        resumed.submit(other, net.now)
    net.pump()
    # Its hello made the peers send what follows its log: its own move first.
    assert disk[index] == sent
    assert resumed.resume_waiting_on() == []
    play_out(sessions, net, random.Random(players))
    assert all(s.finished for s in sessions.values())
    assert len({log_file(log) for log in logs.values()}) == 1
    report = verify_bytes(log_file(logs[0]))
    assert report.valid and report.stopped is None
    events = [e for s in sessions.values() for e in s.take_events()]
    assert not any(isinstance(e, Stopped) for e in events)


def test_without_waiting_the_same_seat_would_be_a_proved_equivocator():
    # Why the wait is needed: a session that does not know it was resumed is free
    # to move at once, and the different move it signs is proof against it.
    seats, sessions, _, net, _, _, other, disk = lose_the_last_move(2, "power-naive")
    naive = restart(sessions, net, seats, 1, disk, resumed=False)
    assert naive.my_turn()
    naive.submit(other, net.now)
    net.pump()
    stopped = sessions[0].stopped
    assert stopped is not None and stopped.culprit == 1
    assert sessions[0].ledger.stopped.reason == "equivocation"


@pytest.mark.parametrize("whose_turn", [2, 1], ids=["its-own-turn", "the-silent-seat-s-turn"])
def test_a_resumed_seat_waits_for_a_peer_that_never_answers(whose_turn):
    # "after resume with a peer that never answers, the seat waits (no new
    # signature) and the UI can say whom it waits for."  Seat 2 restarts (here
    # with nothing lost) while seat 1 is cut off.
    seats, sessions, logs = make_table(3, f"silent-{whose_turn}")
    net = MemoryNet(sessions, logs)

    def turn_of_the_seat():
        return sessions[0].ledger.next_index >= 8 and sessions[whose_turn].my_turn()

    play_until(sessions, net, random.Random(whose_turn), turn_of_the_seat)
    for session in sessions.values():
        # Nobody names anyone abandoned in this test; only the wait is looked at.
        session.waiting.abandon_timeout = 10_000.0
    net.filter = lambda sender, target, frame: None if 1 in (sender, target) else frame
    disk = list(logs[2])
    resumed = restart(sessions, net, seats, 2, disk)
    logs[2] = disk
    length = len(disk)
    for _ in range(400):  # past the abandon and withholding timeouts a resume has
        net.advance(1.0)
        assert not resumed.my_turn()
        assert resumed.resume_waiting_on() == [1]
    assert len(disk) == length  # nothing signed, nothing written
    assert resumed.stopped is None
    net.filter = None  # seat 1 answers at last
    net.advance(1.0)
    assert resumed.resume_waiting_on() == []
    assert resumed.my_turn() is (whose_turn == 2)
    play_out(sessions, net, random.Random(7))
    assert all(s.finished for s in sessions.values())
    assert len({log_file(log) for log in logs.values()}) == 1


def test_a_session_not_resumed_never_waits():
    _, sessions, _ = make_table(2, "fresh")
    assert all(s.resume_waiting_on() == [] for s in sessions.values())


def test_a_resumed_seat_that_reached_the_host_by_another_address_is_welcomed():
    # Found by hand: Ana hosted advertising her LAN address (192.0.2.2), Ben
    # joined by 127.0.0.1 and so kept Ana's endpoint as tcp://127.0.0.1:47411.
    # Every hello and ping of Ana's names tcp://192.0.2.2:47411, and Ben refused
    # each one ("hello from another address"): harmless while the game ran, but
    # after Ctrl-C and `resume` Ben waited for Ana's welcome for ever.  The claim
    # of another address is not believed (no seat may point the others at another
    # machine) but the message is still taken: only the move is refused.
    seats, sessions, logs = make_table(2, "two-addresses")
    endpoints = {0: "tcp://192.0.2.2:47411", 1: "tcp://127.0.0.1:47500"}
    for session in sessions.values():
        session.greetings.endpoints[:] = [endpoints[0], endpoints[1]]
    sessions[1].greetings.endpoints[0] = "tcp://127.0.0.1:47411"  # how Ben reached Ana
    net = MemoryNet(sessions, logs)
    play_until(sessions, net, random.Random(3), lambda: sessions[0].ledger.next_index >= 6)
    disk = list(logs[1])
    ledger = Ledger(Entry.decode(disk[0]))
    for payload in disk[1:]:
        ledger.append(Entry.decode(payload))
    net.queue = type(net.queue)(item for item in net.queue if 1 not in item[:2])
    kept = ["tcp://127.0.0.1:47411", endpoints[1]]  # Ben's secrets file: Ana as he reached her
    resumed = Session(ledger, 1, seats[1], net.now, boot=b"\x42" * 8, resumed=True, endpoints=kept)
    sessions[1] = resumed
    net.logs[1] = disk
    for _ in range(5):
        net.advance(1.0)
    assert resumed.resume_waiting_on() == []
    assert resumed.greetings.endpoints[0] == "tcp://127.0.0.1:47411"  # not moved
    play_out(sessions, net, random.Random(4))
    assert all(s.finished for s in sessions.values())
