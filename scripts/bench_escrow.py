#!/usr/bin/env python3
"""What the escrow of issue 27 costs at the start of a hidden-hand game, in one process.

For a Vorsicht Lehrer! table of ``--seats`` seats (default 6), two measurements,
each the median over ``--runs`` rounds, with and without ``keep_going``
alternating inside each round so both see the same machine:

  * *one seat*: the work one peer does for the escrow: its own escrow entry made
    (``authoring.escrow_entry``: the commitments, every holder's encrypted share,
    the signature), and every other seat's checked as it arrives
    (``Ledger.append``: decoding, the signature, every point, its own share);
  * *table to first move*: every seat's session over ``MemoryNet`` (virtual time,
    one process) from the genesis until the first player is asked to move: the
    escrows, the shuffles and the deal, all the seats' CPU added up (on a LAN
    the seats work at once, so this is an upper bound of the extra wait: the
    escrows are made one seat after another, each checked by all).

Usage: scripts/bench_escrow.py [--seats N] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2ptable.net.memory import MemoryNet  # noqa: E402
from p2ptable.net.session import Session  # noqa: E402
from p2ptable.replay import authoring  # noqa: E402
from p2ptable.replay.kinds import Kind  # noqa: E402
from p2ptable.replay.ledger import Ledger  # noqa: E402

GAME, OPTIONS, NONCE = "vorsicht-lehrer", {"track": "100"}, bytes(range(16))


def table(seats: int, keep_going: bool, seed: str):  # noqa: ANN201
    secrets = [authoring.SeatSecrets.from_seed(seed.encode(), i, 256) for i in range(seats)]
    names = [f"P{i}" for i in range(seats)]
    genesis = authoring.local_genesis(GAME, OPTIONS, names, secrets, 256, NONCE, keep_going)
    return secrets, genesis


def one_seat(seats: int, seed: str) -> float:
    """Seconds one seat spends on the escrow: its own made, the others' checked."""
    secrets, genesis = table(seats, True, seed)
    author = Ledger(genesis, readers={i: s.deck for i, s in enumerate(secrets)})
    entries = []
    for seat in range(seats):
        entries.append(authoring.escrow_entry(author, seat, secrets[seat]))
        author.append(entries[-1])
    ledger = Ledger(genesis, readers={0: secrets[0].deck})
    start = time.perf_counter()
    authoring.escrow_entry(ledger, 0, secrets[0])
    for entry in entries:
        ledger.append(entry)
    assert ledger.expected().kind is not Kind.ESCROW
    return time.perf_counter() - start


def to_first_move(seats: int, keep_going: bool, seed: str) -> float:
    secrets, genesis = table(seats, keep_going, seed)
    sessions = {
        i: Session(Ledger(genesis, readers={i: secrets[i].deck}), i, secrets[i], 0.0)
        for i in range(seats)
    }
    net = MemoryNet(sessions)
    start = time.perf_counter()
    for _ in range(100):
        net.pump()
        if any(s.my_turn() for s in sessions.values()):
            return time.perf_counter() - start
        net.advance(0.1)
    raise RuntimeError("nobody was asked to move")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    seat, with_escrow, without = [], [], []
    for run in range(args.runs):
        seed = f"bench-escrow-{run}"
        seat.append(one_seat(args.seats, seed))
        without.append(to_first_move(args.seats, False, seed))
        with_escrow.append(to_first_move(args.seats, True, seed))
    med = statistics.median
    print(f"Vorsicht Lehrer!, {args.seats} seats, median of {args.runs} runs (one process)")
    mine = med(seat) * 1000
    print(f"one seat's escrow work (its own made, {args.seats - 1} checked): {mine:.2f} ms")
    print(f"table to first move without escrow: {med(without):.3f} s (all seats' CPU)")
    print(f"table to first move with escrow:    {med(with_escrow):.3f} s (all seats' CPU)")
    spread = max(without) - min(without)
    print(
        f"escrow's cost at the start: {med(with_escrow) - med(without):+.3f} s "
        f"(runs without it spread over {spread:.3f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
