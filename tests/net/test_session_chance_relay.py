"""A chance step gathered by one seat: 2(n-1) frames instead of n(n-1).

protocol/wire.md 6.3: every seat sends its reveal to the step's collector (the
seat that moved last), which assembles the chance entry and sends it to all.
Nobody trusts the collector: a chance entry proves itself (every value is checked
against its seat's committed chain), and a collector that does not deliver costs
the table RELAY_WAIT, after which every seat sends its reveal to every other, as
issue 3 first asked: "Contributions are sent concurrently, so a chance step costs
one message round."
"""

from __future__ import annotations

import random
from collections import Counter

from p2ptable.net.memory import MemoryNet
from p2ptable.net.rounds import RELAY_WAIT
from p2ptable.replay.verify import verify_bytes

from .test_session_cheating import file_of, kind_of
from .test_session_memory import make_table, play_out


def move_to_chance(sessions, net):
    """Play until a move makes a chance step due; return the mover."""
    for _ in range(200):
        net.pump()
        mover = next(s for s in sessions.values() if s.my_turn())
        action = mover.ledger.game.legal_actions(mover.ledger.state, mover.seat)[0]
        mover.submit(action, net.now)
        if mover.ledger.expected().kind == "chance":
            return mover
    raise AssertionError("no move made a chance step due")


def test_a_chance_step_costs_n_minus_1_reveals_to_the_mover_and_n_minus_1_entries():
    seats, sessions, logs = make_table(6, "relay")
    net = MemoryNet(sessions, logs)
    mover = move_to_chance(sessions, net)
    index = mover.ledger.next_index
    sent: Counter[tuple[str, int, int]] = Counter()

    def count(sender, target, frame):
        sent[(kind_of(frame), sender, target)] += 1
        return frame

    net.filter = count
    net.pump()
    assert all(s.ledger.next_index > index for s in sessions.values())
    reveals = [(s, t) for (k, s, t), n in sent.items() if k == "reveal" for _ in range(n)]
    relayed = [(s, t) for (k, s, t), n in sent.items() if k == "entries" for _ in range(n)]
    assert sorted(reveals) == sorted((s, mover.seat) for s in range(6) if s != mover.seat)
    assert sorted(relayed) == sorted((mover.seat, t) for t in range(6) if t != mover.seat)
    heads = {s.ledger.hashes[index] for s in sessions.values()}
    assert len(heads) == 1  # one chance entry, the same everywhere


def test_at_a_table_of_two_each_seat_sends_its_value_to_the_other():
    # Gathering would save no frame and cost a hop: one round, as in the fallback.
    seats, sessions, logs = make_table(2, "two")
    net = MemoryNet(sessions, logs)
    mover = move_to_chance(sessions, net)
    index = mover.ledger.next_index
    kinds: Counter[str] = Counter()

    def count(sender, target, frame):
        kinds[kind_of(frame)] += 1
        return frame

    net.filter = count
    net.pump()
    assert all(s.ledger.next_index > index for s in sessions.values())
    assert kinds["reveal"] == 2 and kinds["entries"] == 0


def test_a_relayed_entry_that_is_lost_is_sent_again_after_relay_wait():
    seats, sessions, logs = make_table(4, "sits")
    net = MemoryNet(sessions, logs)
    mover = move_to_chance(sessions, net)
    index = mover.ledger.next_index
    lost = set()

    def lose_the_relay(sender, target, frame):
        if sender == mover.seat and kind_of(frame) == "entries" and target not in lost:
            lost.add(target)
            return None
        return frame

    net.filter = lose_the_relay
    net.pump()
    waiting = [s for s in sessions.values() if s.seat != mover.seat]
    assert all(s.ledger.next_index == index for s in waiting)  # still waiting
    net.advance(RELAY_WAIT)  # each sends its reveal to all; the collector answers
    assert all(s.ledger.next_index > index for s in sessions.values())
    assert all(s.stopped is None for s in sessions.values())
    assert len({s.ledger.hashes[index] for s in sessions.values()}) == 1


def test_a_reveal_lost_on_its_way_to_the_collector_is_repaired():
    seats, sessions, logs = make_table(3, "lost")
    net = MemoryNet(sessions, logs)
    mover = move_to_chance(sessions, net)
    index = mover.ledger.next_index
    lost = {"done": False}

    def drop_one(sender, target, frame):
        if not lost["done"] and target == mover.seat and kind_of(frame) == "reveal":
            lost["done"] = True
            return None
        return frame

    net.filter = drop_one
    net.pump()
    assert lost["done"] and mover.ledger.next_index == index
    net.advance(RELAY_WAIT)
    assert all(s.ledger.next_index > index for s in sessions.values())


def test_a_collector_that_keeps_the_entry_and_its_value_is_named_for_withholding():
    # Its own value reached nobody: from where the others stand it has not revealed.
    seats, sessions, logs = make_table(3, "keeps")
    net = MemoryNet(sessions, logs)
    mover = move_to_chance(sessions, net)

    def keep_it(sender, target, frame):
        return None if sender == mover.seat and kind_of(frame) == "entries" else frame

    net.filter = keep_it
    net.pump()
    for _ in range(30):  # 30 simulated seconds: pings keep flowing
        net.advance(1.0)
    for session in sessions.values():
        if session.seat != mover.seat:
            assert session.stopped is not None and session.stopped.culprit == mover.seat
            report = verify_bytes(file_of(logs[session.seat]))
            assert report.stopped["culprit"] == mover.seat and "withheld" in report.error["reason"]


def test_whole_games_over_the_relay_give_identical_valid_logs():
    seats, sessions, logs = make_table(5, "whole")
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(11))
    assert all(s.finished for s in sessions.values())
    assert len({b"".join(log) for log in logs.values()}) == 1
    assert verify_bytes(file_of(logs[0])).valid
