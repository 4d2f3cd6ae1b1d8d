"""`p2ptable watch`: follow a live game without a seat (the I/O loop around net/spectator.py).

How it works: one inbox and one link to the host (a ZeroMQ transport, or the
one it is handed: net/transport.py).  The spectator proves
the join code (``JoinerLobby(watch=True)``), then its :class:`Follower` pulls the
log and checks every entry with its own ledger; each accepted entry is appended
to the spectator's replay file at once, and the public screen is drawn from the
ledger's state (``view(state, None)``: never a hand).  The game's end (a result,
or an abort that stops it) ends the watch with the final screen; so does a host
that stops answering for ``silent_timeout`` seconds, with the replay kept so far.
A host that comes back meanwhile (``resume``) is followed again: the follower
proves the code to it again (net/spectator.py).  The loop sleeps until a frame
or its next deadline (the lobby's knock again, the follower's next pull, a
timeout), as the peer's does.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from p2ptable.bots.clock import WatchedClock
from p2ptable.net.addresses import address_towards, split_address
from p2ptable.net.listing import picked_mismatch
from p2ptable.net.lobby import JoinerLobby, LobbyError, LobbyIgnored, normalize_code
from p2ptable.net.persistence import replay_path_for
from p2ptable.net.spectator import FeedError, Follower
from p2ptable.net.spectator_talk import Refused
from p2ptable.net.transport import LOBBY, Transport
from p2ptable.net.zmq_transport import ZmqTransport
from p2ptable.replay import authoring
from p2ptable.replay.logfile import LogWriter
from p2ptable.replay.talk_file import TalkWriter
from p2ptable.ui.narrative import event_line, spectator_line, talk_line
from p2ptable.ui.screens import final_view, screens_for
from p2ptable.ui.spectator_input import SpectatorInput
from p2ptable.ui.style import color_enabled
from p2ptable.ui.terminal import gone_lines
from p2ptable.ui.tui.watching import WATCHING, SpectatorScreen

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Ledger

WATCHED, NO_ANSWER, LOST, REFUSED, LEFT = 0, 3, 4, 2, 130
CLEAR = "\x1b[2J\x1b[H"
# The loop sleeps until a message or its next deadline (a pull, a knock again, a
# timeout), never longer than this, as the peer's does (net/peer.py).
MAX_SLEEP = 1.0


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
        self.dirty = False  # a line of talk came, or the clock ticked: redraw

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out, flush=True)

    def heard(self, line: str) -> None:
        """A line of the table's talk (net/spectator.py), among the events."""
        self.recent.append(line)
        self.dirty = True

    def may_talk(self) -> None:
        """The genesis says spectators may talk here: said once."""
        self.heard("Spectators may talk at this table: type a line and Enter.")

    def said(self, line: str) -> None:
        self.heard(line)  # our own line, among the events

    def refused(self, reason: str) -> None:
        self.heard(f"(not said: {reason})")

    def draw(self, follower: Follower, applied: list, status: list[str]) -> None:
        ledger = follower.ledger
        if ledger is None or self.quiet:
            return
        names = [s.name for s in ledger.seats]
        self.dirty = False
        self.recent += [event_line(a, names) for a in applied]
        del self.recent[:-200]
        screens = screens_for(ledger.game.name)
        view = ledger.game.view(ledger.state, None)
        if follower.over and ledger.result is not None:
            text = screens.render_final(final_view(view, ledger.result), names, self.color)
        else:
            size = shutil.get_terminal_size((80, 40))
            rows = max(12, size.lines - 2) if self.tty else None
            width = max(40, size.columns) if self.tty else 80  # the terminal's, as a seat's
            text = screens.render(
                view, names, self.recent, status, self.color, rows=rows, width=width
            )
        self.out.write((CLEAR if self.tty else "\n") + text + "\n")
        self.out.flush()


