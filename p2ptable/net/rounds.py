"""The rounds of a live session: who contributes what to the next entry.

Theory of operation
-------------------
Every peer holds the same ledger, and the ledger's ``expected()`` says what the
next entry must be.  Each kind of entry is made by one kind of *round*, and this
table is the whole of what a session does next (``make_rounds``):

=============  =================  ============================  ======================
ledger expects round              each seat contributes         the entry is built by
=============  =================  ============================  ======================
action         ActionRound        the seat to move: its signed  its author (``submit``);
                                  move, when its player or bot  the others wait for its
                                  chooses (nothing automatic)   ``entry`` message
shuffle        ShuffleRound       the seat to shuffle: its      its author, at once (on
                                  proved shuffle                top of the previous one
                                                                before verifying it)
chance         ChanceRound        every seat: its next chain    the collector (the last
                                  value, to the collector       mover), or everyone
                                  (``reveal``)                  after ``RELAY_WAIT``
open, secrets  PartsRound         every seat: a signed part     every peer, the same
                                  (decryption shares, or its    bundle, once every part
                                  deck secret) to all           is in and checked
commits        PartsRound         every asked seat: its signed  every peer, as above
                                  commit, when its player or
                                  bot chooses (``submit``)
choices        PartsRound         every asked seat: the action  every peer, as above
                                  and salt that open its commit
                                  (automatic)
result         ResultRound        every seat: its signature on  every peer, once every
                                  the rules' result (``rsig``)  signature is in
none           Idle               nothing: answer catch-up      -
=============  =================  ============================  ======================

Each round owns its state (the contributions it has gathered, keyed by the log
index they are for) and answers the session's questions the same way:

* ``step``: do our part now if it is due; build the entry when it is complete.
  True when an entry was made (appended, or ours sent and pending).
* ``awaited``: the seats whose contribution the entry still lacks; the session
  derives waiting, withholding and abandonment from it.
* ``withholdable(expected)``: whether a seat that is in contact but does not
  contribute is accused after ``withhold_timeout`` (not for a move or a commit:
  people may think).
* ``resend``: our contribution again, to a peer that (re)started.
* ``take``: a contribution a peer sent (``reveal``, ``rsig``, ``part``), checked
  for its shape and kept for its round.
* ``prune``: forget what is for entries now in the log.

A round reaches the rest of the session only through the narrow
:class:`RoundSession` it is handed: send a message, reject a peer's input, append,
persist-and-send-first, accuse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.api import Action
from p2ptable.net import accusations
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.randomness.chain import check_preimage
from p2ptable.replay import authoring
from p2ptable.replay.entries import (
    BUNDLE_KINDS,
    Entry,
    MalformedEntry,
    bundled_parts,
    signed_message,
)
from p2ptable.replay.evidence import part_problem

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Expected, Ledger

# Contributions are kept only for entries at most this far ahead of our log: a
# peer further ahead has the entry itself, which catch-up brings, and a window
# bounds what a hostile seat can make us hold (every seat, every index in it).
WINDOW = 8
PART_WINDOW = WINDOW
# How long a peer leaves a chance step to its collector before sending its reveal
# to everyone (protocol/wire.md 6.3): far above a LAN's round trip, far below the
# withholding timeout, so a collector that sits on the reveals costs half a second.
RELAY_WAIT = 0.5
# From this many seats on, the parts of a secret choice go through a collector
# (PartsRound): on the reference machine (scripts/bench_latency.py, all peers on
# two cores) a collector's fewer frames beat its extra hop at six seats (a secret
# choice 15.2 -> 13.3 ms p50); at four the two were within the run-to-run spread,
# and the direct round has the fewer hops (README, Figures).
COLLECT_FROM = 5

ALL = None  # destination: every other seat


class RoundSession(Protocol):
    """What a round may use of its session."""

    ledger: Ledger
    seat: int
    n: int
    keys: list[bytes]
    secrets: authoring.SeatSecrets

    def send(self, dest: int | None, kind: str, data: dict) -> None: ...

    def reject(self, seat: int | None, why: str) -> None: ...

    def append(self, entry: Entry) -> None: ...

    def send_first(self, entry: Entry, kind: str, data: dict) -> None:
        """Persist ``entry`` (ours to sign or assemble), send it, and apply it
        at the next step: every other peer is waiting for it."""
        ...

    def accuse(self, accusation: accusations.Accusation) -> None: ...


class Round:
    """The defaults: a round with nothing to gather."""

    message: str | None = None  # the message kind carrying others' contributions

    def withholdable(self, expected: Expected) -> bool:
        return True

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        return False

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return set()

    def resend(self, table: RoundSession, dest: int) -> None:
        pass

    def take(self, table: RoundSession, message: Message, now: float) -> None:
        raise RemoteProtocolError(f"unexpected {message.kind} message")

    def prune(self, done: int) -> None:
        pass

    def tick(self, table: RoundSession, now: float) -> None:
        pass

    def wake_at(self, wake: float, now: float) -> float:
        return wake


class Idle(Round):
    """The game is over (or stopped): nothing more is made."""

    def withholdable(self, expected: Expected) -> bool:
        return False


class ActionRound(Round):
    """A move: made by its author's ``submit``; the others wait for its entry.

    A forced move (``engine.api.Turn.forced``: its one legal action is the rules'
    doing, such as handing over the card a blind pick chose) is made by its
    seat's session at once, like a shuffle, and is timed: nobody thinks about it.
    Made again after a crash it is the same entry, byte for byte (its proof's
    randomness comes from the seat's secret and the position)."""

    def withholdable(self, expected: Expected) -> bool:
        return expected.forced  # a person may think as long as they like

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        if not expected.forced or expected.seat != table.seat:
            return False
        ledger = table.ledger
        legal = ledger.game.legal_actions(ledger.state, table.seat)
        if len(legal) != 1:
            raise RuntimeError(f"a forced move with {len(legal)} legal actions")
        entry = authoring.action_entry(ledger, table.seat, table.secrets, legal[0])
        table.send_first(entry, "entry", {"entry": entry.encode()})
        return True

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return {expected.seat} if expected.seat is not None else set()


class ShuffleRound(Round):
    """A proved shuffle of the sealed deck, by each seat in turn, made at once.

    A shuffle expected from the seat right after us is answered early: ours is
    made on top of it before it is verified (the same entry we would make
    afterwards, see authoring.shuffle_entry_after), so the shuffles follow each
    other without waiting for every peer's verification."""

    def __init__(self) -> None:
        self._early: Entry | None = None  # sent before the one under it was in

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        if expected.seat != table.seat:
            return False  # the shuffler's entry message brings it
        early, self._early = self._early, None
        if early is not None and early.body["prev"] == table.ledger.head:
            table.append(early)  # already sent
        else:
            entry = authoring.shuffle_entry(table.ledger, table.seat, table.secrets)
            table.append(entry)
            table.send(ALL, "entry", {"entry": entry.encode()})
        return True

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return {expected.seat} if expected.seat is not None else set()

    def arrived(self, table: RoundSession, entry: Entry) -> None:
        """``entry`` is about to be appended: if we shuffle right after it, make and
        send ours on top of it now."""
        early = authoring.shuffle_entry_after(table.ledger, table.seat, table.secrets, entry)
        if early is not None:
            self._early = early
            table.send(ALL, "entry", {"entry": early.encode()})


class _Gathering(Round):
    """A round in which every seat contributes something, kept per log index."""

    def __init__(self) -> None:
        self.pending: dict[int, dict[int, object]] = {}

    def have(self, index: int) -> dict[int, object]:
        return self.pending.get(index, {})

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return set(range(table.n)) - set(self.have(table.ledger.next_index))

    def prune(self, done: int) -> None:
        if self.pending:
            for index in [i for i in self.pending if i < done]:
                del self.pending[index]


class ChanceRound(_Gathering):
    """Every seat's next chain value, gathered by the collector (wire.md 6.3)."""

    message = "reveal"

    def __init__(self) -> None:
        super().__init__()
        self._revealed: tuple[int, float] | None = None  # (index, when) sent to a collector
        self._collector_at: tuple[int, int] | None = None  # (log length, collector)

    def collector(self, table: RoundSession) -> int | None:
        """The seat that gathers the reveals for the pending chance step: the
        author of the latest action (it has just moved, so it is there), or seat
        0 before anyone has.  Anyone may assemble a chance entry (it proves
        itself), so this seat has no power but to be slow, which RELAY_WAIT caps.
        None at a table of two, where gathering saves no frame and costs a hop:
        both seats send their value to each other."""
        if table.n <= 2:
            return None
        length = table.ledger.next_index
        if self._collector_at is None or self._collector_at[0] != length:
            seat = 0
            for entry in reversed(table.ledger.entries):
                if entry.body["t"] == "action":
                    seat = entry.body["seat"]
                    break
            self._collector_at = (length, seat)
        return self._collector_at[1]

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        ledger = table.ledger
        index = ledger.next_index
        bucket = self.pending.setdefault(index, {})
        collector = self.collector(table)
        if table.seat not in bucket:
            pre = authoring.reveal(ledger, table.seat, table.secrets)
            bucket[table.seat] = (pre, ledger.head, ledger.chance_steps)
            if collector is None:
                self._send(table, ALL, index)
            else:
                if collector != table.seat:
                    self._send(table, collector, index)
                self._revealed = (index, now)  # RELAY_WAIT starts
        valid: dict[int, bytes] = {}
        for seat, (pre, prev, step) in list(bucket.items()):  # type: ignore[misc]
            problem = self._problem(ledger, seat, pre, prev, step)
            if problem is None:
                valid[seat] = pre
            else:
                del bucket[seat]
                table.reject(seat, problem)
        if len(valid) < table.n:
            return False
        entry = authoring.chance_entry(ledger, valid)
        del self.pending[index]
        self._revealed = None
        if collector == table.seat:
            # Every other peer waits for it: like our own move (submit), it is
            # written and sent first, and applied by the next step (or frame).
            table.send_first(entry, "entries", {"from": index, "entries": [entry.encode()]})
            return True
        table.append(entry)
        return True

    @staticmethod
    def _problem(ledger: Ledger, seat: int, pre: bytes, prev: bytes, step: int) -> str | None:
        if prev != ledger.head or step != ledger.chance_steps:
            return f"reveal for a different log position (step {step})"
        if not check_preimage(ledger.chain_tips[seat], pre):
            # Not provable to others (frames are not signed), so not an abort: the
            # seat simply has not revealed, and withholding catches it if it never does.
            return "revealed a value that is not on its committed chain"
        return None

    def _send(self, table: RoundSession, dest: int | None, index: int) -> None:
        pre, prev, step = self.pending[index][table.seat]  # type: ignore[misc]
        table.send(dest, "reveal", {"i": index, "prev": prev, "step": step, "pre": pre})

    def resend(self, table: RoundSession, dest: int) -> None:
        if table.seat in self.have(table.ledger.next_index):
            self._send(table, dest, table.ledger.next_index)

    def take(self, table: RoundSession, message: Message, now: float) -> None:
        d = message.data
        ledger = table.ledger
        if len(d["pre"]) != 32 or len(d["prev"]) != 32:
            raise RemoteProtocolError("a reveal carries a 32-byte value and a 32-byte hash")
        if d["i"] < ledger.next_index:
            # The chance entry is in our log.  A reveal for it now means the
            # sender never got it (the collector's relay was lost): send it on.
            if ledger.entries[d["i"]].kind == "chance":
                entry = ledger.entries[d["i"]]
                table.send(message.sender, "entries", {"from": d["i"], "entries": [entry.encode()]})
            return
        if d["i"] > ledger.next_index + WINDOW:
            raise RemoteProtocolError(f"a reveal for entry {d['i']}, far ahead of ours")
        bucket = self.pending.setdefault(d["i"], {})
        bucket[message.sender] = (d["pre"], d["prev"], d["step"])

    def tick(self, table: RoundSession, now: float) -> None:
        revealed = self._revealed
        if revealed is not None and now - revealed[1] >= RELAY_WAIT:
            # The collector has not sent the chance entry: do without it.
            self._revealed = None
            if revealed[0] == table.ledger.next_index and revealed[0] in self.pending:
                self._send(table, ALL, revealed[0])

    def wake_at(self, wake: float, now: float) -> float:
        if self._revealed is not None:
            deadline = self._revealed[1] + RELAY_WAIT
            return deadline if now < deadline < wake else wake
        return wake


class ResultRound(_Gathering):
    """Every seat's signature on the result the rules computed."""

    message = "rsig"

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        ledger = table.ledger
        index = ledger.next_index
        body = authoring.result_body(ledger)
        sigs = self.pending.setdefault(index, {})
        if table.seat not in sigs:
            sigs[table.seat] = authoring.sign_result(ledger, body, table.secrets)
            table.send(ALL, "rsig", {"i": index, "sig": sigs[table.seat]})
        message = signed_message(ledger.game_id, body)
        for seat, sig in list(sigs.items()):
            if not verify_signature(table.keys[seat], sig, message):  # type: ignore[arg-type]
                del sigs[seat]
                table.reject(seat, "result signature does not match the rules' result")
        if len(sigs) < table.n:
            return False
        table.append(Entry(body, tuple(sorted(sigs.items()))))  # type: ignore[arg-type]
        return True

    def resend(self, table: RoundSession, dest: int) -> None:
        index = table.ledger.next_index
        if table.seat in self.have(index):
            table.send(dest, "rsig", {"i": index, "sig": self.pending[index][table.seat]})

    def take(self, table: RoundSession, message: Message, now: float) -> None:
        index = message.data["i"]
        if len(message.data["sig"]) != 64:
            raise RemoteProtocolError("a result signature is 64 bytes")
        if index > table.ledger.next_index + WINDOW:
            raise RemoteProtocolError(f"a result signature for entry {index}, far ahead of ours")
        if index < table.ledger.next_index:
            return
        self.pending.setdefault(index, {})[message.sender] = message.data["sig"]


CHOICE_KINDS = ("commits", "choices")


class PartsRound(_Gathering):
    """Every seat's signed part of an ``open`` (shares) or ``secrets`` entry, and
    every asked seat's of a ``commits`` or ``choices`` entry (replay/choices.py).

    Each part is kept as the bytes received (only for entries a few ahead of our
    log), checked when its turn comes (position, signature, then its proof
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
    hops instead of one."""

    message = "part"

    def __init__(self) -> None:
        super().__init__()
        self._checked: set[tuple[int, int]] = set()
        self._chosen: tuple[int, Action] | None = None  # our secret choice: (index, action)
        self._relayed: tuple[int, float] | None = None  # (index, when) sent to a collector

    @staticmethod
    def collector(table: RoundSession, expected: Expected) -> int | None:
        """The seat that gathers the parts of a commits or choices entry: the
        lowest asked seat, at a table of COLLECT_FROM seats or more; None when
        every seat sends its part to every other (open and secrets parts,
        smaller tables).
        Anyone may bundle (the parts prove themselves), so it has no power but
        to be slow, which RELAY_WAIT caps."""
        if expected.kind not in CHOICE_KINDS or table.n < COLLECT_FROM or not expected.targets:
            return None
        return min(expected.targets)  # type: ignore[type-var]

    @staticmethod
    def contributors(table: RoundSession, expected: Expected) -> tuple[int, ...]:
        if expected.kind in CHOICE_KINDS:
            return expected.targets  # type: ignore[return-value]
        return tuple(range(table.n))

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return set(self.contributors(table, expected)) - set(self.have(table.ledger.next_index))

    def withholdable(self, expected: Expected) -> bool:
        return expected.kind != "commits"  # a person may think before choosing

    def committed(self, table: RoundSession) -> bool:
        """Whether our part of the pending entry is made (our commit, say)."""
        return table.seat in self.have(table.ledger.next_index)

    def remember(self, index: int, action: Action) -> None:
        """Our secret choice for the ``commits`` entry at ``index`` (kept by the
        session, and given back after a resume): our commit is made from it."""
        self._chosen = (index, action)

    def our_choice(self, index: int) -> Action | None:
        """Our secret choice for the ``commits`` entry at ``index``, if made."""
        chosen = self._chosen
        return chosen[1] if chosen is not None and chosen[0] == index else None

    def commit(self, table: RoundSession, action: Action, now: float) -> None:
        """Our secret choice for the pending ``commits`` entry: our signed commit
        to ``action``, queued for its collector or every seat (the session keeps
        the choice on stable storage before the frames leave)."""
        self.remember(table.ledger.next_index, action)
        part = authoring.choice_part(table.ledger, table.seat, table.secrets, action)
        self._mine(table, part, now)

    def _mine(self, table: RoundSession, part: Entry, now: float) -> None:
        index = table.ledger.next_index
        self.pending.setdefault(index, {})[table.seat] = part.encode()
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

    def _our_part(self, table: RoundSession, expected: Expected) -> Entry | None:
        ledger, seat, secrets = table.ledger, table.seat, table.secrets
        if expected.kind == "commits":
            chosen = self._chosen  # made by our player's choice (commit), or kept
            if chosen is None or chosen[0] != ledger.next_index:
                return None
            return authoring.choice_part(ledger, seat, secrets, chosen[1])
        if expected.kind == "choices":
            action = authoring.committed_choice(ledger, seat, secrets)
            return authoring.choice_part(ledger, seat, secrets, action)
        return authoring.part_entry(ledger, seat, secrets)

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        ledger = table.ledger
        index = ledger.next_index
        asked = self.contributors(table, expected)
        bucket = self.pending.setdefault(index, {})
        if table.seat in asked and table.seat not in bucket:
            mine = self._our_part(table, expected)
            if mine is not None:
                self._mine(table, mine, now)
        for seat, raw in list(bucket.items()):
            if (index, seat) in self._checked:
                continue
            entry = Entry.decode(raw)  # type: ignore[arg-type] - it decoded when it arrived
            body = entry.body
            message = signed_message(ledger.game_id, entry.body_bytes)
            signed = [s for s, _ in entry.sigs] == [seat] and verify_signature(
                table.keys[seat], entry.sigs[0][1], message
            )
            if body["prev"] != ledger.head or not signed:
                del bucket[seat]
                why = "a part for another log position, or not signed by its seat alone"
                table.reject(seat, why)
                continue
            problem = part_problem(ledger, seat, body["msg"])
            if problem is not None:
                detail = f"seat {seat}'s part of entry {index}: {problem}"
                table.accuse(accusations.Accusation("cheated", detail, seat, [entry.encode()]))
                return False
            self._checked.add((index, seat))
        if len(bucket) < len(asked):
            return False
        parts = {seat: Entry.decode(raw) for seat, raw in bucket.items()}  # type: ignore[arg-type]
        if expected.kind not in CHOICE_KINDS:
            del self.pending[index]
            table.append(authoring.bundle_entry(ledger, parts))
            return True
        entry = authoring.choices_bundle(ledger, parts)
        del self.pending[index]
        self._relayed = None
        if self.collector(table, expected) == table.seat:
            # The others wait for it: like a chance entry its collector made, it
            # is written and sent first, and applied by the next step.
            table.send_first(entry, "entries", {"from": index, "entries": [entry.encode()]})
            return True
        table.append(entry)
        return True

    def tick(self, table: RoundSession, now: float) -> None:
        relayed = self._relayed
        if relayed is not None and now - relayed[1] >= RELAY_WAIT:
            # The collector has not sent the bundle: do without it.
            self._relayed = None
            index = relayed[0]
            if index == table.ledger.next_index and table.seat in self.have(index):
                table.send(ALL, "part", {"entry": self.pending[index][table.seat]})

    def wake_at(self, wake: float, now: float) -> float:
        if self._relayed is not None:
            deadline = self._relayed[1] + RELAY_WAIT
            return deadline if now < deadline < wake else wake
        return wake

    def resend(self, table: RoundSession, dest: int) -> None:
        index = table.ledger.next_index
        if table.seat in self.have(index):
            table.send(dest, "part", {"entry": self.pending[index][table.seat]})

    def take(self, table: RoundSession, message: Message, now: float) -> None:
        try:
            entry = Entry.decode(message.data["entry"])
        except MalformedEntry as exc:
            raise RemoteProtocolError(f"malformed part: {exc}") from None
        body = entry.body
        ledger = table.ledger
        if body["t"] != "part" or not 0 <= body["seat"] < table.n:
            raise RemoteProtocolError("a part message must carry a part")
        if body["i"] < ledger.next_index:
            # For an entry already in our log: only useful as the other half of a
            # seat's equivocation (it sent different parts to different peers).
            mine = ledger.entries[body["i"]]
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
        if old is not None and Entry.decode(old).body_bytes != entry.body_bytes:  # type: ignore[arg-type]
            what = f"two different parts for entry {body['i']}"
            pair = [Entry.decode(old), entry]  # type: ignore[arg-type]
            table.accuse(accusations.equivocation(ledger, table.seat, message.sender, pair, what))
            return
        bucket[message.sender] = message.data["entry"]

    def prune(self, done: int) -> None:
        super().prune(done)
        if self._checked:
            self._checked = {key for key in self._checked if key[0] >= done}


def make_rounds() -> dict[str, Round]:
    """The session's table: the round for each kind of entry the ledger expects."""
    parts = PartsRound()
    return {
        "action": ActionRound(),
        "shuffle": ShuffleRound(),
        "chance": ChanceRound(),
        "open": parts,
        "secrets": parts,
        "commits": parts,
        "choices": parts,
        "result": ResultRound(),
        "none": Idle(),
    }
