#!/usr/bin/env python3
"""Latency of live play: 2, 4 and 6 bot peers, each its own process on 127.0.0.1.

Prints, per table size:
  * move: time from a move being submitted by its author to it being applied at
    every peer (median, p99);
  * chance step: time from the entry that makes a chance step pending being applied
    at every peer, to the chance outcome being applied at every peer: the cost of
    the one reveal round (median, p99);
  * game: wall time of a whole bot game, from the genesis being complete to the
    result applied at every peer;
  * a secret simultaneous choice (Vorsicht Lehrer!'s teacher card, every seat
    choosing at once): from the last seat's commit being submitted to the
    revealed choices applied at every peer (two message rounds: the commits, then
    the reveals), next to a move in the same games;
  * a reaction window that every asked seat passes (``--game toy-shields``, the
    test game of tests/reactions, registered in each peer process by a shim: no
    registered game has reaction windows yet): from the attack applied at every
    peer to the last pass applied at every peer, per asked seat, next to a move;
  * a blind pick with its transfer (``--game toy-steal``, tests/picks, shimmed
    likewise): from the steal applied at every peer to the victim's give applied
    at every peer (its hand shuffle, the pick's chance step and the forced give);
  * ready for the first move (a game with hidden hands): from the genesis to the
    set-up deal applied at every peer (the first player's roll, every seat's
    proved shuffle, every hand dealt);
  * the baseline, measured in the same run with as many peers: a *durable signed
    mesh* (:func:`run_mesh`), the least a move can cost with p2ptable's
    guarantees and none of its code: the mover signs a 150-byte record with
    Ed25519, appends it to a log file, fdatasyncs and sends it to every other
    peer over ZeroMQ; every peer verifies the signature and appends the record to
    its own log; the next peer in turn moves when it has it (after the same think
    time).  Every figure is printed next to it as a ratio.  The mesh's rounds run
    in parts, before each game and after the last, and its movers' syncs are
    printed too (the disk's part, which both pay): the disk's speed drifts within
    minutes, and a slow disk makes the ratio small;
  * for a game with hidden hands (``--game vorsicht-lehrer``), the sealed deck:
    the shuffle phase (every seat's proved shuffle, each verified by every peer,
    from the entry before the first shuffle to the last shuffle applied at every
    peer), the set-up deal (every hand at once, one ``open`` entry: every seat's
    proved decryption shares) and a refill (one card).

Bots either move back to back (think 0: six processes keep both cores busy, so
this measures a saturated machine) or after a short think time, which is what a
person at the table meets: each move arrives at an idle machine.

Timestamps come from each peer's ``--stats`` file (CLOCK_MONOTONIC, which all
processes on one Linux machine share).  The speed check (a fixed pure-Python loop)
is printed before and after the run.  ``--profile-peers DIR`` runs every live peer
under cProfile and keeps its stats there (for where a live peer's time goes: the
figures of such a run are slower than without it).
Usage: scripts/bench_latency.py [--games N] [--mesh-rounds N] [--profile-peers DIR]
       [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
ROOT = Path(__file__).resolve().parents[1]
TEST_GAMES = {
    "toy-shields": "tests.reactions.shield_game",
    "toy-steal": "tests.picks.steal_game",
    "toy-pass": "tests.sealed.toy_game",  # face-up draws from a sealed deck, gives
}
# A peer process that also knows a test game (benchmarks only; never the product).
SHIM = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv.pop(1))
module = __import__(sys.argv.pop(1), fromlist=["GAME"])
from p2ptable import games
from p2ptable.games.package import GamePackage
games._BY_NAME[module.GAME.name] = GamePackage(module.GAME, {}, Path(module.__file__))
sys.argv[0] = "p2ptable"
from p2ptable.cli import main
main()
"""


