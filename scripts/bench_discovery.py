#!/usr/bin/env python3
"""How long `p2ptable tables` takes to list a table announced on another "laptop".

Builds two network namespaces joined by a veth pair with multicast on (as
tests/integration/test_lan_tables.py does; needs root and iproute2), opens a
Pet Quartet table in the first (`p2ptable host`, announced as usual), then runs
`p2ptable tables --json --wait W` in the second ``--runs`` times and measures

  * heard after: seconds from the moment the listener started listening to the
    moment it heard the table (the ``heard_after`` of its JSON), which says
    whether the default ``--wait`` of 3 s is ample;
  * the command: wall time of the whole `p2ptable tables` process, start-up
    included (it always listens for ``--wait`` seconds).

Each run also checks the table was listed.  The speed check of
scripts/bench_latency.py (a 10^6-step Python loop, best of 5) is timed before
and after, so figures of different days compare.  Nothing leaves the two
namespaces, and every process and namespace made is removed at the end.

Usage: sudo scripts/bench_discovery.py [--runs N] [--wait SECONDS]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid

from bench_latency import speed_check  # scripts/ is on the path of a script run from it


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def make_lan(tag: str) -> tuple[str, str, str]:
    a, b = f"p2pt-ba-{tag}", f"p2pt-bb-{tag}"
    ip("netns", "add", a)
    ip("netns", "add", b)
    ip("link", "add", f"ba{tag}", "type", "veth", "peer", "name", f"bb{tag}")
    for ns, dev, n in ((a, f"ba{tag}", 1), (b, f"bb{tag}", 2)):
        ip("link", "set", dev, "netns", ns)
        ip("-n", ns, "addr", "add", f"10.233.7.{n}/24", "dev", dev)
        ip("-n", ns, "link", "set", "dev", dev, "multicast", "on")
        ip("-n", ns, "link", "set", dev, "up")
        ip("-n", ns, "link", "set", "lo", "up")
    return a, b, "10.233.7.1"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--wait", type=float, default=3.0)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("needs root (it makes network namespaces)", file=sys.stderr)
        return 2
    before = speed_check()
    tag = uuid.uuid4().hex[:6]
    a, b, host_ip = make_lan(tag)
    host = None
    heard: list[float] = []
    walls: list[float] = []
    try:
        host = subprocess.Popen(
            ["ip", "netns", "exec", a, sys.executable, "-m", "p2ptable", "host", "pet-quartet",
             "--seats", "2", "--name", "Ana", "--code", "BEN-CHM8", "--bot", "random", "--quiet",
             "--replay", f"/tmp/bench-discovery-{tag}.p2pt"],
            stdout=subprocess.PIPE, text=True, start_new_session=True,
        )  # fmt: skip
        for _ in range(3):
            host.stdout.readline()  # the table is open (and announced)
        for _ in range(args.runs):
            start = time.perf_counter()
            run = subprocess.run(
                ["ip", "netns", "exec", b, sys.executable, "-m", "p2ptable", "tables", "--json",
                 "--wait", str(args.wait)],
                capture_output=True, text=True, timeout=args.wait + 30,
            )  # fmt: skip
            walls.append(time.perf_counter() - start)
            tables = [t for t in json.loads(run.stdout) if t["address"] == f"{host_ip}:47001"]
            if len(tables) != 1:
                print(f"the table was not listed: {run.stdout} {run.stderr}", file=sys.stderr)
                return 1
            heard.append(tables[0]["heard_after"])
    finally:
        if host is not None and host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait(timeout=10)
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
        for suffix in ("", ".secrets", ".pending", ".lock", ".peer.log"):
            try:
                os.unlink(f"/tmp/bench-discovery-{tag}.p2pt{suffix}")
            except FileNotFoundError:
                pass
    after = speed_check()
    print(f"speed check: a 10^6-step Python loop takes {before * 1000:.0f} ms before, "
          f"{after * 1000:.0f} ms after")  # fmt: skip
    print(f"{args.runs} runs of `p2ptable tables --wait {args.wait:g}` in another namespace:")
    ms = [h * 1000 for h in heard]
    print(f"  heard after: p50 {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms "
          f"(min {min(ms):.0f}; p90 {percentile(ms, 0.9):.0f})")  # fmt: skip
    print(f"  the command: p50 {statistics.median(walls):.2f} s, max {max(walls):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
