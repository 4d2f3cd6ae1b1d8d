#!/usr/bin/env python3
"""Fault drills (issue 12): live bot games on 127.0.0.1 under random faults.

Every game is real peer processes (`python -m p2ptable host|join|resume`, bots at
every seat) on loopback, with faults chosen by a seeded random generator:

* ``kill``: kill -9 of a random seat at a random moment (just after the genesis,
  during the sealed shuffles of Vorsicht Lehrer!, in play, or just after the
  result), then ``p2ptable resume`` after a pause of up to 3 s;
* ``early-kill``: kill -9 in the lobby or during the genesis signing, before the
  seat has a replay.  A seat that died in the genesis round resumes (wire.md
  section 6.10 and section 9, gap 5); a joiner that died in the lobby, before it
  saved anything, joins again, as its player would, as often as the host
  refuses (it frees a silent seat after 6 s, wire.md 3.3), while the joiners
  still to come arrive at random in the next 10 s; a host that died there leaves
  no table to come back to: such games are counted apart ("host killed before
  its table filled"), not as failures;
* ``power``: a power cut: kill -9, then the replay cut back to what was surely
  on the disk (below), sometimes with a torn frame or zeros after it, then
  ``resume``;
* ``blackout``: a power cut of the whole room: every seat at once, each replay
  cut as above, every seat resumed;
* ``freeze`` (not chosen unless named: it costs 20 s or more): a laptop that
  sleeps: the seat's process stopped (SIGSTOP) for 21-27 s, past the 20 s after
  which a seat in contact is named for withholding, then continued;
* ``junk``: a stranger sending random bytes, forged game frames (a wrong tag),
  unknown channels, empty and multi-frame messages and oversized ones to every
  seat's port, at a bounded rate;
* ``replay``: a man in the middle records every frame sent to one seat and sends
  recorded frames again, inside the recorded connections and from a connection
  of its own, after a resume preferring frames of the sender's earlier run;
* ``takeover``: strangers connecting to every seat with the routing id each
  other seat's link had before wire v3 (``b"G" + key[:8]``) and with the ids
  libzmq would generate next (``b"\\x00k\\x8bEg"`` ...), which used to cut links
  or abort libzmq's ROUTER: harmless since the inboxes are DEALERs;
* ``cut``: the man in the middle drops one of the seat's TCP connections (frames
  in flight are lost; ZeroMQ reconnects and catch-up repairs the log);
* ``knock``: strangers without the code knocking at the host at full rate from
  six loopback addresses of their own (127.0.0.2-7), each knock a fresh SPAKE2
  guess, with junk frames, for 8 s from the host's start, while the joiners
  come: every joiner with the code must still be seated (the game completes);
* ``lobby``: the man in the middle sits in front of the host while the table
  fills, with a spectator watching (``host --spectators``, ``watch``): the
  joiners' ``here`` and the spectator's ``feed`` frames are recorded and sent
  again, inside the connections and from one of its own; the spectator's
  replay must be byte-identical to the seats' (issue 22, 3);
* ``forged``: before the joiners come, a stranger at 127.0.0.2 forges the host's
  announcement (goodbyes for its names, its table id and names copied to its
  own address, 200 fake tables) while ``p2ptable tables`` listens: the real
  table must still be listed at the host's address (issue 22, 4);
* ``choice`` (Vorsicht Lehrer!): a kill -9 or power cut of a seat just after it
  kept a secret choice and sent its commit (moment ``commit``: its
  ``REPLAY.choice`` names the entry its replay is waiting on), and its choice
  file then deleted, damaged or forged (a valid record naming the other
  action) before ``resume``, as after copying a replay to another laptop
  without it: the seat must take its commit back from the others, never sign
  a second one (issue 22, 1).

How the man in the middle works.  Nothing outside a peer can read its frames
except on the wire, and packet capture needs privileges.  So the drill puts a
TCP proxy on the seat's endpoint: the seat is started through a small shim that
binds its inbox on 127.0.0.3 (the same port) instead of 127.0.0.1, while the
roster, the join address and `resume` still name 127.0.0.1:PORT, where the proxy
listens.  Every peer's connection to that seat then passes through the proxy,
which forwards bytes unchanged, parses ZMTP 3 framing (a 64-byte greeting, then
frames of flags, size and body) on the way in, keeps one-frame messages (lobby
and game frames), and inserts recorded ones between frames.  No product code is
changed: the shim only replaces the address `ZmqTransport` binds.

What counts (the bar of issue 12: 100 % completed, 0 lost, 0 false accusations,
over at least 50 games):

* completed: every seat's last process exited 0 and its replay verifies
  (`p2ptable.replay.verify`) and ends with a result;
* byte-identical: every seat's replay has the same SHA-256;
* entries lost: every entry a seat had on disk when it was killed (before a
  power cut's cut) must be in its final replay at the same index;
* falsely accused: every seat is honest, so every abort entry names a seat
  falsely.

The power cut.  The peer writes an entry it signed and syncs the replay before
sending it (wire.md 6.10), syncs the genesis, a commits entry, and the entry
that ends the game before it tells anyone it holds the whole log; what others signed is
written without a sync of its own.  So all a power cut can take, as far as one
can tell from outside, is the tail after the last of those: the drill cuts
exactly that (conservatively: a chance entry the seat assembled, also synced,
may go too).

Usage::

    scripts/drill.py [--games 50] [--seed S] [--seats 2-6]
                     [--game pet-quartet|vorsicht-lehrer|both]
                     [--faults kill,early-kill,power,blackout,junk,replay,takeover,cut]
                     [--moments start,shuffle,play,end]
                     [--bot-delay 0.02] [--keep DIR] [--start K] [--min-games 50]

Each game's plan comes from the seed and the game's number, so
``--seed S --start K --games 1`` plays game K of a run again (with the same
faults; the moments depend on timing).  Exit status 0 when the bar is met, 1
otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
import zmq

from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, frame_offsets, parse_frames
from p2ptable.replay.verify import verify_file

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
GAMES = ("pet-quartet", "vorsicht-lehrer")
FAULTS = (
    "kill", "early-kill", "power", "blackout", "freeze", "junk", "replay", "takeover", "cut",
    "choice", "knock", "lobby", "forged",
)  # fmt: skip
DEFAULT_FAULTS = tuple(f for f in FAULTS if f != "freeze")  # a freeze costs 20 s or more
CRASHES = ("kill", "power", "blackout", "freeze")  # what happens to seat processes
MOMENTS = ("start", "shuffle", "play", "end")  # when a crash comes, after the genesis
CODE = "TST-CDE"
TAP_HOST = "127.0.0.3"  # where a tapped seat really listens; its endpoint is the proxy's
POLL = 0.01  # seconds between looks at the table
ROOT = Path(__file__).resolve().parent.parent  # where tests.integration's strangers live
MAX_RECORDED = 4000  # frames the man in the middle keeps
MAX_INJECTED = 300  # recorded frames it inserts into connections, per game
INJECT_CHANCE = 0.03  # per frame it forwards
BURST = 40  # recorded frames sent in one burst from its own connection

# Entries in a whole game (from `p2ptable sim`), to pick a moment in play.
LENGTH = {"pet-quartet": (105, 38), "vorsicht-lehrer": (190, 20)}  # base, per seat

# Run a seat with its inbox bound on TAP_HOST, behind the proxy: argv[1] is the
# address, the rest the p2ptable command line.
SHIM = """
import sys
from p2ptable.net import zmq_transport
bind_host = sys.argv.pop(1)
original = zmq_transport.ZmqTransport.__init__
def bind_elsewhere(self, _bind="0.0.0.0", port=0):
    original(self, bind_host, port)
