"""Cheaters are caught by the session and named in the log with evidence.

Issue 3: "a peer that sends two different signed entries for the same position is
caught. The game stops, and both signed messages are kept in the replay as
evidence." and "a peer that stops contributing (e.g. withholds a preimage) is named
after a timeout, and the game stops cleanly with that record in the replay."
"""

from __future__ import annotations

import copy

from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Rejected
from p2ptable.net.wire import Message, envelope_of, seal
from p2ptable.replay import authoring
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.verify import verify_bytes

from .test_session_memory import make_table


def file_of(log: list[bytes]) -> bytes:
    return MAGIC + b"".join(encode_frame(p) for p in log)


def kind_of(frame: bytes) -> str:
    return envelope_of(frame)["k"]


def first_real_choice(sessions, net):
    """Advance until the seat to act has two legal moves; return that session."""
    for _ in range(200):
        net.pump()
        mover = next(s for s in sessions.values() if s.my_turn())
        actions = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)
        if len(actions) >= 2:
            return mover, actions
        mover.submit(actions[0], net.now)
    raise AssertionError("no real choice came up")


def test_equivocation_is_caught_and_the_evidence_kept():
    seats, sessions, logs = make_table(3, "equivocate")
    net = MemoryNet(sessions, logs)
    mover, actions = first_real_choice(sessions, net)
    cheater = mover.seat
    victim = (cheater + 1) % 3
    # The cheater signs a second, different move for the same position and sends
    # it to one victim only; the other seats get the first move.
    fork = copy.deepcopy(mover.ledger)
    other = authoring.action_entry(fork, cheater, seats[cheater], actions[1])
    forged = seal(
        Message("entry", fork.game_id, cheater, b"fork!!!!", 0, {"entry": other.encode()}),
        sessions[victim].links[cheater],  # the key cheater and victim share
    )

    def swap(sender, target, frame):
        if sender == cheater and target == victim and kind_of(frame) == "entry":
            return forged
        return frame

    net.filter = swap
    mover.submit(actions[0], net.now)
    net.pump()
    net.filter = None
    for _ in range(5):
        net.advance(1.0)
    honest = [s for s in sessions.values() if s.seat != cheater]
    for session in honest:
        assert session.stopped is not None, session.seat
        assert session.stopped.culprit == cheater
    for seat in (s.seat for s in honest):
        report = verify_bytes(file_of(logs[seat]))
        assert not report.valid
        assert report.error["culprit"] == cheater
        assert "equivocation" in report.error["reason"]
        assert "proved" in report.error["reason"]


def test_withholding_a_reveal_is_named_after_the_timeout():
    seats, sessions, logs = make_table(3, "withhold")
    net = MemoryNet(sessions, logs)
    cheater = 2

    def withhold(sender, target, frame):
        # It keeps pinging (it is alive) but never lets its preimage out, neither as
        # a reveal nor inside a catch-up batch.
        if sender == cheater and kind_of(frame) in ("reveal", "entries"):
            return None
        return frame

    net.filter = withhold
    net.pump()
    for _ in range(30):  # 30 simulated seconds, pings keep flowing
        net.advance(1.0)
    for seat in (0, 1):
        assert sessions[seat].stopped is not None
        assert sessions[seat].stopped.culprit == cheater
        report = verify_bytes(file_of(logs[seat]))
        assert report.error["culprit"] is None  # an accusation, not a proof
        assert report.stopped["culprit"] == cheater
        assert report.stopped["proved"] is False
        assert "withheld" in report.error["reason"]


def test_a_silent_peer_is_waited_for_not_named():
    # A peer that is simply gone (crashed, network down) may come back and resume:
    # it is shown as silent, and nobody is named.
    seats, sessions, logs = make_table(3, "silent")
    gone = sessions.pop(2)
    net = MemoryNet(sessions, logs)
    net.pump()
    for _ in range(30):
        net.advance(1.0)
    assert all(s.stopped is None for s in sessions.values())
    assert sessions[0].silent_peers(net.now) == [(2, None)]
    assert gone.stopped is None


def test_a_reveal_off_the_chain_is_rejected_and_then_counts_as_withheld():
    # A value that does not hash to the seat's previous chain value is refused at
    # once.  Frames are not signed, so it proves nothing to third parties: the seat
    # has simply not revealed, and if it never does it is named for withholding.
    seats, sessions, logs = make_table(3, "badreveal")
    net = MemoryNet(sessions, logs)
    cheater = 1

    def corrupt(sender, target, frame):
        if sender == cheater and kind_of(frame) == "reveal":
            env = envelope_of(frame)
            data = dict(env["d"], pre=b"\x13" * 32)
            msg = Message("reveal", env["table"], cheater, env["boot"], env["seq"], data)
            return seal(msg, sessions[target].links[cheater])
        if sender == cheater and kind_of(frame) == "entries":
            return None  # and it does not leak its value through catch-up either
        return frame

    net.filter = corrupt
    net.pump()
    rejected = [e for e in sessions[0].take_events() if isinstance(e, Rejected)]
    assert any(e.seat == cheater and "not on its committed chain" in e.reason for e in rejected)
    assert sessions[0].stopped is None
    for _ in range(30):
        net.advance(1.0)
    for seat in (0, 2):
        assert sessions[seat].stopped is not None
        report = verify_bytes(file_of(logs[seat]))
        assert report.stopped["culprit"] == cheater
        assert "withheld" in report.error["reason"]


def test_a_peer_gone_for_good_is_named_as_having_abandoned():
    # Issue 3: "a peer that stops contributing ... is named after a timeout, and the
    # game stops cleanly with that record in the replay".  A crashed player has five
    # minutes to resume; after that the others stop rather than wait for ever.
    seats, sessions, logs = make_table(3, "abandon")
    gone = sessions.pop(2)
    net = MemoryNet(sessions, logs)
    net.pump()
    for _ in range(299):
        net.advance(1.0)
    assert all(s.stopped is None for s in sessions.values())
    net.advance(2.0)
    for seat in (0, 1):
        assert sessions[seat].stopped is not None
        assert sessions[seat].stopped.culprit == 2
        report = verify_bytes(file_of(logs[seat]))
        assert report.stopped["reason"] == "abandoned"
        assert report.stopped["proved"] is False
    assert gone.stopped is None


def test_a_player_thinking_for_a_long_time_is_not_abandoned():
    # Pings keep coming while a person thinks: being slow is not leaving.
    seats, sessions, logs = make_table(2, "thinker")
    net = MemoryNet(sessions, logs)
    for _ in range(600):
        net.advance(1.0)
        if any(s.my_turn() for s in sessions.values()):
            break
    assert any(s.my_turn() for s in sessions.values())
    for _ in range(400):
        net.advance(1.0)
    assert all(s.stopped is None for s in sessions.values())
