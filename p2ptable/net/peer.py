"""A running peer: the I/O loop joining the ZeroMQ adapter, the lobby, the session,
the replay file on disk and a frontend (a person at a terminal, or a bot).

This is the only place where time is read and sockets are polled; everything it
drives is sans-IO.  Phases: lobby (host or join) -> genesis (every seat signs the
body the roster determines) -> game (the session) -> linger (keep answering until
every peer has the result, so nobody is left without it).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.api import Action
from p2ptable.net import lobby as lobbies
from p2ptable.net.idle_gc import QUIET, IdleCollector
from p2ptable.net.persistence import Resume, default_replay_path, save_secrets
from p2ptable.net.session import Finished, Rejected, Session, Stopped, link_keys
from p2ptable.net.wire import Message, RemoteProtocolError, open_frame, seal
from p2ptable.net.zmq_transport import BAD, GAME, LOBBY, ZmqTransport
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, game_id_of, signed_message
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import LogWriter

LINGER_SECONDS = 5.0
LEFT = 130  # exit status when the player interrupts (Ctrl-C), as shells report SIGINT
MAX_EARLY_FRAMES = 2_000  # game frames that may arrive before our genesis is complete
MAX_EARLY_BYTES = 8 << 20
CLOSE_LINGER_MS = 1000
# The loop sleeps until a message, input or the next deadline (a bot's think time,
# a ping, a timeout): never longer than this, never polling on a fixed beat, so an
# idle table costs no CPU and a move never queues behind six processes waking up
# for nothing.
MAX_SLEEP = 1.0
# Automatic steps done in one go (Session.step): more than a whole game's chance,
# open and result entries in a row, so only a bug could reach it.
MAX_STEPS = 10_000


class Frontend(Protocol):
    def say(self, text: str) -> None: ...

    def on_events(self, session: Session, events: list, now: float) -> None: ...

    def decide(self, session: Session, now: float) -> Action | None: ...

    def tick(self, session: Session, now: float) -> None: ...

    def wake_at(self, session: Session, now: float) -> float:
        """When the frontend next needs a call with no input (a bot's think time
        ending, a screen's clock): the loop sleeps until then or until a message."""
        ...

    def stdin_fd(self) -> int | None: ...

    def on_stdin(self, session: Session | None, now: float) -> Action | None: ...


@dataclass
class PeerConfig:
    name: str
    host: bool
    game: str = ""
    options: dict = field(default_factory=dict)
    seats: int = 0
    connect: str = ""  # host address for joiners, "ip:port"
    code: str = ""
    port: int = 0
    bind: str = "0.0.0.0"
    advertise: str = "127.0.0.1"
    replay: Path | None = None
    stats: Path | None = None
    timeout: float = 1800.0  # give up on a table that does not fill (the game has no limit)
    withhold_timeout: float = 20.0
    abandon_timeout: float = 300.0


class Peer:
    def __init__(
        self,
        config: PeerConfig,
        frontend: Frontend,
        secrets: authoring.SeatSecrets | None = None,
        resume: Resume | None = None,
    ) -> None:
        self.config = config
        self.ui = frontend
        self.secrets = resume.secrets if resume else secrets or authoring.SeatSecrets.generate()
        port = resume.port if resume else config.port
        self.transport = ZmqTransport(config.bind, port)
        self.endpoint = f"tcp://{config.advertise}:{self.transport.port}"
        self.session: Session | None = None
        self.members: list[lobbies.Member] = []
        self.seat: int | None = None
        self.replay_path: Path | None = None
        self._buffer: list[bytes] = []
        self._buffered_bytes = 0
        self._flood_noted = False
        self._gsigs: dict[int, bytes] = {}
        self._links: list[bytes | None] = []
        self._gsig_boot = b""
        self._gsig_seq = 0
        self._next_gsig = 0.0
        self._genesis_body: bytes | None = None
        self._stats: list[dict] = []
        self._early_notes: list[str] = []
        self.on_genesis: Callable[[Path], None] | None = None
        self.lobby: lobbies.HostLobby | lobbies.JoinerLobby | None = None
        fd = frontend.stdin_fd()
        if fd is not None:
            self.transport.register_fd(fd)
        if resume is not None:
            self._resume(resume)
        elif config.host:
            self.lobby = lobbies.HostLobby(
                config.game,
                config.options,
                config.seats,
                config.code,
                self.secrets,
                config.name,
                self.endpoint,
            )
        else:
            self.lobby = lobbies.JoinerLobby(config.code, self.secrets, config.name, self.endpoint)
            self.host_endpoint = f"tcp://{config.connect}"
            self.transport.connect(self.host_endpoint)

    def _resume(self, resume: Resume) -> None:
        ledger = resume.ledger
        self.replay_path = resume.replay
        self.note(f"resumed at entry {ledger.next_index}")
        self.seat = resume.seat
        self.members = [
            lobbies.Member(s.name, s.key, s.chain_head, s.link, endpoint)
            for s, endpoint in zip(ledger.seats, resume.endpoints, strict=True)
        ]
        self._connect_mesh()
        self.replay_path = resume.replay
        now = time.monotonic()
        self._open_session(ledger, LogWriter(resume.replay), now)
        self._flush_session(now)

    def _open_session(self, ledger: Ledger, writer: LogWriter, now: float) -> None:
        assert self.seat is not None
        self.session = Session(
            ledger,
            self.seat,
            self.secrets,
            now,
            write=writer.append,
            withhold_timeout=self.config.withhold_timeout,
            abandon_timeout=self.config.abandon_timeout,
        )

    def _connect_mesh(self) -> None:
        for i, member in enumerate(self.members):
            if i != self.seat:
                self.transport.connect(member.endpoint)

    # -- the loop ------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or stops; the exit status for the process."""
        start = time.monotonic()
        finished_at: float | None = None
        interrupted = False
        wake = start
        collector = IdleCollector()
        collector.start()
        try:
            while True:
                incoming, stdin_ready = self._wait(wake, collector)
                now = time.monotonic()
                if self.session is None and now - start > self.config.timeout:
                    self.ui.say(
                        f"Giving up: the table did not fill in {self.config.timeout:.0f} s."
                    )
                    return 2
                for item in incoming:
                    self._dispatch(item, now)
                self._flush_lobby()
                if self.session is None and self._genesis_body is not None:
                    if now >= self._next_gsig:
                        self._send_gsig()
                if self.session is not None:
                    # Send what the input produced, and note what it applied, then do
                    # the automatic steps now due (e.g. our reveal), one at a time,
                    # each sent as soon as it is made: all before our own player or
                    # bot thinks about its next move.
                    self._flush_session(now)
                    self._advance_session(now)
                if stdin_ready:
                    action = self.ui.on_stdin(self.session, now)
                    if getattr(self.ui, "stdin_closed", False):
                        self.transport.unregister_fd(self.ui.stdin_fd())
                    if action is not None and self.session is not None:
                        if self.session.my_turn():
                            self.ui.chosen = action  # taken on the next decide()
                if self.session is not None:
                    self.session.tick(now)
                    self.ui.tick(self.session, now)
                    if self.session.my_turn():
                        action = self.ui.decide(self.session, now)
                        if action is not None:
                            self._submit(action, now)
                    self._flush_session(now)
                    if self.session.stopped is not None:
                        return 3
                    if self.session.finished:
                        finished_at = finished_at or now
                        done = all(
                            p.their_len >= self.session.ledger.next_index
                            for p in self.session.peers.values()
                        )
                        if done or now - finished_at > LINGER_SECONDS:
                            return 0
                wake = self._wake_at(now)
        except KeyboardInterrupt:
            self.note("left the game (interrupted)")
            interrupted = True
            return LEFT
        finally:
            collector.stop()
            self._write_stats()
            self.transport.close(linger_ms=0 if interrupted else CLOSE_LINGER_MS)

    def _wait(self, wake: float, collector: IdleCollector) -> tuple[list, bool]:
        """Sleep until ``wake`` (at most MAX_SLEEP), a message or input; what came.
        Garbage that is due is collected once a quiet moment shows the burst of
        frames around a move is over (net/idle_gc.py)."""

        def sleep_ms() -> int:
            return round(min(MAX_SLEEP, max(0.0, wake - time.monotonic())) * 1000)

        if not collector.wants_quiet(sleep_ms() / 1000):
            collector.maybe_collect(0.0)  # only the backstop, if far too much is due
            return self.transport.poll(sleep_ms())
        incoming, stdin_ready = self.transport.poll(round(QUIET * 1000))
        if incoming or stdin_ready:
            return incoming, stdin_ready
        collector.maybe_collect(sleep_ms() / 1000)
        return self.transport.poll(sleep_ms())

    def _wake_at(self, now: float) -> float:
        """The next time the loop must run even if nothing arrives."""
        if self.session is None:
            return self._next_gsig if self._genesis_body is not None else now + MAX_SLEEP
        return min(self.session.wake_at(now), self.ui.wake_at(self.session, now))

    def _submit(self, action: Action, now: float) -> None:
        assert self.session is not None
        self._stats.append({"i": self.session.ledger.next_index, "submitted": time.monotonic()})
        self.session.submit(action, now, advance=False)
        self._flush_session(now)  # the move leaves before anything that follows it
        self._advance_session(now)

    def _advance_session(self, now: float) -> None:
        """The automatic steps now due, each one's frames sent and its entry noted
        as applied before the next one starts (Session.step)."""
        assert self.session is not None
        for _ in range(MAX_STEPS):
            progressed = self.session.step(now)
            self._flush_session(now)
            if not progressed:
                return

    # -- routing -------------------------------------------------------------------

    def _dispatch(self, item, now: float) -> None:  # noqa: ANN001
        if item.channel == LOBBY:
            if self.lobby is None:
                return
            try:
                if isinstance(self.lobby, lobbies.HostLobby):
                    self.lobby.receive(item.payload, item.address, now)
                    for line in self.lobby.log:
                        self.ui.say(line)
                        self.note(line)
                    self.lobby.log.clear()
                else:
                    self.lobby.receive(item.payload)
                    if self.lobby.members and self.lobby.members != self.members:
                        self.members = list(self.lobby.members)
                        names = ", ".join(m.name for m in self.members)
                        self.ui.say(f"Lobby ({len(self.members)} seated): {names}")
            except lobbies.LobbyError as exc:
                if isinstance(self.lobby, lobbies.JoinerLobby) and not isinstance(
                    exc, lobbies.LobbyIgnored
                ):
                    raise
                self.note(f"rejected a lobby message: {exc}")
            self._maybe_start_genesis()
        elif item.channel == BAD:
            self.note(f"rejected a message: {item.payload.decode()}")
        elif item.channel not in (GAME, LOBBY):
            self.note(f"rejected a message on unknown channel {item.channel[:8]!r}")
        elif item.channel == GAME:
            if self.session is None:
                self._buffer.append(item.payload)
                self._buffered_bytes += len(item.payload)
                while (
                    len(self._buffer) > MAX_EARLY_FRAMES or self._buffered_bytes > MAX_EARLY_BYTES
                ):
                    # A flood before the game starts: drop the oldest, say so once.
                    self._buffered_bytes -= len(self._buffer.pop(0))
                    if not self._flood_noted:
                        self._flood_noted = True
                        self.note("dropping early game frames: too many before the genesis")
                self._gather_genesis()
            else:
                self.session.receive(item.payload, now, advance=False)

    def _flush_lobby(self) -> None:
        if self.lobby is None:
            return
        if isinstance(self.lobby, lobbies.HostLobby):
            for endpoint, frame in self.lobby.outgoing:
                self.transport.reply(endpoint, LOBBY, frame)
        else:
            for frame in self.lobby.outgoing:
                self.transport.send(self.host_endpoint, LOBBY, frame)
        self.lobby.outgoing.clear()

    def _maybe_start_genesis(self) -> None:
        if self.lobby is None:
            return
        body = self.lobby.genesis
        if body is None or self._genesis_body is not None:
            return
        self._genesis_body = body
        self.members = list(self.lobby.members)
        if isinstance(self.lobby, lobbies.JoinerLobby):
            # We reached the host at the address we were given; its own guess at
            # its address (several interfaces, a host name mapped to loopback)
            # may not be reachable from here.
            host = self.members[0]
            self.members[0] = lobbies.Member(
                host.name, host.key, host.chain, host.link, self.host_endpoint, host.deck
            )
        self.seat = next(i for i, m in enumerate(self.members) if m.key == self.secrets.key.public)
        game_id = game_id_of(body)
        self._connect_mesh()
        sig = authoring.sign_genesis(body, self.secrets)
        self._gsigs[self.seat] = sig
        self._links = link_keys(self.secrets, self.seat, [m.link for m in self.members], game_id)
        self._gsig_boot = os.urandom(8)
        self._send_gsig()
        self.ui.say("Table full: every seat is signing the genesis.")
        self._gather_genesis()

    def _send_gsig(self) -> None:
        """Our genesis signature to every other seat; repeated every second until
        our session starts, so a peer that connected late still gets it."""
        assert self._genesis_body is not None and self.seat is not None
        game_id = game_id_of(self._genesis_body)
        data = {"sig": self._gsigs[self.seat]}
        self._gsig_seq += 1
        for i, member in enumerate(self.members):
            link = self._links[i]
            if link is not None:
                message = Message("gsig", game_id, self.seat, self._gsig_boot, self._gsig_seq, data)
                self.transport.send(member.endpoint, GAME, seal(message, link))
        self._next_gsig = time.monotonic() + 1.0

    def _gather_genesis(self) -> None:
        body = self._genesis_body
        if body is None:
            return
        game_id = game_id_of(body)
        keys = [m.key for m in self.members]
        rest = []
        for frame in self._buffer:
            try:
                message = open_frame(frame, game_id, self._links)
            except RemoteProtocolError:
                rest.append(frame)
                continue
            if message.kind == "gsig":
                sig = message.data["sig"]
                if verify_signature(keys[message.sender], sig, signed_message(game_id, body)):
                    self._gsigs[message.sender] = sig
            else:
                rest.append(frame)
        self._buffer = rest
        self._buffered_bytes = sum(len(f) for f in rest)
        if len(self._gsigs) == len(self.members):
            self._start_session(
                authoring.assemble_genesis(body, [self._gsigs[i] for i in range(len(self.members))])
            )

    def _start_session(self, genesis: Entry) -> None:
        assert self.seat is not None
        ledger = Ledger(genesis, readers={self.seat: self.secrets.deck})
        self.replay_path = self.config.replay or default_replay_path(ledger, self.config.name)
        self.replay_path.parent.mkdir(parents=True, exist_ok=True)
        writer = LogWriter(self.replay_path, new=True)
        writer.append(genesis.encode())
        save_secrets(
            self.replay_path,
            self.secrets,
            self.seat,
            [m.endpoint for m in self.members],
            self.transport.port,
        )
        now = time.monotonic()
        self._open_session(ledger, writer, now)
        if self.on_genesis:
            self.on_genesis(self.replay_path)
        for frame in self._buffer:
            self.session.receive(frame, now, advance=False)
        self._buffer.clear()
        self._buffered_bytes = 0
        self._flush_session(now)
        self._advance_session(now)

    def _flush_session(self, now: float) -> None:
        assert self.session is not None
        events = self.session.take_events()
        stamp = time.monotonic()  # when the session had applied what it reports
        for dest, frame in self.session.take_outgoing():
            targets = range(len(self.members)) if dest is None else [dest]
            for seat in targets:
                if seat != self.seat:
                    self.transport.send(self.members[seat].endpoint, GAME, frame)
        if events:
            for event in events:
                if hasattr(event, "index"):
                    self._stats.append({"i": event.index, "kind": event.kind, "applied": stamp})
                elif isinstance(event, Rejected):
                    who = "unknown sender" if event.seat is None else self._name(event.seat)
                    self.note(f"rejected a message from {who}: {event.reason}")
                elif isinstance(event, Stopped):
                    self.note(f"game stopped: {event.reason}")
                elif isinstance(event, Finished):
                    self.note(f"game over: {event.outcome.explanation}")
            self.ui.on_events(self.session, events, now)

    def _name(self, seat: int) -> str:
        return (
            f"seat {seat} ({self.members[seat].name})"
            if seat < len(self.members)
            else f"seat {seat}"
        )

    def note(self, text: str) -> None:
        """A line for the peer's diagnostic log (next to the replay: NAME.p2pt.peer.log)."""
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n"
        if self.replay_path is None:
            self._early_notes.append(line)
            return
        with open(self.replay_path.with_name(self.replay_path.name + ".peer.log"), "a") as f:
            f.writelines(self._early_notes)
            f.write(line)
        self._early_notes.clear()

    def _write_stats(self) -> None:
        if self.config.stats is not None:
            with open(self.config.stats, "w") as f:
                for row in self._stats:
                    f.write(json.dumps(row) + "\n")