class _Watch:
    """One watch's state between passes of its loop: the spectator's lobby, its
    follower, the replay file (opened at the first entry) and what was told."""

    def __init__(
        self,
        lobby: JoinerLobby,
        screen: _Screen | SpectatorScreen,
        replay: Path | None,
        name: str,
        host: tuple[str, int],
    ) -> None:
        self.lobby, self.screen, self.host = lobby, screen, host
        self.follower = Follower(lobby)
        self._target, self._name = replay, name
        self.writer: LogWriter | None = None
        self.talk: TalkWriter | None = None
        self.path: Path | None = None
        self.told = (0, False)  # (rejoined, said the host went quiet) as last told
        # The table's clock (host --clock), once the genesis says it has one.
        self.clock: WatchedClock | None = None
        self.clock_said: str | None = None
        self.told_talk = False  # said once: this table lets spectators talk

    def take_out(self, now: float) -> list[bytes]:
        """The lobby's and the follower's due work: the frames for the host."""
        lobby, follower = self.lobby, self.follower
        if lobby.watching is None:
            lobby.tick(now)  # knock again (refused for the rate, or no answer)
            for line in lobby.take_log():
                self.screen.say(line)
        out = lobby.take_outgoing()
        follower.tick(now)
        return out + follower.take_outgoing()

    def write(self) -> None:
        """The entries the follower accepted, appended to the replay file."""
        for payload in self.follower.take_writes():
            if self.writer is None:
                lobby = self.lobby
                target = self._target or replay_path_for(
                    lobby.game or "game", lobby.table or b"", self._name
                )
                target.parent.mkdir(parents=True, exist_ok=True)
                self.writer, self.path = LogWriter(target, new=True), target
            self.writer.append(payload)
        ledger = self.follower.ledger
        for line, record in self.follower.take_talk():
            assert ledger is not None and self.path is not None  # talk comes after the genesis
            if self.talk is None:
                self.talk = TalkWriter(self.path)
            self.talk.append(record)  # REPLAY.talk, as a seat keeps it
            self.screen.heard(talk_line(ledger.seats[line.seat].name, line.text))
        for said in self.follower.take_spectators():  # the spectators' channel
            self.screen.heard(spectator_line(said.name, said.text))
        if self.follower.may_talk and not self.told_talk:
            self.told_talk = True
            self.screen.may_talk()  # said; the full-screen table's typing line opens

    def typed(self, text: str, now: float) -> None:
        """A line our person typed: said in the spectators' channel, or why not."""
        try:
            line = self.follower.say(text, now)
        except Refused as exc:
            self.screen.refused(str(exc))
            return
        self.screen.said(spectator_line(line.name, line.text))

    def admitted(self, now: float, listed_table: str, where: str) -> None:
        """The host's welcome: said, and the host's silence counts from now."""
        lobby = self.lobby
        assert lobby.watching is not None
        self.follower.heard = now
        differs = picked_mismatch(listed_table, where, lobby.table or b"", True)
        if differs:
            self.screen.say(differs)
        seated = ", ".join(lobby.watching.get("seats", []))
        self.screen.say(f"Watching {lobby.game} (seated: {seated}).")

    def wake_at(self, now: float, start: float, connect_timeout: float, silent: float) -> float:
        """The next deadline: the lobby's or the follower's next step, or a timeout."""
        lobby, follower = self.lobby, self.follower
        if lobby.watching is None:
            return min(lobby.wake_at(now), start + connect_timeout)
        tick = now + 1.0 if self.clock is not None else float("inf")  # the time left
        return min(follower.wake_at(now), follower.heard + silent, tick)

    def close(self) -> None:
        if self.talk is not None:
            self.talk.close()
        if self.writer is not None:
            self.writer.sync()
            self.writer.close()


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
    transport: Transport | None = None,
    full_screen: bool = False,
    stdin: TextIO | None = None,
) -> WatchResult:
    """Watch the table at ``address`` (HOST:PORT) until its game ends;
    ``listed_table``, the id of the table picked from the LAN's list, is
    checked against the host's (net/listing.py).  ``transport`` is the
    network (net/transport.py; a ZeroMQ inbox of our own if not given).  With
    ``full_screen`` (and not ``quiet``) the table is drawn full-screen while the
    loop runs beside it (ui/tui/link.py).  What is typed (in the line mode on
    ``stdin``, ours by default: ui/spectator_input.py; on the full-screen table
    on its typing line: ui/tui/watching.py) is said in the spectators' channel,
    at a table that has one."""
    if full_screen and not quiet:
        from p2ptable.ui.tui.link import run_beside

        shown = SpectatorScreen()
        result = run_beside(
            shown.link,
            lambda: _watch(address, code, name, replay, False, connect_timeout, silent_timeout,
                           out, on_frame, listed_table, transport, shown),
        )  # fmt: skip
        for text in shown.after:
            print(text, file=out or sys.stdout, flush=True)
        return result or WatchResult(LEFT, None, "you stopped watching")
    typing = None if quiet else SpectatorInput(stdin or sys.stdin)
    return _watch(address, code, name, replay, quiet, connect_timeout, silent_timeout, out,
                  on_frame, listed_table, transport, typing=typing)  # fmt: skip


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
    transport: Transport | None,
    shown: SpectatorScreen | None = None,
    typing: SpectatorInput | None = None,
) -> WatchResult:
    normalize_code(code)
    host_ip, host_port = split_address(address)
    advertise = address_towards(host_ip)
    bind = "127.0.0.1" if advertise.startswith("127.") else "0.0.0.0"
    net = transport if transport is not None else ZmqTransport(bind, 0)
    host = f"tcp://{host_ip}:{host_port}"
    net.connect(host)
    if shown is not None:
        net.register_fd(shown.link.read_fd)  # the leave key wakes the loop at once
    elif typing is not None and typing.fd is not None:
        net.register_fd(typing.fd)  # a line typed wakes the loop at once
    endpoint = f"tcp://{advertise}:{net.port}"
    lobby = JoinerLobby(code, authoring.SeatSecrets.generate(2), name, endpoint, watch=True)
    screen = shown if shown is not None else _Screen(out or sys.stdout, quiet)
    state = _Watch(lobby, screen, replay, name, (host_ip, host_port))
    follower = state.follower
    state.screen.say(f"Connecting to {host_ip}:{host_port} to watch…")
    start = time.monotonic()
    try:
        while True:
            now = time.monotonic()
            for frame in state.take_out(now):
                net.send(host, LOBBY, frame)
            wake = state.wake_at(now, start, connect_timeout, silent_timeout)
            incoming, ready = net.poll(_sleep_ms(wake, time.monotonic()))
            now = time.monotonic()
            if ready and typing is not None and typing.fd is not None:
                fd, text = typing.fd, typing.read()
                if typing.fd is None:
                    net.unregister_fd(fd)  # the input ended: the watch goes on
                if text is not None:
                    state.typed(text, now)
            applied: list = []
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
                        state.admitted(now, listed_table, f"{host_ip}:{host_port}")
                    continue
                applied += follower.receive(item.payload, now)
                state.write()
            for text in shown.typed() if shown is not None else ():  # its typing line
                state.typed(text, now)
            if shown is not None and shown.gone:  # its leave key, or Ctrl-C there
                state.write()
                return WatchResult(LEFT, state.path, "you stopped watching")
            limits = (connect_timeout, silent_timeout)
            result = _verdict(state, applied, now, now - start, limits)
            if result is not None:
                return result
    except KeyboardInterrupt:
        state.write()
        return WatchResult(LEFT, state.path, "you stopped watching")
    except LobbyError as exc:
        return WatchResult(REFUSED, None, str(exc))
    except FeedError as exc:
        state.write()  # every entry before the one that did not check is kept
        return WatchResult(LOST, state.path, str(exc))
    finally:
        state.close()
        net.close()


