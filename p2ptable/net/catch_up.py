"""Entries travelling between logs: moves as they are made, catch-up, forks.

How it works
------------
Entries reach a session in ``entry`` messages (a seat's own action or shuffle,
as it makes it) and ``entries`` messages (catch-up, relays, a collector's chance
entry); an abort comes in a ``stop``.  :class:`CatchUp` takes each one:

* an entry for the next position of our log is validated and applied (a signed
  one that fails its sealed proof is an accusation; one that does not link to
  ours means our logs forked: the sender's recent entries are fetched once);
* one for a position we hold is compared with ours: a different one is a fork,
  which only a seat signing twice can cause (net/accusations.py); the evidence
  is where the fork began, however far back: each probe asks four times
  further back than the last;
* one from ahead of our log is kept for later, bounded in count and bytes, and
  its sender is asked for what lies between (after our own steps, which may
  close the gap themselves).

``ping`` (every second) carries a peer's log length and head: a peer that is
behind is pushed what it lacks, a peer ahead is asked (``get``), and one at our
length with another head has forked from us.  The collaborator owns its buffers
and is handed the session as a :class:`CatchUpSession`; it reads no clock and sends only
through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from p2ptable.net import accusations
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.kinds import AUTHORED_KINDS, Kind
from p2ptable.replay.ledger import InvalidEntry

if TYPE_CHECKING:
    from p2ptable.net.events import Stopped
    from p2ptable.replay.ledger import Ledger

# Kind members bound once: on Python 3.11 a member looked up through its enum
# class costs several times the comparison, and every peer runs this for every entry.
_GENESIS, _ABORT = Kind.GENESIS, Kind.ABORT

FORK_LOOKBACK = 16
BATCH = 256
BATCH_BYTES = 128 * 1024  # a catch-up frame stays well under wire.MAX_FRAME
MAX_BUFFERED = 4096  # entries kept for later
MAX_FUTURE_BYTES = 32 * 1024 * 1024  # entries kept for later, as received


class CatchUpSession(Protocol):
    """What catch-up may use of its session."""

    ledger: Ledger
    seat: int
    stopped: Stopped | None

    def send(self, dest: int | None, kind: str, data: dict) -> None: ...

    def accuse(self, accusation: accusations.Accusation) -> None: ...

    def apply_entry(self, entry: Entry) -> None:
        """Validate and apply (InvalidEntry if refused); not yet persisted."""
        ...

    def persist(self, raw: bytes) -> None:
        """Hand out ``raw`` (an entry applied, signed by others) to be written."""
        ...

    def reject(self, seat: int | None, why: str) -> None: ...

    def consider_abort(self, entry: Entry) -> None:
        """Another peer's abort for a position we hold, or after we stopped."""
        ...

    def before_apply(self, entry: Entry) -> None:
        """``entry`` is the next one and is about to be applied (early shuffles)."""
        ...


