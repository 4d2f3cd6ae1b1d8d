"""Spectators on a live table: real peer processes on 127.0.0.1.

Issue 16: "a spectator on a live 4-seat game with hidden hands (real processes on
loopback) ends with an identical replay; a spectator is given no hidden card
(check what it received); a spectator that sends garbage or stops reading does
not slow the table"; "A spectator that joins late catches up from the start".
"""

from __future__ import annotations

import os
import signal
import threading

import pytest

from p2ptable import watch as watching
from p2ptable.net.lobby import open_lobby
from p2ptable.replay.logfile import read_file
from p2ptable.replay.verify import verify_file

from .peers import Peers, free_port, wait_for_entries

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
SLOW = ("--bot-delay", "0.02")


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    group.close()


def watcher(peers: Peers, name: str, port: int, *extra: str):
    return peers.start(
        name, "watch", f"127.0.0.1:{port}", "--code", "TST-CDE", "--name", name,
        "--replay", str(peers.replay(name)), "--quiet", *extra,
    )  # fmt: skip


def test_spectators_follow_a_hidden_hand_game_to_an_identical_replay(peers, tmp_path):
    port = free_port()
    peers.host("Ana", "vorsicht-lehrer", 4, port, "--spectators", "--bot", "greedy", *SLOW,
               "--option", "track=100")  # fmt: skip
    watcher(peers, "Early", port)
    for name in NAMES[1:]:
        peers.join(name, port, "--bot", "random", *SLOW)
    # One in the process, to see every frame it is given.
    frames: list[bytes] = []
    wait_for_entries(peers.replay("Ana"), 30)  # a late spectator: the game is under way
    result: list = []

    def follow() -> None:
        result.append(
            watching.watch(
                f"127.0.0.1:{port}",
                "TST-CDE",
                "Late",
                replay=tmp_path / "Late.p2pt",
                quiet=True,
                on_frame=frames.append,
            )  # fmt: skip
        )

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    codes = peers.wait_all()
    thread.join(timeout=60)
    tails = {n: peers.output(n)[-300:] for n in codes}
    assert all(code == 0 for code in codes.values()), (codes, tails)
    assert result and result[0].status == watching.WATCHED, result
    blobs = {n: peers.replay(n).read_bytes() for n in [*NAMES, "Early", "Late"]}
    assert len(set(blobs.values())) == 1, "replays differ"
    report = verify_file(peers.replay("Early"))
    assert report.valid and report.audited, report.error
    # What the spectator was given: the host's lobby answers, and in them exactly
    # the log's entries, no part, no share meant for a seat.
    log = set(read_file(peers.replay("Ana")).payloads)
    kinds = set()
    for frame in frames:
        kind, _, data = open_lobby(frame)
        kinds.add(kind)
        if kind == "entries":
            assert set(data["payloads"]) <= log
    assert kinds <= {"challenge", "watching", "entries"}


def test_a_table_without_spectators_refuses_a_watcher(peers):
    port = free_port()
    peers.host("Ana", "pet-quartet", 2, port, "--bot", "random")
    proc = watcher(peers, "Wally", port)
    assert proc.wait(timeout=30) == 1
    assert "this table admits no spectators" in peers.output("Wally")
    peers.join("Ben", port, "--bot", "random")
    codes = peers.wait_all()
    assert codes["Ana"] == 0 and codes["Ben"] == 0


def test_a_spectator_that_stops_reading_or_sends_garbage_does_not_stop_the_table(peers):
    port = free_port()
    peers.host("Ana", "vorsicht-lehrer", 3, port, "--spectators", "--bot", "greedy",
               "--option", "track=100")  # fmt: skip
    stuck = watcher(peers, "Stuck", port)
    for name in NAMES[1:3]:
        peers.join(name, port, "--bot", "random")
    wait_for_entries(peers.replay("Ana"), 20)
    os.killpg(stuck.pid, signal.SIGSTOP)  # admitted, then never reads again
    # garbage on the host's inbox, from a process with no code
    import zmq

    ctx = zmq.Context.instance()
    junk = ctx.socket(zmq.DEALER)
    junk.setsockopt(zmq.LINGER, 0)
    junk.connect(f"tcp://127.0.0.1:{port}")
    for i in range(500):
        junk.send(b"L" + os.urandom(i % 300), zmq.NOBLOCK)
    junk.close()
    try:
        codes = {n: peers.procs[n].wait(timeout=120) for n in ("Ana", "Ben", "Cleo")}
    finally:
        os.killpg(stuck.pid, signal.SIGCONT)
    assert codes == {"Ana": 0, "Ben": 0, "Cleo": 0}, {n: peers.output(n) for n in codes}
    players = {peers.replay(n).read_bytes() for n in ("Ana", "Ben", "Cleo")}
    assert len(players) == 1
