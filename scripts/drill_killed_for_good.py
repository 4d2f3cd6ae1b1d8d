#!/usr/bin/env python3
"""Fault drill "killed for good" (issue 27): at a ``host --keep-going`` table of
bot peers (separate processes on 127.0.0.1), one seat is ``kill -9``'d mid-game
and never resumed.  The game is complete when every other seat exits 0 and
their replays are byte-identical, valid, audited, and hold exactly one
departure, of the seat that was killed.

Each game draws from the seed: the game (Vorsicht Lehrer! or Teacher's Pet), the
number of seats (3 to 5), the seat killed (the host too) and the entry after
which it dies.  The abandonment clock is shortened for the drill
(``P2PTABLE_ABANDON_TIMEOUT``), as a player would wait 5 minutes.

Usage: scripts/drill_killed_for_good.py [--games N] [--seed S] [--keep DIR]
Exit status 0 when every game completed, 1 otherwise (each failure is printed
with its peers' output kept in DIR).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import verify_file

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli"]
GAMES = {"vorsicht-lehrer": ("--option", "track=100"), "teachers-pet": ()}
CODE = "DRL-KFG"
GAME_SECONDS = 240.0  # a game not over by then is a failure, and its peers are killed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def entries(path: Path) -> int:
    try:
        return len(parse_frames(path.read_bytes()).payloads)
    except (OSError, ValueError):
        return 0


def one_game(rng: random.Random, folder: Path) -> tuple[bool, str]:
    """One table with one seat killed for good: (complete, what happened)."""
    game = rng.choice(sorted(GAMES))
    seats = rng.randint(3, 5)
    names = NAMES[:seats]
    gone = rng.choice(names)
    at = rng.randint(2 * seats, 6 * seats)  # after the escrows and shuffles, mid-game
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1", P2PTABLE_ABANDON_TIMEOUT="3")
    bot = ("--bot", "random", "--bot-delay", "0.01", "--quiet")
    procs: dict[str, subprocess.Popen] = {}
    for n, name in enumerate(names):
        replay = folder / f"{name}.p2pt"
        if n == 0:
            args = ["host", game, "--seats", str(seats), "--port", str(port), "--advertise",
                    "127.0.0.1", "--no-announce", "--keep-going", *GAMES[game]]  # fmt: skip
        else:
            args = ["join", f"127.0.0.1:{port}"]
        args += ["--code", CODE, "--name", name, "--replay", str(replay), *bot]
        out = open(folder / f"{name}.out", "wb")  # noqa: SIM115 - the child holds it
        procs[name] = subprocess.Popen(
            [sys.executable, "-m", "p2ptable", *args], stdout=out, stderr=subprocess.STDOUT,
            env=env, start_new_session=True,
        )  # fmt: skip
        out.close()
    what = f"{game}, {seats} seats, {gone} killed after entry {at}"
    end = time.monotonic() + GAME_SECONDS
    try:
        while entries(folder / f"{gone}.p2pt") < at:
            if procs[gone].poll() is not None:
                return False, f"{what}: {gone} ended before the kill ({procs[gone].returncode})"
            if time.monotonic() > end:
                return False, f"{what}: never reached entry {at}"
            time.sleep(0.05)
        os.killpg(procs[gone].pid, signal.SIGKILL)
        procs.pop(gone).wait(timeout=10)
        for name, proc in procs.items():
            try:
                code = proc.wait(timeout=max(1.0, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                return False, f"{what}: {name} still running after {GAME_SECONDS:.0f} s"
            if code != 0:
                return False, f"{what}: {name} exited {code}"
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
    staying = [n for n in names if n != gone]
    blobs = {(folder / f"{n}.p2pt").read_bytes() for n in staying}
    if len(blobs) != 1:
        return False, f"{what}: the replays differ"
    kinds = [Entry.decode(p) for p in parse_frames(blobs.pop()).payloads]
    report = verify_file(folder / f"{staying[0]}.p2pt")
    if not (report.valid and report.audited and report.result is not None):
        return False, f"{what}: verify says {report.error}"
    seat_of = {seat["name"]: number for number, seat in enumerate(report.seats)}  # join order
    left = [e.body["of"] for e in kinds if e.kind == Kind.DEPARTURE]
    if left != [seat_of[gone]]:
        return False, f"{what}: departures {left}, not of {gone}'s seat {seat_of[gone]}"
    return True, f"{what}: complete, {len(kinds)} entries, valid and audited"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--keep", type=Path, default=None, help="keep failed games' files here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    done, started = 0, time.monotonic()
    for number in range(1, args.games + 1):
        folder = Path(tempfile.mkdtemp(prefix="drill-kfg-"))
        try:
            ok, what = one_game(rng, folder)
            done += ok
            print(f"game {number:>3}: {'ok  ' if ok else 'FAIL'} {what}", flush=True)
            if not ok and args.keep is not None:
                shutil.copytree(folder, args.keep / f"game-{number}", dirs_exist_ok=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    spent = time.monotonic() - started
    print(
        f"killed for good: {done} of {args.games} games complete (seed {args.seed}, {spent:.0f} s)"
    )
    return 0 if done == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
