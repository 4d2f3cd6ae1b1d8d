#!/usr/bin/env python3
"""What ``Ledger.append`` costs over a whole recorded game, two revisions in turn.

Every peer appends every entry, so the ledger's own bookkeeping (expected(), the
handler, committing the new position) is on the path of every move.  This
appends every entry of a golden replay (replays/) to a fresh ledger and reports
the time per entry (the fastest of ``--repeat`` whole games), twice: with
everything (the cache of checked signatures emptied before each game), and with
Ed25519 verification replaced by a stub (so what is left is the ledger's
bookkeeping, the rules and, for a sealed game, the deck proofs).

The machine is shared and its speed drifts, so two revisions are measured in
alternating runs (A B A B ...), each in its own process importing its own
checkout (a temporary git worktree), and compared as a ratio within this run.

Usage: scripts/bench_ledger.py [REV_A [REV_B]] [--runs 5] [--repeat 5]
(REV may be any git revision, or WORK for the working tree; default HEAD WORK.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ("pet-quartet-4p-standard.p2pt", "vorsicht-lehrer-4p.p2pt")

# Run in a child process whose working folder is the checkout, so it imports that
# revision's p2ptable.  Prints one JSON map: replay -> [full, stubbed] seconds/entry.
CHILD = """
import json, statistics, sys, time
from pathlib import Path
sys.path.insert(0, ".")
from p2ptable.crypto import signing
real = signing.verify_signature
import p2ptable.replay.ledger as ledger_module
from p2ptable.replay.entries import Entry
from p2ptable.replay.logfile import parse_frames

def modules_using_verify():
    return [m for m in list(sys.modules.values())
            if m is not None and getattr(m, "__name__", "").startswith("p2ptable.replay")
            and getattr(m, "verify_signature", None) is real]

def per_entry(payloads, repeat):
    times = []
    for _ in range(repeat):
        signing._KNOWN_GOOD.clear()  # checked signatures are remembered: check them again
        entries = [Entry.decode(p) for p in payloads]  # decoded (and cached) up front
        for e in entries:
            e.body
        start = time.perf_counter()
        ledger = ledger_module.Ledger(entries[0])
        for e in entries[1:]:
            ledger.append(e)
        times.append((time.perf_counter() - start) / (len(entries) - 1))
    return min(times)  # the run least disturbed by the other work on the machine

repeat = int(sys.argv[1])
out = {}
for name in sys.argv[2:]:
    payloads = parse_frames(Path("replays", name).read_bytes()).payloads
    full = per_entry(payloads, repeat)
    users = modules_using_verify()
    for m in users:
        m.verify_signature = lambda key, sig, message: True
    stubbed = per_entry(payloads, repeat)
    for m in users:
        m.verify_signature = real
    out[name] = [full, stubbed]
print(json.dumps(out))
"""


def checkout(rev: str, where: Path) -> Path:
    if rev == "WORK":
        return ROOT
    path = where / rev.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(path), rev],
        check=True,
        capture_output=True,
    )
    # The golden replays are the same bytes in every revision: read the working tree's.
    subprocess.run(["rm", "-rf", str(path / "replays")], check=True)
    (path / "replays").symlink_to(ROOT / "replays")
    return path


def measure(folder: Path, repeat: int) -> dict[str, list[float]]:
    cmd = [sys.executable, "-c", CHILD, str(repeat), *REPLAYS]
    out = subprocess.run(cmd, cwd=folder, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev_a", nargs="?", default="HEAD")
    parser.add_argument("rev_b", nargs="?", default="WORK")
    parser.add_argument("--runs", type=int, default=5, help="runs of each revision")
    parser.add_argument("--repeat", type=int, default=5, help="whole games per run")
    args = parser.parse_args()
    revs = (args.rev_a, args.rev_b)
    series: dict[tuple[str, str], list[list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="p2ptable-ledger-") as tmp:
        folders = {rev: checkout(rev, Path(tmp)) for rev in dict.fromkeys(revs)}
        try:
            for run in range(args.runs):
                for rev in revs:
                    for name, times in measure(folders[rev], args.repeat).items():
                        series.setdefault((rev, name), []).append(times)
                        full, stub = (t * 1e6 for t in times)
                        print(
                            f"run {run + 1} {rev:>8} {name}: {full:8.1f} us/entry, "
                            f"without signatures {stub:8.1f} us/entry",
                            flush=True,
                        )
        finally:
            for folder in folders.values():
                if folder != ROOT:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                        capture_output=True,
                    )
    for label, pick in (("median", statistics.median), ("fastest", min)):
        print(f"{label} of the runs, {revs[1]} / {revs[0]}:")
        for name in REPLAYS:
            a = [pick(t[k] for t in series[(revs[0], name)]) for k in (0, 1)]
            b = [pick(t[k] for t in series[(revs[1], name)]) for k in (0, 1)]
            print(
                f"  {name}: {b[0] * 1e6:.1f} / {a[0] * 1e6:.1f} us = {b[0] / a[0]:.3f} with "
                f"signatures; {b[1] * 1e6:.1f} / {a[1] * 1e6:.1f} us = {b[1] / a[1]:.3f} without"
            )


if __name__ == "__main__":
    main()
