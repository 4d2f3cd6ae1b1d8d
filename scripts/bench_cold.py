#!/usr/bin/env python3
"""What a move costs one peer's CPU, with warm and with cold caches.

At a live table of six processes on two cores, each process meets a move with its
caches cold: the other five (and their ZeroMQ I/O threads) ran in between.  This
plays Pet Quartet between in-memory sessions (no sockets), and before each timed
step streams ``--evict-mb`` of memory through the caches, so the step runs as it
does live.  Prints the median, warm and cold, of:

  * mover, before its first frame leaves: ``submit(..., advance=False)`` (check
    the move is legal, sign it, write it, seal one frame per peer);
  * receiver, a move: ``Session.receive`` of the move's frame, everything included;
  * receiver, the bare minimum: authenticate and decode the frame, decode the
    entry, verify its Ed25519 signature, apply the rules (no ordering, logging or
    bookkeeping);
  * Ed25519 verification alone, and Ed25519 signing alone.

Feed the cold figures to ``scripts/bench_floor.py --send-work-us A --work-us B``
for the best a table of processes doing this work can do on the machine.

Usage: scripts/bench_cold.py [--players 6] [--moves 400] [--evict-mb 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from nacl.bindings import crypto_sign_open

from p2ptable.crypto import signing
from p2ptable.engine.playout import random_policy
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.net.wire import open_frame
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, signed_message
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.moves import parse_action  # the ledger's: remembered


def make_table(players: int) -> dict[int, Session]:
    seats = [authoring.SeatSecrets.from_seed(b"bench", i, 512) for i in range(players)]
    names = [f"P{i}" for i in range(players)]
    options = {"scoring": "basic", "variant": "standard"}
    genesis = authoring.local_genesis("pet-quartet", options, names, seats, 512, b"\x00" * 16)
    return {
        i: Session(Ledger(genesis), i, seats[i], 0.0, boot=bytes([i]) * 8) for i in range(players)
    }


class Evictor:
    """Streams a buffer through the caches, as five other processes would."""

    def __init__(self, megabytes: float) -> None:
        self.buf = bytearray(int(megabytes * 1024 * 1024))

    def __call__(self) -> None:
        buf = self.buf
        for i in range(0, len(buf), 64):
            buf[i] = (buf[i] + 1) & 255


def bare(session: Session, frame: bytes) -> None:
    """A receiver's unavoidable work on a move: authenticate, decode, verify, apply."""
    ledger = session.ledger
    message = open_frame(frame, ledger.game_id, session.links)
    entry = Entry.decode(message.data["entry"])
    body = entry.body
    signed = signed_message(ledger.game_id, entry.body_bytes)
    crypto_sign_open(entry.sigs[0][1] + signed, session.keys[body["seat"]])
    ledger.game.apply(ledger.state, body["seat"], parse_action(body["action"]))


def timed(step: Callable[[], object], before: Callable[[], None]) -> int:
    before()
    start = time.perf_counter_ns()
    step()
    return time.perf_counter_ns() - start


def measure(players: int, moves_wanted: int, evict_mb: float) -> dict[str, tuple[float, float]]:
    """Each figure of the module docstring: (warm, cold) medians in microseconds."""
    evict = Evictor(evict_mb)
    figures: dict[str, dict[str, list[int]]] = {}

    def record(name: str, cold: bool, ns: int) -> None:
        figures.setdefault(name, {"warm": [], "cold": []})["cold" if cold else "warm"].append(ns)

    rng = random.Random(1)
    for cold in (False, True):
        before = evict if cold else (lambda: None)
        sessions = make_table(players)
        net = MemoryNet(sessions)
        policies = {s: random_policy(random.Random(rng.random())) for s in sessions}
        moves = 0
        while moves < moves_wanted:
            net.pump()
            movers = [s for s in sessions.values() if s.my_turn()]
            if not movers:  # the game ended: start another
                sessions = make_table(players)
                net = MemoryNet(sessions)
                continue
            mover = movers[0]
            action = policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat)
            ns = timed(partial(mover.submit, action, net.now, advance=False), before)
            record(MOVER, cold, ns)
            mover.advance(net.now)
            moves += 1
            net.collect()
            frames = list(net.queue)
            net.queue.clear()
            for _, target, frame in frames:
                session = sessions[target]
                ledger = session.ledger
                if open_frame(frame, ledger.game_id, session.links).kind != "entry":
                    session.receive(frame, net.now)  # the mover's reveal (tables of two)
                    continue

                record(BARE, cold, timed(partial(bare, session, frame), before))
                entry = Entry.decode(open_frame(frame, ledger.game_id, session.links).data["entry"])
                signed = entry.sigs[0][1] + signed_message(ledger.game_id, entry.body_bytes)
                key = session.keys[entry.body["seat"]]
                record(VERIFY, cold, timed(partial(crypto_sign_open, signed, key), before))
                signing._KNOWN_GOOD.clear()  # the real receive must verify, not remember
                ns = timed(partial(session.receive, frame, net.now), before)
                record(WHOLE, cold, ns)
            sign = partial(mover.secrets.key.sign, b"x" * 150)
            record(SIGN, cold, timed(sign, before))
            net.pump()
    return {
        name: (statistics.median(runs["warm"]) / 1000, statistics.median(runs["cold"]) / 1000)
        for name, runs in figures.items()
    }


MOVER = "mover, before its first frame leaves"
BARE = "receiver, bare minimum"
VERIFY = "Ed25519 verify"
WHOLE = "receiver, whole receive"
SIGN = "Ed25519 sign"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--evict-mb", type=float, default=4.0)
    args = parser.parse_args()
    figures = measure(args.players, args.moves, args.evict_mb)
    print(f"{args.players} players, {args.moves} moves, evicting {args.evict_mb:g} MB for cold")
    print(f"{'':40s} {'warm':>8s} {'cold':>8s}  (median, us)")
    for name, (warm, cold) in figures.items():
        print(f"{name:40s} {warm:8.0f} {cold:8.0f}")


if __name__ == "__main__":
    main()
