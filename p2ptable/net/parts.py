"""The parts rounds: every seat's signed part of an ``open`` or ``secrets`` entry,
and every asked seat's commit, then reveal, of a secret simultaneous choice
(``commits``, ``choices``; replay/choices.py).  Three rows of the table in
net/rounds.py, one per ``Live`` round of the registry (replay/rows.py):

=================  =========================  ==========  ==================  ==========
round              contributors               our part    collector           withheld
=================  =========================  ==========  ==================  ==========
SealedPartsRound   every seat                 at once     none                yes
CommitsRound       the asked seats            our choice  from COLLECT_FROM   no (think)
ChoicesRound       the asked seats            at once     from COLLECT_FROM   yes
=================  =========================  ==========  ==================  ==========

The two rounds of a secret choice are in net/choice_rounds.py.  What the three
share is one :class:`PartsRound`, the store of the parts as they arrive
(``part`` messages name an index, not a kind: a part may come before we know
what its entry will be), which checks and bundles them for whichever of the
three is its entry's round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p2ptable.crypto.signing import verify_signature
from p2ptable.net import accusations
from p2ptable.net.round_base import (
    ALL,
    PART_WINDOW,
    RELAY_WAIT,
    Gathering,
    Round,
    RoundSession,
    gone_seats,
    relay_wake,
)
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.replay import authoring
from p2ptable.replay.entries import (
    Entry,
    MalformedEntry,
    bundled_parts,
    signed_message,
    unsigned_bundle,
)
from p2ptable.replay.evidence import part_problem
from p2ptable.replay.kinds import BUNDLE_KINDS, Kind, Reason
from p2ptable.replay.stand_in import stand_in_part

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Expected

# From this many seats on, the parts of a secret choice go through a collector
# (PartsRound): on the reference machine (scripts/bench_latency.py, all peers on
# two cores) a collector's fewer frames beat its extra hop at six seats (a secret
# choice 15.2 -> 13.3 ms p50); at four the two were within the run-to-run spread,
# and the direct round has the fewer hops (README, Figures).
COLLECT_FROM = 5
_PART = Kind.PART.value  # bound once: a member's lookup through its enum costs more


class PartsRound(Gathering[Entry]):
    """Every seat's signed part of an ``open`` (shares) or ``secrets`` entry, and
    every asked seat's of a ``commits`` or ``choices`` entry (replay/choices.py).

    Each part is kept decoded, as it arrived (only for entries a few ahead of
    our log: the first copy of a seat's part, later copies of the same body are
    resends), checked when its turn comes (position, signature, then its proof
    through the ledger; a bad proof is a ``cheated`` abort with that part as
    evidence), and when every contributor's is in, each peer bundles the same
    entry.  Our part is made at once, except our commit: that waits for our
    player's or bot's choice (:meth:`commit`), which the session saves on stable
    storage before the commit leaves, so that a seat that comes back commits to
    the same action (the same part, byte for byte: replay/choices.py).

    At a table of ``COLLECT_FROM`` seats or more, commits and reveals are gathered
    by a collector (the lowest asked seat), as chance reveals are (wire.md 6.3,
    6.12): each seat sends its part to it alone, and it sends the bundle to all;
    a seat that has no bundle ``RELAY_WAIT`` after sending its part sends it to
    everyone, and every peer bundles by itself, as without a collector.  A round
    of ``n`` seats is then ``2 (n - 1)`` frames instead of ``n (n - 1)``, in two
    hops instead of one.

    A seat that comes back after a crash must never sign a second commit for a
    position (two are equivocation), and its choice file is only a hint: it may
    be lost, damaged or forged.  So every peer answers a seat's ``hello`` with a
    ``welcome`` holding that seat's own parts it holds (:meth:`held_of`), and a
    resumed seat takes its signed commit back from them (:meth:`take_own`),
    finding the action it sealed among its legal actions (the salt comes from
    its key and the position).  A choice read from the file is used only once
    every other seat has answered without one (``RoundSession.resuming`` is
    False), and only if the rules still allow it; otherwise the player is asked
    again, which is safe: no commit of ours left the machine."""

    message = "part"

    def __init__(self) -> None:
        super().__init__()  # pending: index -> seat -> its part
        self._checked: set[tuple[int, int]] = set()
        self._relayed: tuple[int, float] | None = None  # (index, when) sent to a collector
        # Our own parts of the last few entries, and the seats each was sent to
        # late: a collector's own part reaches the others only in its bundle.
        self._own: dict[int, Entry] = {}
        self._answered: set[tuple[int, int]] = set()
        # The round of each kind whose parts these are (each registers itself).
        self.kinds: dict[Kind, BundleRound] = {}

    def collector(self, table: RoundSession, expected: Expected) -> int | None:
        """The seat that gathers the parts of the pending entry: the lowest asked
        seat, for a round that is ``collected`` (commits, choices) at a table of
        COLLECT_FROM seats or more; None when every seat sends its part to every
        other (open and secrets parts, smaller tables).
        Anyone may bundle (the parts prove themselves), so it has no power but
        to be slow, which RELAY_WAIT caps."""
        round_ = self.kinds.get(expected.kind)
        if round_ is None or not round_.collected or table.n < COLLECT_FROM:
            return None
        if not expected.targets:
            return None
        return min(expected.targets)  # type: ignore[type-var]

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return self.kinds[expected.kind].awaited(table, expected)

    def _our_part(self, table: RoundSession, expected: Expected) -> Entry | None:
        """Our part of the pending entry, if it is due (its kind's round says)."""
        return self.kinds[expected.kind].our_part(table, expected)

    def _mine(self, table: RoundSession, part: Entry, now: float) -> None:
        index = table.ledger.next_index
        self.pending.setdefault(index, {})[table.seat] = part
        self._own[index] = part
        self._checked.add((index, table.seat))
        collector = self.collector(table, table.ledger.expected())
        if collector is None:
            table.send(ALL, "part", {"entry": part.encode()})
        else:
            if collector != table.seat:
                table.send(collector, "part", {"entry": part.encode()})
            # RELAY_WAIT starts, for the collector too: if the bundle cannot be
            # made in time, everyone's part must reach everyone.
            self._relayed = (index, now)

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        """Our part made if due, every part checked, and the bundle made when
        every contributor's is in (for ``expected``'s round)."""
        round_ = self.kinds[expected.kind]
        index = table.ledger.next_index
        asked = round_.contributors(table, expected)
        bucket = self.pending.setdefault(index, {})
        gone = gone_seats(table.ledger)
        if table.seat in asked and table.seat not in bucket and table.seat not in gone:
            mine = self._our_part(table, expected)
            if mine is not None:
                self._mine(table, mine, now)
        for seat in gone:
            if seat in asked and seat not in bucket:  # its stand-in's, made by us all
                bucket[seat] = stand_in_part(table.ledger, expected, seat)
                self._checked.add((index, seat))
        if not self._check(table, round_, index, bucket):
            return False
        if len(bucket) < len(asked):
            return False
        entry = round_.bundle(table.ledger, bucket)
        del self.pending[index]
        if not round_.collected:
            table.append(entry)
            return True
        self._relayed = None
        if self.collector(table, expected) == table.seat:
            # The others wait for it: like a chance entry its collector made, it
            # is written and sent first, and applied by the next step.
            table.send_first(entry, "entries", {"from": index, "entries": [entry.encode()]})
            return True
        table.append(entry)
        return True

    def _check(
        self, table: RoundSession, round_: BundleRound, index: int, bucket: dict[int, Entry]
    ) -> bool:
        """Check every part not yet checked: a part for another position or not
        signed by its seat is dropped (rejected); one whose proof fails is a
        ``cheated`` accusation (False: the game stops).  True otherwise."""
        ledger = table.ledger
        # A reveal that opens its commit proves itself (the log keeps the opening
        # alone: replay/choices.py, signed_parts): its signature is checked only
        # when it does not, to make it evidence.
        opening = round_.opens(ledger)
        for seat, entry in list(bucket.items()):
            if (index, seat) in self._checked:
                continue
            body = entry.body
            problem = None
            if opening and [s for s, _ in entry.sigs] == [seat] and body["prev"] == ledger.head:
                problem = part_problem(ledger, seat, body["msg"])
                if problem is None:
                    self._checked.add((index, seat))
                    continue
            message = signed_message(ledger.game_id, entry.body_bytes)
            signed = [s for s, _ in entry.sigs] == [seat] and verify_signature(
                table.keys[seat], entry.sigs[0][1], message
            )
            if body["prev"] != ledger.head or not signed:
                del bucket[seat]
                why = "a part for another log position, or not signed by its seat alone"
                table.reject(seat, why)
                continue
            if problem is None:
                problem = part_problem(ledger, seat, body["msg"])
            if problem is not None:
                detail = f"seat {seat}'s part of entry {index}: {problem}"
                table.accuse(accusations.Accusation(Reason.CHEATED, detail, seat, [entry.encode()]))
                return False
            self._checked.add((index, seat))
            if seat == table.seat:
                round_.own_back(table, entry)  # ours, handed back after a resume
        return True

    def tick(self, table: RoundSession, now: float) -> None:
        relayed = self._relayed
        if relayed is not None and now - relayed[1] >= RELAY_WAIT:
            # The collector has not sent the bundle: do without it.
            self._relayed = None
            index = relayed[0]
            if index == table.ledger.next_index and table.seat in self.have(index):
                table.send(ALL, "part", {"entry": self.pending[index][table.seat].encode()})

    def wake_at(self, wake: float, now: float) -> float:
        return relay_wake(self._relayed, wake, now)

    def resend(self, table: RoundSession, dest: int) -> None:
        index = table.ledger.next_index
        if table.seat in self.have(index):
            table.send(dest, "part", {"entry": self.pending[index][table.seat].encode()})

    def take(self, table: RoundSession, message: Message, now: float) -> None:
        try:
            entry = Entry.decode(message.data["entry"])
        except MalformedEntry as exc:
            raise RemoteProtocolError(f"malformed part: {exc}") from None
        body = entry.body
        ledger = table.ledger
        if body["t"] != _PART or not 0 <= body["seat"] < table.n:
            raise RemoteProtocolError("a part message must carry a part")
        if body["i"] < ledger.next_index:
            # For an entry already in our log: its sender lacks the entry (we send
            # it our own part), and a part unlike the bundled one is the other half
            # of a seat's equivocation (it sent different parts to different peers).
            mine = ledger.entries[body["i"]]
            self._answer_late(table, body["i"], message.sender)
            if mine.kind in BUNDLE_KINDS and unsigned_bundle(mine.body):
                # Our choices entry holds the only opening of this seat's commit:
                # a copy of it is a late relay, anything else opens nothing, and
                # is no harm to a log that already holds the opening.
                if entry.body_bytes not in {p.body_bytes for p in bundled_parts(mine.body)}:
                    why = f"a reveal for entry {body['i']} that opens nothing"
                    table.reject(message.sender, why)
                return
            if mine.kind in BUNDLE_KINDS:
                if entry.encode() in {p.encode() for p in bundled_parts(mine.body)}:
                    return  # the very part the bundle holds, come late (a relay)
                table.accuse(accusations.bundle_equivocation(ledger, table.seat, mine, entry))
            return
        if body["seat"] != message.sender:
            raise RemoteProtocolError("a part message must carry the sender's own part")
        if body["i"] > ledger.next_index + PART_WINDOW:
            # A part is only ever for the entry being bundled; a peer far ahead has
            # the bundle, which catch-up brings.  Far-future parts would only eat
            # memory.
            raise RemoteProtocolError(f"a part for entry {body['i']}, far ahead of ours")
        bucket = self.pending.setdefault(body["i"], {})
        old = bucket.get(message.sender)
        if old is None:
            bucket[message.sender] = entry
        elif old.body_bytes != entry.body_bytes:
            what = f"two different parts for entry {body['i']}"
            pair = [old, entry]
            table.accuse(accusations.equivocation(ledger, table.seat, message.sender, pair, what))
        # Otherwise a resend of the part we hold: the first copy stays, the one
        # checked (or about to be; a refused copy is dropped, so a later one is
        # taken).  Taking a copy with other signature bytes in place of the
        # checked one would put an unchecked signature in our bundle.

    # -- after a resume: our own parts, handed back --------------------------------

    def held_of(self, seat: int, start: int) -> list[bytes]:
        """``seat``'s own parts we hold for entries from ``start`` on (what we
        answer its hello with: a seat that resumed may have lost its choice)."""
        return [
            bucket[seat].encode()
            for index, bucket in sorted(self.pending.items())
            if index >= start and seat in bucket
        ]

    def take_own(self, table: RoundSession, raws: list, sender: int) -> None:
        """Our own parts that ``sender`` holds, from its ``welcome``: each must be
        a part of an entry still ahead, signed by us (so nobody else can make
        one); kept as if we had just made it, and a commit is taken back."""
        ledger = table.ledger
        if len(raws) > PART_WINDOW + 1:
            raise RemoteProtocolError(f"a welcome with {len(raws)} of our parts")
        for raw in raws:
            try:
                entry = Entry.decode(raw) if isinstance(raw, bytes) else None
            except MalformedEntry:
                entry = None
            body = entry.body if entry is not None else None
            if body is None or body["t"] != Kind.PART or body["seat"] != table.seat:
                raise RemoteProtocolError("a welcome must hold our own parts")
            assert entry is not None  # its body is not None
            index = body["i"]
            if index < ledger.next_index:
                continue  # for an entry we hold: nothing to take back
            message = signed_message(ledger.game_id, entry.body_bytes)
            if [s for s, _ in entry.sigs] != [table.seat] or not verify_signature(
                table.keys[table.seat], entry.sigs[0][1], message
            ):
                raise RemoteProtocolError("a part in a welcome that we did not sign")
            bucket = self.pending.setdefault(index, {})
            if table.seat not in bucket:
                bucket[table.seat] = entry
                self._own[index] = entry
            expected = ledger.expected()
            if index == ledger.next_index and expected.kind in self.kinds:
                self.kinds[expected.kind].own_back(table, bucket[table.seat])

    def _answer_late(self, table: RoundSession, index: int, sender: int) -> None:
        """A part for an entry we bundled: its sender has no bundle RELAY_WAIT
        after sending (tick), so it bundles by itself, and lacks only the parts
        that went to the collector alone: the collector's own.  We send ours,
        once per seat and entry (the answer to an answer is never sent)."""
        own = self._own.get(index)
        if own is not None and (index, sender) not in self._answered:
            self._answered.add((index, sender))
            table.send(sender, "part", {"entry": own.encode()})

    def prune(self, done: int) -> None:
        super().prune(done)
        if self._checked:
            self._checked = {key for key in self._checked if key[0] >= done}
        if self._own:  # kept a window behind our log, for the late (bounded)
            for index in [i for i in self._own if i < done - PART_WINDOW]:
                del self._own[index]
            self._answered = {key for key in self._answered if key[0] >= done - PART_WINDOW}


class BundleRound(Round):
    """The round of one kind of bundle (a row of the table in net/rounds.py): who
    contributes, our part, and the bundle; the parts themselves are kept, checked
    and relayed by the :class:`PartsRound` it shares with the other two."""

    collected = False  # whether its parts go through a collector (COLLECT_FROM)

    def __init__(self, parts: PartsRound, *kinds: Kind) -> None:
        self.parts = parts
        for kind in kinds:
            parts.kinds[kind] = self

    @property
    def pending(self) -> dict[int, dict[int, Entry]]:
        """The parts gathered so far, per log index (the shared round's)."""
        return self.parts.pending

    def helpers(self) -> tuple[Round, ...]:
        return (self.parts,)

    def contributors(self, table: RoundSession, expected: Expected) -> tuple[int, ...]:
        return tuple(range(table.n))

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        have = self.parts.have(table.ledger.next_index)
        return set(self.contributors(table, expected)) - set(have)

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        return self.parts.step(table, expected, now)

    def our_part(self, table: RoundSession, expected: Expected) -> Entry | None:
        return authoring.part_entry(table.ledger, table.seat, table.secrets)

    def opens(self, ledger: Any) -> bool:
        """Whether a part proves itself by opening a signed commit (its signature
        is then checked only to make evidence of one that does not)."""
        return False

    def own_back(self, table: RoundSession, part: Entry) -> None:
        """Our own ``part`` of the pending entry, checked (or handed back by a
        peer after a resume)."""

    def bundle(self, ledger: Any, bucket: dict[int, Entry]) -> Entry:
        return authoring.bundle_entry(ledger, bucket)


class SealedPartsRound(BundleRound):
    """Every seat's signed part of an ``open`` (decryption shares) or ``secrets``
    (its deck secret) entry, made at once and sent to every seat."""
