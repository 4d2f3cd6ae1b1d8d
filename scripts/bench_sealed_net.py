#!/usr/bin/env python3
"""Wall time of the sealed decks between 6 peer processes on 127.0.0.1.

Usage: scripts/bench_sealed_net.py [--runs 3] [--seats 6] [--cards 88] [--hand 7] [--reveals 3]

Each run starts one process per seat (this script with ``--child``), joined in a
full ZeroMQ mesh with signed frames (``p2ptable.net.sealed_mesh``, the same as
scripts/sealed_demo.py), and plays the sealed-deck table: keys, every seat's
shuffle with its proof (each verified by every other seat), a deal of ``--hand``
cards to each seat, then ``--reveals`` reveals per seat in turn.  Each process
stamps every event with ``time.monotonic()`` (CLOCK_MONOTONIC, one clock for every
process on a Linux machine) and prints its timeline; this launcher prints:

  * shuffle phase: from the first seat having every key to the last seat having
    verified the last shuffle (every shuffle proved, and verified by every seat);
  * deal: from that moment to the last seat having read its hand (the two figures
    add up to the whole: work one seat starts early is counted in the shuffle
    phase); also the longest a seat took from its own last shuffle to its hand;
  * reveal verified: the work of one seat for another seat's reveal (signature,
    decoding, the DLEQ proof, decoding the card), median per verifying seat;
    and the time from the revealer's move to the last seat having verified it.

Targets on the 2-core reference machine: shuffle phase < 1.5 s, deal < 0.5 s,
reveal verified < 2 ms.  Every child is ended: bounded waits, killed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sealed_demo import end_all, start_seats, turns, wait_all  # noqa: E402

from p2ptable.net.sealed_mesh import run_seat  # noqa: E402
from p2ptable.sealed.table_events import Phase  # noqa: E402
from p2ptable.sealed.table_protocol import SealedSeat  # noqa: E402


def child(args: argparse.Namespace) -> int:
    ports = [int(p) for p in args.ports.split(",")]
    seats = len(ports)
    machine = SealedSeat(
        bytes.fromhex(args.game_id), args.seat, seats, range(args.cards), args.hand, os.urandom,
        turns=turns(seats, args.reveals),
    )  # fmt: skip
    run = run_seat(machine, ports, choose=lambda m: 0, timeout=args.timeout)
    events = [
        [stamp, type(event).__name__, getattr(event, "seat", None), cost]
        for stamp, event, cost in run.timeline
    ]
    print(json.dumps({"seat": args.seat, "phase": run.phase.value, "events": events}))
    return 0 if run.phase is Phase.DONE else 1


def figures(timelines: list[dict], seats: int) -> dict:
    """The run's figures in seconds, from every seat's timeline."""

    def stamps(t: dict, kind: str, seat: object = "any") -> list[float]:
        return [e[0] for e in t["events"] if e[1] == kind and seat in ("any", e[2])]

    keys = min(stamps(t, "KeysReady")[0] for t in timelines)
    last_shuffle = [stamps(t, "Shuffled", seats - 1)[0] for t in timelines]
    dealt = [stamps(t, "HandDealt")[0] for t in timelines]
    verify = [
        statistics.median(e[3] for e in t["events"] if e[1] == "Revealed" and e[2] != t["seat"])
        for t in timelines
    ]
    reveals = [[e for e in t["events"] if e[1] == "Revealed"] for t in timelines]
    latency = [
        max(r[j][0] for r in reveals) - reveals[r_seat][j][0]
        for j, (_, _, r_seat, _) in enumerate(reveals[0])
    ]
    return {
        "shuffle": max(last_shuffle) - keys,
        "deal": max(dealt) - max(last_shuffle),
        "deal_seat": max(d - s for d, s in zip(dealt, last_shuffle, strict=True)),
        "verify": statistics.median(verify),
        "verify_range": (min(verify), max(verify)),
        "latency": statistics.median(latency),
    }


def one_run(args: argparse.Namespace, workdir: Path) -> dict:
    started: list = []
    try:
        start_seats(args, workdir, started, __file__)
        codes = wait_all(started, args.timeout + 10)
    finally:
        end_all(started)
    outputs = [out.read_text(errors="replace") for _, out in started]
    if any(code != 0 for code in codes):
        raise SystemExit(f"a seat failed (exit codes {codes}):\n" + "\n".join(outputs))
    return figures([json.loads(text.splitlines()[-1]) for text in outputs], args.seats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--cards", type=int, default=88)
    parser.add_argument("--hand", type=int, default=7)
    parser.add_argument("--reveals", type=int, default=3, help="reveals per seat")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seat", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--game-id", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    cpu = platform.processor() or platform.machine()
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}")
    dealt = args.seats * args.hand
    print(f"table: {args.seats} processes, {args.cards} cards, {dealt} dealt, 127.0.0.1")
    ms = lambda t: f"{t * 1000:.0f} ms"  # noqa: E731
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            f = one_run(args, Path(tmp))
            runs.append(f)
            lo, hi = f["verify_range"]
            print(
                f"run {i + 1}: shuffle phase {ms(f['shuffle'])}, deal {ms(f['deal'])}"
                f" (a seat at most {ms(f['deal_seat'])}), reveal verified"
                f" {f['verify'] * 1000:.2f} ms (per seat {lo * 1000:.2f}-{hi * 1000:.2f}),"
                f" seen by all {f['latency'] * 1000:.1f} ms"
            )
    med = {k: statistics.median(r[k] for r in runs) for k in ("shuffle", "deal", "verify")}
    print(f"median of {args.runs} runs:")
    rows = [
        (f"shuffle phase ({args.seats} shuffles)", ms(med["shuffle"]), "1500 ms"),
        (f"deal of {dealt} cards", ms(med["deal"]), "500 ms"),
        ("one reveal verified", f"{med['verify'] * 1000:.2f} ms", "2 ms"),
    ]
    for label, value, target in rows:
        print(f"  {label:<28} {value:>9}   (target < {target})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
