"""When a peer acts: the move leaves first, and an idle peer sleeps until a deadline.

Issue 3's figures are "the time from a move being submitted to it being applied at
every peer"; every other peer is waiting for the move, so nothing of ours may go
out ahead of it.  And a peer with nothing due must not wake on a fixed beat: six
peers polling every few milliseconds is work that queues in front of a move.
"""

from __future__ import annotations

import pytest

from p2ptable.bots.seat import BotPlayer
from p2ptable.engine.api import Action
from p2ptable.net.accusations import PING_EVERY
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import LocalProtocolError
from p2ptable.replay.entries import Entry

from .test_session_cheating import kind_of
from .test_session_memory import make_table


def test_submit_without_advance_queues_the_move_alone_and_advance_adds_the_rest():
    seats, sessions, logs = make_table(3, "advance")
    net = MemoryNet(sessions, logs)
    # Play until a move makes a chance step due: the mover's reveal comes after it.
    for _ in range(200):
        net.pump()
        mover = next(s for s in sessions.values() if s.my_turn())
        action = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)[0]
        mover.submit(action, net.now, advance=False)
        moved = [kind_of(frame) for _, frame in mover.take_outgoing()]
        assert moved == ["entry"] * 2, moved  # one frame per other seat, nothing else
        index = mover.ledger.next_index
        assert not mover.my_turn()  # sent, not yet applied: nothing else goes
        mover.advance(net.now)
        assert mover.ledger.next_index == index + 1  # applied now
        if mover.ledger.expected().kind == "chance":
            assert mover.seat in mover.rounds["chance"].have(index + 1)  # and its reveal made
            return
    raise AssertionError("no move made a chance step due")


def test_an_idle_session_wakes_for_its_next_ping_only():
    seats, sessions, logs = make_table(3, "idle")
    net = MemoryNet(sessions, logs)
    net.pump()
    waiting = next(s for s in sessions.values() if not s.my_turn())
    waiting.tick(10.0)
    assert waiting.wake_at(10.0) == 10.0 + PING_EVERY


def test_a_pending_withholding_deadline_wakes_the_session_and_a_past_one_does_not():
    seats, sessions, logs = make_table(3, "deadline")
    session = sessions[0]
    session.waiting.withhold_timeout = 0.5
    session.waiting.since = 10.0  # waiting on someone's contribution since t=10
    session.tick(10.0)
    assert session.wake_at(10.1) == 10.5
    # Past the deadline the check has run; pings re-check, the loop must not spin.
    assert session.wake_at(10.6) == session.greetings.next_ping > 10.6


def test_a_bot_sleeps_until_its_think_time_is_over():
    seats, sessions, logs = make_table(2, "bot")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    other = sessions[1 - mover.seat]
    bot = BotPlayer("random", delay=0.25, policy=lambda game, state, seat: None)
    assert bot.wake_at(other, 5.0) > 5.0 + 60  # not its turn: only messages wake it
    assert bot.choose(mover, 5.0) is None  # its turn: starts thinking
    assert bot.wake_at(mover, 5.01) == 5.25
    quick = BotPlayer("random", policy=lambda game, state, seat: None)
    assert quick.wake_at(mover, 5.0) == 5.0  # no think time: decide at once


def test_a_turn_met_first_when_the_loop_asks_when_to_wake_starts_the_think_time():
    # A bot whose own move gave it the next turn too (Pet Quartet: place, then take
    # or decline) meets that turn when the loop asks when to wake, after the move.
    # It answered "at once", and the loop made a pass that only started the think
    # time before sleeping through it.
    seats, sessions, logs = make_table(2, "bot-again")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    bot = BotPlayer("random", delay=0.25, policy=lambda game, state, seat: None)
    assert bot.wake_at(mover, 7.0) == 7.25  # not "now": the think time began
    assert bot.choose(mover, 7.1) is None  # still thinking
    assert bot.wake_at(mover, 7.1) == 7.25  # the same turn: the same end


def test_the_move_is_to_be_made_durable_before_it_is_handed_out():
    # A crash between sending and writing would let a resumed seat sign a second,
    # different move for the same place: equivocation.  So the session hands out
    # the move to persist, marked durable, with the frames that carry it; the
    # peer writes before it sends (tests/net/test_peer_output.py holds it to that).
    seats, sessions, logs = make_table(3, "wal")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    action = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)[0]
    before = len(logs[mover.seat])
    mover.submit(action, net.now, advance=False)
    writes = mover.take_writes()
    assert len(writes) == 1 and writes[0][1] is True  # our move, to be made durable
    assert Entry.decode(writes[0][0]).body["action"] == action.text
    assert mover.outgoing  # and the frames that carry it
    logs[mover.seat].extend(w.payload for w in writes)
    mover.advance(net.now)
    assert all(Entry.decode(w.payload).kind != "action" for w in mover.take_writes())  # not twice
    assert len(logs[mover.seat]) == before + 1
    net.pump()
    assert len({b"".join(log) for log in logs.values()}) == 1


def test_an_illegal_move_is_refused_before_anything_is_signed_written_or_sent():
    seats, sessions, logs = make_table(3, "illegal")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    before = len(logs[mover.seat])
    with pytest.raises(LocalProtocolError, match="illegal action"):
        mover.submit(Action("take", (99,)), net.now)
    assert len(logs[mover.seat]) == before and not mover.outgoing and mover.my_turn()


def test_a_frame_arriving_before_advance_finds_our_move_applied():
    seats, sessions, logs = make_table(3, "settle")
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    index = mover.ledger.next_index
    action = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)[0]
    mover.submit(action, net.now, advance=False)
    net.pump()  # the others' replies arrive before the caller calls advance()
    assert mover.ledger.next_index > index
    assert len({s.ledger.hashes[index] for s in sessions.values()}) == 1


def test_a_finished_session_tells_every_peer_at_once_so_nobody_lingers():
    # A peer keeps running after the end until every other peer holds the whole
    # log (net/peer.py); without an immediate word it waited for a ping that a peer
    # which had already left would never send (5 s of linger, found by timing).
    import random

    from .test_session_memory import play_out

    seats, sessions, logs = make_table(3, "linger")
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(4))
    assert all(s.finished for s in sessions.values())
    for session in sessions.values():
        length = session.ledger.next_index
        assert all(p.their_len == length for p in session.peers.values())
