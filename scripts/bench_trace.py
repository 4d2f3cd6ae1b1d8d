#!/usr/bin/env python3
"""Where a live move's time goes: every peer's passes, their CPU, and one move's timeline.

``bench_latency.py`` says how long a move takes to reach every peer; a profile
(``--profile-peers``, ``bench_profile.py``) says which functions cost CPU, but not
when, in which process, nor whether a process was running or waiting for a core.
This plays one live game (bots, each its own process on 127.0.0.1, as
``bench_latency.py`` does) with every peer started through a shim that wraps a
few seams of the peer loop, without changing any code of the peer: the loop's
sleep (``Waiter.wait``), a message handled (``Session._dispatch``) and queued
(``Session.send``), a move submitted (``SessionShell.submit``), the session's
output carried out (``SessionShell.flush``, which notes when entries were
applied) and the sync (``LogWriter.sync``).  At each it notes CLOCK_MONOTONIC
(shared by every process on the machine) and the thread's own CPU time.

Prints:
  * per kind of pass (what the pass took in and queued): passes per move, CPU per
    pass and per move, over all peers (a pass is from waking to sleeping again);
  * the CPU of the peers' loops inside each move's window (from the move
    submitted to it applied at every peer) next to the window itself: when the
    CPU is about the window or more, the peers took turns on the cores, and the
    move costs what every peer's work on it costs, one after another;
  * the syncs before our own entries leave: how long the disk kept the mover
    waiting (wall) and the CPU it took;
  * the timeline of the median move, per peer: when it woke, took the move in,
    had it applied (``flush``) and slept again, with the CPU of its pass.

Usage: scripts/bench_trace.py [--seats 6] [--think 0.02] [--game pet-quartet]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_latency import NAMES, free_port  # noqa: E402

# Run as a peer: wrap the seams (see the module docstring), run the CLI, write
# what was noted to the folder given as the first argument when the process ends.
SHIM = """
import atexit, json, os, sys, time
folder = sys.argv.pop(1)
rows = []
def note(*what):
    rows.append((time.monotonic(), time.thread_time(), *what))
def dump():
    with open(os.path.join(folder, f"{os.getpid()}.trace"), "w") as f:
        json.dump(rows, f)
atexit.register(dump)
from p2ptable.net import peer_wait, session, session_shell
from p2ptable.replay import logfile
def wrap(cls, name, before, after=None):
    inner = getattr(cls, name)
    def wrapped(self, *args, **kwargs):
        before(self, *args)
        out = inner(self, *args, **kwargs)
        if after is not None:
            after(self, out)
        return out
    setattr(cls, name, wrapped)
wrap(peer_wait.Waiter, "wait", lambda s, *a: note("sleep"),
     lambda s, out: note("wake", len(out[0])))
wrap(session.Session, "_dispatch", lambda s, m, *a: note("recv", m.kind))
wrap(session.Session, "send", lambda s, dest, kind, *a: note("queue", kind))
wrap(session.Session, "__init__", lambda s, ledger, seat, *a: note("seat", seat))
wrap(session_shell.SessionShell, "submit", lambda s, *a: note("submit"))
wrap(session_shell.SessionShell, "flush", lambda s, *a: note("flush"))
wrap(logfile.LogWriter, "sync", lambda s, *a: note("sync"), lambda s, out: note("synced"))
sys.argv[0] = "p2ptable"
from p2ptable.cli import main
main()
"""


def play(seats: int, think: float, game: str, folder: Path) -> list[list[dict]]:
    """One traced game; each peer's ``--stats`` rows (the traces are in ``folder``)."""
    port = free_port()
    common = ["--code", "BEN-CHM", "--bot", "random", "--bot-delay", str(think), "--quiet"]
    procs = []
    try:
        for i, name in enumerate(NAMES[:seats]):
            if i == 0:
                args = ["host", game, "--seats", str(seats), "--port", str(port)]
                args += ["--advertise", "127.0.0.1"]
            else:
                args = ["join", f"127.0.0.1:{port}"]
            args += ["--name", name, "--replay", str(folder / f"{name}.p2pt")]
            args += ["--stats", str(folder / f"{name}.stats"), *common]
            cmd = [sys.executable, "-c", SHIM, str(folder), *args]
            procs.append(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL))
            if i == 0:
                time.sleep(0.3)
        for proc in procs:
            if proc.wait(timeout=300) != 0:
                raise RuntimeError(f"a peer exited with {proc.returncode}")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return [
        [json.loads(line) for line in (folder / f"{n}.stats").read_text().splitlines()]
        for n in NAMES[:seats]
    ]


