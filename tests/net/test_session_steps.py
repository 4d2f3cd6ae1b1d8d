"""Automatic steps one at a time: what arrived is applied, sent on and noted first.

Issue 3 measures "the time from a move being submitted to it being applied at every
peer", and the same for a chance step; in Vorsicht Lehrer! a chance step is often
followed by a deal, whose part (decryption shares with their proofs) takes each
peer milliseconds to make.  A peer takes a frame in with ``receive(...,
advance=False)`` and then does the automatic steps with ``step()``, one at a time,
sending what each one queued before starting the next (net/peer.py).  So the
collector's relay of a chance entry leaves before it starts on its part of the deal,
and an entry is noted as applied when it was, not once the next step is done.
"""

from __future__ import annotations

import random

from p2ptable.engine.playout import random_policy
from p2ptable.net.memory import MemoryNet
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.verify import verify_bytes

from .test_session_chance_relay import move_to_chance
from .test_session_cheating import kind_of
from .test_session_memory import make_table
from .test_session_sealed import make_table as make_sealed_table


def steps(session, now, record=None):
    """Run the automatic steps one at a time, as the peer loop does; for each, the
    kinds of the entries it appended and of the frames it queued."""
    for _ in range(1000):
        length, queued = session.ledger.next_index, len(session.outbox.outgoing)
        progressed = session.step(now)
        if record is not None:
            appended = [e.kind for e in session.ledger.entries[length:]]
            sent = [kind_of(frame) for _, frame in session.outbox.outgoing[queued:]]
            record.append((session.seat, appended, sent))
        if not progressed:
            return
    raise AssertionError("steps did not settle")


def play_stepwise(sessions, net, rng, record=None, drop=None):
    """A whole game with every frame taken in as net/peer.py does (``drop``: frames
    the network loses)."""
    policies = {s: random_policy(random.Random(rng.random())) for s in sessions}
    for _ in range(5000):
        for _ in range(200_000):
            net.collect()
            if not net.queue:
                break
            sender, target, frame = net.queue.popleft()
            if drop is not None and drop(sender, target, frame):
                continue
            sessions[target].receive(frame, net.now, advance=False)
            steps(sessions[target], net.now, record)
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            return
        mover = movers[0]
        action = policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat)
        mover.submit(action, net.now, advance=False)
        steps(mover, net.now, record)
    raise AssertionError("the game did not end")


def log_file(log):
    return MAGIC + b"".join(encode_frame(p) for p in log)


def test_a_received_move_is_applied_at_once_and_the_reveal_it_makes_due_waits_for_step():
    seats, sessions, logs = make_table(3, "steps")
    net = MemoryNet(sessions, logs)
    mover = move_to_chance(sessions, net)
    index = mover.ledger.next_index - 1
    receiver = next(s for s in sessions.values() if s is not mover)
    frame = next(f for dest, f in mover.take_outgoing() if dest in (None, receiver.seat))
    receiver.receive(frame, net.now, advance=False)
    assert receiver.ledger.next_index == index + 1  # applied
    assert receiver.outgoing == []  # its reveal not yet made
    assert receiver.step(net.now) is False  # the reveal is out; now it waits on the others
    assert [kind_of(f) for _, f in receiver.take_outgoing()] == ["reveal"]


def test_a_whole_game_taken_in_step_by_step_ends_with_identical_logs_that_verify():
    seats, sessions, logs = make_table(4, "stepwise")
    net = MemoryNet(sessions, logs)
    play_stepwise(sessions, net, random.Random(5))
    assert all(s.finished for s in sessions.values())
    files = {log_file(log) for log in logs.values()}
    assert len(files) == 1
    assert verify_bytes(files.pop()).valid


