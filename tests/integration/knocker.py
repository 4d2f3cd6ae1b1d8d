"""A stranger without the code, knocking at hosts from several loopback addresses.

    python -m tests.integration.knocker --port P [--port P2] --addresses 8 --seconds 15

From each address 127.0.0.2, 127.0.0.3, ... (all of 127.0.0.0/8 is loopback on
Linux) it sends every ``--every`` seconds, to every host, a knock with a guessed
code (a new SPAKE2 message each time, made ahead of time as an attacker would)
and a junk frame, and reads what comes back on an inbox of its own at that
address.  It stops by itself after ``--seconds`` (bounded in time and count) and
prints what it was answered as one JSON line: {"challenge": n, "denied": n,
"sent": n, "per_address": {address: challenges}}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter

import zmq

from p2ptable.net import lobby
from p2ptable.net.join_code import CodeExchange
from p2ptable.replay import authoring

GUESSES = 16  # distinct SPAKE2 messages per address, used in turn
MAX_SECONDS = 120.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, action="append", required=True)
    parser.add_argument("--addresses", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--every", type=float, default=0.01)
    parser.add_argument("--ready", default="", help="a file to create once knocking")
    args = parser.parse_args(argv)
    ctx = zmq.Context.instance()
    strangers = []
    for n in range(args.addresses):
        ip = f"127.0.0.{n + 2}"
        inbox = ctx.socket(zmq.DEALER)
        inbox.setsockopt(zmq.LINGER, 0)
        port = inbox.bind_to_random_port(f"tcp://{ip}")
        links = []
        for host in args.port:
            link = ctx.socket(zmq.DEALER)
            link.setsockopt(zmq.LINGER, 0)
            link.setsockopt(zmq.SNDHWM, 1000)
            link.connect(f"tcp://{ip}:0;127.0.0.1:{host}")  # from this address
            links.append(link)
        me = authoring.SeatSecrets.from_seed(b"knocker", n, 2)
        knocks = [
            lobby.seal_lobby(
                "knock",
                {
                    "pake": CodeExchange(f"GUESS{n}X{g}", host=False).message,
                    "endpoint": f"tcp://{ip}:{port}",
                },
                me,
            )
            for g in range(GUESSES)
        ]
        strangers.append((ip, inbox, links, knocks))
    answers: Counter[str] = Counter()
    per_address: Counter[str] = Counter()
    sent = 0
    end = time.monotonic() + min(args.seconds, MAX_SECONDS)
    if args.ready:
        open(args.ready, "w").close()  # noqa: SIM115 - an empty marker
    step = 0
    while time.monotonic() < end:
        for ip, inbox, links, knocks in strangers:
            for link in links:
                try:
                    link.send(b"L" + knocks[step % GUESSES], zmq.NOBLOCK)
                    link.send(b"L" + os.urandom(step % 200), zmq.NOBLOCK)
                    sent += 2
                except zmq.Again:
                    pass  # the host reads slower than we send: so be it
            for _ in range(100):
                try:
                    frame = inbox.recv(zmq.NOBLOCK)
                except zmq.Again:
                    break
                kind = lobby.open_lobby(frame[1:])[0]
                answers[kind] += 1
                if kind == "challenge":
                    per_address[ip] += 1
        step += 1
        time.sleep(args.every)
    for _, inbox, links, _ in strangers:
        inbox.close()
        for link in links:
            link.close()
    report = {**answers, "sent": sent, "per_address": per_address}
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
