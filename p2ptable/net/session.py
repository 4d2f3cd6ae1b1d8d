"""A seated peer's game session, sans-IO: bytes and time in; entries, frames and
events out.

Theory of operation
-------------------
Every peer holds the same :class:`~p2ptable.replay.ledger.Ledger`.  Nobody leads:
the ledger's ``expected()`` says what the next entry must be, the round for that
kind (the table in ``net/rounds.py``) says who contributes what and who builds
it, and every peer validates every entry before appending it, so all logs end
byte-identical.  Everything the session does next is a lookup in that table:

* ``step``: the current round's ``step`` (our reveal, part, shuffle or result
  signature made and queued; an entry built when complete);
* whom we wait for: the round's ``awaited``; a seat in contact that does not
  contribute in ``withhold_timeout`` is accused if the round is
  ``withholdable``, and one out of contact for ``abandon_timeout`` (5 minutes:
  time enough to resume after a crash) is named as having abandoned;
* a peer that (re)starts (``hello``) gets the round's ``resend``;
* a contribution that arrives (``reveal``, ``rsig``, ``part``) goes to the round
  whose ``message`` it is.

Entries travel in ``entry`` messages (a seat's own action or shuffle) and in
``entries`` (catch-up, relays).  A ``ping`` every ``PING_EVERY`` seconds carries
our log length and head, so a peer that is behind is sent what it lacks and a
peer that is ahead is asked (``get``); freshness and contact are kept by
``net/peers.py``.  A seat that leaves (Ctrl-C, the end of its input) says
``bye`` (:meth:`leave`): the others show it (:class:`PeerLeft`,
:meth:`left_seats`) until anything else comes from it, and nothing else changes
(wire.md 6.13).

Outputs, in order: :meth:`take_writes` gives the entries to persist (each marked
``durable`` when it is ours to sign, so it must reach the disk before it
leaves), :meth:`take_outgoing` the frames to send, :meth:`take_events`
what happened.  The caller writes, then sends: a crash can never make us sign a
second, different entry for a position we already sent.  Time (``now``) and
randomness (``boot``) come from the caller.

After a crash (protocol/wire.md 6.10), a session made with ``resumed=True``
takes no move from its player and accuses nobody until every other seat has
told it its log length (``hello`` or ``ping``) and it holds as much as the
longest: a move it sent and lost comes back from a peer instead of being made
again differently (:meth:`resume_waiting_on` names whom it waits for).  Its
reveals, shuffles, parts and result signatures go on as usual: each is a
function of the log position and our secrets, the same bytes however often it
is made, and holding them back would make a waiting seat look like one that
withholds.

Errors say who was wrong.  Bad input from a peer (malformed, bad signature,
replayed, out of turn, illegal) is a :class:`Rejected` event naming the peer,
and the game goes on; a peer whose signed message fails its proof, or that
signs two different entries for one position, is accused with the evidence
(``net/accusations.py``) and the session stops with a signed ``abort`` entry.
Any other exception is a bug of ours: it is a :class:`Failed` event with the
traceback, the session stops taking input (the log on disk stays valid, and
``resume`` may continue it), and no peer is blamed.
"""

from __future__ import annotations

import traceback
from typing import NamedTuple

from p2ptable.crypto.links import link_key
from p2ptable.engine.api import Action, Game
from p2ptable.net import accusations, stopping
from p2ptable.net.accusations import ALIVE, PING_EVERY, Accusation
from p2ptable.net.catch_up import CatchUp
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.net.events import (
    LEAVE_REASONS,
    Event,
    Failed,
    Finished,
    Moved,
    PeerLeft,
    Rejected,
    Seen,
    Stopped,
)
from p2ptable.net.peers import PeerStates
from p2ptable.net.rounds import ALL, PartsRound, Round, make_rounds
from p2ptable.net.stopping import LocalProtocolError
from p2ptable.net.wire import Message, RemoteProtocolError, open_frame, seal_many
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.seen_cards import append_seeing

# The events are importable from here, where the session that emits them lives.
__all__ = [
    "Event",
    "Failed",
    "Finished",
    "Moved",
    "LocalProtocolError",
    "PeerLeft",
    "Rejected",
    "Session",
    "Stopped",
    "link_keys",
]

MAX_STEPS = 10_000  # automatic steps in a row: more than a game has, so only a bug
# A gap this long between two ticks means our own process did not run (the peer
# loop ticks at least every second): see Session._skip_our_absence.
SLEPT = 5.0