def passes(rows: list[list]) -> list[dict]:
    """A peer's passes, from its first seated one: start, end, CPU, what it did, its notes."""
    out: list[dict] = []
    current: dict | None = None
    seated = False
    for row in rows:
        what = row[2]
        seated = seated or what == "seat"
        if not seated:
            continue
        if what == "wake":
            current = {"start": row[0], "cpu0": row[1], "frames": row[3], "notes": []}
        elif current is not None and what == "sleep":
            current.update(end=row[0], cpu=row[1] - current["cpu0"])
            did = [f"{n[2]} {n[3]}" for n in current["notes"] if n[2] in ("recv", "queue")]
            idle = "woke, no frame" if not current["frames"] else "?"
            current["kind"] = " + ".join(did) or idle
            out.append(current)
            current = None
        elif current is not None:
            current["notes"].append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--think", type=float, default=0.02)
    parser.add_argument("--game", default="pet-quartet")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        stats = play(args.seats, args.think, args.game, folder)
        traces = [json.loads(p.read_text()) for p in sorted(folder.glob("*.trace"))]
    seat_of = [next(r[3] for r in rows if r[2] == "seat") for rows in traces]
    by_seat = {seat: passes(rows) for seat, rows in zip(seat_of, traces, strict=True)}
    applied: dict[int, list[float]] = defaultdict(list)
    submitted: dict[int, float] = {}
    kinds: dict[int, str] = {}
    for rows in stats:
        for row in rows:
            if "submitted" in row:
                submitted[row["i"]] = row["submitted"]
            else:
                applied[row["i"]].append(row["applied"])
                kinds[row["i"]] = row["kind"]
    moves = [
        (max(applied[i]) - t0, i, t0)
        for i, t0 in submitted.items()
        if kinds.get(i) == "action" and len(applied[i]) == args.seats
    ]
    if not moves:
        raise SystemExit("no move reached every peer")
    moves.sort()
    every = [p for ps in by_seat.values() for p in ps]
    window = statistics.median(m[0] for m in moves)
    print(f"{args.seats} peers, {args.game}, bots thinking {args.think * 1000:.0f} ms,"
          f" {len(moves)} moves; move p50 {window * 1000:.2f} ms")  # fmt: skip
    print(f"{'a pass (woke -> slept): what it took in and queued':52} {'per move':>8}"
          f" {'CPU/pass p50':>13} {'CPU/move':>9}")  # fmt: skip
    groups: dict[str, list[float]] = defaultdict(list)
    for p in every:
        groups[p["kind"]].append(p["cpu"])
    shown = sorted(groups.items(), key=lambda kv: -sum(kv[1]))[:12]
    for kind, cpus in shown:
        per_pass = statistics.median(cpus) * 1e6
        print(f"  {kind[:50]:50} {len(cpus) / len(moves):8.2f} {per_pass:10.0f} us"
              f" {sum(cpus) / len(moves) * 1e6:6.0f} us")  # fmt: skip
    total = sum(p["cpu"] for p in every) / len(moves)
    print(f"  {'all passes':50} {len(every) / len(moves):8.2f} {'':13} {total * 1e6:6.0f} us")
    syncs = [
        (b[0] - a[0], b[1] - a[1])
        for rows in traces
        for a, b in zip(rows, rows[1:], strict=False)
        if a[2] == "sync" and b[2] == "synced"
    ]
    if syncs:  # the mover's wait on the disk before its entry may leave
        waits = sorted(w for w, _ in syncs)
        print(
            f"the syncs before our own entries leave ({len(syncs)}): p50"
            f" {statistics.median(waits) * 1e6:.0f} us, p90 {waits[len(waits) * 9 // 10] * 1e6:.0f}"
            f" us (CPU p50 {statistics.median(c for _, c in syncs) * 1e6:.0f} us)"
        )
    inside = []
    for _, i, t0 in moves:
        t1 = max(applied[i])
        cpu = 0.0
        for p in every:  # the share of each pass that falls inside the window
            start, end = p["start"], p["end"]
            if end > t0 and start < t1 and end > start:
                cpu += p["cpu"] * (min(end, t1) - max(start, t0)) / (end - start)
        inside.append(cpu)
    print(
        f"peers' loops' CPU inside a move's window, p50:"
        f" {statistics.median(inside) * 1000:.2f} ms (the window: {window * 1000:.2f} ms)"
    )
    latency, index, t0 = moves[len(moves) // 2]
    t1 = max(applied[index])
    print(
        f"the median move (entry {index}, {latency * 1000:.2f} ms), per peer, ms after it was"
        " submitted (CPU of the pass in brackets):"
    )
    for seat in sorted(by_seat):
        for p in by_seat[seat]:
            if p["end"] < t0 or p["start"] > t1:
                continue
            marks = [f"woke {(p['start'] - t0) * 1000:.2f}"]
            for note in p["notes"]:
                if note[2] in ("recv", "queue", "submit", "sync", "synced", "flush"):
                    label = " ".join(str(x) for x in note[2:])
                    marks.append(f"{label} {(note[0] - t0) * 1000:.2f}")
            marks.append(f"slept {(p['end'] - t0) * 1000:.2f} ({p['cpu'] * 1e6:.0f} us)")
            print(f"  seat {seat}: " + ", ".join(marks))


if __name__ == "__main__":
    main()
