"""Whole games between sans-IO sessions over an in-memory link.

Issue 3: "Every peer validates every entry (signature, hash link, turn, legality)
before appending it. All peers end with byte-identical logs."
"""

from __future__ import annotations

import random

import pytest

from p2ptable.engine.api import Action
from p2ptable.engine.playout import random_policy
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Finished, LocalProtocolError, Rejected, Session
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.verify import verify_bytes


def make_table(players: int, seed: str = "mem", options=None):
    seats = [authoring.SeatSecrets.from_seed(seed.encode(), i, 512) for i in range(players)]
    body = authoring.genesis_body(
        "pet-quartet",
        {"scoring": "basic", "variant": "standard", **(options or {})},
        [f"P{i}" for i in range(players)],
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [s.link_public for s in seats],
        512,
        b"\x00" * 16,
    )
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    logs = {i: [genesis.encode()] for i in range(players)}
    sessions = {
        i: Session(Ledger(genesis), i, seats[i], 0.0, boot=bytes([i]) * 8) for i in range(players)
    }
    return seats, sessions, logs


def play_out(sessions, net, rng, max_moves=5000):
    policies = {s: random_policy(random.Random(rng.random())) for s in sessions}
    for _ in range(max_moves):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        mover = movers[0]
        action = policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat)
        mover.submit(action, net.now)
    net.pump()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_whole_game_gives_identical_valid_logs(players):
    seats, sessions, logs = make_table(players, f"mem{players}")
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(players))
    assert all(s.finished for s in sessions.values())
    files = {MAGIC + b"".join(encode_frame(p) for p in log) for log in logs.values()}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid, report.error
    for session in sessions.values():
        assert any(isinstance(e, Finished) for e in session.take_events())


def test_submitting_out_of_turn_is_a_local_error():
    _, sessions, _ = make_table(3)
    net = MemoryNet(sessions)
    net.pump()
    idle = next(s for s in sessions.values() if not s.my_turn())
    with pytest.raises(LocalProtocolError, match="not your turn"):
        idle.submit(Action("draw"), 0.0)


def test_garbage_frames_are_rejected_and_the_game_goes_on():
    _, sessions, _ = make_table(2)
    net = MemoryNet(sessions)
    net.pump()
    for junk in [b"", b"\xc1", b"\x92\xc4\x00\xc4\x00", b"x" * 300_000]:
        sessions[0].receive(junk, 0.0)
    reasons = [e.reason for e in sessions[0].take_events() if isinstance(e, Rejected)]
    assert any("malformed" in r for r in reasons)
    assert any("oversized" in r for r in reasons)
    play_out(sessions, net, random.Random(1))
    assert sessions[0].finished and sessions[1].finished


def test_a_replayed_frame_is_rejected():
    _, sessions, _ = make_table(2)
    captured = []
    net = MemoryNet(sessions)

    def spy(sender, target, frame):
        captured.append((target, frame))
        return frame

    net.filter = spy
    net.pump()
    target, frame = captured[0]
    sessions[target].receive(frame, 0.0)
    assert any(
        isinstance(e, Rejected) and "replayed" in e.reason for e in sessions[target].take_events()
    )
