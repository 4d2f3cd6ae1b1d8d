"""A fork is found however far back it began.

Issue 12: "Forks found at any depth." (wire.md §9.1 said: "Forks are found within
16 entries ... Logs that forked further back are not detected as equivocation
and the game stalls".)  Two honest peers whose logs forked more than 64 entries back (the
mover signed two different moves there and sent one to each, while the network
kept them apart) meet again at the same length with different heads.
"""

from __future__ import annotations

import random

from p2ptable.engine.playout import random_policy
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.verify import verify_bytes

from .test_session_memory import make_table


def play_alone(ledger: Ledger, seats, rng: random.Random, until: int) -> list[Entry]:
    """A valid continuation of ``ledger`` to ``until`` entries, every seat's part
    made from its own secrets (as the seats would make it on that fork)."""
    from p2ptable.replay import authoring

    policy = random_policy(rng)
    out = []
    while ledger.next_index < until and not ledger.finished:
        expected = ledger.expected()
        if expected.kind == "action":
            seat = expected.seat
            action = policy(ledger.game, ledger.state, seat)
            entry = authoring.action_entry(ledger, seat, seats[seat], action)
        elif expected.kind == "chance":
            pre = {s: authoring.reveal(ledger, s, seats[s]) for s in range(len(seats))}
            entry = authoring.chance_entry(ledger, pre)
        else:
            break
        ledger.append(entry)
        out.append(entry)
    return out


def test_a_fork_more_than_sixty_four_entries_deep_is_proved():
    seats, sessions, logs = make_table(3, "deep-fork")
    net = MemoryNet(sessions, logs)
    net.pump()
    base = sessions[0].ledger
    # Play to a position where a seat moves with two legal choices.
    prefix = play_alone(Ledger(base.entries[0]), seats, random.Random(1), until=12)
    fork_at = None
    ledger = Ledger(base.entries[0])
    for entry in prefix:
        ledger.append(entry)
    for _ in range(200):
        expected = ledger.expected()
        choices = () if expected.kind != "action" else ledger.game.legal_actions(ledger.state, 2)
        if expected.seat == 2 and len(choices) > 1:
            fork_at = ledger.next_index  # seat 2, the cheater, moves here
            break
        play_alone(ledger, seats, random.Random(2), until=ledger.next_index + 1)
    assert fork_at is not None
    common = ledger.entries[1:]
    forks = []
    for choice in (0, 1):
        side = Ledger(base.entries[0])
        for entry in common:
            side.append(entry)
        from p2ptable.replay import authoring

        seat = side.expected().seat
        action = side.game.legal_actions(side.state, seat)[choice]
        side.append(authoring.action_entry(side, seat, seats[seat], action))
        play_alone(side, seats, random.Random(10 + choice), until=fork_at + 80)
        forks.append(side)
    length = min(f.next_index for f in forks)
    assert length - fork_at > 4 * 16  # deeper than the old look-back, and than one probe
    a, b = (Ledger(base.entries[0]) for _ in range(2))
    for ledger_, fork in ((a, forks[0]), (b, forks[1])):
        for entry in fork.entries[1:length]:
            ledger_.append(entry)
    honest = {0: Session(a, 0, seats[0], 0.0), 1: Session(b, 1, seats[1], 0.0)}
    log0 = [e.encode() for e in a.entries]
    net = MemoryNet(honest, {0: log0, 1: [e.encode() for e in b.entries]})
    for _ in range(12):  # a few pings: each probe reaches four times further back
        net.advance(1.0)
        if honest[0].stopped is not None and honest[1].stopped is not None:
            break
    for session in honest.values():
        assert session.stopped is not None, "the fork was not found"
        assert session.stopped.reason == "equivocation" and session.stopped.proved
        assert session.stopped.culprit == 2
    report = verify_bytes(MAGIC + b"".join(encode_frame(p) for p in net.logs[0]))
    assert report.stopped is not None and report.stopped["proved"]
