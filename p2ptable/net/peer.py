"""A running peer: the I/O loop joining the ZeroMQ adapter, the seat's arrival at
the table (lobby and genesis round), the session, the replay file on disk and a
frontend (a person at a terminal, or a bot).

This is the only place where time is read and sockets are polled; everything it
drives is sans-IO.  One pass of the loop: poll (sleep until a frame, input or the
next deadline) -> feed (the arrival before the genesis, the session after it) ->
carry out (write, sync, send: ``deliver``) -> ask the frontend -> sleep again.
Phases: lobby (host or join) -> genesis (every seat signs the body the roster
determines) -> game (the session) -> linger (keep answering until every peer has
the result, or the same ending, so nobody is left without it).  A person who
leaves (Ctrl-C, or the end of their input: the frontend's ``Leave``) ends the
loop with LEFT, after a bye to the others during a game (wire.md 6.13); the
seat's lock is released as the loop ends, so ``resume`` continues it at once.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from p2ptable.engine.api import Action
from p2ptable.net import lobby as lobbies
from p2ptable.net.arrival import Arrival
from p2ptable.net.events import Recovered
from p2ptable.net.frontend import Frontend, Leave
from p2ptable.net.gallery import COMEBACK_WAIT, EncodedLog
from p2ptable.net.idle_gc import QUIET, IdleCollector
from p2ptable.net.peer_log import PeerLog, seats_named
from p2ptable.net.peers import PeerStates, boot_bytes
from p2ptable.net.pending_genesis import PendingGenesis, drop_pending, save_pending
from p2ptable.net.persistence import (
    ChoiceKeeper,
    Resume,
    SeatLock,
    choice_path,
    hold_seat_lock,
    replay_path_for,
    save_secrets,
)
from p2ptable.net.session import (
    Choice,
    Failed,
    Finished,
    Moved,
    PeerLeft,
    Rejected,
    Session,
    Stopped,
)
from p2ptable.net.zmq_transport import BAD, GAME, LOBBY, ZmqTransport
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, game_id_of
from p2ptable.replay.ledger import Applied, Ledger
from p2ptable.replay.logfile import LogWriter

__all__ = ["FAILED", "LEFT", "NO_ANSWER", "Frontend", "Peer", "PeerConfig", "deliver"]

LINGER_SECONDS = 5.0
LEFT = 130  # exit status when the player interrupts (Ctrl-C), as shells report SIGINT
# Our bye (wire.md 6.13) is handed to ZeroMQ's I/O thread, which puts it on the
# wire within a millisecond or so; the process then waits this long before it
# closes its sockets (which drops what is still queued), and ends.
BYE_WAIT = 0.1
NO_ANSWER = 4  # exit status of a joiner whose host never answered
FAILED = 70  # exit status when a bug of ours stopped the session (EX_SOFTWARE)
CLOSE_LINGER_MS = 1000
# The loop sleeps until a message, input or the next deadline (a bot's think time,
# a ping, a timeout): never longer than this, never polling on a fixed beat, so an
# idle table costs no CPU and a move never queues behind six processes waking up
# for nothing.
MAX_SLEEP = 1.0
# Automatic steps done in one go (Session.step): more than a whole game's chance,
# open and result entries in a row, so only a bug could reach it.
MAX_STEPS = 10_000


def deliver(
    session: Session,
    write: Callable[[bytes], None],
    send: Callable[[int | None, bytes], None],
    sync: Callable[[], None] = lambda: None,
    cut: Callable[[int], None] = lambda keep: None,
    keep_choice: Callable[[Choice], None] = lambda choice: None,
) -> None:
    """Carry out what the session produced, in the one safe order: every entry
    written, then synced to stable storage if one of them is ours (an entry we
    signed, or assembled and send first), then every frame sent.  So an entry we
    signed is on disk before any frame that carries it leaves, and a crash or a
    power cut can never make us sign a second, different entry for a position a
    peer already holds.  One sync covers every earlier write to the file, the
    others' entries ours link to included; those alone are never synced (a peer
    sends them again).  Our secret choices are kept (durably) before any frame
    leaves too: our commit to one goes out in the same batch."""
    durable = False
    for item in session.take_writes():
        if item.keep is not None:
            cut(item.keep)  # an agreed abort takes a contested position
        write(item.payload)
        durable = durable or item.durable
    if durable:
        sync()
    for choice in session.take_choices():
        keep_choice(choice)
    for dest, frame in session.take_outgoing():
        send(dest, frame)


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
    connect_timeout: float = 15.0  # a joiner gives up when the host does not answer
    # A bot peer started by `play`: its stdin is a pipe from the person's process,
    # and end-of-file on it means that process is gone, so this seat leaves too
    # (and can be resumed with it; play.py).
    lifeline: bool = False
    withhold_timeout: float = 20.0
    abandon_timeout: float = 300.0
    spectators: bool = False  # host --spectators: watchers may follow the log (gallery.py)
    listed_table: str = ""  # a joiner's table id as the LAN's list announced it, if picked


class Peer:
    def __init__(
        self,
        config: PeerConfig,
        frontend: Frontend,
        secrets: authoring.SeatSecrets | None = None,
        resume: Resume | PendingGenesis | None = None,
    ) -> None:
        self.config = config
        self.ui = frontend
        self.secrets = resume.secrets if resume else secrets or authoring.SeatSecrets.generate()
        port = resume.port if resume else config.port
        self.transport = ZmqTransport(config.bind, port)
        self.endpoint = f"tcp://{config.advertise}:{self.transport.port}"
        self.session: Session | None = None
        self.replay_path: Path | None = None
        self._choices: ChoiceKeeper | None = None  # REPLAY.choice, at our first secret choice
        self.arrival = Arrival(self.transport, self.secrets, frontend.say, self.note)
        self.arrival.on_body = self._seat_is_set
        self._saved_boots: dict[int, int] = {}
        self._stats: list[dict] = []
        self.log = PeerLog()
        # Called with our replay's path once it is chosen (the genesis round
        # begins: from then on the seat can be resumed).
        self.on_genesis: Callable[[Path], None] | None = None
        # Held while we play the seat, so a second `resume` of it is refused
        # (taken by the caller for a resume, at the genesis for a new game).
        self.seat_lock: SeatLock | None = None
        self._input_fd: int | None = None
        self._sync_input_fd()
        if config.lifeline:
            self.transport.register_fd(0)
        # A host admitting spectators keeps its code with its secrets, so that it
        # admits them again after a resume (persistence.py).
        self._spectators_code: str | None = (
            config.code if config.host and config.spectators else None
        )
        if isinstance(resume, Resume):
            self._spectators_code = resume.spectators_code
        self._comeback_until = float("-inf")  # a resumed host waits for its spectators
        if isinstance(resume, PendingGenesis):
            self.replay_path = resume.replay
            self.arrival.resume(resume, time.monotonic())
            self._save_secrets(resume.endpoints, resume.peer_boots)
            self.note(f"resumed in the genesis round (start {self.arrival.boot})")
        elif resume is not None:
            self._resume(resume)
        elif config.host:
            self.arrival.host(
                lobbies.HostLobby(
                    config.game,
                    config.options,
                    config.seats,
                    config.code,
                    self.secrets,
                    config.name,
                    self.endpoint,
                    spectators=config.spectators,
                )
            )
        else:
            lobby = lobbies.JoinerLobby(config.code, self.secrets, config.name, self.endpoint)
            self.arrival.join(lobby, f"tcp://{config.connect}", config.listed_table)

    @property
    def members(self) -> list[lobbies.Member]:
        return self.arrival.members

    @property
    def seat(self) -> int | None:
        return self.arrival.seat

    # -- coming to the table ---------------------------------------------------------

    def _seat_is_set(self, body: bytes) -> None:
        """The genesis body is known, our signature not yet sent: make the seat
        resumable (replay path, lock, secrets, the pending body)."""
        self.replay_path = self.config.replay or replay_path_for(
            self.arrival.game or "game", game_id_of(body), self.config.name
        )
        self.replay_path.parent.mkdir(parents=True, exist_ok=True)
        if self.seat_lock is None:
            self.seat_lock = hold_seat_lock(self.replay_path)
        self._save_secrets([m.endpoint for m in self.members], {})
        save_pending(self.replay_path, body)
        if self.on_genesis:
            self.on_genesis(self.replay_path)

    def _start_session(self, genesis: Entry) -> None:
        seat = self.seat
        round_ = self.arrival.genesis_round
        assert seat is not None and round_ is not None and self.replay_path is not None
        ledger = Ledger(genesis, readers={seat: self.secrets.deck})
        self._writer = LogWriter(self.replay_path, new=True)
        self._writer.append(genesis.encode())
        self._writer.sync()  # a power cut before our first move leaves a resumable replay
        drop_pending(self.replay_path)
        self._saved_boots = round_.peers.boots()
        self._save_secrets([m.endpoint for m in self.members], self._saved_boots)
        now = time.monotonic()
        self._open_session(ledger, now, seq=round_.seq, peers=round_.peers)
        self._feed_spectators()
        if self.arrival.dropped():
            self.note(
                f"before the genesis: dropped {self.arrival.dropped()} game frames that "
                "did not open or did not fit"
            )
        assert self.session is not None
        for frame in round_.take_kept():
            self.session.receive(frame, now, advance=False)
        self._flush_session(now)
        self._advance_session(now)

    def _feed_spectators(self) -> None:
        """What spectators pull (gallery.py): our log as it stands, whichever
        ledger the session holds (an agreed abort may replace it)."""
        lobby = self.arrival.lobby
        if isinstance(lobby, lobbies.HostLobby) and lobby.gallery is not None:

            def entries() -> EncodedLog:
                assert self.session is not None  # spectators come once a game is on
                return EncodedLog(self.session.ledger.entries)

            lobby.gallery.entries = entries

    def _resume(self, resume: Resume) -> None:
        ledger = resume.ledger
        self.replay_path = resume.replay
        arrival = self.arrival
        arrival.seat = resume.seat
        # A new start counter, on disk before any frame of this run leaves, so our
        # peers can tell our frames from recordings of an earlier run.
        arrival.boot = resume.boot + 1
        self._saved_boots = dict(resume.peer_boots)
        self.note(f"resumed at entry {ledger.next_index} (start {arrival.boot})")
        endpoints = [*resume.endpoints]
        endpoints[resume.seat] = self.endpoint  # another port, if `resume --port` said so
        arrival.members = [
            lobbies.Member(s.name, s.key, s.chain_head, s.link, endpoint)
            for s, endpoint in zip(ledger.seats, endpoints, strict=True)
        ]
        self._save_secrets(endpoints, self._saved_boots)
        for i, member in enumerate(arrival.members):
            if i != resume.seat:
                self.transport.connect(member.endpoint)
        now = time.monotonic()
        self._writer = LogWriter(resume.replay)
        if resume.notice:
            self.ui.say(f"Note: {resume.notice}.")
            self.note(resume.notice)
        peers = PeerStates(len(ledger.seats), resume.seat, resume.peer_boots)
        self._open_session(ledger, now, resumed=True, peers=peers, choice=resume.choice)
        if resume.spectators_code is not None and resume.seat == 0:
            # Our table admitted spectators: it does again, on our port as before.
            lobby = lobbies.HostLobby.under_way(
                ledger.entries[0], resume.spectators_code, self.secrets, self.endpoint,
                arrival.members,
            )  # fmt: skip
            arrival.serve_spectators(lobby)
            self._feed_spectators()
            self._comeback_until = time.monotonic() + COMEBACK_WAIT
            self.ui.say("Spectators may watch again (the same code).")
        assert self.session is not None  # _open_session opened it
        self.ui.show(self.session, list(resume.applied), now)  # the story so far
        self._flush_session(now)

    def _open_session(
        self,
        ledger: Ledger,
        now: float,
        resumed: bool = False,
        seq: int = 0,
        peers: PeerStates | None = None,
        choice: Choice | None = None,
    ) -> None:
        assert self.seat is not None
        self.session = Session(
            ledger,
            self.seat,
            self.secrets,
            now,
            boot=boot_bytes(self.arrival.boot),
            resumed=resumed,
            seq=seq,
            peers=peers,
            endpoints=[m.endpoint for m in self.members],
            withhold_timeout=self.config.withhold_timeout,
            abandon_timeout=self.config.abandon_timeout,
            choice=choice,
        )

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
                if self.arrival.no_answer(now - start, self.config.connect_timeout):
                    self.ui.say(
                        f"No answer from {self.config.connect} after "
                        f"{self.config.connect_timeout:.0f} s. Check the address and the "
                        "code the host printed, that the host is still waiting, and that "
                        "no firewall blocks the port."
                    )
                    return NO_ANSWER
                for item in incoming:
                    self._dispatch(item, now)
                if self.session is None:
                    genesis = self.arrival.step(now)
                    if genesis is not None:
                        self._start_session(genesis)
                if self.session is not None:
                    # Send what the input produced, and note what it applied, then do
                    # the automatic steps now due (e.g. our reveal), one at a time,
                    # each sent as soon as it is made: all before our own player or
                    # bot thinks about its next move.
                    self._flush_session(now)
                    self._advance_session(now)
                    self.session.tick(now)
                    self.arrival.serve(now)  # knocks and spectators, during the game
                    self.ui.show(self.session, [], now)
                if stdin_ready and self._lifeline_cut():
                    self.note("left the game: the process that started this bot is gone")
                    return LEFT
                if self.session is not None or stdin_ready:
                    left = self._ask_frontend(now, stdin_ready and self._input_fd is not None)
                    if left is not None:
                        return self._leave(left.reason)
                if self.session is not None:
                    self._flush_session(now)
                    status = self._ended(now, finished_at)
                    if status is not None:
                        return status
                    if self.session.stopped is not None or self.session.finished:
                        finished_at = finished_at or now
                wake = self._wake_at(now)
        except KeyboardInterrupt:
            interrupted = True
            return self._leave("interrupted")
        finally:
            close = getattr(self.ui, "close", None)  # a frontend may hold output back
            if close is not None:
                close()
            collector.stop()
            if self.seat_lock is not None:
                self.seat_lock.release()
            if self.arrival.ignored_lobby:
                self.note(f"ignored {self.arrival.ignored_lobby} lobby frames not meant for us")
            self.log.summarize(time.monotonic())
            self._write_stats()
            self.transport.close(linger_ms=0 if interrupted else CLOSE_LINGER_MS)
            if self._choices is not None:
                self._choices.close()
            over = self.session is not None and (
                self.session.finished or self.session.stopped is not None
            )
            if over and self.replay_path is not None:
                # Nothing more will be chosen: the kept choice has done its work.
                choice_path(self.replay_path).unlink(missing_ok=True)

    def _ended(self, now: float, since: float | None) -> int | None:
        """The exit status once the game is over and we may go (None: not yet).
        After the end a peer stays a little, answering, until every other has the
        whole log: after a stop, the same ending (another peer's abort may be the
        better one, which every honest log then keeps)."""
        session = self.session
        assert session is not None
        if session.failed is not None:
            return FAILED
        lingered = since is not None and now - since > LINGER_SECONDS
        length = session.ledger.next_index
        # Spectators still pulling the end are waited for too (at most as long),
        # and, after our resume, those that may still be knocking again.
        back = now < self._comeback_until and not self.arrival.spectators_admitted()
        watched = (self.arrival.spectators_behind(length, now) or back) and not lingered
        if session.stopped is not None:
            return 3 if (session.everyone_agrees() and not watched) or lingered else None
        if session.finished:
            done = all(p.their_len >= length for p in session.peers.values())
            return 0 if (done and not watched) or lingered else None
        return None

    def _ask_frontend(self, now: float, typed: bool) -> Leave | None:
        """What the seat does now; a move is submitted if it is still its turn.
        The seat's person leaving is returned (its input ended)."""
        action = self.ui.choose(self.session, now, typed)
        self._sync_input_fd()
        if isinstance(action, Leave):
            return action
        if action is not None and self.session is not None and self.session.my_turn():
            self._submit(action, now)
        return None

    def _leave(self, why: str) -> int:
        """Our person leaves (Ctrl-C, the end of their input): during a game the
        others are told, with a bye and nothing else (wire.md 6.13).  What an
        interrupt found queued stays unsent: it may have come between writing and
        sending (``deliver``), so its entries may not be on disk; a peer sends
        again what we lack when we are back."""
        self.note(f"left the game ({why})")
        session = self.session
        if session is None or session.failed is not None:
            return LEFT
        session.take_outgoing()
        session.leave(why)
        try:
            for dest, frame in session.take_outgoing():
                self.arrival.send(dest, frame)
            time.sleep(BYE_WAIT)
        except KeyboardInterrupt:
            pass  # a second Ctrl-C: we go without waiting
        return LEFT

    def _sync_input_fd(self) -> None:
        """Poll the frontend's input, and stop polling it once it is closed."""
        fd = self.ui.input_fd()
        if fd != self._input_fd:
            self.transport.unregister_fd(self._input_fd)
            if fd is not None:
                self.transport.register_fd(fd)
            self._input_fd = fd

    def _lifeline_cut(self) -> bool:
        """Whether the lifeline (stdin of a bot started by `play`) reached its end."""
        if not self.config.lifeline:
            return False
        try:
            return os.read(0, 4096) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True

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
            return self.arrival.wake_at(now)
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

    def _dispatch(self, item, now: float) -> None:  # noqa: ANN001 - an Incoming
        if item.channel == LOBBY:
            self.arrival.lobby_frame(item.payload, item.address, now)
        elif item.channel == GAME:
            if self.session is not None:
                self.session.receive(item.payload, now, advance=False)
            else:
                self.arrival.game_frame(item.payload, now)
        elif item.channel == BAD:
            why = item.payload.decode(errors="replace")
            self._rejected(item.address or "unknown address", why, now)
        else:
            self._rejected(item.address, f"unknown channel {item.channel[:8]!r}", now)

    def _keep_choice(self, choice: Choice) -> None:
        assert self.replay_path is not None
        if self._choices is None:  # opened once: each choice is then one write and sync
            self._choices = ChoiceKeeper(self.replay_path)
        self._choices.keep(choice)

    def _flush_session(self, now: float) -> None:
        """What the session produced: its entries written first (the ones we
        signed durably), then its frames sent, then its events shown."""
        assert self.session is not None
        events = self.session.take_events()
        stamp = time.monotonic()  # when the session had applied what it reports
        deliver(
            self.session,
            self._writer.append,
            self.arrival.send,
            self._writer.sync,
            self._writer.keep_only,
            self._keep_choice,
        )
        if events:
            self._keep_peer_boots()
            for event in events:
                if isinstance(event, Applied):
                    self._stats.append({"i": event.index, "kind": event.kind, "applied": stamp})
                elif isinstance(event, Rejected):
                    who = "unknown sender" if event.seat is None else self._name(event.seat)
                    self._rejected(who, self._seats_named(event.reason), now)
                elif isinstance(event, Stopped):
                    self.note(f"game stopped: {event.reason}")
                elif isinstance(event, Finished):
                    self.note(f"game over: {self._seats_named(event.outcome.explanation)}")
                elif isinstance(event, Failed):
                    self.note(f"stopped by a bug of p2ptable: {event.reason}\n{event.trace}")
                elif isinstance(event, Moved):
                    self._moved(event)
                elif isinstance(event, Recovered):
                    self.note(event.text)
                    self.ui.say(f"Note: {event.text}.")
                elif isinstance(event, PeerLeft):
                    self.note(f"{self._name(event.seat)} left ({event.reason or 'no reason'})")
            self.ui.show(self.session, events, now)

    def _save_secrets(self, endpoints: list[str], peer_boots: dict[int, int]) -> None:
        assert self.replay_path is not None and self.seat is not None
        save_secrets(
            self.replay_path,
            self.secrets,
            self.seat,
            endpoints,
            self.transport.port,
            boot=self.arrival.boot,
            peer_boots=peer_boots,
            spectators_code=self._spectators_code,
        )

    def _moved(self, event: Moved) -> None:
        """A seat listens on another port now: our link goes there, and so does
        the endpoint kept with our secrets."""
        old = self.members[event.seat]
        self.arrival.members[event.seat] = replace(old, endpoint=event.endpoint)
        self.transport.forget(old.endpoint)
        self.transport.connect(event.endpoint)
        self._save_secrets([m.endpoint for m in self.members], self._saved_boots)
        self.note(f"{self._name(event.seat)} listens at {event.endpoint} now")

    def _keep_peer_boots(self) -> None:
        """A peer restarted (its start counter rose): note it with our secrets, so
        a recording of its earlier run is refused after we restart too."""
        assert self.session is not None
        boots = self.session.peers.boots()
        if boots != self._saved_boots:
            self._saved_boots = boots
            self._save_secrets([m.endpoint for m in self.members], boots)

    def _rejected(self, who: str, reason: str, now: float) -> None:
        if self.replay_path is not None and self.log.path is None:
            self.log.path = self.replay_path.with_name(self.replay_path.name + ".peer.log")
        self.log.rejected(who, reason, now)

    def _name(self, seat: int) -> str:
        # Seats count from 1 wherever a person reads them.
        if seat < len(self.members):
            return f"seat {seat + 1} ({self.members[seat].name})"
        return f"seat {seat + 1}"

    def _seats_named(self, text: str) -> str:
        return seats_named(text, [member.name for member in self.members])

    def note(self, text: str) -> None:
        """A line for the peer's diagnostic log (next to the replay: NAME.p2pt.peer.log)."""
        if self.replay_path is not None and self.log.path is None:
            self.log.path = self.replay_path.with_name(self.replay_path.name + ".peer.log")
        self.log.note(text)

    def _write_stats(self) -> None:
        if self.config.stats is not None:
            with open(self.config.stats, "w") as f:
                for row in self._stats:
                    f.write(json.dumps(row) + "\n")