def speed_check() -> float:
    """Seconds for a fixed pure-Python loop (best of 5).  The reference machine is a
    shared virtual one whose speed changes from day to day; this says how fast it
    was when the figures below were taken, so runs of different days can be told
    apart."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.perf_counter() - start)
    return best


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the baseline: a durable signed mesh ---------------------------------------------


def mesh_seed(seat: int) -> bytes:
    return bytes([seat + 1]) * 32  # every peer of the mesh knows every key


def mesh_peer(seat: int, ports: list[int], rounds: int, think: float, folder: Path) -> None:
    """One process of the mesh: moves when its turn comes (round % peers), checks and
    appends every other move; prints its times as JSON when every round is done."""
    import zmq
    from nacl.bindings import crypto_sign, crypto_sign_open, crypto_sign_seed_keypair

    peers = len(ports)
    publics = [crypto_sign_seed_keypair(mesh_seed(s))[0] for s in range(peers)]
    secret = crypto_sign_seed_keypair(mesh_seed(seat))[1]
    ctx = zmq.Context()
    inbox = ctx.socket(zmq.ROUTER)
    inbox.setsockopt(zmq.LINGER, 0)
    inbox.bind(f"tcp://127.0.0.1:{ports[seat]}")
    links = []
    for other, port in enumerate(ports):
        if other != seat:
            link = ctx.socket(zmq.DEALER)
            link.setsockopt(zmq.LINGER, 0)
            link.connect(f"tcp://127.0.0.1:{port}")
            links.append(link)
    log = os.open(folder / f"mesh-{seat}.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND)
    moved: dict[int, float] = {}
    done: dict[int, float] = {}
    syncs: list[float] = []  # how long the disk kept the mover waiting
    time.sleep(0.3)  # every connection up before the first move (a DEALER queues until then)
    for r in range(rounds):
        mover = r % peers
        if mover == seat:
            time.sleep(think)
            start = time.monotonic()
            # An action entry's size: index, previous hash, seat, action text.
            body = r.to_bytes(4, "big") + os.urandom(32) + bytes([seat]) + b"play 3 " * 16
            record = crypto_sign(body, secret)  # signature || body
            os.write(log, len(record).to_bytes(4, "big") + record)
            synced = time.monotonic()
            os.fdatasync(log)  # on disk before it leaves
            syncs.append(time.monotonic() - synced)
            for link in links:
                link.send(record)
            moved[r] = start
            done[r] = time.monotonic()
        else:  # the next move expected is this round's
            while r not in done:
                record = inbox.recv_multipart()[1]
                got = int.from_bytes(record[64:68], "big")
                crypto_sign_open(record, publics[got % peers])  # raises if forged
                os.write(log, len(record).to_bytes(4, "big") + record)
                done[got] = time.monotonic()
    os.close(log)
    print(json.dumps({"moved": moved, "done": done, "syncs": syncs}))
    time.sleep(0.5)  # the last move reaches everyone before the sockets close
    ctx.destroy(linger=0)


def run_mesh(
    seats: int, rounds: int, think: float, folder: Path
) -> tuple[list[float], list[float]]:
    """Per move of the mesh: from the mover starting to the last peer having it;
    and each of its movers' syncs (the disk's part of it)."""
    ports = [free_port() for _ in range(seats)]
    cmd = [sys.executable, __file__, "--mesh-peer", "{seat}", "--mesh-ports"]
    cmd += [",".join(map(str, ports)), "--mesh-rounds", str(rounds), "--think", str(think)]
    cmd += ["--mesh-dir", str(folder)]
    procs = [
        subprocess.Popen([a.replace("{seat}", str(s)) for a in cmd], stdout=subprocess.PIPE)
        for s in range(seats)
    ]
    try:
        times = [json.loads(proc.communicate(timeout=120 + rounds * think)[0]) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    out = []
    for r in range(seats, rounds):  # each peer's first move warms up: not counted
        start = times[r % seats]["moved"][str(r)]
        out.append(max(t["done"][str(r)] for t in times) - start)
    return out, [w for t in times for w in t["syncs"][1:]]


# --profile-peers DIR: every live peer runs under cProfile (slower: for where, not how fast).
PROFILE_DIR: Path | None = None


def run_game(seats: int, workdir: Path, game: str, delay: float) -> list[list[dict]]:
    port = free_port()
    procs = []
    common = ["--code", "BEN-CHM", "--bot", "random", "--bot-delay", str(delay), "--quiet"]
    try:
        for i, name in enumerate(NAMES[:seats]):
            replay = workdir / f"{name}.p2pt"
            stats = workdir / f"{name}.stats"
            for path in (replay, stats):
                path.unlink(missing_ok=True)
            if i == 0:
                args = ["host", game, "--seats", str(seats), "--port", str(port)]
                args += ["--advertise", "127.0.0.1"]
            else:
                args = ["join", f"127.0.0.1:{port}"]
            args += ["--name", name, "--replay", str(replay), "--stats", str(stats), *common]
            cmd = [sys.executable, "-m", "p2ptable", *args]
            if PROFILE_DIR is not None:  # each peer under cProfile, its stats at its exit
                out = PROFILE_DIR / f"peer-{seats}-{i}.prof"
                cmd = [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "p2ptable", *args]
            if game in TEST_GAMES:
                cmd = [sys.executable, "-c", SHIM, str(ROOT), TEST_GAMES[game], *args]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL))
            if i == 0:
                time.sleep(0.3)
        for proc in procs:
            if proc.wait(timeout=300) != 0:
                raise RuntimeError(f"a peer exited with {proc.returncode}")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    stats = [
        [json.loads(line) for line in (workdir / f"{n}.stats").read_text().splitlines()]
        for n in NAMES[:seats]
    ]
    return stats, actions_of(workdir / "Ana.p2pt")


def actions_of(replay: Path) -> dict[int, str]:
    """Each action entry's text, by index (to find reaction windows)."""
    sys.path.insert(0, str(ROOT))
    from p2ptable.replay.entries import Entry
    from p2ptable.replay.logfile import parse_frames

    entries = [Entry.decode(p) for p in parse_frames(replay.read_bytes()).payloads]
    return {i: e.body["action"] for i, e in enumerate(entries) if e.kind == "action"}