class CatchUp:
    """Entries from others into our log, and ours to them when they lack some."""

    def __init__(self) -> None:
        self.future: dict[int, bytes] = {}
        self.future_bytes = 0
        self.gaps: dict[int, int] = {}  # sender -> an entry it sent from ahead of our log
        self.fork_probes: set[tuple[int, int]] = set()
        # How far back the next fork probe at a seat reaches: FORK_LOOKBACK, four
        # times further at each probe that found no evidence, so a fork of any
        # depth is found in a few pings (and reset once our heads agree).
        self.fork_depth: dict[int, int] = {}

    # -- messages ----------------------------------------------------------------

    def on_entry(self, log: CatchUpSession, message: Message) -> None:
        self.take(log, message.data["entry"], message.sender, relayed=False)

    def on_entries(self, log: CatchUpSession, message: Message) -> None:
        for raw in message.data["entries"]:
            if not isinstance(raw, bytes):
                raise RemoteProtocolError("catch-up entries must be bytes")
            self.take(log, raw, message.sender, relayed=True)
            if log.stopped is not None:
                return

    def on_stop(self, log: CatchUpSession, message: Message) -> None:
        # Another peer caught a cheater: its abort entry carries the evidence, which
        # our ledger re-checks before we stop too.
        self.take(log, message.data["entry"], message.sender, relayed=True)

    def on_get(self, log: CatchUpSession, message: Message) -> None:
        self.push(log, message.sender, message.data["from"])

    def on_ping(self, log: CatchUpSession, message: Message, previous: int) -> None:
        """``previous``: the length the sender claimed before this ping."""
        ledger = log.ledger
        theirs = message.data["len"]
        if theirs < ledger.next_index and theirs != previous:
            self.push(log, message.sender, theirs)
        elif theirs > ledger.next_index:
            log.send(message.sender, "get", {"from": ledger.next_index})
        elif theirs == ledger.next_index and message.data["head"] != ledger.head:
            # Same length, different head: our logs forked, which only a seat signing
            # two different entries can cause.  Fetch their entries from before the
            # fork; the first one that differs from ours is the evidence.
            self.probe_fork(log, message.sender, theirs)
        elif theirs == ledger.next_index:
            self.fork_depth.pop(message.sender, None)

    def probe_fork(self, log: CatchUpSession, sender: int, index: int) -> None:
        """Ask ``sender`` for its entries from further back than the last probe."""
        depth = self.fork_depth.get(sender, FORK_LOOKBACK)
        self.fork_depth[sender] = min(depth * 4, max(index, FORK_LOOKBACK))
        log.send(sender, "get", {"from": max(1, index - depth)})

    # -- entries -------------------------------------------------------------------

    def push(self, log: CatchUpSession, dest: int, start: int) -> None:
        """Our entries from ``start`` to a peer that lacks them (one batch; it
        asks again for the rest)."""
        ledger = log.ledger
        if 0 < start < ledger.next_index:
            batch: list[bytes] = []
            size = 0
            for e in ledger.entries[start : start + BATCH]:
                data = e.encode()
                if batch and size + len(data) > BATCH_BYTES:
                    break
                batch.append(data)
                size += len(data)
            log.send(dest, "entries", {"from": start, "entries": batch})

    def take(self, log: CatchUpSession, raw: bytes, sender: int, relayed: bool) -> None:
        try:
            entry = Entry.decode(raw)
        except MalformedEntry as exc:
            raise RemoteProtocolError(f"malformed entry: {exc}") from None
        body = entry.body
        ledger = log.ledger
        if body["t"] == _GENESIS:
            return
        index = body["i"]
        if body["t"] == _ABORT and (log.stopped is not None or index < ledger.next_index):
            log.consider_abort(entry)  # the better of two endings (wire.md 6.8)
            return
        if not relayed and (body["t"] not in AUTHORED_KINDS or body["seat"] != sender):
            raise RemoteProtocolError(
                "an entry message must carry the sender's own action or shuffle"
            )
        if index < ledger.next_index:
            if entry.hash != ledger.hashes[index]:
                log.accuse(accusations.conflicting_entry(ledger, log.seat, index, entry))
            return
        if index > ledger.next_index:
            self._keep(index, raw, sender)
            return
        log.before_apply(entry)
        try:
            log.apply_entry(entry)
        except InvalidEntry as exc:
            accusation = accusations.cheat(ledger, log.seat, entry, exc)
            if accusation is not None:
                log.accuse(accusation)
            if body["prev"] != ledger.head and (sender, index) not in self.fork_probes:
                if len(self.fork_probes) >= MAX_BUFFERED:
                    self.fork_probes.clear()  # a seat naming endless positions
                # It does not link to ours: our logs forked earlier.  Fetch its
                # entries from before the fork, once for this entry; the first that
                # differs from ours is the evidence (accusations.conflicting_entry).
                self.fork_probes.add((sender, index))
                self.probe_fork(log, sender, index)
            raise RemoteProtocolError(exc.reason) from None
        log.persist(raw)
        self.drain(log)

    def drain(self, log: CatchUpSession) -> None:
        """Apply the entries kept for the positions now next in our log."""
        while log.stopped is None:
            raw = self.future.pop(log.ledger.next_index, None)
            if raw is None:
                return
            self.future_bytes -= len(raw)
            entry = Entry.decode(raw)  # it decoded when it arrived
            try:
                log.apply_entry(entry)
            except InvalidEntry as exc:
                accusation = accusations.cheat(log.ledger, log.seat, entry, exc)
                if accusation is not None:
                    log.accuse(accusation)
                log.reject(None, exc.reason)
                return
            log.persist(raw)

    def ask_for_gaps(self, log: CatchUpSession) -> None:
        """Entries came from ahead of our log: ask each sender for what lies before
        them, unless our own steps (a chance entry we assembled) closed the gap."""
        gaps, self.gaps = self.gaps, {}
        if log.stopped is not None:
            return
        for sender, index in gaps.items():
            if index >= log.ledger.next_index:
                log.send(sender, "get", {"from": log.ledger.next_index})

    def _keep(self, index: int, raw: bytes, sender: int) -> None:
        fits = self.future_bytes + len(raw) <= MAX_FUTURE_BYTES
        if index not in self.future and len(self.future) < MAX_BUFFERED and fits:
            self.future[index] = raw
            self.future_bytes += len(raw)
        self.gaps[sender] = max(index, self.gaps.get(sender, index))


# The messages catch-up handles (net/session.py hands them over): kind -> method.
HANDLERS = {
    "entry": CatchUp.on_entry,
    "entries": CatchUp.on_entries,
    "stop": CatchUp.on_stop,
    "get": CatchUp.on_get,
}
