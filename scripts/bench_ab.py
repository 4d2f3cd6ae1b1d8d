#!/usr/bin/env python3
"""Compare two revisions' live latency in alternating runs, on one machine.

The reference machine is a shared virtual one: the same code measures a fifth
slower or faster from one hour or day to the next (README, Figures), far more
than most changes move it.  So a change is judged by running both revisions in
turn, A B A B ..., and comparing the series, never against a figure measured
earlier.  Each revision is checked out in a temporary git worktree and measured
with its own ``scripts/bench_latency.py``; the peers of a run import that
revision's ``p2ptable`` (they run with the worktree as their working folder).

Usage: scripts/bench_ab.py REV_A REV_B [--runs 3] [--seats 6] [--games 2]
       [--think 0.02] [--game pet-quartet] [--dir /dev/shm]
(REV may be any git revision, or WORK for the working tree as it is.)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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


def measure(folder: Path, args: argparse.Namespace) -> list[list[str]]:
    """The table rows ``bench_latency.py`` prints for one run, split into fields."""
    cmd = [sys.executable, "scripts/bench_latency.py", "--games", str(args.games)]
    cmd += ["--seats", args.seats, "--think", args.think, "--game", args.game]
    if args.dir:
        cmd += ["--dir", args.dir]
    out = subprocess.run(cmd, cwd=folder, check=True, capture_output=True, text=True).stdout
    rows = [line.split() for line in out.splitlines()]
    table = [fields for fields in rows if fields and fields[0].isdigit()]
    # A hidden-hand game's "ready for the first move ... p50 N ms", after its row.
    for n, line in enumerate(out.splitlines()):
        if "ready for the first move" in line and table:
            ready = line.split(" p50 ")[1].split()[0]
            seats = [f for f in rows[: n + 1] if f and f[0].isdigit()][-1][0]
            table = [[*f, f"ready={ready}"] if f[0] == seats else f for f in table]
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev_a")
    parser.add_argument("rev_b")
    parser.add_argument("--runs", type=int, default=3, help="runs of each revision")
    parser.add_argument("--seats", default="6")
    parser.add_argument("--games", type=int, default=2, help="games per run")
    parser.add_argument("--think", default="0.02", help="one bot think time, in seconds")
    parser.add_argument("--game", default="pet-quartet")
    parser.add_argument(
        "--dir",
        default=None,
        help="where the replays and the mesh's logs go (a tmpfs such as /dev/shm takes"
        " the disk's drifting sync time out of both revisions' figures)",
    )
    args = parser.parse_args()
    revs = (args.rev_a, args.rev_b)
    series: dict[tuple[str, str], list[tuple[float, float]]] = {}
    meshes: dict[tuple[str, str], list[float]] = {}  # the baseline, where a revision has it
    readies: dict[tuple[str, str], list[float]] = {}  # hidden hands: genesis to every hand
    with tempfile.TemporaryDirectory(prefix="p2ptable-ab-") as tmp:
        folders = {rev: checkout(rev, Path(tmp)) for rev in revs}
        try:
            for run in range(args.runs):
                for rev in revs:
                    for row in measure(folders[rev], args):
                        seats, move, chance = row[0], float(row[1]), float(row[3])
                        series.setdefault((rev, seats), []).append((move, chance))
                        mesh = ""
                        if len(row) > 7 and row[6].replace(".", "", 1).isdigit():  # mesh p50
                            meshes.setdefault((rev, seats), []).append(float(row[6]))
                            mesh = f", durable signed mesh p50 {float(row[6]):.2f} ms"
                        ready = [f[6:] for f in row if f.startswith("ready=")]
                        if ready:
                            readies.setdefault((rev, seats), []).append(float(ready[0]))
                            mesh += f", ready for the first move {float(ready[0]):.0f} ms"
                        print(
                            f"run {run + 1} {rev:>12}  {seats} peers: move p50 {move:.2f} ms, "
                            f"chance p50 {chance:.2f} ms{mesh}",
                            flush=True,
                        )
        finally:
            for folder in folders.values():
                if folder != ROOT:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                        capture_output=True,
                    )
    print("median of the runs' medians:")
    for (rev, seats), values in sorted(
        series.items(), key=lambda kv: (kv[0][1], revs.index(kv[0][0]))
    ):
        move = statistics.median(v[0] for v in values)
        chance = statistics.median(v[1] for v in values)
        mesh = meshes.get((rev, seats))
        against = (
            f", {move / statistics.median(mesh):.2f}x the mesh ({statistics.median(mesh):.2f} ms)"
            if mesh
            else ""
        )
        ready = readies.get((rev, seats))
        if ready:
            against += f"; ready for the first move {statistics.median(ready):.0f} ms"
            against += f" ({', '.join(f'{r:.0f}' for r in ready)})"
        print(
            f"  {seats} peers {rev:>12}: move {move:.2f} ms, chance {chance:.2f} ms "
            f"({len(values)} runs: {', '.join(f'{v[0]:.2f}' for v in values)}){against}"
        )


if __name__ == "__main__":
    main()
