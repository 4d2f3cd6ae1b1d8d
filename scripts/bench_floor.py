#!/usr/bin/env python3
"""The machine's floor for a move: raw ZeroMQ, no protocol, no crypto.

One process (the mover) spins for SEND-WORK microseconds (standing in for checking,
signing and writing its move), sends a small message to N-1 others (DEALER ->
ROUTER, as p2ptable's peers do), then spins for WORK itself (applying its own
move).  Each other process spins for WORK (standing in for checking and applying
the move) and acknowledges with the time it finished.  Prints, like
``bench_latency.py``'s "move", the median and p99 from the mover starting to the
move being done at every process (CLOCK_MONOTONIC, shared by all processes), and
the round trip to the last acknowledgement.

Spinning costs only CPU: real work also competes for the caches, so these are
floors.  Measured cold (caches evicted, as on a table of six processes sharing two
cores), a p2ptable mover spends about 400 us before its first frame leaves and a
receiver about 450 us on a move, Ed25519 verification about 150 us of it; run with
``--send-work-us 400 --work-us 450`` for the floor of that work done this way.

Usage: scripts/bench_floor.py [--peers 6] [--send-work-us 0] [--work-us 0,300]
       [--rounds 300]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time

import zmq


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def spin(seconds: float) -> None:
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        pass


def run_peer(index: int, ports: list[int], work: float, send_work: float, rounds: int) -> None:
    ctx = zmq.Context()
    router = ctx.socket(zmq.ROUTER)
    router.setsockopt(zmq.LINGER, 0)
    router.bind(f"tcp://127.0.0.1:{ports[index]}")
    dealers = {}
    for j, port in enumerate(ports):
        if j != index:
            d = ctx.socket(zmq.DEALER)
            d.setsockopt(zmq.LINGER, 0)
            d.connect(f"tcp://127.0.0.1:{port}")
            dealers[j] = d
    poller = zmq.Poller()
    poller.register(router, zmq.POLLIN)
    time.sleep(1.0)  # let every connection come up
    if index == 0:
        times, moves = [], []
        for k in range(rounds):
            start = time.monotonic()
            spin(send_work)
            for d in dealers.values():
                d.send(b"G" + k.to_bytes(4, "big"))  # one frame, as peers send
            spin(work)
            done = [time.monotonic()]
            while len(done) < len(ports):
                if poller.poll(2000):
                    _, data = router.recv_multipart()
                    done.append(float(data[1:].decode()))
                else:
                    raise RuntimeError("a peer did not answer")
            times.append(time.monotonic() - start)
            moves.append(max(done) - start)
            time.sleep(0.02)  # an idle machine between moves, as at a real table
        times.sort()
        moves.sort()
        print(
            f"{len(ports):>5} {send_work * 1e6:>9.0f} {work * 1e6:>8.0f}"
            f" {statistics.median(moves) * 1000:>9.2f} {moves[int(0.99 * len(moves))] * 1000:>9.2f}"
            f" {statistics.median(times) * 1000:>9.2f}"
        )
        for d in dealers.values():
            d.send(b"Q")
    else:
        while True:
            if not poller.poll(10_000):
                break
            _, data = router.recv_multipart()
            if data[:1] == b"Q":
                break
            spin(work)
            dealers[0].send(b"A" + repr(time.monotonic()).encode())
    ctx.destroy(linger=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", default="6")
    parser.add_argument("--work-us", default="0,300")
    parser.add_argument("--send-work-us", default="0")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--role", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ports", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role is not None:
        ports = [int(p) for p in args.ports.split(",")]
        run_peer(args.role, ports, float(args.work_us) / 1e6, 0.0, args.rounds)
        return
    print("peers  send-work  work us  move p50  move p99   rtt p50  (us of spin; times in ms)")
    runs = [
        (int(p), float(s) / 1e6, w)
        for p in args.peers.split(",")
        for s in args.send_work_us.split(",")
        for w in args.work_us.split(",")
    ]
    for peers, send_work, work in runs:
        ports = free_ports(peers)
        common = ["--ports", ",".join(map(str, ports)), "--work-us", work]
        common += ["--rounds", str(args.rounds)]
        procs = [
            subprocess.Popen([sys.executable, __file__, "--role", str(i), *common])
            for i in range(1, peers)
        ]
        try:
            run_peer(0, ports, float(work) / 1e6, send_work, args.rounds)
        finally:
            for proc in procs:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


if __name__ == "__main__":
    main()
