"""The bot peers of `p2ptable play`: started, kept alive with their person, resumed.

How it works
------------
Each bot is a separate process (``p2ptable join ... --bot``) talking ZeroMQ over
loopback, exactly as a remote player would.  Its replay and secrets live in the
per-user data directory (``…/p2ptable/bots/TABLE/``, owner-only), never in a
temporary folder: they are what lets the table go on after the person leaves.

A bot's standard input is a pipe from the person's process, its *lifeline*: when
that process ends, however it ends (Ctrl-C, a crash, ``kill -9``), the pipe
closes and the bot leaves too, so no bot is left waiting in the background to
accuse its person of having abandoned the game.  Only when the person leaves
for good (``leave``: a bot plays their seat, issue 27) are the bots told first
to play on without it (:meth:`BotProcesses.detach`): the table goes on, and
needs them.  Once the genesis is signed, a
small record next to the person's replay (``REPLAY.bots.json``) lists the bots'
replays; ``p2ptable resume REPLAY`` reads it and resumes every bot from its own
replay before resuming the person's seat, so the whole table comes back.

A host's bot peers (``host --bots``, ``play``, which is a host whose other
seats are all bots, and the lobby's ``bots`` command) are :class:`BotsBeside`:
started when asked, noted beside the host's replay once it exists.
:class:`BotProcesses` makes sure every process it started ends: on normal exit,
on error and on Ctrl-C.  When the game finished and every bot ended well, the
bots' files (copies of the person's replay) are removed with the record.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from p2ptable.net.peer_wait import DETACH

# The folder holding the p2ptable package that runs here (see BotProcesses._spawn).
OURS = str(Path(__file__).resolve().parent.parent.parent)
BOT_NAMES = ("Bea", "Cal", "Dot", "Eve", "Fox")
RECORD_SUFFIX = ".bots.json"


def bots_dir() -> Path:
    """Where `play` keeps its bots' replays and secrets (beside the replays)."""
    from p2ptable.net.persistence import data_dir

    return data_dir().parent / "bots"


def bot_name(i: int) -> str:
    return BOT_NAMES[i % len(BOT_NAMES)] + ("" if i < len(BOT_NAMES) else str(i))


@dataclass(frozen=True)
class BotSeat:
    replay: Path
    kind: str
    delay: float


def record_path(replay: Path) -> Path:
    return replay.with_name(replay.name + RECORD_SUFFIX)


def write_record(replay: Path, workdir: Path, bots: list[BotSeat]) -> None:
    """Note next to ``replay`` which bot peers share its table (for resume)."""
    data = {
        "dir": str(workdir),
        "bots": [{"replay": str(b.replay), "kind": b.kind, "delay": b.delay} for b in bots],
    }
    path = record_path(replay)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def read_record(replay: Path) -> tuple[Path, list[BotSeat]] | None:
    """The bots noted next to ``replay``, or None (not a `play` table).

    ValueError when the record is there but unreadable."""
    path = record_path(replay)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        bots = [BotSeat(Path(b["replay"]), str(b["kind"]), float(b["delay"])) for b in data["bots"]]
        return Path(data["dir"]), bots
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is damaged ({exc}): resume the bots' seats by hand") from None


class BotProcesses:
    """Bot peers of one local table, and the guarantee that they end."""

    def __init__(self, workdir: Path | None = None) -> None:
        self.procs: list[subprocess.Popen] = []
        self.seats: list[BotSeat] = []
        if workdir is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            workdir = bots_dir() / f"{stamp}-{os.urandom(3).hex()}"
        self.workdir = workdir
        self.workdir.mkdir(parents=True, exist_ok=True, mode=0o700)

    def _spawn(self, args: list[str], log_name: str) -> None:
        log = open(self.workdir / log_name, "ab")  # noqa: SIM115 - closed with the process
        # Our own p2ptable, whatever folder the person is in: ``python -m`` puts
        # the working folder first on the path, so a bot runs in its own folder
        # (which holds no package), with the folder of the package that runs
        # here first on its PYTHONPATH (a checkout that was never installed).
        path = os.pathsep.join([OURS, *filter(None, [os.environ.get("PYTHONPATH")])])
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=path)
        cmd = [sys.executable, "-m", "p2ptable", *args, "--quiet", "--lifeline"]
        self.procs.append(
            subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.PIPE,
                env=env,
                cwd=self.workdir,
                # A session of its own: the lifeline alone decides when a bot
                # goes.  In the person's, closing the terminal (SIGHUP) or a
                # Ctrl-C there would end a bot told to play on (detach).
                start_new_session=True,
            )
        )
        log.close()

    def start(self, address: str, code: str, count: int, kind: str, delay: float = 0.0) -> None:
        for _ in range(count):
            name = bot_name(len(self.seats))  # more bots later get the next names
            replay = self.workdir / f"{name}.p2pt"
            self.seats.append(BotSeat(replay, kind, delay))
            args = ["join", address, "--code", code, "--name", f"{name} (bot)"]
            args += ["--bot", kind, "--bot-delay", str(delay), "--replay", str(replay)]
            self._spawn(args, f"{name}.log")

    def resume(self, seats: list[BotSeat]) -> None:
        for seat in seats:
            self.seats.append(seat)
            args = ["resume", str(seat.replay), "--bot", seat.kind, "--bot-delay", str(seat.delay)]
            self._spawn(args, seat.replay.stem + ".log")

    def stop(self, grace: float = 3.0) -> None:
        """Give the bots ``grace`` seconds to end by themselves (a finished game),
        then cut their lifelines (they leave, resumable), then end them."""
        deadline = time.monotonic() + grace
        for proc in self.procs:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for proc in self.procs:
            if proc.stdin is not None and not proc.stdin.closed:
                try:
                    proc.stdin.close()
                except OSError:
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()

    def detach(self) -> None:
        """Our player left for good (a bot plays their seat): the bots play on to
        the end without us, each ending by itself when the game is over (or
        stopped), as the table needs them; their files and the record stay, so
        ``resume`` can still bring back one that died."""
        for proc in self.procs:
            if proc.poll() is None and proc.stdin is not None and not proc.stdin.closed:
                try:
                    proc.stdin.write(DETACH)
                    proc.stdin.close()
                except OSError:
                    pass  # it ended meanwhile
        self.procs = []

    def all_done(self) -> bool:
        return bool(self.procs) and all(p.returncode == 0 for p in self.procs)

    def clean_up(self, replay: Path | None) -> None:
        """Remove the bots' files and the record: the game is over, and every
        bot's replay is a copy of the person's."""
        shutil.rmtree(self.workdir, ignore_errors=True)
        if replay is not None:
            record_path(replay).unlink(missing_ok=True)


class BotsBeside:
    """The bot peers beside one host: none until :meth:`start`, then one
    :class:`BotProcesses` for them all, noted beside the host's replay."""

    def __init__(self, kind: str, delay: float) -> None:
        self.kind, self.delay = kind, delay
        self.procs: BotProcesses | None = None

    def start(self, address: str, code: str, count: int) -> None:
        """``count`` more bots, knocking at ``address`` with ``code``."""
        if self.procs is None:
            self.procs = BotProcesses()
        self.procs.start(address, code, count, self.kind, self.delay)

    def note(self, replay: Path) -> None:
        """Once the genesis exists: which bots share ``replay``'s table (for resume)."""
        if self.procs is not None:
            write_record(replay, self.procs.workdir, self.procs.seats)
