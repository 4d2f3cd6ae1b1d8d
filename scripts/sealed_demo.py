#!/usr/bin/env python3
"""Deal and reveal sealed hands between real peer processes on 127.0.0.1.

Usage: scripts/sealed_demo.py [--seats 4] [--cards 52] [--hand 5] [--reveals 1]

Starts one process per seat (this script with ``--child``), gives each its seat,
every seat's port and a fresh game id, and lets them play the sealed-deck table of
``p2ptable.sealed.table_protocol`` over ``p2ptable.net.sealed_mesh``: a full mesh
of ZeroMQ sockets, every frame signed with the seat's own Ed25519 key.  The keys
are trusted on first use (each seat announces its key in its first signed
frame): fine for a demo on one machine, not for play, where the game binds every
seat's key in its signed genesis entry.

The seats exchange keys with proofs, each shuffles the deck in turn with a proof
that every other seat verifies, deal ``--hand`` cards to every seat, then take
turns revealing a card of their choice ``--reveals`` times each, with proof.  Each
process prints only its own hand and the cards revealed; at the end every seat
publishes its secret and checks the others' against their keys.  This launcher
collects what the processes printed and checks that the hands are disjoint cards
of the deck and that every seat saw the same reveals, each from the revealer's
hand.  It prints ``ok: ...`` and exits 0, or says what went wrong and exits 1.
Every child is ended: bounded waits, killed at the deadline.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.net.sealed_mesh import run_seat  # noqa: E402
from p2ptable.sealed.table_events import Cheated, Done, HandDealt, Phase, Revealed  # noqa: E402
from p2ptable.sealed.table_protocol import SealedSeat  # noqa: E402

HOLDS = re.compile(r"^seat (\d+) holds: ([\d, ]*)$", re.M)
SEES = re.compile(r"^seat (\d+): seat (\d+) revealed (\d+)$", re.M)


def turns(seats: int, reveals: int) -> tuple[int, ...]:
    return tuple(range(seats)) * reveals


def child(args: argparse.Namespace) -> int:
    ports = [int(p) for p in args.ports.split(",")]
    seat, seats = args.seat, len(ports)
    machine = SealedSeat(
        bytes.fromhex(args.game_id), seat, seats, range(args.cards), args.hand, os.urandom,
        turns=turns(seats, args.reveals),
    )  # fmt: skip

    revealed: list[tuple[int, int]] = []

    def show(stamp: float, event: object, cost: float) -> None:
        if isinstance(event, HandDealt):
            print(f"seat {seat} holds: {', '.join(map(str, event.cards))}", flush=True)
        elif isinstance(event, Revealed):
            revealed.append((event.seat, event.card))
            print(f"seat {seat}: seat {event.seat} revealed {event.card}", flush=True)
        elif isinstance(event, Cheated):
            who = "a seat" if event.seat is None else f"seat {event.seat}"
            print(f"seat {seat} stopped: {who} cheated: {event.reason}", flush=True)

    run = run_seat(
        machine, ports, choose=lambda m: secrets.randbelow(len(m.hand)),
        timeout=args.timeout, on_event=show,
    )  # fmt: skip
    if run.phase is Phase.DONE:  # the secrets are public now: audit the reveals
        done = next(event for _, event, _ in run.timeline if isinstance(event, Done))
        agree = all(card in done.hands[r] for r, card in revealed)
        print(
            f"seat {seat} done: every secret matches its seat's key; the hands as dealt"
            f" {'hold' if agree else 'DO NOT hold'} every revealed card",
            flush=True,
        )
        return 0 if agree else 1
    if run.phase is not Phase.ERROR:
        print(f"seat {seat} timed out waiting for seats {list(run.waiting_for)}", flush=True)
    return 1


def free_ports(count: int) -> list[int]:
    socks = [socket.socket() for _ in range(count)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def start_seats(args: argparse.Namespace, workdir: Path, started: list, script: str) -> None:
    """One ``script --child`` process per seat, appended to ``started`` as it starts
    (so the caller's ``finally`` ends every one), with its output in a file."""
    ports = ",".join(map(str, free_ports(args.seats)))
    game_id = os.urandom(32).hex()
    common = ["--cards", str(args.cards), "--hand", str(args.hand), "--reveals", str(args.reveals)]
    common += ["--timeout", str(args.timeout), "--ports", ports, "--game-id", game_id]
    for seat in range(args.seats):
        out = workdir / f"seat{seat}.out"
        with open(out, "wb") as sink:
            cmd = [sys.executable, script, "--child", "--seat", str(seat), *common]
            started.append((subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT), out))


def wait_all(started: list, timeout: float) -> list[int | None]:
    """Wait for every child until the deadline; kill (by pid) whatever is left."""
    end = time.monotonic() + timeout
    codes: list[int | None] = []
    for proc, _ in started:
        try:
            codes.append(proc.wait(timeout=max(0.1, end - time.monotonic())))
        except subprocess.TimeoutExpired:
            codes.append(None)
    return codes


def end_all(started: list) -> None:
    for proc, _ in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def check(args: argparse.Namespace, outputs: list[str]) -> list[str]:
    """What is wrong with the seats' outputs (nothing: an empty list)."""
    problems, hands = [], {}
    for text in outputs:
        for seat, cards in HOLDS.findall(text):
            hands[int(seat)] = [int(c) for c in cards.split(", ") if c]
    if sorted(hands) != list(range(args.seats)):
        return [f"hands printed by seats {sorted(hands)}, expected all {args.seats}"]
    dealt = [c for hand in hands.values() for c in hand]
    if any(len(hand) != args.hand for hand in hands.values()):
        problems.append(f"a hand is not {args.hand} cards: {hands}")
    if len(set(dealt)) != len(dealt) or not set(dealt) <= set(range(args.cards)):
        problems.append(f"hands are not disjoint cards of the deck: {hands}")
    seen = [[(int(r), int(c)) for _, r, c in SEES.findall(text)] for text in outputs]
    if any(s != seen[0] for s in seen) or len(seen[0]) != args.seats * args.reveals:
        problems.append(f"the seats saw different reveals: {seen}")
    if any(card not in hands[r] for r, card in seen[0]):
        problems.append(f"a revealed card was not in its seat's hand: {seen[0]}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--cards", type=int, default=52)
    parser.add_argument("--hand", type=int, default=5)
    parser.add_argument("--reveals", type=int, default=1, help="cards each seat reveals")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before giving up")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seat", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--game-id", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    if not (2 <= args.seats and 1 <= args.hand and args.seats * args.hand <= args.cards):
        parser.error("need 2 seats or more and enough cards for every hand")
    if args.reveals > args.hand:
        parser.error("a seat cannot reveal more cards than it holds")
    with tempfile.TemporaryDirectory() as tmp:
        started: list = []
        try:
            start_seats(args, Path(tmp), started, __file__)
            codes = wait_all(started, args.timeout + 10)
        finally:
            end_all(started)
        outputs = [out.read_text(errors="replace") for _, out in started]
    for text in outputs:
        print(text, end="")
    problems = check(args, outputs)
    if any(code != 0 for code in codes):
        problems.insert(0, f"seat processes exited with {codes} (None: killed at the deadline)")
    if problems:
        print("FAILED: " + "; ".join(problems))
        return 1
    print(
        f"ok: {args.seats} seats each hold {args.hand} of {args.cards} cards, hands disjoint;"
        f" {args.seats * args.reveals} reveals seen alike by every seat"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
