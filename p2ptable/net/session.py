"""A seated peer's game session, sans-IO: bytes and time in, bytes and events out.

Theory of operation
-------------------
Every peer holds the same :class:`~p2ptable.replay.ledger.Ledger`.  Nobody leads:
the ledger's ``expected()`` says who may write the next entry, and every peer
validates every entry before appending it, so all logs end byte-identical.

=====================  ===============================================================
ledger expects         what this session does
=====================  ===============================================================
our action             nothing until :meth:`submit`; then append, write, broadcast
another seat's action  wait for its ``entry`` message (or fetch it via ``get``)
chance                 send our reveal at once to the step's collector (the seat
                       that moved last), which assembles the chance entry when
                       every reveal is in and sends it to all; if it has not come
                       within ``RELAY_WAIT``, broadcast our reveal and assemble it
                       ourselves, like every other peer
our shuffle            make it (with its proof) at once; append, write, broadcast
another seat's shuffle wait for its ``entry`` message, like an action
open / secrets         broadcast our signed ``part`` at once; check every part as it
                       arrives; when all are in, each peer bundles the same entry
result                 broadcast our signature on the result we computed; assemble
                       when all signatures are in
nothing (game over)    answer catch-up requests only
=====================  ===============================================================

What a frame carries is taken in by :meth:`receive`; the automatic steps it makes
due (the rows above that say "at once") run there too, or, after ``receive(...,
advance=False)``, one at a time through :meth:`step`, so the caller can send each
step's frames and note each entry as applied before the next step starts.

Timers come from :meth:`tick` (the caller passes ``now``; no clock here): a
``ping`` every ``PING_EVERY`` seconds carries our log length and head hash, so a
peer that is behind is sent what it lacks and a peer that is ahead is asked.

Durability (protocol/wire.md 6.10): every entry is handed to ``write`` as it is
made or taken; before a frame that carries an entry (``entry``, ``entries``,
``stop``) leaves, ``sync`` is called if anything was written since the last sync,
so an entry we signed, or assembled and send first, is on stable storage before
any peer can hold it.  One sync covers every earlier write to the file, so the
entries of others it links to are on disk too; those alone are never synced (a
peer sends them again).  A session made with ``resumed=True`` (after a crash)
takes no move from its player and accuses nobody until every other seat has told
it its log length (``hello`` or ``ping``) and it holds as much as the longest: a
move it sent and lost comes back from a peer instead of being made again
differently (:meth:`resume_waiting_on` names whom it waits for).  Its reveals,
shuffles, parts and result signatures go on as usual: each is a function of the
log position and our secrets, the same bytes however often it is made, and
holding them back would make a waiting seat look like one that withholds.

Bad input from a peer (malformed, bad signature, replayed, out of turn, illegal)
is rejected with a :class:`Rejected` event naming the reason, and the game goes
on.  A peer whose signed sealed-deck message fails its proof (a shuffle, a played
card's reveal, a part of an opening or of the secrets) has cheated: the session
stops with that message as evidence (replay/evidence.py).  A peer that signs two
different entries for one position (equivocation),
or is alive but withholds its reveal, shuffle, part or result signature past
``withhold_timeout`` is caught, and a seat the game waits on that is out of
contact for ``abandon_timeout`` (5 minutes: time enough to resume after a crash)
is named as having abandoned: either way the session stops with a
signed ``abort`` entry holding the evidence, appended to the log and broadcast.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from p2ptable.crypto.links import link_key
from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.api import Action
from p2ptable.net.accusations import PING_EVERY, Accusations
from p2ptable.net.events import Event, Finished, Rejected, Stopped

# The events are importable from here, where the session that emits them lives.
__all__ = [
    "Event",
    "Finished",
    "LocalProtocolError",
    "Rejected",
    "Session",
    "Stopped",
    "link_keys",
]
from p2ptable.net.sealed_steps import SealedSteps
from p2ptable.net.wire import Message, RemoteProtocolError, open_frame, seal_many
from p2ptable.randomness.chain import check_preimage
from p2ptable.replay import authoring
from p2ptable.replay.entries import (
    Entry,
    MalformedEntry,
    signed_message,
)
from p2ptable.replay.ledger import InvalidEntry, Ledger

FORK_LOOKBACK = 16
BATCH = 256
BATCH_BYTES = 128 * 1024  # a catch-up frame stays well under wire.MAX_FRAME
MAX_BUFFERED = 4096
MAX_FUTURE_BYTES = 32 * 1024 * 1024  # entries kept for later, as received
# How long a peer leaves a chance step to its collector before sending its reveal
# to everyone (protocol/wire.md 6.3): far above a LAN's round trip, far below the
# withholding timeout, so a collector that sits on the reveals costs half a second.
RELAY_WAIT = 0.5
# The messages that carry entries: before one leaves, what we wrote is synced.
CARRIES_ENTRIES = frozenset({"entry", "entries", "stop"})

ALL = None  # destination: every other seat


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


class LocalProtocolError(Exception):
    """We (our user or our code) tried something the rules or protocol forbid."""


@dataclass
class _PeerState:
    boots: set[bytes] = field(default_factory=set)
    boot: bytes | None = None
    seq: int = -1
    last_contact: float | None = None
    their_len: int = 0


class Session(Accusations, SealedSteps):
    """One seat's view of a running game.  See the module docstring; the
    accusations (equivocation, cheating, withholding) are in net/accusations.py,
    the sealed-deck steps (early shuffles, parts) in net/sealed_steps.py."""

    def __init__(
        self,
        ledger: Ledger,
        seat: int,
        secrets: authoring.SeatSecrets,
        now: float,
        write: Callable[[bytes], None] | None = None,
        withhold_timeout: float = 20.0,
        abandon_timeout: float = 300.0,
        boot: bytes | None = None,
        sync: Callable[[], None] | None = None,
        resumed: bool = False,
    ) -> None:
        self.ledger = ledger
        self.seat = seat
        self.secrets = secrets
        self.write = write or (lambda payload: None)
        self.sync = sync or (lambda: None)
        self._unsynced = False
        self.withhold_timeout = withhold_timeout
        self.abandon_timeout = abandon_timeout
        self._started = now
        self.n = len(ledger.seats)
        self.keys = [s.key for s in ledger.seats]
        self.links = link_keys(secrets, seat, [s.link for s in ledger.seats], ledger.game_id)
        self.boot = boot or os.urandom(8)
        self.seq = 0
        self.peers = {s: _PeerState() for s in range(self.n) if s != seat}
        # After a resume: the seats that have not told us their log length yet.
        # Until none is left and we hold as much as the longest, we sign no move
        # and no accusation (see _catching_up).
        self._unheard: set[int] = set(self.peers) if resumed else set()
        self._resuming = resumed
        self.outgoing: list[tuple[int | None, bytes]] = []
        self.events: list[Event] = []
        self.stopped: Stopped | None = None
        self._future: dict[int, bytes] = {}
        self._future_bytes = 0
        self._gaps: dict[int, int] = {}  # sender -> an entry it sent from ahead of our log
        self._reveals: dict[int, dict[int, tuple[bytes, bytes, int]]] = {}
        self._rsigs: dict[int, dict[int, bytes]] = {}
        # Parts and future entries are kept as the bytes received (a decoded body
        # can be far bigger than its bytes) and decoded when they are used.
        self._parts: dict[int, dict[int, bytes]] = {}
        self._fork_probes: set[tuple[int, int]] = set()
        self._early_shuffle: Entry | None = None  # sent before the one under it was in
        self._parts_checked: set[tuple[int, int]] = set()
        self._waiting_since: float | None = None
        self._revealed: tuple[int, float] | None = None  # (index, when) sent to a collector
        self._collector_at: tuple[int, int] | None = None  # (log length, collector)
        # Our move, or a chance entry we assembled as collector: written and sent,
        # not yet applied (see submit).
        self._own: Entry | None = None
        self._next_ping = now
        self._send(ALL, "hello", {"len": ledger.next_index})
        self._progress(now)

    # -- public API ------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.ledger.finished

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        out, self.outgoing = self.outgoing, []
        return out

    def take_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    def my_turn(self) -> bool:
        if self._own is not None:
            return False  # our move is made, only not yet applied (see submit)
        if self._catching_up():
            return False  # resumed: a peer may hold our move here already
        expected = self.ledger.expected()
        return self.stopped is None and expected.kind == "action" and expected.seat == self.seat

    def submit(self, action: Action, now: float, advance: bool = True) -> None:
        """Our player's move: check it is legal, sign it, write it, send it.

        Every other peer is waiting for the move, so it goes out before we apply
        it ourselves: the rules' legal actions say it is legal (applying a legal
        action never fails: the playout property tests hold the games to that),
        and it is on disk before it is sent, so a crash can never make us sign
        a second move for the same place.  ``advance=False`` leaves applying it,
        and the automatic steps that follow (our reveal for a chance step it makes
        due), to :meth:`advance`, so a caller can put the frames on the wire
        first; until then :meth:`my_turn` is False and nothing else is accepted."""
        if not self.my_turn():
            raise LocalProtocolError("it is not your turn")
        legal = self.ledger.game.legal_actions(self.ledger.state, self.seat)
        if action not in legal:
            raise LocalProtocolError(f"illegal action {action.text!r}")
        entry = authoring.action_entry(self.ledger, self.seat, self.secrets, action)
        self._write(entry.encode())
        self._send(ALL, "entry", {"entry": entry.encode()})
        self._own = entry
        if advance:
            self.advance(now)

    def advance(self, now: float) -> None:
        """Apply our move if it is still pending, then do every automatic step now
        due (after ``submit(..., advance=False)``)."""
        self._settle()
        self._progress(now)

    def step(self, now: float) -> bool:
        """Apply our pending entry (our move, or a chance entry we relayed as the
        collector) if there is one: that is a step by itself.  Otherwise do the
        next automatic step if one is due: our reveal, part or shuffle made and
        queued, or a chance, open, secrets or result entry assembled.  True when it
        made an entry (another step may now be due: call again); False when the
        game waits on someone.  One step at a time lets the caller send what each
        step queued, and note when each entry was applied, before starting on the
        next (after ``receive(..., advance=False)``): a collector's relay of a
        chance entry leaves before it applies it, and it notes it applied before
        it works out its part of the deal that follows."""
        if self._own is not None:
            self._settle()
            return True
        try:
            progressed = self._step(now)
        except Exception as exc:  # noqa: BLE001 - see receive: log it, never crash
            why = f"internal error while advancing the game ({type(exc).__name__}: {exc})"
            self.events.append(Rejected(None, why))
            progressed = False
        if not progressed:
            self._ask_for_gaps()
        return progressed

    def _settle(self) -> None:
        own, self._own = self._own, None
        if own is not None:
            try:
                self._append(own, written=True)
            except InvalidEntry as exc:
                # The rules listed it as legal (or every reveal in it was checked)
                # and then the ledger refused it: a bug of ours, which every peer
                # meets alike (they refuse it too).
                raise LocalProtocolError(f"our own entry was refused: {exc.reason}") from None
            self._drain_future()

    def receive(self, frame: bytes, now: float, advance: bool = True) -> None:
        """Handle one frame from the network.

        ``advance=False`` takes in what the frame carries (an entry appended, a
        reveal or part kept for its step) and leaves the automatic steps that may
        then be due to :meth:`step`."""
        self._settle()
        try:
            message = open_frame(frame, self.ledger.game_id, self.links)
            self._check_fresh(message)
        except RemoteProtocolError as exc:
            self.events.append(Rejected(exc.seat, exc.reason))
            return
        peer = self.peers[message.sender]
        peer.last_contact = now
        handler = getattr(self, f"_on_{message.kind}", None)
        if handler is None:
            self.events.append(Rejected(message.sender, f"unexpected {message.kind} message"))
            return
        try:
            handler(message, now)
        except RemoteProtocolError as exc:
            self.events.append(Rejected(message.sender, exc.reason))
        except Exception as exc:  # noqa: BLE001 - a peer's bytes must never crash us
            # Whatever a peer sends, the game goes on; the reason goes to the log.
            why = f"could not handle a {message.kind} message ({type(exc).__name__}: {exc})"
            self.events.append(Rejected(message.sender, why))
        if not advance:
            return
        try:
            self._progress(now)
        except Exception as exc:  # noqa: BLE001 - still a peer's bytes: never crash
            # A bug of ours met by a peer's input: log it, keep the log valid, and let
            # timeouts and catch-up take over rather than losing the game.
            why = f"internal error while advancing the game ({type(exc).__name__}: {exc})"
            self.events.append(Rejected(message.sender, why))

    def tick(self, now: float) -> None:
        self._settle()
        if now >= self._next_ping:
            self._next_ping = now + PING_EVERY
            self._send_ping(ALL)
        revealed = self._revealed
        if revealed is not None and now - revealed[1] >= RELAY_WAIT:
            # The collector has not sent the chance entry: do without it.
            self._revealed = None
            if revealed[0] == self.ledger.next_index and revealed[0] in self._reveals:
                self._send_reveal(ALL, revealed[0])
        if not self._catching_up():
            # An abort is a signature too: none before we know where the log is.
            self._check_withholding(now)
            self._check_abandoned(now)

    def wake_at(self, now: float) -> float:
        """When :meth:`tick` next has something to do: the next ping, the end of
        the collector's time for a chance step, or the withholding timeout, each
        if it is still ahead (past it, every ping re-checks)."""
        wake = self._next_ping
        if self._waiting_since is not None:
            wake = _sooner(wake, self._waiting_since + self.withhold_timeout, now)
        if self._revealed is not None:
            wake = _sooner(wake, self._revealed[1] + RELAY_WAIT, now)
        return wake

    def silent_peers(self, now: float, after: float = 3.0) -> list[tuple[int, float | None]]:
        """Seats we have not heard from for ``after`` seconds (None: never)."""
        out = []
        for seat, peer in self.peers.items():
            if peer.last_contact is None or now - peer.last_contact >= after:
                out.append((seat, None if peer.last_contact is None else now - peer.last_contact))
        return out

    def resume_waiting_on(self) -> list[int]:
        """After a resume, the seats we wait on before our player may move: those
        that have not told us their log length yet, and those that hold entries
        we lack.  Empty once caught up (and always, for a session not resumed),
        so a screen can say "waiting for Ben" while it is not."""
        if not self._catching_up():
            return []
        length = self.ledger.next_index
        return sorted(
            s for s, p in self.peers.items() if s in self._unheard or p.their_len > length
        )

    def _catching_up(self) -> bool:
        """True while a resumed session may not sign a move or an accusation (the
        entries whose content is not fixed by the log and our secrets): it has not
        heard every other seat's log length, or one of them holds entries it lacks.
        Once False it stays False (from then on every entry we sign is synced
        before it leaves)."""
        if not self._resuming:
            return False
        length = self.ledger.next_index
        if self._unheard or any(p.their_len > length for p in self.peers.values()):
            return True
        self._resuming = False
        return False

    # -- sending ---------------------------------------------------------------

    def _write(self, payload: bytes) -> None:
        self.write(payload)
        self._unsynced = True

    def _send(self, dest: int | None, kind: str, data: dict) -> None:
        """Queue a frame for ``dest`` (ALL: one frame per peer, each with its own tag).

        A broadcast uses one sequence number for all its frames: each receiver
        still sees our numbers grow, and the envelope is encoded once.  A frame
        that carries entries leaves only after what we wrote is synced (see the
        module docstring): the one place every entry we send passes."""
        if kind in CARRIES_ENTRIES and self._unsynced:
            self.sync()
            self._unsynced = False
        targets = list(self.peers) if dest is None else [dest]
        message = Message(kind, self.ledger.game_id, self.seat, self.boot, self.seq, data)
        self.seq += 1
        frames = seal_many(message, [self.links[t] for t in targets])  # type: ignore[misc]
        self.outgoing.extend(zip(targets, frames, strict=True))

    def _send_ping(self, dest: int | None) -> None:
        """Our log length and head: how peers learn who lacks what (wire.md 6.5)."""
        self._send(dest, "ping", {"len": self.ledger.next_index, "head": self.ledger.head})

    def _send_logged(self, dest: int | None, index: int) -> None:
        """Entry ``index`` of our log, alone, as an ``entries`` message."""
        entry = self.ledger.entries[index]
        self._send(dest, "entries", {"from": index, "entries": [entry.encode()]})

    # -- receiving ---------------------------------------------------------------

    def _check_fresh(self, message: Message) -> None:
        peer = self.peers.get(message.sender)
        if peer is None:
            raise RemoteProtocolError("message claims to come from our own seat", message.sender)
        if message.boot == peer.boot:
            if message.seq <= peer.seq:
                raise RemoteProtocolError(
                    f"replayed message (seq {message.seq} already seen)", message.sender
                )
        elif message.boot in peer.boots:
            raise RemoteProtocolError("replayed message from an earlier run", message.sender)
        else:
            peer.boots.add(message.boot)
            peer.boot = message.boot
        peer.seq = message.seq

    def _on_hello(self, message: Message, now: float) -> None:
        # A peer (re)started: tell it where we are and resend what we owe it.
        peer = self.peers[message.sender]
        peer.their_len = message.data["len"]
        self._unheard.discard(message.sender)
        if self._waiting_since is not None and message.sender in self._awaited():
            # It (re)started: give it the whole timeout to send what we wait for.
            self._waiting_since = now
        self._send_ping(message.sender)
        self._resend_contribution(message.sender)
        self._push_catch_up(message.sender, peer.their_len)

    def _on_ping(self, message: Message, now: float) -> None:
        peer = self.peers[message.sender]
        theirs = message.data["len"]
        previous = peer.their_len
        peer.their_len = theirs
        self._unheard.discard(message.sender)
        if theirs < self.ledger.next_index and theirs != previous:
            self._push_catch_up(message.sender, theirs)
        elif theirs > self.ledger.next_index:
            self._send(message.sender, "get", {"from": self.ledger.next_index})
        elif theirs == self.ledger.next_index and message.data["head"] != self.ledger.head:
            # Same length, different head: our logs forked, which only a seat signing
            # two different entries can cause.  Fetch their recent entries; the
            # first one that differs from ours is the evidence.
            self._send(message.sender, "get", {"from": max(1, theirs - FORK_LOOKBACK)})

    def _on_get(self, message: Message, now: float) -> None:
        self._push_catch_up(message.sender, message.data["from"])

    def _push_catch_up(self, dest: int, start: int) -> None:
        if 0 < start < self.ledger.next_index:
            batch: list[bytes] = []
            size = 0
            for e in self.ledger.entries[start : start + BATCH]:
                data = e.encode()
                if batch and size + len(data) > BATCH_BYTES:
                    break  # the peer asks again for the rest
                batch.append(data)
                size += len(data)
            self._send(dest, "entries", {"from": start, "entries": batch})

    def _on_entries(self, message: Message, now: float) -> None:
        for raw in message.data["entries"]:
            if not isinstance(raw, bytes):
                raise RemoteProtocolError("catch-up entries must be bytes")
            self._take_entry(raw, message.sender, relayed=True)
            if self.stopped is not None:
                return

    def _on_entry(self, message: Message, now: float) -> None:
        self._take_entry(message.data["entry"], message.sender, relayed=False)

    def _take_entry(self, raw: bytes, sender: int, relayed: bool) -> None:
        try:
            entry = Entry.decode(raw)
        except MalformedEntry as exc:
            raise RemoteProtocolError(f"malformed entry: {exc}") from None
        body = entry.body
        if body["t"] == "genesis":
            return
        index = body["i"]
        if body["t"] == "abort" and self.stopped is not None:
            return
        if not relayed and (body["t"] not in ("action", "shuffle") or body["seat"] != sender):
            raise RemoteProtocolError(
                "an entry message must carry the sender's own action or shuffle"
            )
        if index < self.ledger.next_index:
            if entry.hash != self.ledger.hashes[index]:
                self._check_equivocation(index, entry)
            return
        if index > self.ledger.next_index:
            fits = self._future_bytes + len(raw) <= MAX_FUTURE_BYTES
            if index not in self._future and len(self._future) < MAX_BUFFERED and fits:
                self._future[index] = raw
                self._future_bytes += len(raw)
            self._gaps[sender] = max(index, self._gaps.get(sender, index))
            return
        self._shuffle_early(entry)
        try:
            self._append(entry)
        except InvalidEntry as exc:
            self._check_cheat(entry, exc)
            if body["prev"] != self.ledger.head:
                self._probe_fork(sender, index)
            raise RemoteProtocolError(exc.reason) from None
        self._drain_future()

    def _probe_fork(self, sender: int, index: int) -> None:
        """The sender's entry ``index`` does not link to ours: our logs forked
        earlier.  Fetch its recent entries once; the first one that differs from
        ours is the evidence (see _check_equivocation)."""
        if (sender, index) in self._fork_probes:
            return
        self._fork_probes.add((sender, index))
        self._send(sender, "get", {"from": max(1, index - FORK_LOOKBACK)})

    def _drain_future(self) -> None:
        while self.ledger.next_index in self._future and self.stopped is None:
            raw = self._future.pop(self.ledger.next_index)
            self._future_bytes -= len(raw)
            entry = Entry.decode(raw)  # it decoded when it arrived
            try:
                self._append(entry)
            except InvalidEntry as exc:
                self._check_cheat(entry, exc)
                self.events.append(Rejected(None, exc.reason))
                return

    def _on_reveal(self, message: Message, now: float) -> None:
        d = message.data
        if d["i"] < self.ledger.next_index:
            # The chance entry is in our log.  A reveal for it now means the
            # sender never got it (the collector's relay was lost): send it on.
            if self.ledger.entries[d["i"]].kind == "chance":
                self._send_logged(message.sender, d["i"])
            return
        if d["i"] not in self._reveals and len(self._reveals) >= MAX_BUFFERED:
            raise RemoteProtocolError("too many pending reveals")
        bucket = self._reveals.setdefault(d["i"], {})
        bucket[message.sender] = (d["pre"], d["prev"], d["step"])

    def _on_rsig(self, message: Message, now: float) -> None:
        if message.data["i"] < self.ledger.next_index:
            return
        self._rsigs.setdefault(message.data["i"], {})[message.sender] = message.data["sig"]

    def _on_gsig(self, message: Message, now: float) -> None:
        pass  # a late genesis signature: the genesis is already complete

    def _on_stop(self, message: Message, now: float) -> None:
        # Another peer caught a cheater: its abort entry carries the evidence, which
        # our ledger re-checks before we stop too.
        self._take_entry(message.data["entry"], message.sender, relayed=True)

    # -- progress ----------------------------------------------------------------

    def _append(self, entry: Entry, written: bool = False) -> None:
        applied = self.ledger.append(entry)
        if not written:
            self._write(entry.encode())
        done = self.ledger.next_index
        for pending in (self._reveals, self._rsigs, self._parts):
            for index in [i for i in pending if i < done]:
                del pending[index]
        self.events.append(applied)
        self._waiting_since = None
        if self.ledger.finished and self.ledger.result is not None:
            self.events.append(Finished(self.ledger.result))
            # Tell everyone at once that we hold the whole log: a peer lingers
            # after the end until every other has it (see net/peer.py).
            self._send_ping(ALL)
        if self.ledger.stopped is not None and self.stopped is None:
            halt = self.ledger.stopped
            self.stopped = Stopped(applied.text, halt.culprit)
            self.events.append(self.stopped)

    def _progress(self, now: float) -> None:
        """Do every automatic step the ledger allows, until it waits on someone."""
        try:
            for _ in range(10_000):
                if not self._step(now):
                    return
        finally:
            self._ask_for_gaps()

    def _step(self, now: float) -> bool:
        """One automatic step; True when it made an entry (appended, or ours sent
        and pending: see _settle)."""
        self._settle()
        if self.stopped is not None:
            return False
        expected = self.ledger.expected()
        index = self.ledger.next_index
        if expected.kind == "chance":
            return self._advance_chance(index, now)
        if expected.kind == "result":
            return self._advance_result(index, now)
        if expected.kind in ("open", "secrets"):
            return self._advance_parts(index, now)
        if expected.kind == "shuffle" and expected.seat == self.seat:
            early, self._early_shuffle = self._early_shuffle, None
            if early is not None and early.body["prev"] == self.ledger.head:
                self._append(early)  # already sent
            else:
                entry = authoring.shuffle_entry(self.ledger, self.seat, self.secrets)
                self._append(entry)
                self._send(ALL, "entry", {"entry": entry.encode()})
            return True
        if expected.kind == "shuffle" and self._waiting_since is None:
            self._waiting_since = now  # a shuffle is automatic: time it
        return False

    def _ask_for_gaps(self) -> None:
        """Entries came from ahead of our log: ask each sender for what lies before
        them, unless our own steps (a chance entry we assembled) closed the gap."""
        gaps, self._gaps = self._gaps, {}
        if self.stopped is not None:
            return
        for sender, index in gaps.items():
            if index >= self.ledger.next_index:
                self._send(sender, "get", {"from": self.ledger.next_index})

    def _collector(self) -> int | None:
        """The seat that gathers the reveals for the pending chance step: the
        author of the latest action (it has just moved, so it is there), or seat
        0 before anyone has.  Anyone may assemble a chance entry (it proves
        itself), so this seat has no power but to be slow, which RELAY_WAIT caps.
        None at a table of two, where gathering saves no frame and costs a hop:
        both seats send their value to each other."""
        if self.n <= 2:
            return None
        length = self.ledger.next_index
        if self._collector_at is None or self._collector_at[0] != length:
            seat = 0
            for entry in reversed(self.ledger.entries):
                if entry.body["t"] == "action":
                    seat = entry.body["seat"]
                    break
            self._collector_at = (length, seat)
        return self._collector_at[1]

    def _advance_chance(self, index: int, now: float) -> bool:
        bucket = self._reveals.setdefault(index, {})
        collector = self._collector()
        if self.seat not in bucket:
            pre = authoring.reveal(self.ledger, self.seat, self.secrets)
            bucket[self.seat] = (pre, self.ledger.head, self.ledger.chance_steps)
            if collector is None:
                self._send_reveal(ALL, index)
            else:
                if collector != self.seat:
                    self._send_reveal(collector, index)
                self._revealed = (index, now)  # RELAY_WAIT starts
            self._waiting_since = now
        valid: dict[int, bytes] = {}
        for seat, (pre, prev, step) in list(bucket.items()):
            problem = self._reveal_problem(seat, pre, prev, step)
            if problem is None:
                valid[seat] = pre
            else:
                del bucket[seat]
                self.events.append(Rejected(seat, problem))
        if len(valid) < self.n:
            return False
        entry = authoring.chance_entry(self.ledger, valid)
        del self._reveals[index]
        self._revealed = None
        if collector == self.seat:
            # Every other peer waits for it: like our own move (submit), it is
            # written and sent first, and applied by the next step (or frame).
            encoded = entry.encode()
            self._write(encoded)
            self._send(ALL, "entries", {"from": index, "entries": [encoded]})
            self._own = entry
            return True
        self._append(entry)
        self._drain_future()
        return True

    def _reveal_problem(self, seat: int, pre: bytes, prev: bytes, step: int) -> str | None:
        if prev != self.ledger.head or step != self.ledger.chance_steps:
            return f"reveal for a different log position (step {step})"
        if not check_preimage(self.ledger.chain_tips[seat], pre):
            # Not provable to others (frames are not signed), so not an abort: the
            # seat simply has not revealed, and withholding catches it if it never does.
            return "revealed a value that is not on its committed chain"
        return None

    def _send_reveal(self, dest: int | None, index: int) -> None:
        pre, prev, step = self._reveals[index][self.seat]
        self._send(dest, "reveal", {"i": index, "prev": prev, "step": step, "pre": pre})

    def _advance_result(self, index: int, now: float) -> bool:
        body = authoring.result_body(self.ledger)
        sigs = self._rsigs.setdefault(index, {})
        if self.seat not in sigs:
            sigs[self.seat] = authoring.sign_result(self.ledger, body, self.secrets)
            self._send(ALL, "rsig", {"i": index, "sig": sigs[self.seat]})
            self._waiting_since = now
        message = signed_message(self.ledger.game_id, body)
        for seat, sig in list(sigs.items()):
            if not verify_signature(self.keys[seat], sig, message):
                del sigs[seat]
                self.events.append(
                    Rejected(seat, "result signature does not match the rules' result")
                )
        if len(sigs) < self.n:
            return False
        self._append(Entry(body, tuple(sorted(sigs.items()))))
        return True

    def _resend_contribution(self, dest: int) -> None:
        index = self.ledger.next_index
        if self.seat in self._parts.get(index, {}):
            self._send(dest, "part", {"entry": self._parts[index][self.seat]})
        if self.seat in self._reveals.get(index, {}):
            self._send_reveal(dest, index)
        if self.seat in self._rsigs.get(index, {}):
            self._send(dest, "rsig", {"i": index, "sig": self._rsigs[index][self.seat]})
