"""What spectators cost a table: a move with 0, 1 and 3 watchers (4 bot peers).

Runs whole 4-seat games between bot peers on 127.0.0.1 (each its own process,
the host opened with ``--spectators``), with 0, 1 or 3 ``p2ptable watch``
processes following, and a variant with one watcher stopped (SIGSTOP: admitted,
then never reading) plus a stranger writing 500 junk frames to the host.  The
configurations run in turn, round after round, so a drift of the machine's
speed hits them alike; each figure is quoted as a ratio to the unwatched move of
the same rounds.  A move: submitted by its author to applied at every seat (the
peers' ``--stats``).

    .venv/bin/python scripts/bench_spectators.py [--rounds 3] [--game teachers-pet]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zmq

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("bench_latency", HERE / "bench_latency.py")
bench = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(bench)  # type: ignore[union-attr]

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
CONFIGS = ("0", "1", "3", "3 niced", "stuck+junk")
# "3 niced": the watchers run at the lowest CPU priority, as if on laptops of their
# own (this machine has 2 cores for every process; a spectator checks every entry,
# shuffle proofs included, as a seat does, so here it competes with the seats)


def run(game: str, config: str, workdir: Path, think: float) -> list[float]:
    """One game; the moves' latencies (seconds)."""
    port = bench.free_port()
    common = ["--code", "BEN-CHM", "--bot", "random", "--bot-delay", str(think), "--quiet"]
    procs: list[subprocess.Popen] = []
    watchers: list[subprocess.Popen] = []
    for path in workdir.glob("*"):
        path.unlink()
    try:
        for i, name in enumerate(NAMES):
            replay, stats = workdir / f"{name}.p2pt", workdir / f"{name}.stats"
            if i == 0:
                args = ["host", game, "--seats", "4", "--port", str(port), "--spectators"]
                args += ["--advertise", "127.0.0.1", "--no-announce"]
            else:
                args = ["join", f"127.0.0.1:{port}"]
            args += ["--name", name, "--replay", str(replay), "--stats", str(stats), *common]
            procs.append(subprocess.Popen([sys.executable, "-m", "p2ptable", *args],
                                          stdout=subprocess.DEVNULL))  # fmt: skip
            if i == 0:
                time.sleep(0.3)
                count = {"0": 0, "1": 1, "3": 3, "3 niced": 3, "stuck+junk": 1}[config]
                nice = ["nice", "-n", "19"] if config.endswith("niced") else []
                for k in range(count):
                    cmd = [*nice, sys.executable, "-m", "p2ptable", "watch", f"127.0.0.1:{port}",
                           "--code", "BEN-CHM", "--name", f"W{k}", "--quiet",
                           "--replay", str(workdir / f"W{k}.p2pt")]  # fmt: skip
                    watchers.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                                     start_new_session=True))  # fmt: skip
        if config == "stuck+junk":
            time.sleep(2.0)  # admitted and following: now it stops reading
            os.killpg(watchers[0].pid, signal.SIGSTOP)
            junk = zmq.Context.instance().socket(zmq.DEALER)
            junk.setsockopt(zmq.LINGER, 0)
            junk.connect(f"tcp://127.0.0.1:{port}")
            for n in range(500):
                junk.send(b"L" + os.urandom(n % 300), zmq.NOBLOCK)
            junk.close()
        for proc in procs:
            if proc.wait(timeout=300) != 0:
                raise RuntimeError(f"a peer exited with {proc.returncode}")
    finally:
        for proc in procs + watchers:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGCONT)
                except (ProcessLookupError, PermissionError):
                    pass
                proc.kill()
                proc.wait()
    per_peer = [
        [bench.json.loads(line) for line in (workdir / f"{n}.stats").read_text().splitlines()]
        for n in NAMES
    ]
    moves, *_ = bench.measure((per_peer, bench.actions_of(workdir / "Ana.p2pt")), think)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", default="teachers-pet")
    parser.add_argument("--think", type=float, default=0.02)
    parser.add_argument(
        "--configs", default=",".join(CONFIGS), help=f"some of {', '.join(CONFIGS)} (commas)"
    )
    args = parser.parse_args()
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    if not configs or set(configs) - set(CONFIGS):
        parser.error(f"--configs takes some of {', '.join(CONFIGS)}")
    loop = bench.speed_check()
    moves: dict[str, list[float]] = {c: [] for c in configs}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for config in configs:
                moves[config] += run(args.game, config, Path(tmp), args.think)
                print(f"round {r + 1} {config:>10}: {len(moves[config])} moves so far",
                      file=sys.stderr)  # fmt: skip
    base = statistics.median(moves["0" if "0" in moves else configs[0]])
    print(f"speed check: a 10^6-step Python loop took {loop * 1000:.0f} ms")
    print(f"{args.game}, 4 bot peers, {args.rounds} games per configuration, think {args.think}s")
    against = "unwatched" if "0" in moves else configs[0]
    print(f"| spectators | moves | move p50 | move p90 | p50 vs {against} |")
    print("|---|---:|---:|---:|---:|")
    for config in configs:
        values = sorted(moves[config])
        p50 = statistics.median(values)
        p90 = values[int(0.9 * (len(values) - 1))]
        print(f"| {config} | {len(values)} | {p50 * 1000:.2f} ms | {p90 * 1000:.2f} ms "
              f"| {p50 / base:.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
