"""Starting real peer processes on 127.0.0.1 for tests, and always ending them."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from p2ptable.replay.logfile import parse_frames

DEADLINE = 90.0
CHECKOUT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peers:
    """A set of peer processes; ``close()`` kills whatever is still running."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, *args: str, module: str = "p2ptable") -> subprocess.Popen:
        """``python -m MODULE ARGS`` (p2ptable, or a helper of the tests, run
        from the checkout)."""
        out = open(self.workdir / f"{name}.out", "wb")  # noqa: SIM115 - closed below
        env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1")
        proc = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
            cwd=CHECKOUT if module != "p2ptable" else None,
        )
        out.close()
        self.procs[name] = proc
        return proc

    def host(self, name: str, game: str, seats: int, port: int, *extra: str):
        return self.start(
            name, "host", game, "--seats", str(seats), "--name", name, "--port", str(port),
            "--code", "TST-CDE", "--advertise", "127.0.0.1", "--replay", str(self.replay(name)),
            "--quiet", *extra,
        )  # fmt: skip

    def join(self, name: str, port: int, *extra: str, code: str = "TST-CDE"):
        return self.start(
            name, "join", f"127.0.0.1:{port}", "--code", code, "--name", name,
            "--replay", str(self.replay(name)), "--quiet", *extra,
        )  # fmt: skip

    def replay(self, name: str) -> Path:
        return self.workdir / f"{name}.p2pt"

    def output(self, name: str) -> str:
        return (self.workdir / f"{name}.out").read_text(errors="replace")

    def wait_all(self, timeout: float = DEADLINE) -> dict[str, int]:
        end = time.monotonic() + timeout
        codes = {}
        for name, proc in self.procs.items():
            try:
                codes[name] = proc.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                codes[name] = None
        return codes

    def kill(self, name: str) -> None:
        """kill -9 a peer that is still running (one that ended first is the
        test's premise gone: its game was over before the kill)."""
        proc = self.procs[name]
        assert proc.poll() is None, f"{name} ended before the kill: {proc.returncode}"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def close(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=10)


def entries_in(path: Path) -> int:
    if not path.exists():
        return 0
    return len(parse_frames(path.read_bytes()).payloads)


def wait_for_entries(path: Path, count: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if entries_in(path) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path.name} did not reach {count} entries in {timeout} s")