zmq_transport.ZmqTransport.__init__ = bind_elsewhere
sys.argv[0] = "p2ptable"
from p2ptable.cli import main
main()
"""


# -- the plan of one game ------------------------------------------------------------


@dataclass
class Crash:
    """What happens to a seat's process (or to every seat's, a blackout), and
    what came of it."""

    kind: str  # one of CRASHES
    seat: int  # the victim (a blackout's: the seat whose replay says when)
    moment: str  # lobby, genesis (early kills); start, shuffle, play, end
    at: int = 0  # entries in the victim's replay that trigger it (shuffle, play)
    tail: str = "clean"  # power: after the cut, nothing, a torn frame, or zeros
    choice_file: str = ""  # choice: what is done to REPLAY.choice (deleted, damaged, forged)
    pause: float = 1.0  # seconds dead before `resume`
    fired: bool = False
    missed: bool = False  # the seat was done before the moment came
    phase: str = ""  # what the victim had reached when it died
    entries: int = 0  # entries on its disk then
    cut: int = 0  # entries the power cut took
    early: bool = False  # died in the lobby: before it had saved anything

    def describe(self, names: list[str]) -> str:
        who = "all (from " + names[self.seat] + ")" if self.kind == "blackout" else names[self.seat]
        what = f"{self.kind} {who}@{self.moment}"
        if self.moment in ("shuffle", "play"):
            what += f"({self.at})"
        if self.fired:
            what += f" -> {self.phase} at {self.entries}"
            if self.kind in ("power", "blackout"):
                what += f", cut {self.cut} ({self.tail})"
            elif self.kind == "freeze":
                what += f" for {self.pause:.0f} s"
        elif self.missed:
            what += " missed"
        if self.choice_file:
            what += f", choice file {self.choice_file}"
        return what


@dataclass
class Plan:
    game: str
    seats: int
    bots: list[str]
    crashes: list[Crash]
    junk: bool
    tapped: int | None  # the seat behind the man in the middle
    replay: bool  # it sends recorded frames again
    cuts: int  # connections it drops
    takeover: bool
    knock: bool = False  # strangers knocking at the host while the table fills
    watched: bool = False  # a spectator follows the game (with the lobby fault)
    forged: bool = False  # the host's announcement forged before the joiners come


def make_plan(
    rng: random.Random,
    games: list[str],
    seats: tuple[int, int],
    faults: set,
    moments: set = frozenset(MOMENTS),
) -> Plan:
    """What one game will be: its table, and its faults with their moments (of
    ``moments``; lobby and genesis are early kills')."""
    game = rng.choice(games)
    n = rng.randint(*seats)
    bots = [rng.choice(["greedy", "random"]) for _ in range(n)]
    base, per_seat = LENGTH[game]
    length = base + per_seat * n
    first_play = n + 3 if game == "vorsicht-lehrer" else 2
    crashes: list[Crash] = []
    kinds = [k for k in CRASHES if k in faults]
    if "early-kill" in faults and (not kinds or rng.random() < 0.15):
        crashes.append(Crash("kill", rng.randrange(n), rng.choice(["lobby", "genesis"])))
    elif kinds:
        for _ in range(rng.choice([1, 1, 2])):
            kind = rng.choice(kinds)
            choices = ["play"] * 5
            if kind != "freeze":
                choices += ["end"] + (["start"] if kind == "kill" else [])
                if game == "vorsicht-lehrer":
                    choices += ["shuffle"] * 2
            choices = [m for m in choices if m in moments]
            if not choices:
                continue
            moment = rng.choice(choices)
            at = 0
            if moment == "shuffle":
                at = 2 + rng.randrange(n)  # genesis, first chance, then one shuffle a seat
            elif moment == "play":
                at = rng.randint(first_play, int(length * 0.9))
            tail = rng.choice(["clean", "torn", "zeros"]) if kind != "kill" else "clean"
            crashes.append(Crash(kind, rng.randrange(n), moment, at, tail))
        if "choice" in faults and game == "vorsicht-lehrer" and rng.random() < 0.6:
            kind = rng.choice([k for k in ("kill", "power") if k in kinds] or ["kill"])
            tail = rng.choice(["clean", "torn", "zeros"]) if kind != "kill" else "clean"
            file = rng.choice(["deleted", "damaged", "forged"])
            crashes.append(Crash(kind, rng.randrange(n), "commit", 0, tail, file))
            crashes = [c for c in crashes if c.moment != "end"] + [
                c for c in crashes if c.moment == "end"
            ][:1]
        order = {"start": 0, "shuffle": 1, "play": 2, "commit": 2, "end": 3}
        crashes.sort(key=lambda c: (order[c.moment], c.at))
        if [c.moment for c in crashes].count("end") > 1:
            crashes.pop()
    for crash in crashes:
        crash.pause = round(rng.uniform(0.1, 3.0), 2)
        if crash.kind == "freeze":  # past the 20 s after which a seat is named withholding
            crash.pause = round(rng.uniform(21.0, 27.0), 2)
    replay = "replay" in faults and rng.random() < 0.6
    cuts = rng.randint(1, 3) if "cut" in faults and rng.random() < 0.5 else 0
    tapped = rng.randrange(n) if replay or cuts else None
    watched = "lobby" in faults and rng.random() < 0.4
    if watched:  # the host tapped from the start: the lobby's frames are recorded
        replay, tapped = True, 0
    knock = "knock" in faults and rng.random() < 0.4
    forged = (
        "forged" in faults and rng.random() < 0.3 and not any(c.moment == "lobby" for c in crashes)
    )
    return Plan(
        game=game,
        seats=n,
        bots=bots,
        crashes=crashes,
        junk="junk" in faults and rng.random() < 0.6,
        tapped=tapped,
        replay=replay,
        cuts=cuts,
        takeover="takeover" in faults and rng.random() < 0.5,
        knock=knock,
        watched=watched,
        forged=forged,
    )


# -- the seat processes --------------------------------------------------------------


def free_port() -> int:
    """A port free on 127.0.0.1 and on TAP_HOST (a tapped seat binds there)."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        try:
            with socket.socket() as s:
                s.bind((TAP_HOST, port))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port")


class Table:
    """The seat processes of one game, each in its own process group; ``close()``
    ends every one still running, whatever happened."""

    def __init__(self, workdir: Path, plan: Plan, delay: float) -> None:
        self.workdir = workdir
        self.plan = plan
        self.delay = delay
        self.ports = [free_port() for _ in range(plan.seats)]
        self.current: dict[int, subprocess.Popen] = {}
        self.started: list[subprocess.Popen] = []
        self.runs: Counter = Counter()
        self.env = dict(
            os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1", XDG_DATA_HOME=str(workdir / "data")
        )

    def replay(self, seat: int) -> Path:
        return self.workdir / f"{NAMES[seat]}.p2pt"

    def secrets(self, seat: int) -> Path:
        return self.workdir / f"{NAMES[seat]}.p2pt.secrets"

    def out(self, seat: int) -> Path:
        return self.workdir / f"{NAMES[seat]}.{self.runs[seat]}.out"

    def endpoint(self, seat: int, real: bool = False) -> str:
        host = TAP_HOST if real and seat == self.plan.tapped else "127.0.0.1"
        return f"tcp://{host}:{self.ports[seat]}"

    def _start(self, seat: int, args: list[str]) -> None:
        self.runs[seat] += 1
        if seat == self.plan.tapped:
            command = [sys.executable, "-c", SHIM, TAP_HOST, *args]
        else:
            command = [sys.executable, "-m", "p2ptable", *args]
        with open(self.out(seat), "wb") as out:
            proc = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self.env,
                cwd=self.workdir,
                start_new_session=True,
            )
        self.current[seat] = proc
        self.started.append(proc)

    def _bot(self, seat: int) -> list[str]:
        return ["--bot", self.plan.bots[seat], "--bot-delay", str(self.delay)]

    def start(self, seat: int) -> None:
        name, replay = NAMES[seat], str(self.replay(seat))
        if seat == 0:
            self._start(0, [
                "host", self.plan.game, "--seats", str(self.plan.seats), "--name", name,
                "--port", str(self.ports[0]), "--code", CODE, "--advertise", "127.0.0.1",
                "--replay", replay, *self._bot(0),
                *(["--spectators"] if self.plan.watched else []),
            ])  # fmt: skip
        else:
            self._start(seat, [
                "join", f"127.0.0.1:{self.ports[0]}", "--code", CODE, "--name", name,
                "--port", str(self.ports[seat]), "--replay", replay, *self._bot(seat),
            ])  # fmt: skip

    def resume(self, seat: int) -> None:
        self._start(seat, ["resume", str(self.replay(seat)), *self._bot(seat)])

    def watch(self) -> subprocess.Popen:
        """A spectator of the table (its replay: Watcher.p2pt)."""
        with open(self.workdir / "Watcher.out", "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "p2ptable", "watch", f"127.0.0.1:{self.ports[0]}",
                 "--code", CODE, "--name", "Watcher", "--quiet",
                 "--replay", str(self.workdir / "Watcher.p2pt")],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=self.env, cwd=self.workdir, start_new_session=True,
            )  # fmt: skip
        self.started.append(proc)
        return proc

    def knocker(self) -> subprocess.Popen:
        """Strangers knocking at the host from six addresses of their own, for
        8 s (tests/integration/knocker.py; it ends by itself)."""
        with open(self.workdir / "knocker.out", "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "tests.integration.knocker", "--port", str(self.ports[0]),
                 "--addresses", "6", "--seconds", "8", "--every", "0.01"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=self.env, cwd=ROOT, start_new_session=True,
            )  # fmt: skip
        self.started.append(proc)
        return proc

    def running(self, seat: int) -> bool:
        proc = self.current.get(seat)
        return proc is not None and proc.poll() is None

    def signal(self, seat: int, sig: int) -> None:
        proc = self.current[seat]
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass

    def kill(self, *seats: int) -> None:
        """kill -9, all at once; back when every one has died."""
        for seat in seats:
            self.signal(seat, signal.SIGKILL)
        for seat in seats:
            self.current[seat].wait(timeout=10)

    def close(self) -> None:
        for proc in self.started:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=10)


class Tail:
    """Counts the intact frames of a growing replay without reading it twice; a
    file cut shorter (a power cut) is counted again from the start."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rewind()

    def rewind(self) -> None:
        """Count from the start again (the file was cut)."""
        self.pos, self.count, self.last = len(MAGIC), 0, b""

    def poll(self) -> int:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            self.rewind()
            return 0
        if size < self.pos:
            self.rewind()
        if size < len(MAGIC):
            return 0
        with open(self.path, "rb") as f:
            f.seek(self.pos)
            data = f.read()
        at = 0
        while len(data) - at >= 8:
            length = int.from_bytes(data[at : at + 4], "big")
            if length == 0 or len(data) - at < 8 + length:
                break  # zeros (a power cut's) or a frame still being written
            self.last = data[at + 4 : at + 4 + length]
            self.count += 1
            at += 8 + length
        self.pos += at
        return self.count

    def last_kind(self) -> str:
        try:
            return Entry.decode(self.last).kind if self.last else ""
        except ValueError:
            return ""


def listed(wait: float) -> list[dict]:
    """What `p2ptable tables --json` lists, heard on loopback only."""
    run = subprocess.run(
        [sys.executable, "-m", "p2ptable", "tables", "--json", "--wait", str(wait),
         "--interface", "127.0.0.1"],
        capture_output=True, text=True, timeout=wait + 30,
    )  # fmt: skip
    return json.loads(run.stdout) if run.returncode == 0 else []


def forge_listing(port: int) -> str:
    """Forge the announcement of the host at 127.0.0.1:``port`` from 127.0.0.2
    (goodbyes for its names, its id and names copied to the stranger's address,
    200 fakes) while `tables` listens: "kept" if the real table is still listed
    at the host's address (issue 22, 4), else what went wrong."""
    sys.path.insert(0, str(ROOT))
    from p2ptable.net.announce_record import announcement
    from tests.integration.forged_mdns import Forger, goodbye, table_records

    where = f"127.0.0.1:{port}"
    row = next((t for _ in range(5) for t in listed(1.0) if t["address"] == where), None)
    if row is None:
        return "the host's table was never heard (before any forgery)"
    ad = announcement(bytes.fromhex(row["table"]) * 2, row["game"], row["options"], row["host"],
                      row["seats_taken"], row["seats"], port)  # fmt: skip
    fakes = [
        announcement(i.to_bytes(8, "big") * 2, "pet-quartet", {}, f"Fake{i:03}", 1, 3, 9)
        for i in range(200)
    ]
    records = goodbye(table_records(ad, "127.0.0.1")) + table_records(ad, "127.0.0.2")
    records += [r for fake in fakes for r in table_records(fake, "127.0.0.2")]
    try:
        forger = Forger("127.0.0.2")
    except OSError as exc:
        return f"cannot send from 127.0.0.2 ({exc})"
    try:
        forger.keep_sending(records, every=0.2)
        rows = [t for t in listed(1.5) if t["table"] == ad.table_id]
    finally:
        forger.close()
    if where not in [t["address"] for t in rows]:
        return f"the real table was not listed (rows for its id: {rows})"
    return "kept"


def knocks_sent(path: Path) -> int:
    """How many knocks the strangers sent (the knocker's last line, JSON)."""
    try:
        return int(json.loads(path.read_text().strip().splitlines()[-1])["sent"])
    except (OSError, ValueError, KeyError, IndexError):
        return 0


def committed_at(replay: Path) -> int | None:
    """The entry a seat's kept secret choice is for (None: none kept)."""
    from p2ptable.net.choice_file import load_choice

    choice, _ = load_choice(replay)
    return None if choice is None else choice.index


def spoil_choice(replay: Path, how: str, rng: random.Random) -> None:
    """Delete, damage or forge (a valid record, the other action) a seat's
    kept secret choice, as a lost or edited file would be."""
    from p2ptable.net.choice_file import ChoiceKeeper, choice_path, load_choice
    from p2ptable.net.session import Choice

    path = choice_path(replay)
    kept, _ = load_choice(replay)
    if how == "deleted":
        path.unlink(missing_ok=True)
    elif how == "damaged" and path.exists():
        raw = bytearray(path.read_bytes())
        raw[rng.randrange(4, 12)] ^= 0xFF
        path.write_bytes(bytes(raw))
    elif how == "forged" and kept is not None:
        keeper = ChoiceKeeper(replay)
        keeper.keep(Choice(kept.index, "take" if kept.action != "take" else "risk"))
        keeper.close()


def intact_entries(data: bytes) -> list[bytes]:
    """The entries of a replay's bytes, up to any zeros a power cut left (which
    read as empty frames) or a torn frame."""
    payloads = parse_frames(data).payloads if data else []
    return payloads[: payloads.index(b"")] if b"" in payloads else payloads


def power_cut(data: bytes, seat: int, tail: str, rng: random.Random) -> tuple[bytes, int]:
    """What a power cut can leave of ``seat``'s replay ``data``, and how many
    entries it took: everything up to and including the last entry that was
    synced, the genesis (synced when it was written), an entry the seat signed
    alone (synced before it was sent), a commits entry (every seat's signed
    commits to a secret choice, synced by every seat: net/session.py), or the
    entry that ends the game (a result or an abort, synced before the seat
    tells anyone it holds the whole log);
    then nothing, a torn prefix of the next frame, or zeros (a size that reached
    the disk without its data)."""
    payloads = intact_entries(data)
    keep = 1
    for index, payload in enumerate(payloads[1:], start=1):
        entry = Entry.decode(payload)
        ours = len(entry.sigs) == 1 and entry.sigs[0][0] == seat
        if ours or entry.kind in ("result", "abort", "commits"):
            keep = index + 1
    offsets = frame_offsets(payloads)
    end = offsets[keep] if keep < len(payloads) else offsets[-1] + 8 + len(payloads[-1])
    lost = len(payloads) - keep
    kept = data[:end]
    if lost and tail == "torn":
        frame = data[end : end + 8 + len(payloads[keep])]
        kept += frame[: rng.randrange(1, len(frame))]
    elif lost and tail == "zeros":
        kept += bytes(rng.randrange(1, len(data) - end + 1))
    return kept, lost


# -- the man in the middle -----------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """A one-frame message seen on its way to the tapped seat."""

    message: bytes  # channel byte and payload, as ZeroMQ carries it
    sender: int | None  # a game frame's `from`, its start counter and kind
    boot: int = 0
    kind: str = ""


def recorded(message: bytes) -> Recorded | None:
    """A lobby frame, or a game frame whose envelope decodes (not a stranger's junk)."""
    if message[:1] == b"L":
        return Recorded(message, None)
    if message[:1] != b"G" or len(message) < 18:
        return None
    try:
        envelope = msgpack.unpackb(message[17:], raw=False, strict_map_key=False)
        return Recorded(
            message, int(envelope["from"]), int.from_bytes(envelope["boot"], "big"), envelope["k"]
        )
    except Exception:  # anything that is not an envelope is not worth keeping
        return None


def zmtp_frame(body: bytes) -> bytes:
    """A ZMTP 3 message frame of ``body``, no MORE flag."""
    if len(body) < 256:
        return bytes([0, len(body)]) + body
    return bytes([2]) + len(body).to_bytes(8, "big") + body


class ZmtpReader:
    """Splits one direction of a ZMTP 3 stream into what may be forwarded: the
    greeting as it comes, then whole frames.  ``feed`` returns (bytes, message)
    pairs: ``message`` is the body of a one-frame message that ends there (a
    point where a frame can be inserted), or None."""

    def __init__(self) -> None:
        self.greeting = 64
        self.buf = bytearray()
        self.in_message = False  # inside a multi-frame message
        self.raw = False  # a frame too big to hold: pass the rest through unparsed

    def feed(self, data: bytes) -> list[tuple[bytes, bytes | None]]:
        if self.raw:
            return [(data, None)]
        self.buf += data
        out: list[tuple[bytes, bytes | None]] = []
        if self.greeting:
            take = min(self.greeting, len(self.buf))
            out.append((bytes(self.buf[:take]), None))
            del self.buf[:take]
            self.greeting -= take
        while not self.greeting and len(self.buf) >= 2:
            flags = self.buf[0]
            head = 9 if flags & 2 else 2
            if len(self.buf) < head:
                break
            size = int.from_bytes(self.buf[1:head], "big")
            if size > 1 << 20:
                out.append((bytes(self.buf), None))
                self.buf.clear()
                self.raw = True
                break
            if len(self.buf) < head + size:
                break
            raw = bytes(self.buf[: head + size])
            del self.buf[: head + size]
            message = None
            if not flags & 4:  # a message frame, not a command
                if not flags & 1 and not self.in_message:
                    message = raw[head:]
                self.in_message = bool(flags & 1)
            out.append((raw, message))
        return out


class _Pair:
    def __init__(self, client: socket.socket, server: socket.socket) -> None:
        self.client, self.server = client, server
        self.reader = ZmtpReader()
        self.to_server = bytearray()
        self.to_client = bytearray()


class Wiretap(threading.Thread):
    """A TCP proxy at a seat's endpoint (127.0.0.1:PORT) to where the seat really
    listens (TAP_HOST:PORT): forwards every byte, records the messages sent to
    the seat, inserts recorded ones between frames, and drops a connection when
    asked."""

    def __init__(self, port: int, seed: int, inject: bool) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.rng = random.Random(seed)
        self.inject = inject
        self.lock = threading.Lock()
        self.frames: list[Recorded] = []
        self.injected = 0
        self.cuts = 0
        self._cut_wanted = 0
        self._halt = threading.Event()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen(64)
        self.listener.setblocking(False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.listener, selectors.EVENT_READ, None)
        self.pairs: list[_Pair] = []

    def recorded(self) -> list[Recorded]:
        with self.lock:
            return list(self.frames)

    def cut(self) -> None:
        with self.lock:
            self._cut_wanted += 1

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5)
        for pair in list(self.pairs):
            self._close(pair)
        self.sel.close()
        self.listener.close()

    def run(self) -> None:
        while not self._halt.is_set():
            for key, events in self.sel.select(0.05):
                if key.data is None:
                    self._accept()
                else:
                    pair, side = key.data
                    if pair in self.pairs:
                        self._service(pair, side, events)
            with self.lock:
                wanted, self._cut_wanted = self._cut_wanted, 0
            for _ in range(wanted):
                if self.pairs:
                    self._close(self.rng.choice(self.pairs))
                    self.cuts += 1

    def _accept(self) -> None:
        try:
            client, _ = self.listener.accept()
        except OSError:
            return
        server = socket.socket()
        server.settimeout(0.5)
        try:
            server.connect((TAP_HOST, self.port))
        except OSError:  # the seat is down (killed): its peers' ZeroMQ tries again
            server.close()
            client.close()
            return
        client.setblocking(False)
        server.setblocking(False)
        pair = _Pair(client, server)
        self.pairs.append(pair)
        self.sel.register(client, selectors.EVENT_READ, (pair, "client"))
        self.sel.register(server, selectors.EVENT_READ, (pair, "server"))

    def _service(self, pair: _Pair, side: str, events: int) -> None:
        sock = pair.client if side == "client" else pair.server
        if events & selectors.EVENT_READ:
            try:
                data = sock.recv(1 << 16)
            except BlockingIOError:
                data = None
            except OSError:
                data = b""
            if data == b"":
                self._close(pair)
                return
            if data and side == "client":
                for raw, message in pair.reader.feed(data):
                    pair.to_server += raw
                    if message is not None:
                        self._record(pair, message)
            elif data:
                pair.to_client += data
        self._flush(pair)

    def _record(self, pair: _Pair, message: bytes) -> None:
        frame = recorded(message)
        with self.lock:
            if frame is not None:
                if len(self.frames) < MAX_RECORDED:
                    self.frames.append(frame)
                else:
                    self.frames[self.rng.randrange(MAX_RECORDED)] = frame
            if (
                self.inject
                and self.frames
                and self.injected < MAX_INJECTED
                and self.rng.random() < INJECT_CHANCE
            ):
                pair.to_server += zmtp_frame(self.rng.choice(self.frames).message)
                self.injected += 1

    def _flush(self, pair: _Pair) -> None:
        for sock, buf, side in (
            (pair.server, pair.to_server, "server"),
            (pair.client, pair.to_client, "client"),
        ):
            if buf:
                try:
                    sent = sock.send(buf)
                    del buf[:sent]
                except BlockingIOError:
                    pass
                except OSError:
                    self._close(pair)
                    return
            events = selectors.EVENT_READ | (selectors.EVENT_WRITE if buf else 0)
            self.sel.modify(sock, events, (pair, side))

    def _close(self, pair: _Pair) -> None:
        if pair in self.pairs:
            self.pairs.remove(pair)
        for sock in (pair.client, pair.server):
            try:
                self.sel.unregister(sock)
            except (KeyError, ValueError):
                pass
            sock.close()


