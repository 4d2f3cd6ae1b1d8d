#!/usr/bin/env python3
"""How soon a bot plays for a seat that is gone (issue 27's figure).

Keep-going tables of bot peers (separate processes on 127.0.0.1, Vorsicht Lehrer!);
one seat is ``kill -9``'d mid-game and never resumed.  A staying seat's replay is
watched (its size polled every 0.5 ms, its frames read when it grows), and each
entry's arrival stamped:

* **departure → stand-in**: from the departure entry (the seat's loss proved: the
  others' shares that rebuild its secret, in the log) to the stand-in's first move;
* **abandon → departure**: from the abandonment clock running out (at the latest:
  the kill plus the silence limit, counted from the seat's last contact) to the
  departure entry: the round in which the staying seats publish their shares,
  and the clock's own granularity;
* the baseline of the same run: the median time between two entries of ordinary
  play at the same table (bots thinking ``--think`` seconds).

Usage: scripts/bench_stand_in.py [--games N] [--seats N] [--think S]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.logfile import parse_frames

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
ABANDON = 2.0  # the silence limit for the benchmark (a table's is 5 minutes)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def speed_check() -> float:
    """The machine's speed: ms for a 10^6-step Python loop (as bench_latency.py)."""
    start = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i
    return (time.perf_counter() - start) * 1000


def stand_in_move(decoded: list[Entry], departure: int) -> int | None:
    """The index of the first move made for the gone seat after its departure."""
    gone = decoded[departure].body["of"]
    for i in range(departure + 1, len(decoded)):
        if decoded[i].kind == Kind.ACTION and decoded[i].body.get("seat") == gone:
            return i
    return None


def one_game(seats: int, think: float, folder: Path) -> tuple[float, float, list[float]]:
    """(departure → stand-in s, abandon → departure s, ordinary gaps s) of one game."""
    names = NAMES[:seats]
    gone, watched = names[-1], names[0]
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1")
    env["P2PTABLE_ABANDON_TIMEOUT"] = str(ABANDON)
    bot = ("--bot", "random", "--bot-delay", str(think), "--quiet")
    procs: dict[str, subprocess.Popen] = {}
    for n, name in enumerate(names):
        if n == 0:
            args = ["host", "vorsicht-lehrer", "--seats", str(seats), "--port", str(port),
                    "--advertise", "127.0.0.1", "--no-announce", "--keep-going"]  # fmt: skip
        else:
            args = ["join", f"127.0.0.1:{port}"]
        args += ["--code", "BEN-CHS", "--name", name, "--replay", str(folder / f"{name}.p2pt")]
        procs[name] = subprocess.Popen(
            [sys.executable, "-m", "p2ptable", *args, *bot], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=env, start_new_session=True,
        )  # fmt: skip
    path = folder / f"{watched}.p2pt"
    stamps: list[float] = []  # when each entry of the watched seat's replay was seen
    decoded: list[Entry] = []
    size, killed_at, end = 0, None, time.monotonic() + 240
    try:
        while time.monotonic() < end:
            try:
                now_size = path.stat().st_size
            except FileNotFoundError:
                now_size = 0
            if now_size != size:
                seen = time.monotonic()
                try:
                    payloads = parse_frames(path.read_bytes()).payloads
                except ValueError:  # a frame half written: read it again next time
                    time.sleep(0.0005)
                    continue
                size = now_size
                for payload in payloads[len(decoded) :]:
                    decoded.append(Entry.decode(payload))
                    stamps.append(seen)
            if killed_at is None and len(decoded) >= 4 * seats:
                os.killpg(procs[gone].pid, signal.SIGKILL)
                procs.pop(gone).wait(timeout=10)
                killed_at = time.monotonic()
            departed = [i for i, e in enumerate(decoded) if e.kind == Kind.DEPARTURE]
            if departed and stand_in_move(decoded, departed[0]) is not None:
                break
            if all(p.poll() is not None for p in procs.values()):
                break
            time.sleep(0.0005)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
    departed = [i for i, e in enumerate(decoded) if e.kind == Kind.DEPARTURE]
    if not departed or killed_at is None:
        raise SystemExit("no departure seen: the table did not go on")
    d = departed[0]
    first_move = stand_in_move(decoded, d)
    if first_move is None:
        raise SystemExit("the table went on without a move for the gone seat")
    expired = killed_at + ABANDON  # the latest the clock can run out (its last contact)
    ordinary = [stamps[i + 1] - stamps[i] for i in range(2 * seats, d - 1)]
    return stamps[first_move] - stamps[d], stamps[d] - expired, ordinary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.02, help="bots' seconds per move")
    args = parser.parse_args()
    print(f"speed check: {speed_check():.0f} ms (10^6-step Python loop)")
    to_move, to_depart, gaps = [], [], []
    for _ in range(args.games):
        with tempfile.TemporaryDirectory(prefix="bench-stand-in-") as folder:
            move, depart, ordinary = one_game(args.seats, args.think, Path(folder))
        to_move.append(move * 1000)
        to_depart.append(depart * 1000)
        gaps.extend(g * 1000 for g in ordinary)

    def line(label: str, values: list[float]) -> str:
        spread = f"{min(values):.0f}–{max(values):.0f}"
        return f"{label}: median {statistics.median(values):.0f} ms ({spread})"

    print(f"{args.games} games of Vorsicht Lehrer!, {args.seats} seats, one killed for good")
    print(line("departure → stand-in's first move", to_move))
    print(line("kill + silence limit → departure entry", to_depart))
    base = statistics.median(gaps)
    print(f"baseline, one entry to the next in ordinary play: median {base:.0f} ms")
    if base > 0:
        ratio = statistics.median(to_move) / base
        print(f"departure → stand-in / ordinary entry gap: {ratio:.2f}x")
    else:  # bots that do not think (--think 0) write entries in bursts the poll sees as one
        print("departure → stand-in / ordinary entry gap: no ratio (entries came in bursts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