def blind_picks(actions: dict[int, str], complete: dict[int, float]) -> list[float]:
    """From each steal applied everywhere to the give that ends it applied everywhere."""
    out = []
    for i, text in sorted(actions.items()):
        if text.startswith("steal"):
            give = next(
                (j for j in sorted(actions) if j > i and actions[j].startswith("give")), None
            )
            if give is not None and i in complete and give in complete:
                out.append(complete[give] - complete[i])
    return out


def passed_windows(
    actions: dict[int, str], complete: dict[int, float], think: float
) -> list[float]:
    """Per asked seat: reaction windows every asked seat passed, from the attack
    applied everywhere to the last pass applied everywhere, less each asked bot's
    think time (which a move's figure does not count either)."""
    out = []
    for i in sorted(complete):
        # The event before a run of passes: an attack (toy-shields), a catch
        # after a roll or a Tattle or a Bully (Teacher's Pet).
        if actions.get(i) == "pass" or actions.get(i + 1) != "pass":
            continue
        last = i + 1
        while actions.get(last + 1) == "pass":
            last += 1
        if i in complete and last in complete:
            out.append((complete[last] - complete[i]) / (last - i) - think)
    return out


def sealed_steps(kinds: dict[int, str], complete: dict[int, float]) -> tuple[list, list, list]:
    """Shuffle phases (runs of shuffle entries), the set-up deal (the first open
    entry: every hand at once) and the other deals (open entries), in seconds."""
    phases, setup, deals = [], [], []
    for i, kind in sorted(kinds.items()):
        if kind == "open" and i in complete and i - 1 in complete:
            first = all(k != "open" for j, k in kinds.items() if j < i)
            (setup if first else deals).append(complete[i] - complete[i - 1])
        if kind == "shuffle" and kinds.get(i - 1) != "shuffle":
            end = i
            while kinds.get(end + 1) == "shuffle":
                end += 1
            if i - 1 in complete and end in complete:
                phases.append(complete[end] - complete[i - 1])
    return phases, setup, deals


