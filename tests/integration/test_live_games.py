"""Real peer processes on 127.0.0.1 play whole games.

Issue 3: "Integration tests start real peer processes on 127.0.0.1 with 2, 4 and 6
seats and play complete games with bots. All replays are byte-identical and
verify." and "A fault test kills a peer mid-game and resumes it. The game
completes, and every replay verifies."
"""

from __future__ import annotations

import os
import stat

import pytest
import zmq

from p2ptable.replay.verify import verify_file

from .peers import Peers, free_port, wait_for_entries

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    group.close()


def assert_same_valid_replays(peers: Peers, names: list[str]) -> None:
    blobs = {name: peers.replay(name).read_bytes() for name in names}
    assert len(set(blobs.values())) == 1, "replays differ"
    report = verify_file(peers.replay(names[0]))
    assert report.valid, report.error


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_bots_play_a_whole_game(peers, seats):
    port = free_port()
    names = NAMES[:seats]
    peers.host(names[0], "pet-quartet", seats, port, "--bot", "random")
    for name in names[1:]:
        peers.join(name, port, "--bot", "greedy")
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in names}
    assert_same_valid_replays(peers, names)


def test_killed_peer_resumes_and_the_game_completes(peers):
    port = free_port()
    names = ["Ana", "Ben", "Cleo"]
    slow = ("--bot", "random", "--bot-delay", "0.01")  # 140 moves: Cleo dies mid-game
    peers.host("Ana", "pet-quartet", 3, port, *slow)
    peers.join("Ben", port, *slow)
    peers.join("Cleo", port, *slow)
    wait_for_entries(peers.replay("Cleo"), 25)
    peers.kill("Cleo")
    secrets = peers.replay("Cleo").with_name("Cleo.p2pt.secrets")
    assert stat.S_IMODE(os.stat(secrets).st_mode) == 0o600  # owner-only
    peers.start("Cleo", "resume", str(peers.replay("Cleo")), "--quiet", *slow)
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in names}
    assert_same_valid_replays(peers, names)


def test_wrong_join_code_is_refused(peers):
    port = free_port()
    peers.host("Ana", "pet-quartet", 2, port, "--bot", "random")
    intruder = peers.join("Mallory", port, "--bot", "random", code="XXX-YYY")
    assert intruder.wait(timeout=30) == 1
    assert "wrong join code" in peers.output("Mallory")
    # The table is still open for the real player.
    peers.procs.pop("Mallory")
    peers.join("Ben", port, "--bot", "random")
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values())
    assert_same_valid_replays(peers, ["Ana", "Ben"])


def test_garbage_on_the_wire_does_not_stop_the_game(peers):
    port = free_port()
    slow = ("--bot", "random", "--bot-delay", "0.02")
    peers.host("Ana", "pet-quartet", 2, port, *slow)
    peers.join("Ben", port, *slow)
    wait_for_entries(peers.replay("Ana"), 5)
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 2000)  # let the frames leave before close()
    sock.connect(f"tcp://127.0.0.1:{port}")
    try:
        for junk in [b"\xc1\xc1", b"\x92\xc4\x01x\xc4\x01y", b"z" * 1000]:
            sock.send(b"G" + junk)
        sock.send(b"L" + b"not a lobby frame")
        sock.send_multipart([b"G", b"x"])  # wrong frame count
        sock.send(b"")  # no channel byte
    finally:
        sock.close()
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), peers.output("Ana")
    assert_same_valid_replays(peers, ["Ana", "Ben"])
    log = peers.replay("Ana").with_name("Ana.p2pt.peer.log").read_text()
    assert "rejected a message from unknown sender: malformed" in log
    assert "rejected a message from 127.0.0.1: 2 frames instead of one" in log
    assert "rejected a message from 127.0.0.1: an empty frame (no channel byte)" in log


def test_play_against_local_bot_peers_and_reap_them(tmp_path):
    # The README's first command, with a bot in our seat so no one has to type:
    # `play` starts its bot peers as separate processes and ends every one of them.
    import subprocess
    import sys

    replay = tmp_path / "me.p2pt"
    data = tmp_path / "data"
    done = subprocess.run(
        [sys.executable, "-m", "p2ptable", "play", "pet-quartet", "--bots", "2",
         "--bot", "random", "--bot-delay", "0", "--name", "Me", "--replay", str(replay)],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, XDG_DATA_HOME=str(data)),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Final scores:" in done.stdout
    assert f"Replay saved to {replay}" in done.stdout
    assert verify_file(replay).valid
    # Bot peers keep their files under our data directory; none may survive.
    from .test_people import bot_processes

    assert bot_processes(data) == []
