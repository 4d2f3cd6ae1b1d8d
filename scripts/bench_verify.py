#!/usr/bin/env python3
"""Compare two revisions' ``p2ptable verify`` of one game, in alternating runs.

The whole command is timed, start-up included, as a person would run it: a
fresh Python process per run, A B A B ..., on the same file, each revision
checked out in a temporary git worktree and run with that worktree as its
working folder (so it imports that revision's ``p2ptable``).  The file is one
game simulated once by the working tree's code (``sim``), so both revisions read
the same bytes.  It prints every run, then each revision's median, min and max
(wall clock, and CPU of the process), the ratio A / B of the medians, and the
speed check as ``bench_latency.py`` prints it (the reference machine is a shared
virtual one whose speed drifts: only figures of one sitting compare).

Usage: scripts/bench_verify.py REV_A REV_B [--runs 5] [--seats 6]
       [--game vorsicht-lehrer] [--seed bench]
(REV may be any git revision, or WORK for the working tree as it is.)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = "from p2ptable.cli import main\nmain()\n"


def speed_check() -> float:
    """Seconds for a fixed pure-Python loop (best of 5), as bench_latency.py's."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.perf_counter() - start)
    return best


def checkout(rev: str, where: Path) -> Path:
    """A folder holding ``rev`` (the repository itself for WORK)."""
    if rev == "WORK":
        return ROOT
    path = where / rev.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(path), rev],
        check=True,
        capture_output=True,
    )
    return path


def p2ptable(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def verify_once(folder: Path, replay: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``p2ptable verify FILE``; it must say VALID."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = p2ptable(folder, "verify", str(replay))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"verify failed in {folder}:\n{run.stdout}{run.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def spread(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.3f} s (min {min(values):.3f}, max {max(values):.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev_a")
    parser.add_argument("rev_b")
    parser.add_argument("--runs", type=int, default=5, help="runs of each revision")
    parser.add_argument("--seats", default="6")
    parser.add_argument("--game", default="vorsicht-lehrer")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    revs = (args.rev_a, args.rev_b)
    print(f"speed check: a 10^6-step Python loop takes {speed_check() * 1000:.0f} ms here now")
    walls: dict[str, list[float]] = {rev: [] for rev in revs}
    cpus: dict[str, list[float]] = {rev: [] for rev in revs}
    with tempfile.TemporaryDirectory(prefix="p2ptable-verify-") as tmp:
        replay = Path(tmp) / "game.p2pt"
        made = p2ptable(
            ROOT, "sim", args.game, "-n", args.seats, "--seed", args.seed, "-o", str(replay), "-q"
        )
        if made.returncode != 0:
            raise SystemExit(f"sim failed:\n{made.stdout}{made.stderr}")
        print(f"{args.game}, {args.seats} seats: {replay.stat().st_size // 1000} KB")
        folders = {rev: checkout(rev, Path(tmp)) for rev in revs}
        try:
            for rev in revs:  # one unmeasured run each: the file and the code in the cache
                verify_once(folders[rev], replay)
            for run in range(args.runs):
                for rev in revs:
                    wall, cpu = verify_once(folders[rev], replay)
                    walls[rev].append(wall)
                    cpus[rev].append(cpu)
                    print(f"run {run + 1} {rev:>12}: {wall:.3f} s ({cpu:.3f} s of CPU)", flush=True)
        finally:
            for folder in folders.values():
                if folder != ROOT:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                        capture_output=True,
                    )
    for rev in revs:
        print(f"{rev:>12}: wall {spread(walls[rev])}, CPU {spread(cpus[rev])}")
    a, b = (statistics.median(walls[rev]) for rev in revs)
    ca, cb = (statistics.median(cpus[rev]) for rev in revs)
    print(f"ratio {revs[0]} / {revs[1]}: {a / b:.2f}x wall, {ca / cb:.2f}x CPU (medians)")
    print(f"speed check after the run: {speed_check() * 1000:.0f} ms")


if __name__ == "__main__":
    main()