def measure(run: tuple[list[list[dict]], dict[int, str]], think: float = 0.0) -> tuple:
    per_peer, actions = run
    applied: dict[int, list[float]] = {}
    kinds: dict[int, str] = {}
    submitted: dict[int, list[float]] = {}  # a move's one, or each asked seat's commit
    for rows in per_peer:
        for row in rows:
            if "submitted" in row:
                submitted.setdefault(row["i"], []).append(row["submitted"])
            else:
                applied.setdefault(row["i"], []).append(row["applied"])
                kinds[row["i"]] = row["kind"]
    n = len(per_peer)
    complete = {i: max(ts) for i, ts in applied.items() if len(ts) == n}
    moves = [
        complete[i] - ts[0]
        for i, ts in submitted.items()
        if i in complete and kinds.get(i) == "action"
    ]
    together = [
        complete[i + 1] - max(ts)
        for i, ts in submitted.items()
        if kinds.get(i) == "commits" and i + 1 in complete
    ]
    chance = [
        complete[i] - complete[i - 1]
        for i, kind in kinds.items()
        if kind == "chance" and i in complete and i - 1 in complete
    ]
    start = min(min(ts) for ts in applied.values())
    wall = max(complete.values()) - start
    windows = passed_windows(actions, complete, think)
    picks = blind_picks(actions, complete)
    # Ready for the first move: from the genesis to the set-up deal applied
    # everywhere (the first player's roll, shuffles, every hand dealt).
    opens = [i for i, kind in sorted(kinds.items()) if kind == "open" and i in complete]
    ready = [complete[opens[0]] - start] if opens else []
    return moves, chance, wall, (*sealed_steps(kinds, complete), together, windows, picks, ready)