def _sleep_ms(wake: float, now: float) -> int:
    """Milliseconds until ``wake`` (at most MAX_SLEEP), rounded up: the loop
    wakes at its next deadline, not before it."""
    return math.ceil(min(MAX_SLEEP, max(0.0, wake - now)) * 1000)


def _verdict(
    state: _Watch, applied: list, now: float, waited: float, limits: tuple[float, float]
) -> WatchResult | None:
    """What this pass showed, drawn and told; how the watch ends, if it ends now.
    ``limits``: the connect and the silent timeouts."""
    lobby, follower, screen = state.lobby, state.follower, state.screen
    connect_timeout, silent_timeout = limits
    state.told = _tell_comeback(screen, follower, state.told)
    ledger = follower.ledger
    line = None
    if ledger is not None and ledger.clock is not None and state.clock is None:
        state.clock = WatchedClock(ledger.clock)
    if state.clock is not None and ledger is not None:
        names = [s.name for s in ledger.seats]
        line = state.clock.line(ledger, names, now, 1 if getattr(screen, "tty", True) else 10)
        if line != state.clock_said and not applied and not follower.over:
            state.clock_said = line
            screen.dirty = True  # each second: the time left
    if applied or screen.dirty:
        screen.draw(follower, applied, _status(ledger, line))
    if follower.over:
        return WatchResult(WATCHED, state.path)
    if lobby.watching is None and waited > connect_timeout:
        if lobby.refusal is not None:
            return WatchResult(REFUSED, None, lobby.gave_up(waited))
        ip, port = state.host
        return WatchResult(NO_ANSWER, None, _no_answer(ip, port, connect_timeout))
    if lobby.watching is not None and now - follower.heard > silent_timeout:
        refused = f" (knocking again: {follower.refused})" if follower.refused else ""
        return WatchResult(LOST, state.path, f"the host stopped answering after entry "
                           f"{follower.have - 1}{refused}")  # fmt: skip
    return None


def _status(ledger: Ledger | None, clock: str | None) -> list[str]:
    """The lines under a spectator's table: that they watch, each player gone
    from a table that keeps going (said as the seats say it, their cards face
    up), the clock's time left."""
    status = [WATCHING]
    if ledger is not None and ledger.book is not None:
        names = [s.name for s in ledger.seats]
        status += gone_lines(ledger.game, names, ledger.book.gone_hands())
    return status + ([clock] if clock else [])


def _tell_comeback(
    screen: _Screen | SpectatorScreen, follower: Follower, told: tuple[int, bool]
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
