#!/usr/bin/env python3
"""Where a move's CPU goes: a profile of the sans-IO work of every peer on a move.

Plays bot games between in-memory sessions (``net/memory.py``: no sockets, no
disk, no other processes) and profiles, for each action entry, exactly the work
the live peers do on it: the mover's ``submit`` and ``advance`` (legal check,
signature, the entry to persist, one sealed frame per peer, its own ledger's
check), then each other peer's ``receive`` of the frame (authenticate, decode,
verify the signature, the ledger's checks, the rules).  Chance steps and
everything else are played unprofiled.

Prints the CPU of one move summed over all peers (profiled, so inflated by the
profiler's own cost: read the shares, not the total), split by layer:

  encoding  canonical msgpack, entry and frame bytes (crypto/encoding.py,
            net/wire.py, replay/entries.py, msgpack)
  signing   Ed25519 (crypto/signing.py, libsodium through PyNaCl)
  hashing   links and frame tags (crypto/links.py, hashlib)
  rules     engine/ and games/
  ledger    replay/ but entries.py: the ledger's checks, the position
  session   net/ but wire.py: rounds, freshness, bookkeeping
  other     the standard library and the rest

and the top functions by their own time.  What a live move costs besides (the
write and its fdatasync, the peer loop's wake-ups, ZeroMQ, five other processes
on two cores) is what ``scripts/bench_latency.py`` measures against its durable
signed mesh.

Usage: scripts/bench_profile.py [--players 6] [--moves 300] [--game pet-quartet]
       [--top 20]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.crypto import signing  # noqa: E402
from p2ptable.engine.api import normalize_options  # noqa: E402
from p2ptable.engine.playout import random_policy  # noqa: E402
from p2ptable.games import get_game  # noqa: E402
from p2ptable.net.memory import MemoryNet  # noqa: E402
from p2ptable.net.session import Session  # noqa: E402
from p2ptable.net.wire import open_frame  # noqa: E402
from p2ptable.replay import authoring  # noqa: E402
from p2ptable.replay.ledger import Ledger  # noqa: E402
from p2ptable.sealed.proofs import KNOWN_GOOD  # noqa: E402


def forget() -> None:
    """Every peer is a process of its own live: what one session checked or signed
    must not spare another its check (the stores are per process)."""
    signing._KNOWN_GOOD.clear()
    KNOWN_GOOD.clear()


LAYERS = (
    ("encoding", ("crypto/encoding.py", "net/wire.py", "replay/entries.py", "msgpack")),
    ("signing", ("crypto/signing.py", "nacl", "_sodium", "crypto_sign")),
    ("hashing", ("crypto/links.py", "hashlib", "_blake2", "_hashlib", "sha256", "blake2b")),
    ("rules", ("p2ptable/engine/", "p2ptable/games/")),
    ("ledger", ("p2ptable/replay/",)),
    ("session", ("p2ptable/net/",)),
)


def layer(where: tuple[str, int, str]) -> str:
    text = f"{where[0]} {where[2]}"
    for name, marks in LAYERS:
        if any(mark in text for mark in marks):
            return name
    return "other"


def table(game: str, players: int, seed: int) -> dict[int, Session]:
    seats = [authoring.SeatSecrets.from_seed(b"profile%d" % seed, i, 512) for i in range(players)]
    names = [f"P{i}" for i in range(players)]
    options = normalize_options(get_game(game), players, {})
    genesis = authoring.local_genesis(game, options, names, seats, 512, bytes(16))
    return {
        i: Session(Ledger(genesis, readers={i: seats[i].deck}), i, seats[i], 0.0)
        for i in range(players)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--game", default="pet-quartet")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    profile = cProfile.Profile()
    rng = random.Random(1)
    moves = games = 0
    sessions: dict[int, Session] = {}
    net = MemoryNet({})
    while moves < args.moves:
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:  # the game ended (or none began): start another
            games += 1
            sessions = table(args.game, args.players, games)
            net = MemoryNet(sessions)
            policies = {s: random_policy(random.Random(rng.random())) for s in sessions}
            continue
        mover = movers[0]
        action = policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat)
        forget()
        profile.enable()
        mover.submit(action, net.now, advance=False)
        mover.advance(net.now)
        profile.disable()
        moves += 1
        net.collect()
        frames = list(net.queue)
        net.queue.clear()
        for _, target, frame in frames:
            forget()
            session = sessions[target]
            is_entry = open_frame(frame, session.ledger.game_id, session.links).kind == "entry"
            if is_entry:
                profile.enable()
            session.receive(frame, net.now)
            if is_entry:
                profile.disable()
        forget()
        net.pump()
    stats = pstats.Stats(profile)
    raw = stats.stats  # type: ignore[attr-defined]  # {where: (cc, nc, tottime, cumtime, callers)}
    total = sum(row[2] for row in raw.values())
    by_layer: dict[str, float] = {}
    for where, row in raw.items():
        by_layer[layer(where)] = by_layer.get(layer(where), 0.0) + row[2]
    print(
        f"{args.game}, {args.players} peers, {moves} moves in {games} games: the CPU of one move"
        f" over all peers, profiled: {total / moves * 1e6:.0f} us"
    )
    for name, seconds in sorted(by_layer.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<9} {seconds / moves * 1e6:7.0f} us  {seconds / total:6.1%}")
    print(f"top {args.top} functions by own time (us per move, share, layer):")
    rows = sorted(raw.items(), key=lambda kv: -kv[1][2])[: args.top]
    for where, row in rows:
        path = where[0].split("site-packages/")[-1].split("p2ptable/")[-1]
        name = f"{path}:{where[1]} {where[2]}" if where[0] != "~" else where[2]
        print(f"  {row[2] / moves * 1e6:7.1f} us {row[2] / total:6.1%}  {layer(where):<9} {name}")


if __name__ == "__main__":
    main()