def test_the_collector_relays_a_chance_entry_before_it_makes_its_part_of_the_next_deal():
    # Found by timing Vorsicht Lehrer!: the relay waited behind the collector's
    # part of the deal that follows (milliseconds of proofs), so every other peer
    # met the chance step late.
    seats, sessions, logs = make_sealed_table(3, "relay-first")
    net = MemoryNet(sessions, logs)
    record: list[tuple[int, list[str], list[str]]] = []
    play_stepwise(sessions, net, random.Random(2), record)
    assert all(s.finished for s in sessions.values())
    assert len({log_file(log) for log in logs.values()}) == 1
    relays = [k for k, (_, appended, sent) in enumerate(record) if "entries" in sent]
    assert relays, "no chance entry was relayed by a collector"
    followed_by_part = 0
    for k in relays:
        seat, appended, sent = record[k]
        assert appended == [] and sent == ["entries", "entries"]  # the relay leaves alone
        mine = [r for r in record[k + 1 :] if r[0] == seat]
        # Then it is applied, by itself (a chance entry, or a bundle of secret
        # choices its collector made: wire.md 6.3 and 6.12).
        assert mine[0][1:] in ((["chance"], []), (["commits"], []), (["choices"], []))
        if mine[0][1] == ["chance"] and len(mine) > 1 and "part" in mine[1][2]:
            followed_by_part += 1
    assert followed_by_part, "no chance step was followed by a deal at its collector"


def test_an_entry_from_ahead_asks_for_the_gap_only_if_our_own_steps_do_not_close_it():
    # At a table of two both seats assemble each chance entry themselves.  In Pet
    # Quartet the seat that made a draw due acts again after it; a peer that takes
    # in that seat's reveal and, in the same batch, its next move (one entry ahead)
    # closes the gap itself by assembling the chance entry: no request is sent.
    seats, sessions, logs = make_table(2, "gap")
    net = MemoryNet(sessions, logs)
    rng = random.Random(1)
    for _ in range(300):
        net.pump()
        mover = next(s for s in sessions.values() if s.my_turn())
        other = sessions[1 - mover.seat]
        legal = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)
        mover.submit(rng.choice(legal), net.now)
        if mover.ledger.expected().kind == "chance":
            break
    else:
        raise AssertionError("no move made a chance step due")
    frames = [f for _, f in mover.take_outgoing()]
    assert [kind_of(f) for f in frames] == ["entry", "reveal"]
    move, held_reveal = frames
    other.receive(move, net.now)  # applies it and answers with its own reveal
    for _, frame in other.take_outgoing():
        mover.receive(frame, net.now)  # the mover assembles the chance entry
    assert mover.my_turn()
    legal = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)
    mover.submit(legal[0], net.now)
    batch = [held_reveal] + [f for _, f in mover.take_outgoing()]
    assert [kind_of(f) for f in batch] == ["reveal", "entry"]
    for frame in batch:
        other.receive(frame, net.now, advance=False)
    steps(other, net.now)
    assert other.ledger.next_index == mover.ledger.next_index  # the gap closed
    assert "get" not in [kind_of(f) for _, f in other.outgoing]


def test_an_entry_after_a_lost_one_asks_for_the_gap_once_the_steps_are_done():
    seats, sessions, logs = make_table(3, "lost")
    net = MemoryNet(sessions, logs)
    lost = []

    def drop(sender, target, frame):
        # Seat 2 loses a move after which another seat (not 2) moves at once: the
        # next entry it gets is one ahead of its log.
        after = sessions[sender].ledger.expected()
        if lost or target != 2 or kind_of(frame) != "entry" or sessions[2].ledger.next_index < 6:
            return False
        if after.kind == "action" and after.seat != 2:
            lost.append(frame)
            return True
        return False

    record: list[tuple[int, list[str], list[str]]] = []
    play_stepwise(sessions, net, random.Random(3), record, drop)
    assert lost
    assert any(seat == 2 and "get" in sent for seat, _, sent in record)
    assert all(s.finished for s in sessions.values())
    assert len({log_file(log) for log in logs.values()}) == 1
