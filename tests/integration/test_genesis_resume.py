"""A seat killed while the genesis is being signed comes back (real processes).

Issue 12: "A peer that dies during the genesis comes back."  Cleo joins first and
is held back just before she signs the genesis (a shim around her process waits
for a gate file there), so when Ben's join fills the table the genesis round
cannot end: it waits for Cleo's signature.  Ben is killed there, before any
replay exists; `p2ptable resume` brings him back into the round, Cleo's gate is
opened, and the game is played to its end.  (A seat frozen in the lobby would
not do: the host starts no genesis before every seat answers its full roster,
wire.md 3.3, the roll call.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from p2ptable.net.pending_genesis import pending_path
from p2ptable.replay.verify import verify_file

from .peers import Peers, free_port


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    for proc in group.procs.values():  # a frozen process never ends by itself
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGCONT)
    group.close()


def wait_until(check, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)


@pytest.mark.parametrize("left", ["no replay", "an empty replay"])
def test_a_seat_killed_in_the_genesis_round_resumes_and_the_game_is_played(peers, left):
    # Issue 22, 5: "An empty replay file next to an intact .pending makes
    # `resume` refuse ('holds no entries'), and the other seats hang. `resume`
    # must come back from it (the pending genesis is the truth)."  The replay is
    # made as the genesis completes (a file, its header, then the genesis): a
    # seat killed in between leaves it empty, or with a part of its header.
    port = free_port()
    bots = ("--bot", "random")  # at full speed: the kill comes before the first move
    peers.host("Ana", "pet-quartet", 3, port, *bots)
    gate = peers.workdir / "cleo-may-sign"
    env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1")
    with open(peers.workdir / "Cleo.out", "wb") as out:
        peers.procs["Cleo"] = subprocess.Popen(
            [sys.executable, "-c", GATED_GENESIS_SIGNATURE, str(gate), "join",
             f"127.0.0.1:{port}", "--code", "TST-CDE", "--name", "Cleo",
             "--replay", str(peers.replay("Cleo")), *bots],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            start_new_session=True,
        )  # fmt: skip
    ana_log = peers.replay("Ana").with_name("Ana.p2pt.peer.log")
    wait_until(lambda: "Lobby (2 seated): Ana, Cleo" in peers.output("Cleo"))
    peers.join("Ben", port, *bots)
    ben = peers.replay("Ben")
    wait_until(lambda: pending_path(ben).exists())
    time.sleep(0.3)  # Ben's signature is out; the round waits for Cleo
    assert not ben.exists()
    peers.kill("Ben")
    if left == "an empty replay":
        ben.write_bytes(b"")
    peers.start("Ben", "resume", str(ben), "--quiet", *bots)
    wait_until(lambda: "resumed in the genesis round" in _text(ben.with_name("Ben.p2pt.peer.log")))
    gate.touch()
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in peers.procs}
    blobs = {peers.replay(n).read_bytes() for n in ("Ana", "Ben", "Cleo")}
    assert len(blobs) == 1
    assert verify_file(ben).valid
    assert not pending_path(ben).exists()
    assert ana_log.exists()
    kept = list(peers.workdir.glob("Ben.p2pt.torn-*"))
    assert len(kept) == (left == "an empty replay")  # what was there is kept aside


# Cleo's process: `p2ptable` with its genesis signature held back until the gate
# file (argv[1]) exists.
GATED_GENESIS_SIGNATURE = """
import os, sys, time
from p2ptable.replay import authoring
gate, real = sys.argv.pop(1), authoring.sign_genesis
def gated(body, secrets):
    while not os.path.exists(gate):
        time.sleep(0.02)
    return real(body, secrets)
authoring.sign_genesis = gated
sys.argv[0] = "p2ptable"
from p2ptable.cli import main
main()
"""


def _text(path) -> str:
    return path.read_text() if path.exists() else ""


def test_a_seat_resumed_on_another_port_is_found_there(peers):
    # Issue 11: "A port already in use (host, join --port, resume) is a one-line
    # error that says what to do ... `resume` gets `--port`."  The others learn
    # the new port from the resumed seat's hello and pings (wire.md 6.10).
    import socket

    from .peers import wait_for_entries

    port = free_port()
    bots = ("--bot", "random", "--bot-delay", "0.01")  # 110 moves: Ben dies mid-game
    peers.host("Ana", "pet-quartet", 2, port, *bots)
    ben_port = free_port()
    peers.join("Ben", port, "--port", str(ben_port), *bots)
    ben = peers.replay("Ben")
    wait_for_entries(ben, 20)
    peers.kill("Ben")
    with socket.socket() as squatter:  # another program took Ben's port meanwhile
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", ben_port))
        squatter.listen()
        taken = peers.start("Ben", "resume", str(ben), "--quiet", *bots)
        assert taken.wait(timeout=30) == 1
        assert f"port {ben_port} is already in use" in peers.output("Ben")
        peers.start("Ben", "resume", str(ben), "--port", str(free_port()), "--quiet", *bots)
        codes = peers.wait_all()
    assert codes == {"Ana": 0, "Ben": 0}, {n: peers.output(n) for n in peers.procs}
    assert peers.replay("Ana").read_bytes() == ben.read_bytes()
    assert verify_file(ben).valid


# Slow (about 8 s, 6 of them the host's wait before it frees a silent seat).  The
# default run keeps the same path between real processes, a joiner killed while
# seated whose player types the same command again until seated, then the game
# played and the replays equal, in test_drill_findings.py:
#   test_a_table_that_fills_before_a_dead_joiners_seat_is_freed_still_starts
# and this case's own rules, sans-IO, in tests/net/test_lobby.py: a silent seat
# freed before the table is full and the same name seated again,
#   test_a_seated_joiner_that_goes_silent_frees_its_seat_before_the_table_is_full
# and a name that is held refused as taken,
#   test_the_table_full_and_taken_names_are_refused
# Run it with -m slow.
@pytest.mark.slow
def test_a_joiner_that_died_in_the_lobby_can_join_again(peers):
    # Found by the fault drill (`scripts/drill.py --seed 751155980`, game 21): the
    # host kept a dead joiner's seat for good; joining again was refused and the
    # genesis round would have waited for ever.  Now the host frees the seat.
    port = free_port()
    bots = ("--bot", "random")
    peers.host("Ana", "pet-quartet", 3, port, *bots)
    ben = ("join", f"127.0.0.1:{port}", "--code", "TST-CDE", "--name", "Ben",
           "--replay", str(peers.replay("Ben")), *bots)  # fmt: skip
    peers.start("Ben", *ben)  # not quiet: it says when it is seated
    wait_until(lambda: "Lobby (2 seated)" in peers.output("Ben"))
    peers.kill("Ben")
    # Its player types the same command again, as often as the host says the name
    # is still taken (it frees a seat it has not heard from for 6 s).
    end = time.monotonic() + 30
    while True:
        again = peers.start("Ben", *ben)
        # Refused (it exits) or seated (it says so, and waits for the table to fill).
        wait_until(lambda p=again: p.poll() is not None or "Lobby (" in peers.output("Ben"))
        if again.poll() is None:
            break
        assert again.returncode == 1 and "is taken" in peers.output("Ben"), peers.output("Ben")
        assert time.monotonic() < end, "the seat was never freed"
        time.sleep(0.5)
    peers.join("Cleo", port, *bots)
    codes = peers.wait_all(timeout=60)
    assert all(c == 0 for c in codes.values()), {n: peers.output(n) for n in codes}
    assert peers.replay("Ana").read_bytes() == peers.replay("Ben").read_bytes()
