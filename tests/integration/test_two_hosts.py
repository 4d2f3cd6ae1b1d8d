"""Two "laptops": peers in two network namespaces joined by a virtual cable.

Issue 3: "Two people could follow the README to play across two laptops."  Each
namespace has its own address (10.231.x.1/.2 on a veth pair made by the test), so
the host's printed address, the joiners' advertised addresses and the mesh are all
exercised off loopback.  Needs root and iproute2; skipped otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid

import pytest

from p2ptable.replay.verify import verify_file

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None, reason="needs root and iproute2"
)


@pytest.fixture
def two_hosts():
    tag = uuid.uuid4().hex[:6]
    a, b = f"p2pt-a-{tag}", f"p2pt-b-{tag}"
    subnet = 100 + int(tag[:2], 16) % 100

    def ip(*args: str) -> None:
        subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)

    try:
        ip("netns", "add", a)
        ip("netns", "add", b)
        ip("link", "add", f"va{tag}", "type", "veth", "peer", "name", f"vb{tag}")
        ip("link", "set", f"va{tag}", "netns", a)
        ip("link", "set", f"vb{tag}", "netns", b)
        ip("-n", a, "addr", "add", f"10.231.{subnet}.1/24", "dev", f"va{tag}")
        ip("-n", b, "addr", "add", f"10.231.{subnet}.2/24", "dev", f"vb{tag}")
        for ns, dev in ((a, f"va{tag}"), (b, f"vb{tag}")):
            ip("-n", ns, "link", "set", dev, "up")
            ip("-n", ns, "link", "set", "lo", "up")
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
        pytest.skip(f"cannot create network namespaces here: {exc}")
    yield a, b, f"10.231.{subnet}.1"
    for ns in (a, b):  # deleting a namespace removes its end of the veth pair
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


def test_a_game_across_two_hosts(two_hosts, tmp_path):
    a, b, host_ip = two_hosts
    run = [sys.executable, "-m", "p2ptable"]
    common = ["--code", "TWO-HST", "--bot", "greedy", "--quiet"]
    procs = []
    try:
        host = subprocess.Popen(
            ["ip", "netns", "exec", a, *run, "host", "pet-quartet", "--seats", "3", "--name",
             "Ana", "--replay", str(tmp_path / "ana.p2pt"), *common],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        procs.append(host)
        # The host prints what the others must type: its own LAN address, not loopback.
        first = host.stdout.readline()
        second = host.stdout.readline()
        assert first.startswith("Table open")
        assert f"p2ptable join {host_ip}:47001 --code TWO-HST" in second
        for name in ("Ben", "Cleo"):
            procs.append(
                subprocess.Popen(
                    [
                        "ip",
                        "netns",
                        "exec",
                        b,
                        *run,
                        "join",
                        f"{host_ip}:47001",
                        "--name",
                        name,
                        "--replay",
                        str(tmp_path / f"{name.lower()}.p2pt"),
                        *common,
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        codes = [p.wait(timeout=120) for p in procs]
        assert codes == [0, 0, 0]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in ("ana", "ben", "cleo")}
    assert len(blobs) == 1
    assert verify_file(tmp_path / "ana.p2pt").valid
