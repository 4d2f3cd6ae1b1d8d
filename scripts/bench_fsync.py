#!/usr/bin/env python3
"""What putting an entry on stable storage costs, per entry and per move.

A seat syncs its replay before an entry it signed leaves (protocol/wire.md 6.10),
so a power cut can never lose a move a peer already holds.  This measures, on the
disk that holds ``--dir`` (by default the replay directory), in one run:

  * per entry: append one frame of ``--size`` bytes to a file, then
      - flush: nothing more (the unbuffered write hands it to the OS: the baseline,
        what a killed process cannot lose),
      - fdatasync (what LogWriter.sync uses where the system has it),
      - fsync;
  * per move: the mover's time until its frame leaves, ``submit(...,
    advance=False)`` of a Pet Quartet move between two in-memory sessions (check,
    sign, write, sync, seal), with each of the three as the session's ``sync``.

The three modes take turns entry by entry (and move by move), so they meet the
same disk conditions; each figure is quoted as a ratio to the baseline measured
in the same run.  Medians and 90th percentiles, in microseconds.

The per-entry series runs twice: back to back, and with the disk idle ``--gap``
seconds before each entry (a bot's think time; a live table syncs once a move).

Usage: scripts/bench_fsync.py [--entries 400] [--moves 300] [--size 300] [--dir DIR]
       [--gap 0.02]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from p2ptable.engine.playout import random_policy
from p2ptable.net.delivery import deliver
from p2ptable.net.memory import MemoryNet
from p2ptable.net.persistence import data_dir
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import LogWriter

MODES = ("flush", "fdatasync", "fsync")


def syncer(mode: str, writer: LogWriter) -> Callable[[], None]:
    if mode == "flush":
        return lambda: None  # the write already went to the OS (unbuffered)
    if mode == "fdatasync":
        return writer.sync
    fd = writer.fileno()
    return lambda: os.fsync(fd)


def per_entry(directory: Path, entries: int, size: int, gap: float = 0.0) -> dict[str, list[int]]:
    """Each mode's time to append and sync one entry; ``gap``: seconds idle before
    each round (a live table syncs once a move, after the players' think time)."""
    name = f"entries-{gap:g}"
    writers = {mode: LogWriter(directory / f"{name}-{mode}.p2pt", new=True) for mode in MODES}
    syncs = {mode: syncer(mode, writers[mode]) for mode in MODES}
    for writer in writers.values():
        writer.sync()  # the magic and the directory entry, outside the timing
    payload = os.urandom(size)
    times: dict[str, list[int]] = {mode: [] for mode in MODES}
    for _ in range(entries):
        for mode in MODES:
            if gap:
                time.sleep(gap)
            start = time.perf_counter_ns()
            writers[mode].append(payload)
            syncs[mode]()
            times[mode].append(time.perf_counter_ns() - start)
    for writer in writers.values():
        writer.close()
    return times


def per_move(directory: Path, moves: int) -> dict[str, list[int]]:
    times: dict[str, list[int]] = {mode: [] for mode in MODES}
    rng = random.Random(1)
    game = 0
    turn = 0
    while min(len(t) for t in times.values()) < moves:
        game += 1
        seats = [authoring.SeatSecrets.from_seed(b"bench-fsync", i, 1024) for i in range(2)]
        options = {"scoring": "basic", "variant": "standard"}
        genesis = authoring.local_genesis(
            "pet-quartet", options, ["A", "B"], seats, 1024, game.to_bytes(16, "big")
        )
        writers = {i: LogWriter(directory / f"move-{game}-{i}.p2pt", new=True) for i in range(2)}
        sessions: dict[int, Session] = {}
        for i in range(2):
            writers[i].append(genesis.encode())
            writers[i].sync()
            sessions[i] = Session(Ledger(genesis), i, seats[i], 0.0, boot=bytes([i + 1]) * 8)
        net = MemoryNet(sessions)
        policies = {i: random_policy(random.Random(rng.random())) for i in range(2)}
        while True:
            net.pump()
            movers = [s for s in sessions.values() if s.my_turn()]
            if not movers:
                break
            mover = movers[0]
            mode = MODES[turn % len(MODES)]
            turn += 1
            action = policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat)
            seat, other = mover.seat, 1 - mover.seat

            def send(_dest: int | None, frame: bytes, seat: int = seat, other: int = other) -> None:
                net.queue.append((seat, other, frame))  # noqa: B023 - used at once

            start = time.perf_counter_ns()
            # What the peer loop does with a move (net/peer.py, deliver): write
            # the entry, sync it, then send its frame.
            mover.submit(action, net.now, advance=False)
            deliver(
                mover,
                writers[mover.seat].append,
                send,
                syncer(mode, writers[mover.seat]),
            )
            times[mode].append(time.perf_counter_ns() - start)
            mover.advance(net.now)  # the automatic steps after it are not timed
        for writer in writers.values():
            writer.close()
    return times


def report(title: str, times: dict[str, list[int]]) -> None:
    base = statistics.median(times["flush"])
    print(f"\n{title}")
    print(f"  {'mode':<10} {'median us':>10} {'p90 us':>10} {'x baseline':>11}")
    for mode in MODES:
        values = sorted(times[mode])
        median = statistics.median(values)
        p90 = values[int(0.9 * (len(values) - 1))]
        print(f"  {mode:<10} {median / 1e3:>10.1f} {p90 / 1e3:>10.1f} {median / base:>10.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=400)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--size", type=int, default=300, help="bytes per entry (a move: ~300)")
    parser.add_argument("--dir", type=Path, default=None, help="default: the replay directory")
    parser.add_argument(
        "--gap", type=float, default=0.02, help="seconds idle before each entry, second series"
    )
    args = parser.parse_args()
    parent = args.dir or data_dir()
    parent.mkdir(parents=True, exist_ok=True)
    directory = Path(tempfile.mkdtemp(prefix="bench-fsync-", dir=parent))
    try:
        print(f"disk of {parent}; fdatasync available: {hasattr(os, 'fdatasync')}")
        entries = per_entry(directory, args.entries, args.size)
        report(f"per entry ({args.size}-byte frames, {args.entries} each)", entries)
        # The disk idle between syncs, as at a table where players think: syncs
        # there cost several times those back to back (2026-12-06: 236 against 58 us).
        idle = per_entry(directory, max(1, args.entries // 4), args.size, args.gap)
        report(f"per entry after {args.gap * 1000:.0f} ms idle ({args.entries // 4} each)", idle)
        moves = per_move(directory, args.moves)
        count = min(len(t) for t in moves.values())
        report(f"per move: mover until its frame leaves ({count}+ each)", moves)
    finally:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()
