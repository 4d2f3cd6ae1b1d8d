#!/usr/bin/env python3
"""The machine's floor for a move: raw ZeroMQ, no protocol, no crypto.

One process sends a small message to N-1 others (DEALER -> ROUTER, as p2ptable's
peers do); each spins for WORK microseconds (standing in for checking a move),
then acknowledges.  Prints the median and p99 of "send to last ack" and an
estimate of the one-way time to the last peer (half of it).  With WORK set to what
a p2ptable peer spends on a move (about 300 us here: one Ed25519 verification,
decoding, the rules, the disk write), this is the best a protocol written this way
can do on the machine.

Usage: scripts/bench_floor.py [--peers 6] [--work-us 0,300] [--rounds 300]
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


def run_peer(index: int, ports: list[int], work: float, rounds: int) -> None:
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
        times = []
        for k in range(rounds):
            start = time.perf_counter()
            for d in dealers.values():
                d.send(b"G" + k.to_bytes(4, "big"))  # one frame, as peers send
            acks = 0
            while acks < len(dealers):
                if poller.poll(2000):
                    router.recv_multipart()
                    acks += 1
                else:
                    raise RuntimeError("a peer did not answer")
            times.append(time.perf_counter() - start)
            time.sleep(0.02)  # an idle machine between moves, as at a real table
        times.sort()
        p50, p99 = statistics.median(times), times[int(0.99 * len(times))]
        print(
            f"{len(ports):>5} {work * 1e6:>8.0f} {p50 * 1000:>9.2f} {p99 * 1000:>9.2f}"
            f" {p50 * 500:>14.2f}"
        )
        for d in dealers.values():
            d.send(b"Q")
    else:
        while True:
            if not poller.poll(10_000):
                break
            _, data = router.recv_multipart()
            channel, payload = data[:1], data[1:]
            if channel == b"Q":
                break
            deadline = time.perf_counter() + work
            while time.perf_counter() < deadline:
                pass
            dealers[0].send(b"A" + payload)
    ctx.destroy(linger=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", default="6")
    parser.add_argument("--work-us", default="0,300")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--role", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ports", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role is not None:
        ports = [int(p) for p in args.ports.split(",")]
        run_peer(args.role, ports, float(args.work_us) / 1e6, args.rounds)
        return
    print("peers  work us  rtt p50  rtt p99  one-way p50 ~  (ms)")
    for peers in (int(p) for p in args.peers.split(",")):
        for work in args.work_us.split(","):
            ports = free_ports(peers)
            common = ["--ports", ",".join(map(str, ports)), "--work-us", work]
            common += ["--rounds", str(args.rounds)]
            procs = [
                subprocess.Popen([sys.executable, __file__, "--role", str(i), *common])
                for i in range(1, peers)
            ]
            try:
                run_peer(0, ports, float(work) / 1e6, args.rounds)
            finally:
                for proc in procs:
                    try:
                        proc.wait(timeout=15)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()


if __name__ == "__main__":
    main()
