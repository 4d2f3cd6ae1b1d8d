"""A seated peer's game session, sans-IO: bytes and time in; entries, frames and
events out.

Theory of operation
-------------------
Every peer holds the same :class:`~p2ptable.replay.ledger.Ledger`.  Nobody leads:
the ledger's ``expected()`` says what the next entry must be, the round for that
kind (the table in ``net/rounds.py``, built from the registry of kinds,
replay/rows.py) says who contributes what and who builds it, and every peer
validates every entry before appending it, so all logs end byte-identical.
Everything the session does next is a lookup in that table: ``step`` is the
round's step; whether our player is asked, and their choice, the round's
``asks`` and ``submit``; whom we wait for, its ``awaited`` (how long, and whom
to name for it, ``net/waiting.py``); a contribution that arrives goes to the
round whose ``message`` it is.

The session composes its collaborators, each owning its state: entries between
logs (``net/catch_up.py``), hellos, pings and byes (``net/greetings.py``),
freshness and contact (``net/peers.py``), the clocks (``net/waiting.py``), the
agreed ending (``net/stopping.py``) and what it hands out (``net/outbox.py``):
the entries to persist, each marked ``durable`` when it must be on stable
storage before it leaves, our secret choices to keep, the frames, the events.
The caller writes, then sends: a crash can never make us sign a second,
different entry for a position we already sent.  Time (``now``) and randomness
(``boot``) come from the caller.

After a crash (protocol/wire.md 6.10), a session made with ``resumed=True``
takes no move from its player and accuses nobody until every other seat has
told it its log length and it holds as much as the longest: a move it sent and
lost comes back from a peer instead of being made again differently
(:meth:`resume_waiting_on`).  Its reveals, shuffles, parts and result
signatures go on: each is a function of the position and our secrets.

Errors say who was wrong.  Bad input from a peer is a :class:`Rejected` event
naming the peer, and the game goes on; a peer whose signed message fails its
proof, or that signs two different entries for one position, is accused with
the evidence (``net/accusations.py``) and the game stops with an ``abort``.  Any
other exception is a bug of ours: a :class:`Failed` event with the traceback;
the session takes no more input (the log on disk stays valid, and ``resume``
may continue it), and no peer is blamed.
"""

from __future__ import annotations

import traceback

from p2ptable.engine.api import Action
from p2ptable.net import greetings, naming, stopping
from p2ptable.net.accusations import ALIVE, Accusation
from p2ptable.net.catch_up import HANDLERS as CATCH_UP
from p2ptable.net.catch_up import CatchUp
from p2ptable.net.departure_round import DepartureRound
from p2ptable.net.events import (
    LEAVE_REASONS,
    Choice,
    Event,
    Failed,
    Finished,
    Moved,
    PeerLeft,
    Rejected,
    Seen,
    Stopped,
    Write,
)
from p2ptable.net.greetings import Greetings
from p2ptable.net.outbox import Outbox
from p2ptable.net.peers import PeerStates, link_keys
from p2ptable.net.rounds import ALL, CommitsRound, PartsRound, Round, each_round, make_rounds
from p2ptable.net.session_view import SessionView
from p2ptable.net.sideline import HANDLERS as SIDELINE
from p2ptable.net.sideline import Sideline
from p2ptable.net.stopping import LocalProtocolError
from p2ptable.net.waiting import Waiting
from p2ptable.net.wire import Message, RemoteProtocolError, open_frame, seal_many
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.seen_cards import append_seeing

# The events are importable from here, where the session that emits them lives.
__all__ = [
    "Choice",
    "Event",
    "Failed",
    "Finished",
    "Moved",
    "LocalProtocolError",
    "PeerLeft",
    "Rejected",
    "Session",
    "Stopped",
    "Write",
    "link_keys",
]

MAX_STEPS = 10_000  # automatic steps in a row: more than a game has, so only a bug