class Write(NamedTuple):
    """An entry to persist.  ``durable``: it must be on stable storage before
    any frame of its batch leaves (ours).  ``keep``: first cut the log back to
    its first ``keep`` entries (an agreed abort taking a contested position)."""

    payload: bytes
    durable: bool
    keep: int | None = None


class Choice(NamedTuple):
    """Our secret choice for the ``commits`` entry at ``index`` (replay/choices.py):
    kept on stable storage before our commit leaves, so that a seat that comes
    back after a crash commits to the same action, never to a second one (two
    commits for one position are equivocation)."""

    # A field named like tuple.index: the name is what every caller reads.
    index: int  # type: ignore[assignment]
    action: str


def link_keys(
    secrets: authoring.SeatSecrets, seat: int, publics: list[bytes], game_id: bytes
) -> list[bytes | None]:
    """The key this seat shares with every other seat (None at its own place)."""
    mine = secrets.link_public
    return [
        None if i == seat else link_key(secrets.link, mine, public, game_id)
        for i, public in enumerate(publics)
    ]


def _sooner(wake: float, deadline: float, now: float) -> float:
    """``deadline`` if it is still ahead and before ``wake``, else ``wake``."""
    return deadline if now < deadline < wake else wake


class Session:
    """One seat's view of a running game.  See the module docstring."""

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
        self.withhold_timeout = withhold_timeout
        self.abandon_timeout = abandon_timeout
        self._started = now
        self.n = len(ledger.seats)
        self.keys = [s.key for s in ledger.seats]
        self.links = link_keys(secrets, seat, [s.link for s in ledger.seats], ledger.game_id)
        self.boot = boot or bytes(7) + b"\x01"
        self.seq = seq
        self.peers = peers or PeerStates(self.n, seat)
        self.endpoints = list(endpoints) if endpoints is not None else [""] * self.n
        if resumed:
            self.peers.wait_after_resume()
        self.catch_up = CatchUp()
        self.rounds: dict[str, Round] = make_rounds()
        # Each round once (open and secrets share one), and the round whose
        # contribution each message kind carries: looked up on every frame.
        self._each_round = tuple(dict.fromkeys(self.rounds.values()))
        self._taker = {r.message: r for r in self._each_round if r.message is not None}
        self._parts: PartsRound = self.rounds["commits"]  # type: ignore[assignment]
        self.outgoing: list[tuple[int | None, bytes]] = []
        self.writes: list[Write] = []  # entries to persist, in order
        self.choices: list[Choice] = []  # our secret choices to keep (see Choice)
        if choice is not None:  # a hint, read from our choice file (see PartsRound)
            self._parts.remember(choice.index, Action.parse(choice.action), from_file=True)
        self.events: list[Event] = []
        self.stopped: Stopped | None = None
        self.failed: Failed | None = None
        self._waiting_since: float | None = None
        # Our move, or a chance entry we assembled as collector: written and sent,
        # not yet applied (see submit).
        self._own: Entry | None = None
        self._next_ping = now
        self._last_tick: float | None = None
        self._left: dict[int, str] = {}  # seats whose last frame was a bye: why
        self._send_hello(ALL)
        self.advance(now)

    # -- the surface callers use -----------------------------------------------

    @property
    def finished(self) -> bool:
        return self.ledger.finished

    @property
    def game(self) -> Game:
        return self.ledger.game

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.ledger.seats]

    def view(self) -> dict:
        """What our seat may see of the table (the game's view function)."""
        return self.ledger.game.view(self.ledger.state, self.seat)

    def public_view(self) -> dict:
        """What anyone may see of the table (the end of the game, for everyone)."""
        return self.ledger.game.view(self.ledger.state, None)

    @property
    def log_length(self) -> int:
        """How many entries our log holds (a position that moves with every entry)."""
        return self.ledger.next_index

    def ask(self, policy) -> Action:  # noqa: ANN001 - an engine.playout.Policy
        """What ``policy`` (a bot) chooses for our seat now.  It is handed our
        ledger's state, which holds only what our seat may see (another seat's
        hidden cards are None), so it may look ahead with the rules."""
        return policy(self.ledger.game, self.ledger.state, self.seat)

    def legal_actions(self) -> tuple[Action, ...]:
        """Our legal moves now (none when it is not our turn or our choice)."""
        if not self.my_turn():
            return ()
        return self.ledger.game.legal_actions(self.ledger.state, self.seat)

    def my_turn(self) -> bool:
        if self._own is not None or self.failed is not None:
            return False  # our move is made, only not yet applied (see submit)
        if self._catching_up():
            return False  # resumed: a peer may hold our move here already
        expected = self.ledger.expected()
        if self.stopped is not None:
            return False
        if expected.kind == "commits":  # a secret choice, made at once with others
            return self.seat in expected.targets and not self._parts.committed(self)
        return expected.kind == "action" and expected.seat == self.seat and not expected.forced

    def choosing_together(self) -> bool:
        """Whether our decision now is a secret choice that other seats make at
        the same time (no one sees another's until all are made)."""
        return self.my_turn() and self.ledger.expected().kind == "commits"

    def secret_choice(self) -> tuple[Action | None, list[int], list[int]]:
        """During a secret simultaneous choice: ours (None if we are not asked or
        have not chosen), the other asked seats whose commit we lack, and those
        whose commit we hold (they have chosen: what, nobody knows until the
        reveals; at a table with a collector, only it holds the others')."""
        expected = self.ledger.expected()
        if expected.kind != "commits" or self.stopped is not None:
            return None, [], []
        waiting = self._parts.awaited(self, expected) - {self.seat}
        asked = {seat for seat in expected.targets if seat is not None}  # all are seats
        chosen = asked - waiting - {self.seat}
        return self._parts.our_choice(self.ledger.next_index), sorted(waiting), sorted(chosen)

    def take_writes(self) -> list[Write]:
        """Entries to persist, in order, each with whether it must be durable
        before any frame of this batch leaves (ours: see the module docstring)."""
        out, self.writes = self.writes, []
        return out

    def take_choices(self) -> list[Choice]:
        """Our secret choices to keep on stable storage before any frame of this
        batch leaves (see :class:`Choice`)."""
        out, self.choices = self.choices, []
        return out

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        """Frames to send (destination seat, or None for every other seat)."""
        out, self.outgoing = self.outgoing, []
        return out

    def take_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    def everyone_agrees(self) -> bool:
        """Whether every other seat's last ping showed our log (length and head):
        after the end, a peer stays until then (or a little while), so a stopped
        game's honest logs can agree on one ending (wire.md 6.8)."""
        length, head = self.ledger.next_index, self.ledger.head
        return all(p.their_len == length and p.their_head == head for p in self.peers.values())

    def silent_peers(self, now: float, after: float = 3.0) -> list[tuple[int, float | None]]:
        """Seats we have not heard from for ``after`` seconds (None: never)."""
        return self.peers.silent(now, after)

    def left_seats(self) -> dict[int, str]:
        """The seats that said they were leaving (their ``bye``) and have sent
        nothing since, with why (see :class:`PeerLeft`)."""
        return dict(self._left)

    def resume_waiting_on(self) -> list[int]:
        """After a resume, the seats we wait on before our player may move (empty
        once caught up, and always for a session not resumed)."""
        return self.peers.resume_waiting_on(self.ledger.next_index)

    def _catching_up(self) -> bool:
        return self.peers.catching_up(self.ledger.next_index)

    @property
    def resuming(self) -> bool:
        """Resumed, and not every seat has told us where it stands (wire.md 6.10)."""
        return self._catching_up()

    # -- input -----------------------------------------------------------------

    def submit(self, action: Action, now: float, advance: bool = True) -> None:
        """Our player's move: check it is legal, sign it, write it, send it.

        Every other peer is waiting for the move, so it goes out before we apply
        it ourselves: the rules' legal actions say it is legal (applying a legal
        action never fails: the playout property tests hold the games to that),
        and it is persisted (durably) before it is sent, so a crash can never make
        us sign a second move for the same place.  ``advance=False`` leaves
        applying it, and the automatic steps that follow, to :meth:`step`, so a
        caller can put the frames on the wire first; until then :meth:`my_turn`
        is False and nothing else is accepted."""
        if not self.my_turn():
            raise LocalProtocolError("it is not your turn")
        if action not in self.ledger.game.legal_actions(self.ledger.state, self.seat):
            raise LocalProtocolError(f"illegal action {action.text!r}")
        if self.ledger.expected().kind == "commits":
            # A secret choice: kept first, then our commit to it goes out (the
            # round's step), and the choices are revealed once all are in.
            self.choices.append(Choice(self.ledger.next_index, action.text))
            self._parts.commit(self, action, now)
            if advance:
                self.advance(now)
            return
        entry = authoring.action_entry(self.ledger, self.seat, self.secrets, action)
        self.send_first(entry, "entry", {"entry": entry.encode()})
        if advance:
            self.advance(now)

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
            self.events.append(Rejected(exc.seat, exc.reason))
            return
        peer = self.peers[message.sender]
        if peer.last_contact is not None and now - peer.last_contact >= ALIVE:
            self._back_in_contact(message.sender, now)
        peer.last_contact = now
        if message.kind != "bye":
            self._left.pop(message.sender, None)  # it said bye, and it is back
        try:
            self._dispatch(message, now)
        except RemoteProtocolError as exc:
            self.events.append(Rejected(message.sender, exc.reason))

    def _dispatch(self, message: Message, now: float) -> None:
        handler = _HANDLERS.get(message.kind)
        if handler is not None:
            handler(self, message, now)
            return
        round_ = self._taker.get(message.kind)
        if round_ is None:
            raise RemoteProtocolError(f"unexpected {message.kind} message")
        round_.take(self, message, now)

    def _back_in_contact(self, seat: int, now: float) -> None:
        """``seat`` was out of contact and is heard again (a laptop whose lid was
        shut, a network that came back): like a seat that restarted (its hello),
        it gets the whole withholding timeout again for what we wait on it for.
        Found by the fault drill: a seat frozen 25 s was named at its first ping.
        A seat's bye gives it the same."""
        if self._waiting_since is None:
            return
        expected = self.ledger.expected()
        if seat in self.rounds[expected.kind].awaited(self, expected):
            self._waiting_since = now

    def _skip_our_absence(self, now: float) -> None:
        """Our own process did not run for a while (the machine slept): that time
        counts for nobody's withholding or silence, or we would name seats whose
        frames are waiting, unread, in our queue."""
        last = self._last_tick
        self._last_tick = now
        gap = now - last if last is not None else 0.0
        if gap < SLEPT:
            return
        if self._waiting_since is not None:
            self._waiting_since += gap
        self._started += gap
        for peer in self.peers.values():
            if peer.last_contact is not None:
                peer.last_contact += gap

    def tick(self, now: float) -> None:
        """Timers: pings, the collector's wait, withholding and abandonment."""
        if self.failed is not None:
            return
        try:
            self._skip_our_absence(now)
            self._settle()
            if now >= self._next_ping:
                self._next_ping = now + PING_EVERY
                self._send_ping(ALL)
                for seat in self.peers.unanswered():
                    # Resumed, and no welcome from it yet: our hello may have
                    # gone to a peer that was down, or been lost.
                    self._send_hello(seat)
            for round_ in self._each_round:
                round_.tick(self, now)
            self._check_accusations(now)
        except Exception as exc:  # noqa: BLE001 - ours
            self._fail(exc)

    def wake_at(self, now: float) -> float:
        """When :meth:`tick` next has something to do: the next ping, the end of
        the collector's time for a chance step, or the withholding timeout, each
        if it is still ahead (past it, every ping re-checks)."""
        wake = self._next_ping
        if self._waiting_since is not None:
            wake = _sooner(wake, self._waiting_since + self.withhold_timeout, now)
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
        expected = self.ledger.expected()
        round_ = self.rounds[expected.kind]
        if round_.withholdable(expected) and self._waiting_since is None:
            self._waiting_since = now  # the withholding clock starts with the round
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
        self.outgoing.extend(zip(targets, frames, strict=True))

    def reject(self, seat: int | None, why: str) -> None:
        self.events.append(Rejected(seat, why))

    def report(self, event: Event) -> None:
        self.events.append(event)

    def keep_choice(self, index: int, action: str) -> None:
        self.choices.append(Choice(index, action))

    def append(self, entry: Entry) -> None:
        """Validate and apply ``entry``, persist it, and take what waited for it."""
        self._apply(entry)
        # Durable if we signed it alone (our shuffle): we send it at once; and the
        # result, whose ping tells everyone we hold the whole log (they may leave).
        ours = _signer(entry) == self.seat
        self.writes.append(Write(entry.encode(), ours or self._at_end() or _holds_commits(entry)))
        self.catch_up.drain(self)

    # -- the CatchUpSession that catch-up is handed (net/catch_up.py) -------------------------

    def apply_entry(self, entry: Entry) -> None:
        self._apply(entry)

    def persist(self, raw: bytes) -> None:
        # Another seat's entry: a peer sends it again if we lose it, so no sync of
        # its own, except the last: once we say we hold the whole log, the others
        # may leave, and nobody would be there to send it again.  And a commits
        # entry (see _holds_commits): it was just applied, the last of our log.
        commits = _holds_commits(self.ledger.entries[-1])
        self.writes.append(Write(raw, self._at_end() or commits))

    def before_apply(self, entry: Entry) -> None:
        self.rounds["shuffle"].arrived(self, entry)  # type: ignore[attr-defined]

    def _at_end(self) -> bool:
        return self.ledger.finished or self.ledger.stopped is not None

    def send_first(self, entry: Entry, kind: str, data: dict) -> None:
        # Durable if we signed it (our move, a forced move); an entry we only
        # assembled from others' signed parts or chain values (a collector's
        # chance entry or bundle) proves itself, and we would make the same bytes
        # again: no sync of its own on the collector's path.
        durable = _signer(entry) == self.seat or _holds_commits(entry)
        self.writes.append(Write(entry.encode(), durable))
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
        self.writes.append(Write(entry.encode(), True, at.next_index - 1 if cut else None))
        self.send(ALL, "stop", {"entry": entry.encode()})

    # -- the log -----------------------------------------------------------------

    def _apply(self, entry: Entry) -> None:
        applied, seen = append_seeing(self.ledger, entry)  # seen: our own cards, read by us
        done = self.ledger.next_index
        for round_ in self._each_round:
            round_.prune(done)
        self.events.append(applied)
        if seen:
            self.events.append(Seen(applied.index, seen))
        self._waiting_since = None
        if self.ledger.finished and self.ledger.result is not None:
            self.events.append(Finished(self.ledger.result))
            # Tell everyone at once that we hold the whole log: a peer lingers
            # after the end until every other has it (see net/peer.py).
            self._send_ping(ALL)
        if self.ledger.stopped is not None and self.stopped is None:
            halt = self.ledger.stopped
            self.stopped = Stopped(
                halt.reason, halt.culprit, halt.detail, halt.proved, halt.detector
            )
            self.events.append(self.stopped)
            self._send_ping(ALL)  # where our log ends, so the endings can agree

    def _check_accusations(self, now: float) -> None:
        if self.stopped is not None or self._catching_up():
            return  # an abort is a signature too: none before we know where the log is
        expected = self.ledger.expected()
        round_ = self.rounds[expected.kind]
        awaited = round_.awaited(self, expected) - {self.seat}
        contacts = self.peers.last_contacts()
        since = self._waiting_since
        if (
            round_.withholdable(expected)
            and since is not None
            and now - since >= self.withhold_timeout
        ):
            found = accusations.withholding(awaited, contacts, self.ledger.next_index, now)
            if found is not None:
                self.accuse(found)
                return
        found = accusations.abandonment(awaited, contacts, self._started, now, self.abandon_timeout)
        if found is not None:
            self.accuse(found)

    def _fail(self, exc: BaseException) -> None:
        """A bug of ours: report it with its traceback, take no more input."""
        if self.failed is None:
            text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            self.failed = Failed(f"{type(exc).__name__}: {exc}", text)
            self.events.append(self.failed)

    # -- messages ----------------------------------------------------------------

    def _send_ping(self, dest: int | None) -> None:
        """Our log length and head: how peers learn who lacks what (wire.md 6.5)."""
        length, head, ours = self.ledger.next_index, self.ledger.head, self.endpoints[self.seat]
        self.send(dest, "ping", {"len": length, "head": head, "ep": ours})

    def _send_hello(self, dest: int | None) -> None:
        self.send(dest, "hello", {"len": self.ledger.next_index, "ep": self.endpoints[self.seat]})

    def _on_hello(self, message: Message, now: float) -> None:
        # A peer (re)started: tell it where we are, what we hold of its own
        # (a welcome), and resend what we owe it.
        sender = message.sender
        peer = self.peers[sender]
        peer.their_len = message.data["len"]
        self.peers.heard_length(sender)
        self._moved(sender, message.data["ep"])
        expected = self.ledger.expected()
        round_ = self.rounds[expected.kind]
        if self._waiting_since is not None and sender in round_.awaited(self, expected):
            # It (re)started: give it the whole timeout to send what we wait for.
            self._waiting_since = now
        length, head, ours = self.ledger.next_index, self.ledger.head, self.endpoints[self.seat]
        yours = self._parts.held_of(sender, length)
        self.send(sender, "welcome", {"len": length, "head": head, "ep": ours, "yours": yours})
        for each in self._each_round:
            each.resend(self, message.sender)
        self.catch_up.push(self, message.sender, peer.their_len)

    def _moved(self, seat: int, endpoint: str) -> None:
        """A seat's hello and pings name where it listens: a new port on the same address
        (it resumed there, its old port taken) is where its frames go now.  Only
        the seat can say so (the frame is authenticated and fresh), and only the
        port may change, so no seat can point the others at another machine."""
        old = self.endpoints[seat]
        if not old or endpoint == old:
            return
        try:
            ip, _ = parse_endpoint(endpoint)
            old_ip, _ = parse_endpoint(old)
        except ValueError as exc:
            raise RemoteProtocolError(f"hello with a bad endpoint: {exc}") from None
        if ip != old_ip:
            raise RemoteProtocolError(f"hello from another address ({endpoint}, not {old})")
        self.endpoints[seat] = endpoint
        self.events.append(Moved(seat, endpoint))

    def _on_ping(self, message: Message, now: float) -> None:
        # Not an answer to our hello: after a resume it may have left before its
        # sender knew we were back, so it says nothing of what it holds of ours.
        peer = self.peers[message.sender]
        previous, peer.their_len = peer.their_len, message.data["len"]
        peer.their_head = message.data["head"]
        self._moved(message.sender, message.data["ep"])
        self.catch_up.on_ping(self, message, previous)

    def _on_welcome(self, message: Message, now: float) -> None:
        # The answer to our hello: a ping, with our own parts the sender holds
        # (after a resume, our commit comes back this way: net/parts.py).
        self._parts.take_own(self, message.data["yours"], message.sender)
        self._on_ping(message, now)
        self.peers.heard_length(message.sender)

    def _on_bye(self, message: Message, now: float) -> None:
        # Said, and shown; nothing else.  The seat is alive until its silence
        # says otherwise (ALIVE), and like a seat that restarts it gets the whole
        # withholding timeout again for what we wait on it for: a bye can make a
        # wait longer, never shorter.
        why = message.data["why"]
        why = why if why in LEAVE_REASONS else ""
        self._left[message.sender] = why
        self.events.append(PeerLeft(message.sender, why))
        self._back_in_contact(message.sender, now)

    def _on_gsig(self, message: Message, now: float) -> None:
        # A genesis signature after the genesis: the sender is still in its
        # genesis round, or came back to it (net/pending_genesis.py).  Answer with
        # ours, as the round would, so it can complete the genesis too; only a
        # peer that has not told us of a log of its own (a session's first frame
        # is its hello), so two sessions never answer each other's answers.
        ours = dict(self.ledger.entries[0].sigs).get(self.seat)
        if ours is not None and self.peers[message.sender].their_len == 0:
            self.send(message.sender, "gsig", {"sig": ours})


def _holds_commits(entry: Entry) -> bool:
    """A commits entry holds every asked seat's signed commit to a secret choice
    (replay/choices.py): synced by every seat, like an entry it signed.  A seat
    that lost its choice file finds its commit again in the others' logs; were
    their copies unsynced, a power cut could take them and it would be asked
    again, and one disk that kept the bundle after all would then prove an
    equivocation against an honest seat (found by the fault drill)."""
    return entry.kind == "commits"


def _signer(entry: Entry) -> int | None:
    sigs = entry.sigs
    return sigs[0][0] if len(sigs) == 1 else None


# The messages the session handles itself (with its catch-up); the rest are the
# rounds' contributions (each round's ``message``).
_HANDLERS = {
    "hello": Session._on_hello,
    "ping": Session._on_ping,
    "welcome": Session._on_welcome,
    "gsig": Session._on_gsig,
    "bye": Session._on_bye,
    "get": lambda session, message, now: session.catch_up.on_get(session, message),
    "entries": lambda session, message, now: session.catch_up.on_entries(session, message),
    "entry": lambda session, message, now: session.catch_up.on_entry(session, message),
    "stop": lambda session, message, now: session.catch_up.on_stop(session, message),
}
