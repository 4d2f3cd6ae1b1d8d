"""Tables that announce themselves, between two "laptops" (network namespaces).

Issue 16: "Two network namespaces joined by a veth pair, a table announced in one
and listed and joined from the other.  No traffic leaves the machine's own
namespaces."  A host in namespace A announces its table over multicast DNS;
in namespace B `p2ptable tables` lists it, and a person runs `p2ptable join`
without an address, picks it from the list and types the code; the game plays
to the end and every replay is the same and valid.  The announcement follows
the seats and is withdrawn when the table fills (listed before, not after,
while the game goes on); `host --no-announce` is never listed; a stranger's junk
and a flood of fake tables neither crash `tables` nor reach the terminal raw.
Needs root and iproute2; skipped otherwise.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from p2ptable.net.listing import MAX_PER_SOURCE
from p2ptable.replay.verify import verify_file

from .person import Person

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None, reason="needs root and iproute2"
)
# Slow (30 s): the default run keeps test_lan_watch.py, which lists, picks, joins and
# watches across the same two namespaces; the loopback tests (tests/net/test_discovery.py)
# keep the listing's updates, withdrawal and junk.  Run these with -m slow.
pytestmark = [needs_root, pytest.mark.slow]

CODE = "LAN-TBL9"
HERE = Path(__file__).parent


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@pytest.fixture
def lan():
    """Namespaces A and B joined by a veth pair with multicast on: (A, B, A's address)."""
    tag = uuid.uuid4().hex[:6]
    a, b = f"p2pt-la-{tag}", f"p2pt-lb-{tag}"
    subnet = 100 + int(tag[:2], 16) % 100
    try:
        _ip("netns", "add", a)
        _ip("netns", "add", b)
        _ip("link", "add", f"la{tag}", "type", "veth", "peer", "name", f"lb{tag}")
        for ns, dev, n in ((a, f"la{tag}", 1), (b, f"lb{tag}", 2)):
            _ip("link", "set", dev, "netns", ns)
            _ip("-n", ns, "addr", "add", f"10.232.{subnet}.{n}/24", "dev", dev)
            _ip("-n", ns, "link", "set", "dev", dev, "multicast", "on")
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", dev)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
        pytest.skip(f"cannot create network namespaces here: {exc}")
    yield a, b, f"10.232.{subnet}.1"
    for ns in (a, b):
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


class Processes:
    """Processes started in a namespace; every one is ended after the test."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []

    def start(self, ns: str, *args: str, out=subprocess.PIPE) -> subprocess.Popen:  # noqa: ANN001
        proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, sys.executable, *args],
            stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        self.started.append(proc)
        return proc

    def close(self) -> None:
        for proc in self.started:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture
def procs():
    group = Processes()
    yield group
    group.close()


def tables_in(ns: str, wait: float = 1.5) -> str:
    """What `p2ptable tables` prints in namespace ``ns`` (it must exit 0)."""
    run = subprocess.run(
        ["ip", "netns", "exec", ns, sys.executable, "-m", "p2ptable", "tables", "--wait",
         str(wait)],
        capture_output=True, timeout=wait + 30,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout.decode()


def read_until(proc: subprocess.Popen, pattern: str, lines: int = 10) -> list[str]:
    seen = []
    for _ in range(lines):
        line = proc.stdout.readline()
        seen.append(line)
        if re.search(pattern, line):
            return seen
    raise AssertionError(f"no {pattern!r} in {seen}")


def test_a_table_is_listed_picked_joined_and_played_across_two_hosts(lan, procs, tmp_path):
    a, b, host_ip = lan
    # Nothing announced yet: join without an address says what to type, and exits 2.
    lonely = subprocess.run(
        ["ip", "netns", "exec", b, sys.executable, "-m", "p2ptable", "join", "--name", "Ben",
         "--wait", "1"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert lonely.returncode == 2
    assert "No open tables heard in 1 s" in lonely.stderr
    assert "type the address the host printed" in lonely.stderr

    slow = ["--bot", "greedy", "--bot-delay", "0.08", "--quiet"]
    host = procs.start(a, "-m", "p2ptable", "host", "pet-quartet", "--seats", "3", "--name", "Ana",
                       "--code", CODE, "--replay", str(tmp_path / "ana.p2pt"), *slow)  # fmt: skip
    hidden = procs.start(a, "-m", "p2ptable", "host", "pet-quartet", "--seats", "2", "--name",
                         "Dan", "--port", "47002", "--no-announce", "--replay",
                         str(tmp_path / "dan.p2pt"), "--quiet", "--bot", "random")  # fmt: skip
    said = read_until(host, "or pick it from the list")
    assert f"p2ptable join {host_ip}:47001 --code {CODE}" in "".join(said)
    read_until(hidden, "p2ptable join")

    listed = tables_in(b)
    assert f"Ana: Pet Quartet (scoring=basic, variant=standard), 1 of 3 seats taken, at " \
           f"{host_ip}:47001" in listed  # fmt: skip
    assert "Dan" not in listed and "47002" not in listed

    # Ben picks the table from the list: no address typed; the code is asked.
    ben = Person(["join", "--name", "Ben", "--replay", str(tmp_path / "ben.p2pt"), *slow],
                 tmp_path, prefix=("ip", "netns", "exec", b))  # fmt: skip
    try:
        ben.expect(r"1\) Ana: Pet Quartet .*1 of 3 seats taken, at " + re.escape(host_ip))
        ben.expect(r"Which table\? \(number, Enter for 1, q to leave\)")
        ben.type("")
        ben.expect("Join code")
        ben.type(CODE.lower())
        deadline = time.monotonic() + 20
        while "2 of 3 seats taken" not in (listed := tables_in(b)):
            assert time.monotonic() < deadline, listed
        # Cleo types the address, exactly as before: the table fills and leaves the list.
        cleo = procs.start(b, "-m", "p2ptable", "join", f"{host_ip}:47001", "--code", CODE,
                           "--name", "Cleo", "--replay", str(tmp_path / "cleo.p2pt"),
                           *slow, out=subprocess.DEVNULL)  # fmt: skip
        deadline = time.monotonic() + 20
        while "Ana" in (listed := tables_in(b)):  # until the roster fills, and the goodbye
            assert time.monotonic() < deadline, listed
        assert "No open tables heard" in listed
        assert host.poll() is None, "the game is still being played: withdrawn when full"
        assert ben.wait(timeout=180) == 0
        assert cleo.wait(timeout=60) == 0
        assert host.wait(timeout=60) == 0
    finally:
        ben.close()
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in ("ana", "ben", "cleo")}
    assert len(blobs) == 1, "replays differ"
    report = verify_file(tmp_path / "ana.p2pt")
    assert report.valid and report.result is not None, report.error


def test_junk_and_a_flood_of_fake_tables_neither_crash_nor_reach_the_terminal(lan, procs):
    a, b, host_ip = lan
    junk = procs.start(a, str(HERE / "fake_responder.py"), host_ip, "30")
    assert junk.stdout.readline().strip() == "ready"
    out = tables_in(b)
    # Of the junk, only the one well-formed record is shown, and its text made safe.
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    (row,) = [line for line in out.splitlines() if line.startswith("  ")]
    assert row == f"  ?[2J?]0;pwned?Eve???: Pet Quartet (variant=?[31mred), 1 of 2 seats taken, " \
                  f"at {host_ip}:9"  # fmt: skip
    fakes = MAX_PER_SOURCE + 36
    stranger = procs.start(a, str(HERE / "fake_responder.py"), host_ip, "30", str(fakes))
    assert stranger.stdout.readline().strip() == "ready"
    run = subprocess.run(
        ["ip", "netns", "exec", b, sys.executable, "-m", "p2ptable", "tables"],
        capture_output=True, timeout=30,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = run.stdout.decode()
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    rows = [line for line in out.splitlines() if line.startswith("  ")]
    # the list is bounded (one address holds at most MAX_PER_SOURCE of it); the rest is dropped
    assert len(rows) == MAX_PER_SOURCE
    assert all(line.isprintable() for line in out.splitlines())
    assert "Traceback" not in run.stderr.decode()
    assert len([line for line in out.splitlines() if "Fake" in line]) >= MAX_PER_SOURCE - 1  # Eve
    # join without an address shows the same bounded list, connects nowhere
    # until the person picks, and q leaves.
    person = Person(["join", "--name", "Ben"], HERE, prefix=("ip", "netns", "exec", b))
    try:
        person.expect(r"Which table\?")
        person.type("nonsense")
        person.expect(f"type a table's number: choose 1-{MAX_PER_SOURCE}, or q to leave")
        person.type("q")
        assert person.wait(timeout=20) == 2
    finally:
        person.close()