class Session(SessionView):
    """One seat's view of a running game.  See the module docstring; what it
    answers without changing (whose turn, what we see, what to hand out) is
    :class:`~p2ptable.net.session_view.SessionView`."""

    def __init__(
        self,
        ledger: Ledger,
        seat: int,
        secrets: authoring.SeatSecrets,
        now: float,
        withhold_timeout: float = 20.0,
        abandon_timeout: float = 300.0,
        boot: bytes | None = None,
        resumed: bool = False,
        seq: int = 0,
        peers: PeerStates | None = None,
        endpoints: list[str] | None = None,
        choice: Choice | None = None,
    ) -> None:
        """``boot`` is our start counter (8 bytes, wire.md 4.5; it must grow with
        every start, and comes from our secrets file), ``seq`` the first frame
        number to use and ``peers`` the freshness already seen (both from the
        genesis round, net/genesis_round.py).  ``endpoints`` are where every seat
        listens (ours is announced in every ``hello``, so a seat that resumed on
        another port is found there).  ``choice`` is the secret choice we kept
        before we stopped (see :class:`Choice`)."""
        self.ledger = ledger
        self.seat = seat
        self.secrets = secrets
        self.waiting = Waiting(now, withhold_timeout, abandon_timeout)
        self.n = len(ledger.seats)
        self.keys = [s.key for s in ledger.seats]
        self.links = link_keys(secrets, seat, [s.link for s in ledger.seats], ledger.game_id)
        self.boot = boot or bytes(7) + b"\x01"
        self.seq = seq
        self.peers = peers or PeerStates(self.n, seat)
        self.greetings = Greetings(list(endpoints) if endpoints is not None else [""] * self.n, now)
        self.resumed = resumed  # a player who left on purpose and resumes watches
        if resumed:
            self.peers.wait_after_resume()
        self.catch_up = CatchUp()
        self.rounds: dict[Kind, Round] = make_rounds()
        # Each round once (open and secrets share one, the parts rounds their
        # store), and the round whose contribution each message kind carries:
        # looked up on every frame.
        # A seat that leaves a keep_going table (net/departure_round.py): beside
        # the table of rounds, since a departure comes at any position.
        self.departure = DepartureRound()
        self._each_round = (*each_round(self.rounds), self.departure)
        self._taker = {r.message: r for r in self._each_round if r.message is not None}
        self._commits: CommitsRound = self.rounds[Kind.COMMITS]  # type: ignore[assignment]
        self._parts: PartsRound = self._commits.parts
        self.outbox = Outbox(seat)  # what we hand out, in order (net/outbox.py)
        # Talk and breaks, beside the game: never in a move's way (net/sideline.py).
        self.sideline = Sideline(ledger.game_id, self.keys, seat)
        if choice is not None:  # a hint, read from our choice file (see PartsRound)
            self._commits.remember(choice.index, Action.parse(choice.action), from_file=True)
        self.stopped: Stopped | None = None
        self.failed: Failed | None = None
        # Our move, or a chance entry we assembled as collector: written and sent,
        # not yet applied (see submit).
        self._own: Entry | None = None
        self.greetings.send_hello(self, ALL)
        self.advance(now)

    # -- input -----------------------------------------------------------------

    def submit(self, action: Action, now: float, advance: bool = True, clock: bool = False) -> None:
        """Our player's move: check it is legal, sign it, write it, send it.

        Every other peer is waiting for the move, so it goes out before we apply
        it ourselves: the rules' legal actions say it is legal (applying a legal
        action never fails: the playout property tests hold the games to that),
        and it is persisted (durably) before it is sent, so a crash can never make
        us sign a second move for the same place.  ``advance=False`` leaves
        applying it, and the automatic steps that follow, to :meth:`step`, so a
        caller can put the frames on the wire first; until then :meth:`my_turn`
        is False and nothing else is accepted.  ``clock``: our clock ran out and
        the table's default bot chose ``action`` (bots/clock.py); a move says so."""
        if not self.my_turn():
            raise LocalProtocolError("it is not your turn")
        if action not in self.ledger.game.legal_actions(self.ledger.state, self.seat):
            raise LocalProtocolError(f"illegal action {action.text!r}")
        # A move is signed and sent first; a secret choice is kept, then our
        # commit to it goes out (its round's step): the round of the kind says.
        self.rounds[self.ledger.expected().kind].submit(self, action, now, clock)
        if advance:
            self.advance(now)

    def say(self, text: str, now: float) -> None:
        """Our line of talk to every seat (net/sideline.py; TalkRefused says why not)."""
        self.sideline.say(self, text, now)

    def relay_spectators(self, record: bytes) -> None:
        """A line our spectators said (we host, net/gallery.py) to every seat, in
        the spectators' channel (net/sideline.py)."""
        self.sideline.relay(self, record)

    def propose_break(self) -> None:
        """Our signature on a break here: a proposal, or our agreement to one
        (net/sideline.py; BreakRefused says why not)."""
        self.sideline.propose(self)

    def leave(self, reason: str) -> None:
        """Our seat leaves, to be resumed: a ``bye`` for every other seat, so their
        screens can say why we are silent (wire.md 6.13).  Nothing else: the log,
        the timers and what else is queued are as they were."""
        if reason not in LEAVE_REASONS:
            raise LocalProtocolError(f"no such reason to leave: {reason!r}")
        self.send(ALL, "bye", {"why": reason})

    def receive(self, frame: bytes, now: float, advance: bool = True) -> None:
        """Handle one frame from the network.

        ``advance=False`` takes in what the frame carries (an entry appended, a
        contribution kept for its round) and leaves the automatic steps that may
        then be due to :meth:`step`."""
        if self.failed is not None:
            return
        try:
            self._settle()
            self._receive(frame, now)
        except Exception as exc:  # noqa: BLE001 - not a peer's fault: ours
            self._fail(exc)
            return
        if advance:
            self.advance(now)

    def _receive(self, frame: bytes, now: float) -> None:
        try:
            message = open_frame(frame, self.ledger.game_id, self.links)
            self.peers.check_fresh(message)
        except RemoteProtocolError as exc:
            self.outbox.events.append(Rejected(exc.seat, exc.reason))
            return
        peer = self.peers[message.sender]
        if peer.last_contact is not None and now - peer.last_contact >= ALIVE:
            self.back_in_contact(message.sender, now)
        peer.last_contact = now
        self.greetings.heard(message)  # a seat that said bye and is back
        try:
            self._dispatch(message, now)
        except RemoteProtocolError as exc:
            self.outbox.events.append(Rejected(message.sender, exc.reason))

    def _dispatch(self, message: Message, now: float) -> None:
        greet = greetings.HANDLERS.get(message.kind)
        if greet is not None:
            greet(self.greetings, self, message, now)
            return
        beside = SIDELINE.get(message.kind)
        if beside is not None:
            beside(self.sideline, self, message, now)
            return
        catch_up = CATCH_UP.get(message.kind)
        if catch_up is not None:
            catch_up(self.catch_up, self, message)
            return
        round_ = self._taker.get(message.kind)
        if round_ is None:
            raise RemoteProtocolError(f"unexpected {message.kind} message")
        round_.take(self, message, now)

    def back_in_contact(self, seat: int, now: float) -> None:
        """``seat`` was out of contact, restarted (its hello) or said bye, and is
        heard again: the whole withholding timeout again, if we wait on it."""
        if self.waiting.since is None:
            return
        expected = self.ledger.expected()
        if seat in self.rounds[expected.kind].awaited(self, expected):
            self.waiting.restart(now)

    def tick(self, now: float) -> None:
        """Timers: pings, the collector's wait, withholding and abandonment."""
        if self.failed is not None:
            return
        try:
            self.waiting.skip_absence(now, self.peers)
            self._settle()
            self.greetings.tick(self, now)
            self.sideline.tick(self)  # a break we asked for, where the game stands now
            for round_ in self._each_round:
                round_.tick(self, now)
            self._check_accusations(now)
        except Exception as exc:  # noqa: BLE001 - ours
            self._fail(exc)

    def wake_at(self, now: float) -> float:
        """When :meth:`tick` next has something to do: the next ping, the end of
        the collector's time for a chance step, or the withholding timeout, each
        if it is still ahead (past it, every ping re-checks)."""
        wake = self.waiting.wake_at(self.greetings.next_ping, now)
        for round_ in self._each_round:
            wake = round_.wake_at(wake, now)
        return wake

    # -- stepping ----------------------------------------------------------------

    def advance(self, now: float) -> None:
        """Every automatic step now due, until the game waits on someone."""
        for _ in range(MAX_STEPS):
            if not self.step(now):
                return

    def step(self, now: float) -> bool:
        """One automatic step: apply our pending entry if there is one, otherwise
        the current round's step.  True when it made an entry (another step may
        now be due: call again); False when the game waits on someone.  One step
        at a time lets the caller send what each step queued, and note when each
        entry was applied, before starting on the next: a collector's relay of a
        chance entry leaves before it applies it, and it notes it applied before
        it works out its part of the deal that follows."""
        if self.failed is not None:
            return False
        try:
            if self._own is not None:
                self._settle()
                return True
            progressed = self._step(now)
            if not progressed:
                self.catch_up.ask_for_gaps(self)
            return progressed
        except Exception as exc:  # noqa: BLE001 - ours
            self._fail(exc)
            return False

    def _step(self, now: float) -> bool:
        if self.stopped is not None:
            return False
        if self.departure.step(self):
            return True
        made = self.ledger.gone_entry()  # a stand-in's move or shuffle: made by us all
        if made is not None:
            self.append(made)
            return True
        expected = self.ledger.expected()
        round_ = self.rounds[expected.kind]
        if round_.withholdable(expected):
            self.waiting.begin(now)  # the withholding clock starts with the round
        return round_.step(self, expected, now)

    def _settle(self) -> None:
        own, self._own = self._own, None
        if own is not None:
            try:
                self._apply(own)
            except InvalidEntry as exc:
                # The rules listed it as legal (or every reveal in it was checked)
                # and then the ledger refused it: a bug of ours, which every peer
                # meets alike (they refuse it too).
                raise LocalProtocolError(f"our own entry was refused: {exc.reason}") from None
            self.catch_up.drain(self)

    # -- the RoundSession that rounds are handed (net/rounds.py) -------------------------

    def send(self, dest: int | None, kind: str, data: dict) -> None:
        """Queue a frame for ``dest`` (ALL: one frame per peer, each with its own tag).

        A broadcast uses one sequence number for all its frames: each receiver
        still sees our numbers grow, and the envelope is encoded once."""
        targets = list(self.peers) if dest is None else [dest]
        message = Message(kind, self.ledger.game_id, self.seat, self.boot, self.seq, data)
        self.seq += 1
        frames = seal_many(message, [self.links[t] for t in targets])  # type: ignore[misc]
        self.outbox.outgoing.extend(zip(targets, frames, strict=True))

    def reject(self, seat: int | None, why: str) -> None:
        self.outbox.events.append(Rejected(seat, why))

    def report(self, event: Event) -> None:
        self.outbox.events.append(event)

    def keep_choice(self, index: int, action: str) -> None:
        self.outbox.choices.append(Choice(index, action))

    def append(self, entry: Entry) -> None:
        """Validate and apply ``entry``, persist it, and take what waited for it."""
        self._apply(entry)
        self.outbox.appended(entry, self._at_end())
        self.catch_up.drain(self)

    # -- the CatchUpSession that catch-up is handed (net/catch_up.py) -------------------------

    def apply_entry(self, entry: Entry) -> None:
        self._apply(entry)

    def persist(self, raw: bytes) -> None:
        self.outbox.persisted(raw, self.ledger.entries[-1], self._at_end())

    def before_apply(self, entry: Entry) -> None:
        self.departure.arrived(self, entry)  # our share is out: only the departure
        self.rounds[self.ledger.expected().kind].arrived(self, entry)  # early shuffles

    def _at_end(self) -> bool:
        return self.ledger.finished or self.ledger.stopped is not None

    def send_first(self, entry: Entry, kind: str, data: dict) -> None:
        self.outbox.sent_first(entry)
        self.send(ALL, kind, data)
        self._own = entry

    def accuse(self, accusation: Accusation) -> None:
        """Stop the game with the agreed abort for ``accusation`` (net/stopping.py)."""
        stopping.accuse(self, accusation)

    def consider_abort(self, entry: Entry) -> None:
        """Another peer's abort: keep the better ending (net/stopping.py)."""
        stopping.consider(self, entry)

    def end_with(self, entry: Entry, at: Ledger) -> None:
        """Our log ends with ``entry`` after ``at`` (our ledger, or one cut back to a
        contested position): applied, persisted (cutting the log back first),
        broadcast."""
        cut = at is not self.ledger
        self.ledger = at
        self.stopped = None  # the ending is this one (it may replace ours)
        self._apply(entry)
        self.outbox.ended(entry, at.next_index - 1 if cut else None)
        self.send(ALL, "stop", {"entry": entry.encode()})

    # -- the log -----------------------------------------------------------------

    def _apply(self, entry: Entry) -> None:
        applied, seen = append_seeing(self.ledger, entry)  # seen: our own cards, read by us
        done = self.ledger.next_index
        for round_ in self._each_round:
            round_.prune(done)
        self.outbox.events.append(applied)
        if seen:
            self.outbox.events.append(Seen(applied.index, seen))
        self.waiting.done()
        if self.ledger.finished and self.ledger.result is not None:
            self.outbox.events.append(Finished(self.ledger.result))
            # Tell everyone at once that we hold the whole log: a peer lingers
            # after the end until every other has it (see net/peer.py).
            self.greetings.send_ping(self, ALL)
        if self.ledger.stopped is not None and self.stopped is None:
            halt = self.ledger.stopped
            self.stopped = Stopped(
                halt.reason, halt.culprit, halt.detail, halt.proved, halt.detector
            )
            self.outbox.events.append(self.stopped)
            self.greetings.send_ping(self, ALL)  # where our log ends, so the endings can agree

    def _check_accusations(self, now: float) -> None:
        naming.check(self, now)  # whom our clocks name, or a departure instead

    def _fail(self, exc: BaseException) -> None:
        """A bug of ours: report it with its traceback, take no more input."""
        if self.failed is None:
            text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            self.failed = Failed(f"{type(exc).__name__}: {exc}", text)
            self.outbox.events.append(self.failed)

    # -- the GreetingSession that greetings are handed (net/greetings.py) -------------

    def resend(self, dest: int) -> None:
        for each in self._each_round:
            each.resend(self, dest)

    def held_of(self, seat: int, start: int) -> list[bytes]:
        return self._parts.held_of(seat, start)

    def take_own(self, raws: list, sender: int) -> None:
        self._parts.take_own(self, raws, sender)
