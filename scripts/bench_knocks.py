#!/usr/bin/env python3
"""What a knock costs the host, and so how many it can afford (net/knocks.py).

In one process, with the host's lobby as the peer runs it (sans-IO, no
sockets), it measures the CPU time (``time.process_time``) of

  * an answered knock: the frame opened and its signature checked, the host's
    side of SPAKE2, the confirmation key and the signed challenge;
  * a refused knock: opened and checked, then refused by the knock limits;
  * a junk frame: refused by the decoder;
  * a seated joiner's ``here`` checked, bound to its handshake (net/lobby_binding.py);
  * the joiner's side of SPAKE2 (what a stranger pays for one guess).

and prints them, with the share of one core that ``KNOCKS_PER_SECOND`` answered
knocks take.  Usage: scripts/bench_knocks.py [--knocks N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.net import lobby  # noqa: E402
from p2ptable.net.join_code import CodeExchange  # noqa: E402
from p2ptable.net.knocks import KNOCKS_PER_SECOND  # noqa: E402
from p2ptable.replay import authoring  # noqa: E402

OPTIONS = {"scoring": "basic", "variant": "standard"}


def _host(seats: int = 3) -> lobby.HostLobby:
    me = authoring.SeatSecrets.from_seed(b"bench", 0, 8)
    return lobby.HostLobby("pet-quartet", OPTIONS, seats, "7KQ-M2X", me, "Ana", "tcp://10.0.0.1:1")


def _per(n: int, run) -> float:  # noqa: ANN001 - a callable of the index
    start = time.process_time()
    for i in range(n):
        run(i)
    return (time.process_time() - start) / n


def measure(knocks: int) -> dict[str, float]:
    keys = [authoring.SeatSecrets.from_seed(b"bench-%d" % i, 0, 2) for i in range(knocks)]
    messages = [CodeExchange(f"GUESS{i}", host=False).message for i in range(knocks)]
    frames = [
        lobby.seal_lobby("knock", {"pake": m, "endpoint": "tcp://10.0.0.66:5000"}, k)
        for m, k in zip(messages, keys, strict=True)
    ]
    host = _host()
    host.limiter.per_address, host.limiter.rate = 10**9, 1e12  # answer every one

    def answered(i: int) -> None:
        host.receive(frames[i], "10.0.0.66", i * 1e-3)
        host.take_outgoing()

    answer = _per(knocks, answered)
    host.limiter.per_address = 1  # now every one is refused: the address had its share

    def refused(i: int) -> None:
        host.receive(frames[i], "10.0.0.66", 1.0 + i * 1e-3)
        host.take_outgoing()

    refuse = _per(knocks, refused)
    junk = _per(knocks, lambda i: host.receive(b"\xc1" * (i % 64), "10.0.0.66", 200.0))
    # A seated joiner's `here`, checked against its handshake.
    seated = _host(seats=3)
    ben = lobby.JoinerLobby("7KQ-M2X", keys[0], "Ben", "tcp://10.0.0.2:4000")
    for _ in range(4):
        for frame in ben.take_outgoing():
            seated.receive(frame, "10.0.0.2", 0.0)
        for _, frame in seated.take_outgoing():
            ben.receive(frame)
    heres = []
    for i in range(knocks):
        ben._next_here = 0.0
        ben.tick(float(i))
        [here_frame] = ben.take_outgoing()
        heres.append(here_frame)
    here = _per(knocks, lambda i: seated.receive(heres[i], "10.0.0.2", 1.0))
    guess = _per(knocks, lambda i: CodeExchange("GUESS1", host=False).message)
    return {
        "answered_knock_ms": answer * 1000,
        "refused_knock_ms": refuse * 1000,
        "junk_frame_ms": junk * 1000,
        "bound_here_ms": here * 1000,
        "joiner_spake2_ms": guess * 1000,
        "core_share_at_limit": answer * KNOCKS_PER_SECOND,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--knocks", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.knocks)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"answered knock (host's SPAKE2, challenge): {figures['answered_knock_ms']:.2f} ms CPU")
    print(f"refused knock (opened, checked, refused):  {figures['refused_knock_ms']:.3f} ms CPU")
    print(f"junk frame:                                 {figures['junk_frame_ms']:.3f} ms CPU")
    print(f"a seated joiner's `here` checked:         {figures['bound_here_ms']:.3f} ms CPU")
    print(f"a stranger's guess (joiner's SPAKE2):       {figures['joiner_spake2_ms']:.2f} ms CPU")
    share = figures["core_share_at_limit"]
    print(f"{KNOCKS_PER_SECOND:.0f} answered knocks a second take {share:.0%} of one core")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