def ms(values: list[float], q: float) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    if q == 0.5:
        return f"{statistics.median(ordered) * 1000:.2f}"
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per table size")
    parser.add_argument("--seats", default="2,4,6")
    parser.add_argument("--game", default="pet-quartet")
    parser.add_argument(
        "--think",
        default="0.02,0",
        help="bot think times in seconds to run (0: moves back to back, CPU saturated)",
    )
    parser.add_argument(
        "--mesh-rounds", type=int, default=120, help="moves of the baseline mesh per size"
    )
    parser.add_argument(
        "--profile-peers",
        default=None,
        help="write a cProfile of every live peer process into this folder (peer-SEATS-I.prof)",
    )
    parser.add_argument(
        "--dir",
        default=None,
        help="where the replays and the mesh's logs go (default: the temporary folder);"
        " on a tmpfs (/dev/shm) syncs cost nothing, which leaves the code's share alone",
    )
    parser.add_argument("--mesh-peer", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--mesh-ports", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--mesh-dir", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile_peers:
        global PROFILE_DIR
        PROFILE_DIR = Path(args.profile_peers).resolve()
        PROFILE_DIR.mkdir(parents=True, exist_ok=True)
    if args.mesh_peer is not None:
        ports = [int(p) for p in args.mesh_ports.split(",")]
        mesh_peer(args.mesh_peer, ports, args.mesh_rounds, float(args.think), Path(args.mesh_dir))
        return
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, ", end="")
    print(f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}")
    print(f"speed check: a 10^6-step Python loop takes {speed_check() * 1000:.0f} ms here now")
    print(f"{'peers':>5} {'move p50':>9} {'move p99':>9} {'chance p50':>11} {'chance p99':>11}"
          f" {'game wall':>10} {'mesh p50':>9} {'mesh p99':>9}  (ms; game in s)")  # fmt: skip
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for think in (float(t) for t in args.think.split(",")):
            print(f"-- bots think {think * 1000:.0f} ms before each move")
            for seats in (int(s) for s in args.seats.split(",")):
                moves: list[float] = []
                chance: list[float] = []
                walls: list[float] = []
                phases: list[float] = []
                setups: list[float] = []
                deals: list[float] = []
                together: list[float] = []
                windows: list[float] = []
                picks: list[float] = []
                ready: list[float] = []
                # The mesh's rounds in parts, one before each game and one after the
                # last: the disk's speed drifts within minutes (its syncs took 0.06
                # to 1.4 ms in one evening), and both should meet the same disk.
                mesh: list[float] = []
                disk: list[float] = []
                parts = args.games + 1
                for game in range(parts):
                    rounds = args.mesh_rounds * (game + 1) // parts
                    rounds -= args.mesh_rounds * game // parts
                    got, waited = run_mesh(seats, rounds + seats, think, Path(tmp))
                    mesh += got
                    disk += waited
                    if game == args.games:
                        break
                    run = run_game(seats, Path(tmp), args.game, think)
                    m, c, w, (p, u, d, t, r, k, y) = measure(run, think)
                    ready += y
                    windows += r
                    picks += k
                    moves += m
                    chance += c
                    walls.append(w)
                    phases += p
                    setups += u
                    deals += d
                    together += t
                print(
                    f"{seats:>5} {ms(moves, 0.5):>9} {ms(moves, 0.99):>9} {ms(chance, 0.5):>11}"
                    f" {ms(chance, 0.99):>11} {statistics.median(walls):>10.2f}"
                    f" {ms(mesh, 0.5):>9} {ms(mesh, 0.99):>9}"
                    f"   ({len(moves)} moves, {len(chance)} chance steps, {args.games} games,"
                    f" {len(mesh)} mesh moves)"
                )
                base = statistics.median(mesh)
                line = f"{'':>5} against the durable signed mesh's p50 ({base * 1000:.2f} ms):"
                if moves:
                    line += f" move p50 {statistics.median(moves) / base:.2f}x (target <= 1.5x)"
                    p99 = float(ms(moves, 0.99)) / float(ms(mesh, 0.99))
                    line += f", move p99 {p99:.2f}x the mesh's p99"
                if chance:
                    line += f", chance p50 {statistics.median(chance) / base:.2f}x"
                if chance and moves:
                    ratio = statistics.median(chance) / statistics.median(moves)
                    line += f" ({ratio:.2f}x a move: target <= 1x)"
                print(line)
                if disk and moves:  # the disk's part, which both pay and which drifts
                    beyond = statistics.median(moves) - base
                    print(
                        f"{'':>5} the disk: the mesh's syncs p50 {ms(disk, 0.5)} p90"
                        f" {ms(disk, 0.9)} ms; a move p50 costs {beyond * 1000:.2f} ms more"
                        " than the mesh's"
                    )
                if picks:
                    print(
                        f"{'':>5} blind pick (steal applied -> give applied everywhere)"
                        f" p50 {ms(picks, 0.5)} p99 {ms(picks, 0.99)} ms ({len(picks)} picks):"
                        f" {statistics.median(picks) / statistics.median(moves):.2f}x the move p50"
                    )
                if windows:
                    ratio = statistics.median(windows) / statistics.median(moves)
                    print(
                        f"{'':>5} passed reaction window, per asked seat (less its think time)"
                        f" p50 {ms(windows, 0.5)} p99 {ms(windows, 0.99)} ms"
                        f" ({len(windows)} windows): {ratio:.2f}x the move p50"
                        " (target <= 1.5x)"
                    )
                if together:
                    ratio = statistics.median(together) / statistics.median(moves)
                    print(
                        f"{'':>5} secret choice (last commit -> choices applied everywhere)"
                        f" p50 {ms(together, 0.5)} p99 {ms(together, 0.99)} ms"
                        f" ({len(together)} choices): {ratio:.2f}x the move p50 (target <= 2.5x)"
                    )
                if ready:
                    print(
                        f"{'':>5} ready for the first move (genesis -> set-up deal applied"
                        f" everywhere) p50 {ms(ready, 0.5)} ms, max {max(ready) * 1000:.0f} ms"
                        + (" (Teacher's Pet target at 6 seats: < 2500 ms)" if seats == 6 else "")
                    )
                if phases:
                    print(
                        f"{'':>5} sealed deck: shuffle phase p50 {ms(phases, 0.5)} ms"
                        f" (max {max(phases) * 1000:.0f}, {len(phases)} phases), set-up deal p50"
                        f" {ms(setups, 0.5)} ms, one refill p50 {ms(deals, 0.5)}"
                        f" p99 {ms(deals, 0.99)} ms ({len(deals)} refills)"
                    )
    print(f"speed check after the run: {speed_check() * 1000:.0f} ms")


if __name__ == "__main__":
    main()
