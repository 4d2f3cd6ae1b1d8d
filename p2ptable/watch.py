"""`p2ptable watch`: follow a live game without a seat (the I/O loop around net/spectator.py).

How it works: one ZeroMQ inbox and one link to the host.  The spectator proves
the join code (``JoinerLobby(watch=True)``), then its :class:`Follower` pulls the
log and checks every entry with its own ledger; each accepted entry is appended
to the spectator's replay file at once, and the public screen is drawn from the
ledger's state (``view(state, None)``: never a hand).  The game's end (a result,
or an abort that stops it) ends the watch with the final screen; so does a host
that stops answering for ``silent_timeout`` seconds, with the replay kept so far.
A host that comes back meanwhile (``resume``) is followed again: the follower
proves the code to it again (net/spectator.py).
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from p2ptable.net.addresses import address_towards, split_address
from p2ptable.net.frontend import Leave
from p2ptable.net.listing import picked_mismatch
from p2ptable.net.lobby import JoinerLobby, LobbyError, LobbyIgnored, normalize_code
from p2ptable.net.persistence import replay_path_for
from p2ptable.net.spectator import FeedError, Follower
from p2ptable.net.zmq_transport import LOBBY, ZmqTransport
from p2ptable.replay import authoring
from p2ptable.replay.logfile import LogWriter
from p2ptable.ui.narrative import event_line
from p2ptable.ui.screens import screens_for
from p2ptable.ui.style import color_enabled
from p2ptable.ui.text import name_seats

WATCHED, NO_ANSWER, LOST, REFUSED, LEFT = 0, 3, 4, 2, 130
WATCHING = "You are watching: no seat, no hand; every entry is checked as it arrives."
CLEAR = "\x1b[2J\x1b[H"


@dataclass
class WatchResult:
    status: int
    replay: Path | None
    message: str = ""


class _Screen:
    """The public table, redrawn as entries come (in place on a terminal)."""

    def __init__(self, out: TextIO, quiet: bool) -> None:
        self.out, self.quiet = out, quiet
        self.tty = out.isatty()
        self.color = color_enabled(os.environ, self.tty)
        self.recent: list[str] = []

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out, flush=True)

    def draw(self, follower: Follower, applied: list, status: list[str]) -> None:
        ledger = follower.ledger
        if ledger is None or self.quiet:
            return
        names = [s.name for s in ledger.seats]
        self.recent += [event_line(a, names) for a in applied]
        del self.recent[:-200]
        screens = screens_for(ledger.game.name)
        view = ledger.game.view(ledger.state, None)
        if follower.over and ledger.result is not None:
            text = screens.render_final(view, names, self.color)
        else:
            size = shutil.get_terminal_size((80, 40))
            rows = max(12, size.lines - 2) if self.tty else None
            width = max(40, size.columns) if self.tty else 80  # the terminal's, as a seat's
            text = screens.render(
                view, names, self.recent, status, self.color, rows=rows, width=width
            )
        self.out.write((CLEAR if self.tty else "\n") + text + "\n")
        self.out.flush()


class _FullScreen:
    """The public table on the full-screen table (ui/tui/): the same calls as
    :class:`_Screen`, each a snapshot handed to the app, which never waits."""

    def __init__(self) -> None:
        from p2ptable.ui.tui.channel import Link

        self.link = Link()
        self.lines: list[str] = []
        self.after: list[str] = []  # printed once the table has closed
        self._game = ""
        self._view: dict[str, Any] | None = None
        self._names: tuple[str, ...] = ()

    def say(self, text: str) -> None:
        self.lines += text.strip("\n").splitlines()
        self._publish([WATCHING])

    def draw(self, follower: Follower, applied: list, status: list[str]) -> None:
        ledger = follower.ledger
        if ledger is None:
            return
        names = [s.name for s in ledger.seats]
        self.lines += [name_seats(event_line(a, names), names) for a in applied]
        self._game, self._names = ledger.game.name, tuple(names)
        view = self._view = ledger.game.view(ledger.state, None)
        if follower.over and ledger.result is not None:
            final = screens_for(self._game).render_final(view, names, False)
            self.after = [final]
        self._publish(status)

    def _publish(self, status: list[str]) -> None:
        from p2ptable.ui.tui.snapshot import Snapshot, of_view

        if self._view is None:
            self.link.publish(Snapshot("", None, lines=tuple(self.lines), status=tuple(status)))
            return
        final = self.after[0] if self.after else ""
        snap = of_view(self._game, self._view, self._names, self.lines, (), status, final=final)
        self.link.publish(snap)

    def left(self) -> bool:
        return any(isinstance(item, Leave) for item in self.link.received())


def watch(
    address: str,
    code: str,
    name: str,
    replay: Path | None = None,
    quiet: bool = False,
    connect_timeout: float = 15.0,
    silent_timeout: float = 60.0,
    out: TextIO | None = None,
    on_frame: Callable[[bytes], None] | None = None,
    listed_table: str = "",
    full_screen: bool = False,
) -> WatchResult:
    """Watch the table at ``address`` (HOST:PORT) until its game ends;
    ``listed_table``, the id of the table picked from the LAN's list, is
    checked against the host's (net/listing.py).  With ``full_screen`` (and
    not ``quiet``) the table is drawn full-screen while the loop runs beside it."""
    if full_screen and not quiet:
        from p2ptable.ui.tui.link import run_beside

        screen = _FullScreen()
        result = run_beside(
            screen.link,
            lambda: _watch(address, code, name, replay, False, connect_timeout,
                           silent_timeout, out, on_frame, listed_table, screen),
        )  # fmt: skip
        for text in screen.after:
            print(text, file=out or sys.stdout, flush=True)
        return result or WatchResult(LEFT, None, "you stopped watching")
    return _watch(address, code, name, replay, quiet, connect_timeout, silent_timeout, out,
                  on_frame, listed_table)  # fmt: skip


def _watch(
    address: str,
    code: str,
    name: str,
    replay: Path | None,
    quiet: bool,
    connect_timeout: float,
    silent_timeout: float,
    out: TextIO | None,
    on_frame: Callable[[bytes], None] | None,
    listed_table: str,
    shown: _FullScreen | None = None,
) -> WatchResult:
    normalize_code(code)
    host_ip, host_port = split_address(address)
    advertise = address_towards(host_ip)
    bind = "127.0.0.1" if advertise.startswith("127.") else "0.0.0.0"
    transport = ZmqTransport(bind, 0)
    host = f"tcp://{host_ip}:{host_port}"
    transport.connect(host)
    endpoint = f"tcp://{advertise}:{transport.port}"
    lobby = JoinerLobby(code, authoring.SeatSecrets.generate(2), name, endpoint, watch=True)
    screen: _Screen | _FullScreen = shown or _Screen(out or sys.stdout, quiet)
    writer: list[LogWriter] = []
    path: list[Path] = []

    def write(payload: bytes) -> None:
        if not writer:
            target = replay or replay_path_for(lobby.game or "game", lobby.table or b"", name)
            target.parent.mkdir(parents=True, exist_ok=True)
            writer.append(LogWriter(target, new=True))
            path.append(target)
        writer[0].append(payload)

    follower = Follower(lobby, write)
    screen.say(f"Connecting to {host_ip}:{host_port} to watch…")
    start = time.monotonic()
    told = (0, False)  # (rejoined, said the host went quiet) as last told
    try:
        while True:
            now = time.monotonic()
            if lobby.watching is None:
                lobby.tick(now)  # knock again (refused for the rate, or no answer)
                for line in lobby.log:
                    screen.say(line)
                lobby.log.clear()
            for frame in lobby.outgoing:
                transport.send(host, LOBBY, frame)
            lobby.outgoing.clear()
            follower.tick(now)
            for frame in follower.outgoing:
                transport.send(host, LOBBY, frame)
            follower.outgoing.clear()
            incoming, _ = transport.poll(50)
            applied: list = []
            now = time.monotonic()
            for item in incoming:
                if item.channel != LOBBY:
                    continue  # a spectator takes part in no game round
                if on_frame is not None:
                    on_frame(item.payload)
                if lobby.watching is None:
                    try:
                        lobby.receive(item.payload)
                    except LobbyIgnored:
                        continue
                    if lobby.watching is not None:
                        follower.heard = now
                        differs = picked_mismatch(
                            listed_table, f"{host_ip}:{host_port}", lobby.table or b"", True
                        )
                        if differs:
                            screen.say(differs)
                        seated = ", ".join(lobby.watching.get("seats", []))
                        screen.say(f"Watching {lobby.game} (seated: {seated}).")
                    continue
                applied += follower.receive(item.payload, now)
            if shown is not None and shown.left():
                return WatchResult(LEFT, path[0] if path else None, "you stopped watching")
            told = _tell_comeback(screen, follower, told)
            if applied:
                screen.draw(follower, applied, [WATCHING])
            if follower.over:
                return WatchResult(WATCHED, path[0] if path else None)
            if lobby.watching is None and now - start > connect_timeout:
                if lobby.refusal is not None:
                    return WatchResult(REFUSED, None, lobby.gave_up(now - start))
                return WatchResult(NO_ANSWER, None, _no_answer(host_ip, host_port, connect_timeout))
            if lobby.watching is not None and now - follower.heard > silent_timeout:
                where = path[0] if path else None
                refused = f" (knocking again: {follower.refused})" if follower.refused else ""
                return WatchResult(LOST, where, f"the host stopped answering after entry "
                                   f"{follower.have - 1}{refused}")  # fmt: skip
    except KeyboardInterrupt:
        return WatchResult(LEFT, path[0] if path else None, "you stopped watching")
    except LobbyError as exc:
        return WatchResult(REFUSED, None, str(exc))
    except FeedError as exc:
        return WatchResult(LOST, path[0] if path else None, str(exc))
    finally:
        for w in writer:
            w.sync()
            w.close()
        transport.close()


def _tell_comeback(
    screen: _Screen | _FullScreen, follower: Follower, told: tuple[int, bool]
) -> tuple[int, bool]:
    """One line when the host goes quiet (we knock again), one when it is back."""
    rejoined, quiet = told
    if follower.rejoined > rejoined:
        screen.say(f"The host is back: following again from entry {follower.have}.")
        return follower.rejoined, False
    if follower.again is not None and not quiet:
        screen.say("The host went quiet: knocking again (it may be coming back)…")
        return rejoined, True
    return told


def _no_answer(ip: str, port: int, waited: float) -> str:
    return (
        f"no answer from {ip}:{port} after {waited:.0f} s: check the address and the code "
        "the host printed, and that the host opened the table with --spectators"
    )
