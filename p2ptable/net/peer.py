"""A running peer: the I/O loop joining a transport (net/transport.py: ZeroMQ, or
in memory in tests), the seat's arrival at the table (lobby and genesis round),
the session, the replay file on disk and a frontend (a person at a terminal, or
a bot).

This is the only place where time is read and the transport is polled;
everything it drives is sans-IO.  Its collaborators: ``Arrival`` (net/arrival.py)
until the genesis, then ``SessionShell`` (net/session_shell.py), which carries
out what the session hands out; ``SeatFiles`` (net/seat_files.py), the seat's
files; ``Waiter`` (net/peer_wait.py), its sleep.  One pass of the loop: poll
(sleep until a frame, input or the next deadline) -> feed (the arrival before
the genesis, the session after it) -> carry out (write, sync, send:
``deliver``) -> ask the frontend -> sleep again.
Phases: lobby (host or join) -> genesis (every seat signs the body the roster
determines) -> game (the session) -> linger (keep answering until every peer has
the result, or the same ending, so nobody is left without it).  A person who
leaves (Ctrl-C, or the end of their input: the frontend's ``Leave``) ends the
loop with LEFT, after a bye to the others during a game (wire.md 6.13); the
seat's lock is released as the loop ends, so ``resume`` continues it at once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from p2ptable.net import lobby as lobbies
from p2ptable.net.arrival import Arrival, Noted, RosterChanged, Said, SeatSet
from p2ptable.net.beside_resume import take_back
from p2ptable.net.delivery import deliver
from p2ptable.net.frontend import Beside, ClockMove, Frontend, Leave, LobbyCommand
from p2ptable.net.gallery import COMEBACK_WAIT, EncodedLog
from p2ptable.net.peer_config import PeerConfig
from p2ptable.net.peer_exit import FAILED, LEFT, NO_ANSWER, PAUSED, exit_status
from p2ptable.net.peer_log import PeerLog
from p2ptable.net.peer_wait import Waiter
from p2ptable.net.peers import PeerStates, boot_bytes
from p2ptable.net.pending_genesis import PendingGenesis
from p2ptable.net.persistence import Resume, replay_path_for
from p2ptable.net.seat_files import SeatFiles
from p2ptable.net.seat_lock import SeatLock
from p2ptable.net.session import Choice, Session
from p2ptable.net.session_shell import SessionShell
from p2ptable.net.transport import BAD, GAME, LOBBY, Incoming, Transport
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, game_id_of
from p2ptable.replay.ledger import Ledger

__all__ = ["FAILED", "LEFT", "NO_ANSWER", "PAUSED", "Frontend", "Peer", "PeerConfig", "deliver"]

CLOSE_LINGER_MS = 1000


class Peer:
    """One seat's process: the loop, and the collaborators it joins (module docstring).

    ``transport`` is the network (net/transport.py): a ZeroMQ inbox on
    ``config.bind`` and the port if not given, an in-memory one in tests
    (net/memory_transport.py)."""

    def __init__(
        self,
        config: PeerConfig,
        frontend: Frontend,
        secrets: authoring.SeatSecrets | None = None,
        resume: Resume | PendingGenesis | None = None,
        transport: Transport | None = None,
    ) -> None:
        self.config = config
        self.ui = frontend
        self.secrets = resume.secrets if resume else secrets or authoring.SeatSecrets.generate()
        if transport is None:
            from p2ptable.net.zmq_transport import ZmqTransport

            transport = ZmqTransport(config.bind, resume.port if resume else config.port)
        self.transport = transport
        self.endpoint = f"tcp://{config.advertise}:{self.transport.port}"
        self.session: Session | None = None
        self.arrival = Arrival(self.transport, self.secrets)
        self._stats: list[dict] = []
        self.log = PeerLog()
        # Called with our replay's path once it is chosen (the genesis round
        # begins: from then on the seat can be resumed).
        self.on_genesis: Callable[[Path], None] | None = None
        # Called with a host's lobby whenever its seats taken or its genesis
        # change (the table's announcement on the LAN follows them: discovery.py).
        self.on_roster: Callable[[lobbies.HostLobby], None] | None = None
        # Called with a number of free seats when the host's player types `bots`
        # in the lobby: bot peers are started for them (play.py).
        self.on_bots: Callable[[int], None] | None = None
        # A host admitting spectators keeps its code with its secrets, so that it
        # admits them again after a resume (persistence.py).
        spectators_code = config.code if config.host and config.spectators else None
        if isinstance(resume, Resume):
            spectators_code = resume.spectators_code
        self.files = SeatFiles(self.secrets, self.transport.port, spectators_code)
        self.waiter = Waiter(self.transport, config.lifeline)
        self.waiter.follow_input(frontend.input_fd())
        self._comeback_until = float("-inf")  # a resumed host waits for its spectators
        self._finished_at: float | None = None
        if isinstance(resume, PendingGenesis):
            self.files.path = resume.replay
            self.arrival.resume(resume, time.monotonic())
            self._take_arrival_events()
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
                    spectators_talk=config.spectators_talk,
                    keep_going=config.keep_going,
                    clock=config.clock,
                    again=dict(config.again),
                    rotation=config.rotation,
                    bots_coming=config.bots,
                )
            )
        else:
            lobby = lobbies.JoinerLobby(
                config.code,
                self.secrets,
                config.name,
                self.endpoint,
                again=config.again_seat,
                rotation=config.rotation,
            )
            self.arrival.join(lobby, f"tcp://{config.connect}", config.listed_table)

    @property
    def members(self) -> list[lobbies.Member]:
        return self.arrival.members

    @property
    def seat(self) -> int | None:
        return self.arrival.seat

    @property
    def replay_path(self) -> Path | None:
        return self.files.path

    @property
    def seat_lock(self) -> SeatLock | None:
        """Held while we play the seat (taken by the caller for a resume)."""
        return self.files.lock

    @seat_lock.setter
    def seat_lock(self, lock: SeatLock | None) -> None:
        self.files.lock = lock

    # -- coming to the table ---------------------------------------------------------

    def _take_arrival_events(self) -> None:
        """What the arrival told, acted on before its next ``step`` (which may send
        our signature on the genesis)."""
        for event in self.arrival.take_events():
            if isinstance(event, SeatSet):
                self._seat_is_set(event.body)
            elif isinstance(event, Said):
                self.ui.say(event.text)
            elif isinstance(event, Noted):
                self.note(event.text)
            elif isinstance(event, RosterChanged) and self.on_roster is not None:
                self.on_roster(event.lobby)

    def _seat_is_set(self, body: bytes) -> None:
        """The genesis body is known, our signature not yet sent: make the seat
        resumable (replay path, lock, secrets, the pending body)."""
        assert self.seat is not None
        path = self.config.replay or replay_path_for(
            self.arrival.game or "game", game_id_of(body), self.config.name
        )
        endpoints = [m.endpoint for m in self.members]
        self.files.seat_is_set(path, self.seat, self.arrival.boot, endpoints, body)
        if self.on_genesis:
            self.on_genesis(path)

    def _start_session(self, genesis: Entry) -> None:
        seat = self.seat
        round_ = self.arrival.genesis_round
        assert seat is not None and round_ is not None
        ledger = Ledger(genesis, readers={seat: self.secrets.deck})
        self.files.open_replay(genesis.encode())
        self.files.boots = round_.peers.boots()
        self._save_secrets([m.endpoint for m in self.members], self.files.boots)
        now = time.monotonic()
        self._open_session(ledger, now, seq=round_.seq, peers=round_.peers)
        self.arrival.feed_spectators(self._log_so_far, self._talk_so_far)
        self.arrival.open_spectators_channel(ledger.game_id)
        if self.arrival.dropped():
            self.note(
                f"before the genesis: dropped {self.arrival.dropped()} game frames that "
                "did not open or did not fit"
            )
        assert self.session is not None
        for frame in round_.take_kept():
            self.session.receive(frame, now, advance=False)
        self.shell.flush(now)
        self.shell.advance(now)

    def _log_so_far(self) -> EncodedLog:
        """What spectators pull (gallery.py): our log as it stands, whichever
        ledger the session holds (an agreed abort may replace it)."""
        assert self.session is not None  # spectators come once a game is on
        return EncodedLog(self.session.ledger.entries)

    def _talk_so_far(self) -> list[bytes]:
        return [] if self.session is None else self.session.sideline.records

    def _resume(self, resume: Resume) -> None:
        ledger, arrival = resume.ledger, self.arrival
        self.files.path = resume.replay
        self.files.boots = dict(resume.peer_boots)
        endpoints = arrival.come_back(resume, self.endpoint)
        self.note(f"resumed at entry {ledger.next_index} (start {arrival.boot})")
        self._save_secrets(endpoints, self.files.boots)
        now = time.monotonic()
        self.files.reopen_replay(resume.replay)
        if resume.notice:
            self.ui.say(f"Note: {resume.notice}.")
            self.note(resume.notice)
        peers = PeerStates(len(ledger.seats), resume.seat, resume.peer_boots)
        self._open_session(ledger, now, resumed=True, peers=peers, choice=resume.choice)
        if resume.spectators_code is not None and resume.seat == 0:
            # Our table admitted spectators: it does again, on our port as before.
            lobby = lobbies.under_way(
                ledger.entries[0], resume.spectators_code, self.secrets, self.endpoint,
                arrival.members,
            )  # fmt: skip
            arrival.serve_spectators(lobby)
            arrival.feed_spectators(self._log_so_far, self._talk_so_far)
            arrival.open_spectators_channel(ledger.game_id)
            self._comeback_until = time.monotonic() + COMEBACK_WAIT
            self.ui.say("Spectators may watch again (the same code).")
        assert self.session is not None  # _open_session opened it
        problem, _ = take_back(self.session, resume.replay)  # REPLAY.talk, REPLAY.break
        if problem is not None:
            self.ui.say(f"Note: {problem}: ignored (it is not every seat's agreement).")
        self.ui.show(self.session, list(resume.applied), now)  # the story so far
        self.shell.flush(now)

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
        self.shell = SessionShell(
            self.session, self.files, self.arrival, self.transport, self.ui, self.note,
            self._rejected, self._stats,
        )  # fmt: skip

    # -- the loop ------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or stops; the exit status for the process."""
        start = time.monotonic()
        interrupted = False
        wake = start
        self.waiter.collector.start()
        try:
            while True:
                incoming, stdin_ready = self.waiter.wait(wake)
                now = time.monotonic()
                status = self._pass(now, now - start, incoming, stdin_ready)
                if status is not None:
                    return status
                wake = self._wake_at(now)
        except KeyboardInterrupt:
            interrupted = True
            return self._leave("interrupted")
        finally:
            self._close(interrupted)

    def _pass(
        self, now: float, waited: float, incoming: list[Incoming], stdin_ready: bool
    ) -> int | None:
        """One pass of the loop: what came fed in, what it produced carried out,
        the frontend asked; the exit status once the peer ends."""
        status = self._gave_up(waited)
        if status is not None:
            return status
        for item in incoming:
            self._dispatch(item, now)
        if self.session is None:
            genesis = self.arrival.step(now)
            self._take_arrival_events()
            if genesis is not None:
                self._start_session(genesis)
        if self.session is not None:
            # Send what the input produced, and note what it applied, then do
            # the automatic steps now due (e.g. our reveal), one at a time,
            # each sent as soon as it is made: all before our own player or
            # bot thinks about its next move.
            self.shell.flush(now)
            self.shell.advance(now)
            self.session.tick(now)
            self.arrival.serve(now)  # knocks and spectators, during the game
            for record in self.arrival.take_spectators_lines():  # host --spectators-talk
                self.session.relay_spectators(record)
            self._take_arrival_events()
            self.ui.show(self.session, [], now)
        if stdin_ready and self.waiter.lifeline_cut():
            self.note("left the game: the process that started this bot is gone")
            return LEFT
        if self.session is not None or stdin_ready:
            left = self._ask_frontend(now, stdin_ready and self.waiter.input_fd is not None)
            if left is not None:
                return self._leave(left.reason)
        return None if self.session is None else self._after_pass(now)

    def _gave_up(self, waited: float) -> int | None:
        """The exit status of a table that did not fill, or a host that never
        answered, after ``waited`` seconds; None while we still wait."""
        if self.session is None and waited > self.config.timeout:
            self.ui.say(f"Giving up: the table did not fill in {self.config.timeout:.0f} s.")
            return 2
        if self.arrival.no_answer(waited, self.config.connect_timeout):
            self.ui.say(
                f"No answer from {self.config.connect} after "
                f"{self.config.connect_timeout:.0f} s. Check the address and the "
                "code the host printed, that the host is still waiting, and that "
                "no firewall blocks the port."
            )
            return NO_ANSWER
        return None

    def _after_pass(self, now: float) -> int | None:
        """What the frontend's move produced, sent; the status once we may go."""
        session = self.session
        assert session is not None
        self.shell.flush(now)
        status = self._ended(now, self._finished_at)
        if status is None and (
            session.stopped is not None or session.finished or session.left_for_good
        ):
            self._finished_at = self._finished_at or now
        return status

    def _close(self, interrupted: bool) -> None:
        """The loop ended, however: the screen, the lock, the logs, the sockets."""
        close = getattr(self.ui, "close", None)  # a frontend may hold output back
        if close is not None:
            close()
        self.waiter.collector.stop()
        lock, self.files.lock = self.files.lock, None
        if lock is not None:
            lock.release()
        if self.arrival.ignored_lobby:
            self.note(f"ignored {self.arrival.ignored_lobby} lobby frames not meant for us")
        self.log.summarize(time.monotonic())
        self._write_stats()
        self.transport.close(linger_ms=0 if interrupted else CLOSE_LINGER_MS)
        session = self.session
        over = session is not None and (session.finished or session.stopped is not None)
        self.files.close(over)

    def _ended(self, now: float, since: float | None) -> int | None:
        """The exit status once the game is over and we may go (None: not yet)."""
        assert self.session is not None
        back = now < self._comeback_until and not self.arrival.spectators_admitted()
        return exit_status(self.session, self.arrival, now, since, back)

    def _ask_frontend(self, now: float, typed: bool) -> Leave | None:
        """What the seat does now; a move is submitted if it is still its turn.
        The seat's person leaving is returned (its input ended)."""
        action = self.ui.choose(self.session, now, typed)
        self.waiter.follow_input(self.ui.input_fd())
        if isinstance(action, Leave):
            return action
        if isinstance(action, LobbyCommand):
            self.arrival.command(action.line, now, self.on_bots)
            self._take_arrival_events()
            return None
        if isinstance(action, Beside):  # talk, a break, leaving for good
            if self.session is not None:
                self.shell.beside(action, now)
        elif action is not None and self.session is not None and self.session.my_turn():
            if isinstance(action, ClockMove):
                self.shell.submit(action.action, now, clock=True)
            else:
                self.shell.submit(action, now)
        return None

    def _leave(self, why: str) -> int:
        """Our person leaves (Ctrl-C, the end of their input): during a game the
        others are told (``SessionShell.leave``)."""
        self.note(f"left the game ({why})")
        if self.session is not None and self.session.failed is None:
            self.shell.leave(why)
        return LEFT

    def _wake_at(self, now: float) -> float:
        """The next time the loop must run even if nothing arrives."""
        if self.session is None:
            return self.arrival.wake_at(now)
        return min(self.session.wake_at(now), self.ui.wake_at(self.session, now))

    # -- routing -------------------------------------------------------------------

    def _dispatch(self, item: Incoming, now: float) -> None:
        if item.channel == LOBBY:
            self.arrival.lobby_frame(item.payload, item.address, now)
            self._take_arrival_events()
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

    def _save_secrets(self, endpoints: list[str], peer_boots: dict[int, int]) -> None:
        assert self.seat is not None
        self.files.save_secrets(self.seat, self.arrival.boot, endpoints, peer_boots)

    def _rejected(self, who: str, reason: str, now: float) -> None:
        if self.log.path is None:
            self.log.path = self.files.log_path()
        self.log.rejected(who, reason, now)

    def note(self, text: str) -> None:
        """A line for the peer's diagnostic log (next to the replay: NAME.p2pt.peer.log)."""
        if self.log.path is None:
            self.log.path = self.files.log_path()
        self.log.note(text)

    def _write_stats(self) -> None:
        if self.config.stats is not None:
            with open(self.config.stats, "w") as f:
                for row in self._stats:
                    f.write(json.dumps(row) + "\n")