# -- strangers ----------------------------------------------------------------------


class Strangers:
    """Sockets that are not seats: junk senders, takeover ids, a replayer."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.ctx = zmq.Context.instance()
        self.sockets: list[zmq.Socket] = []
        self.junk_to: dict[int, zmq.Socket] = {}
        self.junk_sent = 0
        self.takeovers = 0
        self.replayed = 0
        self.game_id = b""

    def _dealer(self, endpoint: str, routing_id: bytes | None = None) -> zmq.Socket:
        sock = self.ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.SNDHWM, 1000)
        sock.setsockopt(zmq.SNDTIMEO, 0)
        if routing_id is not None:
            sock.setsockopt(zmq.ROUTING_ID, routing_id)
        sock.connect(endpoint)
        self.sockets.append(sock)
        return sock

    def _send(self, sock: zmq.Socket, parts: list[bytes]) -> bool:
        try:
            sock.send_multipart(parts, flags=zmq.NOBLOCK)
            return True
        except zmq.Again:
            return False

    def junk(self) -> None:
        """One message of junk to a random seat's real inbox."""
        seat = self.rng.randrange(self.table.plan.seats)
        if seat not in self.junk_to:
            self.junk_to[seat] = self._dealer(self.table.endpoint(seat, real=True))
        rng, n = self.rng, self.table.plan.seats
        pick = rng.random()
        if pick < 0.3:
            parts = [b"G" + rng.randbytes(rng.randrange(0, 400))]
        elif pick < 0.5:
            parts = [b"L" + rng.randbytes(rng.randrange(0, 400))]
        elif pick < 0.8:  # a well-formed envelope with a made-up tag
            envelope = {
                "boot": (rng.randrange(1, 5)).to_bytes(8, "big"),
                "d": {"len": rng.randrange(0, 400)},
                "from": rng.randrange(n),
                "k": rng.choice(["hello", "ping", "get", "entry"]),
                "seq": rng.randrange(1 << 20),
                "table": self.game_id or rng.randbytes(32),
            }
            parts = [b"G" + rng.randbytes(16) + msgpack.packb(envelope, use_bin_type=True)]
        elif pick < 0.9:
            parts = rng.choice([[b""], [b"G", b"x"], [b"X" + rng.randbytes(20)], [b"L", b"L"]])
        else:
            parts = [b"G" + rng.randbytes(300_000)]  # over MAXMSGSIZE: ZeroMQ disconnects
        if self._send(self.junk_to[seat], parts):
            self.junk_sent += 1

    def takeover(self, keys: list[bytes]) -> None:
        """Connect to every seat with every other seat's old routing id and with
        the ids libzmq generates (an unseeded rand(): 0x6b8b4567, then +1)."""
        generated = [b"\x00" + (0x6B8B4567 + k).to_bytes(4, "big") for k in range(3)]
        for seat in range(self.table.plan.seats):
            ids = [b"G" + key[:8] for other, key in enumerate(keys) if other != seat]
            for ident in ids + generated:
                sock = self._dealer(self.table.endpoint(seat), ident)
                self._send(sock, [b"G\xc1"])
                self.takeovers += 1

    def replay(self, frames: list[Recorded], seat: int, sender: int | None) -> None:
        """A burst of recorded frames to ``seat``, from a connection of our own:
        the ``sender``'s frames of earlier runs first when there are any (it has
        just resumed), then any; and a few to the other seats (wrong keys)."""
        if not frames:
            return
        older: list[Recorded] = []
        if sender is not None:
            runs = [f.boot for f in frames if f.sender == sender]
            if runs:
                older = [f for f in frames if f.sender == sender and f.boot < max(runs)]
        picks = self.rng.sample(older, min(len(older), BURST // 2))
        picks += self.rng.sample(frames, min(len(frames), BURST - len(picks)))
        sock = self._dealer(self.table.endpoint(seat, real=True))
        for frame in picks:
            self.replayed += self._send(sock, [frame.message])
        for other in range(self.table.plan.seats):
            if other != seat:
                sock = self._dealer(self.table.endpoint(other, real=True))
                for frame in self.rng.sample(frames, min(len(frames), 3)):
                    self.replayed += self._send(sock, [frame.message])

    def close(self) -> None:
        for sock in self.sockets:
            sock.close(linger=0)
        self.sockets.clear()


# -- one game -----------------------------------------------------------------------


@dataclass
class GameReport:
    number: int
    plan: Plan
    status: str = "failed"  # completed, table gone (the host died in the lobby), failed
    reasons: list[str] = field(default_factory=list)
    seconds: float = 0.0
    identical: bool = False
    lost: int = 0
    accused: list[str] = field(default_factory=list)
    refusals: Counter = field(default_factory=Counter)
    junk: int = 0
    injected: int = 0
    replayed: int = 0
    takeovers: int = 0
    cuts: int = 0
    kept: Path | None = None
    knocks: int = 0  # strangers' knocks sent (the knock fault)
    listing: str = ""  # the forged fault: "kept" when the real table stayed listed
    watcher: str = ""  # the lobby fault: what came of the spectator

    def line(self) -> str:
        plan, names = self.plan, NAMES[: self.plan.seats]
        faults = [c.describe(names) for c in plan.crashes]
        if plan.junk:
            faults.append(f"junk {self.junk}")
        if plan.tapped is not None:
            faults.append(
                f"tap {names[plan.tapped]} (replayed {self.injected} inside connections, "
                f"{self.replayed} from its own; cut {self.cuts})"
            )
        if plan.takeover:
            faults.append(f"takeover {self.takeovers}")
        if plan.knock:
            faults.append(f"knocks {self.knocks}")
        if plan.forged:
            faults.append(f"forged listing: {self.listing or 'not checked'}")
        if plan.watched:
            faults.append(f"spectator: {self.watcher or 'not judged'}")
        status = self.status
        if self.reasons:
            status += ": " + "; ".join(self.reasons)
        return (
            f"game {self.number}: {plan.game}, {plan.seats} seats, {self.seconds:.1f} s: "
            f"{status} [{', '.join(faults) or 'no faults'}]"
        )


class Game:
    """Plays one planned game, firing its faults as their moments come."""

    def __init__(self, number: int, plan: Plan, rng: random.Random, workdir: Path, args) -> None:  # noqa: ANN001
        self.number = number
        self.plan = plan
        self.rng = rng
        self.args = args
        self.table = Table(workdir, plan, args.bot_delay)
        self.tails = [Tail(self.table.replay(s)) for s in range(plan.seats)]
        self.strangers = Strangers(self.table, rng)
        self.tap: Wiretap | None = None
        self.snapshots: list[tuple[int, list[bytes]]] = []  # (seat, entries on its disk)
        self.resumes: list[tuple[float, int]] = []  # (when, seat)
        self.thaws: list[tuple[float, int]] = []  # (when, a frozen seat)
        self.bursts: list[tuple[float, int | None]] = []  # (when, the seat that resumed)
        self.cut_times: list[float] = []
        self.takeover_at: float | None = None
        self.genesis_known = False
        self.table_gone = False  # the host died in the lobby
        self.starts: list[tuple[float, int]] = []  # (when, a joiner still to come)
        self.rejoins: dict[int, tuple[float, float | None]] = {}  # seat: (until, next try)
        self.watcher: subprocess.Popen | None = None
        self.knocker: subprocess.Popen | None = None
        self.report = GameReport(number, plan)

    def play(self) -> GameReport:
        start = time.monotonic()
        try:
            if self.plan.tapped is not None:
                seed = self.rng.randrange(1 << 32)
                self.tap = Wiretap(self.table.ports[self.plan.tapped], seed, self.plan.replay)
                self.tap.start()
            self._run(start + self.args.game_timeout)
            for proc in (self.watcher, self.knocker):  # each ends by itself
                try:
                    if proc is not None:
                        proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            self.strangers.close()
            if self.tap is not None:
                self.tap.stop()
            self.table.close()
        self.report.seconds = time.monotonic() - start
        self._judge()
        return self.report

    def _run(self, deadline: float) -> None:
        plan, table = self.plan, self.table
        crashes = list(plan.crashes)
        lobby = crashes[0] if crashes and crashes[0].moment == "lobby" else None
        # The lobby moment: the victim dies while the table fills, after it and
        # some of the others have started; the rest come when they come, before
        # or after the host frees a silent seat (6 s, wire.md 3.3).
        kill_after = None
        if lobby is not None:
            kill_after = self.rng.randint(max(lobby.seat, 1), plan.seats - 1)
        next_junk = time.monotonic()
        for seat in range(plan.seats):
            if kill_after is not None and seat > kill_after:
                self.starts.append((time.monotonic() + self.rng.uniform(0.0, 10.0), seat))
                continue
            table.start(seat)
            if seat == 0:
                self._lobby_strangers()
            if lobby is not None and seat == kill_after:
                self._sleep(self.rng.uniform(0.0, 0.6), deadline)
                self._fire(crashes.pop(0))
            else:
                time.sleep(0.05)
        while time.monotonic() < deadline:
            now = time.monotonic()
            if crashes and self._due(crashes[0]):
                self._fire(crashes.pop(0))
            self._resume_due(now)
            for when, seat in list(self.starts):
                if now >= when:
                    self.starts.remove((when, seat))
                    table.start(seat)
            self._rejoin(now)
            for when, seat in list(self.thaws):
                if now >= when:
                    self.thaws.remove((when, seat))
                    self.table.signal(seat, signal.SIGCONT)
            if self.table_gone:
                return
            if plan.junk and now >= next_junk:
                self.strangers.junk()
                next_junk = max(next_junk + 1 / self.args.junk_rate, now - 1.0)
            self._network_faults(now)
            running = any(table.running(s) for s in range(plan.seats))
            waiting = running or self.resumes or self.thaws or self.starts or self.rejoins
            if not waiting:
                for crash in crashes:
                    crash.missed = True
                return
            time.sleep(POLL)
        self.report.reasons.append(f"not over after {self.args.game_timeout:.0f} s")

    def _lobby_strangers(self) -> None:
        """Once the host is up: the knocking strangers, the spectator, and the
        forged listing (before any joiner comes: the table is listed while open)."""
        plan = self.plan
        if plan.knock:
            self.knocker = self.table.knocker()
        if plan.watched:
            time.sleep(0.3)  # the host is listening
            self.watcher = self.table.watch()
        if plan.forged:
            self.report.listing = forge_listing(self.table.ports[0])
            if self.report.listing != "kept":
                self.report.reasons.append(f"forged listing: {self.report.listing}")

    def _sleep(self, seconds: float, deadline: float) -> None:
        time.sleep(max(0.0, min(seconds, deadline - time.monotonic())))

    def _due(self, crash: Crash) -> bool:
        """Whether the crash's moment has come (False while its seat is down)."""
        seat = crash.seat
        if not self.table.running(seat) or any(s == seat for _, s in self.resumes + self.thaws):
            return False
        if crash.moment == "genesis":
            return "Table full" in self.table.out(seat).read_text(errors="replace")
        count = self.tails[seat].poll()
        if crash.moment == "start":
            return count >= 1
        if crash.moment in ("shuffle", "play"):
            return count >= crash.at
        if crash.moment == "commit":
            return committed_at(self.table.replay(seat)) == count
        return crash.moment == "end" and self.tails[seat].last_kind() == "result"

    def _fire(self, crash: Crash) -> None:
        table, seat = self.table, crash.seat
        if crash.moment == "genesis":
            time.sleep(self.rng.uniform(0.0, 0.03))
        if not table.running(seat):
            crash.missed = True
            return
        crash.fired = True
        if crash.kind == "freeze":  # a laptop that sleeps: SIGSTOP, later SIGCONT
            table.signal(seat, signal.SIGSTOP)
            crash.entries = self.tails[seat].poll()
            crash.phase = self.tails[seat].last_kind()
            self.thaws.append((time.monotonic() + crash.pause, seat))
            return
        victims = [seat]
        if crash.kind == "blackout":
            victims = [s for s in range(self.plan.seats) if table.running(s)]
        table.kill(*victims)
        for victim in victims:
            replay = table.replay(victim)
            data = replay.read_bytes() if replay.exists() else b""
            entries = intact_entries(data)
            if victim == seat:
                crash.early = not table.secrets(seat).exists()
                crash.entries = len(entries)
                crash.phase = self._phase(seat, entries)
            if entries:
                self.snapshots.append((victim, entries))
            if crash.kind in ("power", "blackout") and entries:
                kept, cut = power_cut(data, victim, crash.tail, self.rng)
                crash.cut += cut
                with open(replay, "r+b") as f:
                    f.truncate(0)
                    f.write(kept)
                self.tails[victim].rewind()
            if victim == seat and crash.choice_file:
                spoil_choice(replay, crash.choice_file, self.rng)
            self.resumes.append((time.monotonic() + crash.pause, victim))

    def _phase(self, seat: int, entries: list[bytes]) -> str:
        """What a seat had reached when it died: the kind of its last entry."""
        if not entries:  # the secrets are saved when the genesis round begins
            if self.table.secrets(seat).exists():
                return "genesis"
            seated = "Lobby (" in self.table.out(seat).read_text(errors="replace")
            return "lobby, seated" if seated else "lobby"
        return Entry.decode(entries[-1]).kind

    def _resume_due(self, now: float) -> None:
        for when, seat in list(self.resumes):
            if now < when:
                continue
            self.resumes.remove((when, seat))
            if not any(c.early and c.seat == seat for c in self.plan.crashes):
                self.table.resume(seat)
            elif seat == 0:  # the lobby died with the host: nothing to come back to
                self.table_gone = True
                return
            else:  # it saved nothing: its player types `join` again
                self.table.start(seat)
                self.rejoins[seat] = (now + 30.0, None)
            if self.tap is not None and self.plan.replay:
                self.bursts.append((now + self.rng.uniform(0.3, 2.0), seat))

    def _rejoin(self, now: float) -> None:
        """A joiner that died in the lobby: its player joins again as often as the
        host refuses or does not answer (it frees a silent seat after 6 s), for
        30 s, half a second between tries."""
        for seat, (until, next_try) in list(self.rejoins.items()):
            proc = self.table.current[seat]
            if proc.poll() is None or proc.returncode == 0:
                if proc.returncode == 0 or "Lobby (" in self.table.out(seat).read_text(
                    errors="replace"
                ):
                    del self.rejoins[seat]  # seated
            elif now >= until:
                del self.rejoins[seat]  # given up: the game will not complete
            elif next_try is None:
                self.rejoins[seat] = (until, now + 0.5)
            elif now >= next_try:
                self.table.start(seat)
                self.rejoins[seat] = (until, None)

    def _network_faults(self, now: float) -> None:
        plan = self.plan
        if not self.genesis_known:
            counts = [t.poll() for t in self.tails]
            if any(counts):
                self.genesis_known = True
                self._genesis_known(now)
            return
        if self.takeover_at is not None and now >= self.takeover_at:
            self.takeover_at = None
            genesis = Ledger(Entry.decode(parse_frames(self._first_replay()).payloads[0]))
            self.strangers.takeover([seat.key for seat in genesis.seats])
        for when, seat in list(self.bursts):
            if now >= when and self.tap is not None:
                self.bursts.remove((when, seat))
                self.strangers.replay(self.tap.recorded(), plan.tapped, seat)
        for when in list(self.cut_times):
            if now >= when and self.tap is not None:
                self.cut_times.remove(when)
                self.tap.cut()

    def _first_replay(self) -> bytes:
        for seat in range(self.plan.seats):
            path = self.table.replay(seat)
            if path.exists() and parse_frames(path.read_bytes()).payloads:
                return path.read_bytes()
        raise AssertionError("no replay with a genesis")

    def _genesis_known(self, now: float) -> None:
        """Once a genesis is on disk: the game id for forged frames, and when the
        takeovers, bursts and cuts come."""
        genesis = Entry.decode(parse_frames(self._first_replay()).payloads[0])
        self.strangers.game_id = Ledger(genesis).game_id
        rng = self.rng
        if self.plan.takeover:
            self.takeover_at = now + rng.uniform(0.0, 3.0)
        if self.plan.replay:
            self.bursts += [(now + rng.uniform(0.2, 6.0), None) for _ in range(rng.randint(1, 3))]
        self.cut_times = [now + rng.uniform(0.2, 6.0) for _ in range(self.plan.cuts)]

    # -- what came of it ------------------------------------------------------------

    def _judge_watcher(self, blobs: dict[int, bytes]) -> str:
        """The spectator must have followed to the end with the seats' replay."""
        proc, path = self.watcher, self.table.workdir / "Watcher.p2pt"
        if proc is None:
            return "never started"
        if any(c.seat == 0 and c.fired and c.moment == "genesis" for c in self.plan.crashes):
            # A host resumed inside the genesis round admits no spectators yet
            # (protocol/wire.md section 3.5): a known gap, not counted here.
            return "not counted (the host was resumed in the genesis round)"
        data = path.read_bytes() if path.exists() else b""
        same = data in set(blobs.values())
        if proc.returncode != 0 or not same:
            why = f"exited {proc.returncode}, replay {'identical' if same else 'differs'}"
            self.report.reasons.append(f"the spectator: {why}")
            return why
        return "followed to the end, replay identical"

    def _judge(self) -> None:
        report, table, plan = self.report, self.table, self.plan
        report.junk = self.strangers.junk_sent
        report.takeovers = self.strangers.takeovers
        report.replayed = self.strangers.replayed
        if self.tap is not None:
            report.injected, report.cuts = self.tap.injected, self.tap.cuts
        report.refusals = refusals(table)
        if plan.knock:
            report.knocks = knocks_sent(table.workdir / "knocker.out")
        for seat in range(plan.seats):
            for run in range(1, table.runs[seat] + 1):
                out = (table.workdir / f"{NAMES[seat]}.{run}.out").read_text(errors="replace")
                if "Traceback" in out:
                    report.reasons.append(f"{NAMES[seat]} run {run} printed a traceback")
            log = table.replay(seat).with_name(f"{NAMES[seat]}.p2pt.peer.log")
            if log.exists() and "stopped by a bug of p2ptable" in log.read_text(errors="replace"):
                report.reasons.append(f"{NAMES[seat]} stopped by a bug (see its peer.log)")
        if self.table_gone:
            report.status = "table gone"
            return
        blobs = {}
        for seat in range(plan.seats):
            path = table.replay(seat)
            blobs[seat] = path.read_bytes() if path.exists() else b""
            code = table.current[seat].returncode
            if code != 0:
                report.reasons.append(f"{NAMES[seat]} exited {code}")
        report.identical = all(blobs.values()) and len(set(blobs.values())) == 1
        if plan.watched:
            report.watcher = self._judge_watcher(blobs)
        if not report.identical and all(blobs.values()):
            heads = {NAMES[s]: len(parse_frames(b).payloads) for s, b in blobs.items()}
            report.reasons.append(f"replays differ (entries: {heads})")
        checked: dict[bytes, object] = {}
        for seat, blob in blobs.items():
            digest = hashlib.sha256(blob).digest()
            if digest not in checked:
                checked[digest] = verify_file(table.replay(seat)) if blob else None
            verdict = checked[digest]
            if verdict is None or not verdict.valid:
                why = verdict.error if verdict is not None else "no replay"
                report.reasons.append(f"{NAMES[seat]}'s replay does not verify: {why}")
            elif verdict.result is None:
                report.reasons.append(f"{NAMES[seat]}'s replay has no result")
        accused: set[str] = set()
        for blob in blobs.values():
            for payload in parse_frames(blob).payloads:
                entry = Entry.decode(payload)
                if entry.kind == "abort":
                    body = entry.body
                    accused.add(f"{NAMES[body['culprit']]} ({body['reason']}: {body['detail']})")
        report.accused = sorted(accused)
        if accused:
            report.reasons.append(f"accused: {', '.join(report.accused)}")
        for seat, before in self.snapshots:
            after = parse_frames(blobs[seat]).payloads
            gone = sum(1 for i, p in enumerate(before) if i >= len(after) or after[i] != p)
            report.lost += gone
        if report.lost:
            report.reasons.append(f"{report.lost} entries lost")
        if not report.reasons:
            report.status = "completed"


_REFUSAL = re.compile(r"rejected a message from (.*?): (.*)$")
_REFUSALS = re.compile(r"rejected (\d+) more messages from (.*?) like: (.*)$")


def refusals(table: Table) -> Counter:
    """What the peers refused, by reason (numbers taken out), from their logs."""
    seen: Counter = Counter()
    for seat in range(table.plan.seats):
        log = table.replay(seat).with_name(f"{NAMES[seat]}.p2pt.peer.log")
        if not log.exists():
            continue
        for line in log.read_text(errors="replace").splitlines():
            line = line[20:]  # the time stamp
            if match := _REFUSALS.match(line):
                seen[_kind(match[3])] += int(match[1])
            elif match := _REFUSAL.match(line):
                seen[_kind(match[2])] += 1
    return seen


def _kind(reason: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", re.sub(r"\d+", "N", reason)).strip()


# -- the run ------------------------------------------------------------------------


def summary(reports: list[GameReport], seed: int, seconds: float, min_games: int) -> list[str]:
    counted = [r for r in reports if r.status != "table gone"]
    gap = len(reports) - len(counted)
    completed = sum(r.status == "completed" for r in counted)
    identical = sum(r.identical for r in counted)
    lost = sum(r.lost for r in reports)
    accused = sum(len(r.accused) for r in reports)
    games = Counter(r.plan.game for r in reports)
    crashes = [c for r in reports for c in r.plan.crashes]
    fired = [c for c in crashes if c.fired]
    kills = Counter(c.phase for c in fired if c.kind == "kill")
    spoiled = Counter(c.choice_file for c in fired if c.choice_file)
    knocked = [r for r in reports if r.plan.knock]
    seated = sum(r.status == "completed" for r in knocked)
    forged = [r for r in reports if r.plan.forged]
    watched = [r for r in reports if r.plan.watched]
    cuts = [c for c in fired if c.kind in ("power", "blackout")]
    kinds = Counter(c.kind for c in fired)
    refused = sum((r.refusals for r in reports), Counter())
    share = 100.0 * completed / len(counted) if counted else 0.0
    met = completed == len(counted) and lost == 0 and accused == 0 and len(counted) >= min_games
    lines = [
        f"seed {seed}: {len(reports)} games ("
        + ", ".join(f"{g} {n}" for g, n in sorted(games.items()))
        + ")",
        f"games completed: {completed}/{len(counted)} ({share:.1f} %)",
        f"host killed before its table filled (no table to come back to): {gap}",
        f"replays byte-identical: {identical}/{len(counted)}",
        f"entries lost: {lost}",
        f"seats falsely accused: {accused}",
        "faults: kill -9 " + str(sum(kills.values())) + " (by what the seat last wrote: "
        + ", ".join(f"{k} {n}" for k, n in sorted(kills.items())) + "), "
        f"power cuts {kinds['power']}, blackouts {kinds['blackout']} "
        f"(entries cut {sum(c.cut for c in cuts)}), freezes {kinds['freeze']}, "
        f"missed {sum(c.missed for c in crashes)}; junk {sum(r.junk for r in reports)}, "
        f"recorded frames replayed {sum(r.injected + r.replayed for r in reports)}, "
        f"takeover sockets {sum(r.takeovers for r in reports)}, "
        f"links cut {sum(r.cuts for r in reports)}, "
        "choice files after a kill at a commit: "
        + (", ".join(f"{k} {n}" for k, n in sorted(spoiled.items())) or "none"),
        f"lobby: {len(knocked)} games with strangers knocking ({sum(r.knocks for r in knocked)} "
        f"knocks and junk frames; every joiner seated in {seated}), "
        f"{len(watched)} watched with the host's lobby and feed frames replayed "
        f"(spectator identical in {sum(r.watcher.startswith('followed') for r in watched)}), "
        f"{len(forged)} with a forged listing (real table kept in "
        f"{sum(r.listing == 'kept' for r in forged)})",
        "refused by the peers: "
        + (", ".join(f"{k} {n}" for k, n in refused.most_common(8)) or "nothing"),
        f"wall time: {seconds:.0f} s",
        f"bar (100 % completed, 0 lost, 0 falsely accused, >= {min_games} games): "
        + ("met" if met else "NOT met"),
    ]  # fmt: skip
    return lines


def parse_seats(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    pair = (int(low), int(high or low))
    if not 2 <= pair[0] <= pair[1] <= 6:
        raise argparse.ArgumentTypeError(f"seats must be within 2-6, not {text!r}")
    return pair


def parse_faults(text: str) -> set:
    faults = {f.strip() for f in text.split(",") if f.strip()}
    unknown = faults - set(FAULTS)
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown faults {sorted(unknown)}; known: {FAULTS}")
    return faults


def parse_moments(text: str) -> set:
    moments = {m.strip() for m in text.split(",") if m.strip()}
    if not moments or moments - set(MOMENTS):
        raise argparse.ArgumentTypeError(f"moments are some of {MOMENTS}, not {text!r}")
    return moments


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None, help="default: a random one")
    parser.add_argument("--start", type=int, default=1, help="number of the first game")
    parser.add_argument("--seats", type=parse_seats, default=(2, 6), help="e.g. 2-6 or 3")
    parser.add_argument("--game", choices=[*GAMES, "both"], default="both")
    parser.add_argument(
        "--faults", type=parse_faults, default=set(DEFAULT_FAULTS), help=",".join(DEFAULT_FAULTS)
    )
    parser.add_argument(
        "--moments",
        type=parse_moments,
        default=set(MOMENTS),
        help="when crashes come: " + ",".join(MOMENTS),
    )
    parser.add_argument("--bot-delay", type=float, default=0.02)
    parser.add_argument("--junk-rate", type=float, default=20.0, help="junk messages a second")
    parser.add_argument("--game-timeout", type=float, default=90.0)
    parser.add_argument("--keep", type=Path, default=None, help="keep failed games' files here")
    parser.add_argument("--min-games", type=int, default=50, help="games the bar needs")
    args = parser.parse_args(argv)
    # A drill stopped by `kill` ends its seat processes too (the `finally` blocks).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    games = list(GAMES) if args.game == "both" else [args.game]
    faults = ",".join(f for f in FAULTS if f in args.faults)
    print(f"drill: seed {seed}, faults {faults or 'none'}", flush=True)
    reports: list[GameReport] = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="drill-") as scratch:
        for number in range(args.start, args.start + args.games):
            rng = random.Random(f"{seed}:{number}")
            plan = make_plan(rng, games, args.seats, args.faults, args.moments)
            workdir = Path(scratch) / f"game-{number}"
            workdir.mkdir()
            report = Game(number, plan, rng, workdir, args).play()
            if report.status == "failed" and args.keep is not None:
                report.kept = args.keep / f"seed-{seed}-game-{number}"
                shutil.copytree(workdir, report.kept, dirs_exist_ok=True)
            shutil.rmtree(workdir, ignore_errors=True)
            print(report.line() + (f" (files: {report.kept})" if report.kept else ""), flush=True)
            reports.append(report)
    lines = summary(reports, seed, time.monotonic() - start, args.min_games)
    print("\n".join(lines), flush=True)
    return 0 if lines[-1].endswith(": met") else 1


if __name__ == "__main__":
    sys.exit(main())
