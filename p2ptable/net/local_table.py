"""Addresses on the LAN and a table of local bot peers for `p2ptable play`.

Bot peers are separate processes (``p2ptable join ... --bot``) talking ZeroMQ over
loopback, exactly as remote players would.  :class:`BotProcesses` makes sure every
process it started ends: on normal exit, on error and on Ctrl-C.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_PORT = 47001
BOT_NAMES = ("Bea", "Cal", "Dot", "Eve", "Fox")


def interface_addresses() -> list[str]:
    """Every non-loopback IPv4 address of this machine's network interfaces.

    Asks the kernel about each interface (Linux ``SIOCGIFADDR``); nothing is sent
    on the network.  Elsewhere, falls back to what the host name resolves to.
    """
    found: list[str] = []
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                request = struct.pack("256s", name.encode()[:15])
                try:
                    reply = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
                except OSError:
                    continue  # no IPv4 address on this interface
                address = socket.inet_ntoa(reply[20:24])
                if not address.startswith("127.") and address not in found:
                    found.append(address)
    except (ImportError, OSError, AttributeError):
        pass
    if not found:
        try:
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
                address = str(info[4][0])
                if not address.startswith("127.") and address not in found:
                    found.append(address)
        except OSError:
            pass
    return found


def lan_address() -> str:
    """Our IPv4 address as others on the LAN would reach it (loopback if none).

    With several interfaces this is a guess (the first); ``host --advertise``
    overrides it, and joiners always reach the host at the address they typed.
    """
    addresses = interface_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def address_towards(host: str) -> str:
    """The local address the OS would use to reach ``host``.

    ``connect`` on a UDP socket only selects a route; it sends nothing.
    """
    if host.startswith("127.") or host == "localhost":
        return "127.0.0.1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((host, 9))
            return probe.getsockname()[0]
        except OSError:
            return lan_address()


def split_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, e.g. 192.168.1.20:{DEFAULT_PORT}, not {text!r}")
    return host, int(port)


class BotProcesses:
    """Start bot peers that join ``address`` and guarantee they end."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen] = []
        self.workdir = Path(tempfile.mkdtemp(prefix="p2ptable-bots-"))

    def start(self, address: str, code: str, count: int, kind: str, delay: float = 0.0) -> None:
        for i in range(count):
            name = BOT_NAMES[i % len(BOT_NAMES)] + ("" if i < len(BOT_NAMES) else str(i))
            log = open(self.workdir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
            cmd = [
                sys.executable,
                "-m",
                "p2ptable",
                "join",
                address,
                "--code",
                code,
                "--name",
                f"{name} (bot)",
                "--bot",
                kind,
                "--quiet",
                "--bot-delay",
                str(delay),
                "--replay",
                str(self.workdir / f"{name}.p2pt"),
            ]
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            self.procs.append(
                subprocess.Popen(
                    cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env
                )
            )
            log.close()

    def stop(self, grace: float = 3.0) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    proc.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def __enter__(self) -> BotProcesses:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop(grace=0.5 if exc[0] is not None else 3.0)
        if exc[0] is None and all(p.returncode == 0 for p in self.procs):
            shutil.rmtree(self.workdir, ignore_errors=True)  # keep the logs of a failure
