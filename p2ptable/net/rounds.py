"""The rounds of a live session: who contributes what to the next entry.

Theory of operation
-------------------
Every peer holds the same ledger, and the ledger's ``expected()`` says what the
next entry must be.  Each kind of entry is made by one kind of *round*: the
registry's row of the kind (replay/rows.py) names it (``Live``), and this table is
the whole of what a session does next (``make_rounds``):

=============  =================  ============================  ======================
ledger expects round              each seat contributes         the entry is built by
=============  =================  ============================  ======================
action         ActionRound        the seat to move: its signed  its author (``submit``);
                                  move, when its player or bot  the others wait for its
                                  chooses (nothing automatic)   ``entry`` message
shuffle        ShuffleRound       the seat to shuffle: its      its author, at once (on
                                  proved shuffle                top of the previous one
                                                                before verifying it)
escrow         EscrowRound        the seat to escrow: its deck  its author, at once
                                  secret shared among the       (each holder's ledger
                                  others (keep_going tables)    checks its own share)
chance         ChanceRound        every seat: its next chain    the collector (the last
                                  value, to the collector       mover), or everyone
                                  (``reveal``)                  after ``RELAY_WAIT``
open, secrets  SealedPartsRound   every seat: a signed part     every peer, the same
                                  (decryption shares, or its    bundle, once every part
                                  deck secret) to all           is in and checked
commits        CommitsRound       every asked seat: its signed  every peer, as above
                                  commit, when its player or
                                  bot chooses (``submit``)
choices        ChoicesRound       every asked seat: the action  every peer, as above
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
* ``asks`` and ``submit``: whether our player is asked to choose now, and their
  choice (a move, or a secret commit); ``Session.my_turn`` and ``submit`` ask
  the round of the kind expected.
* ``resend``: our contribution again, to a peer that (re)started.
* ``take``: a contribution a peer sent (``reveal``, ``rsig``, ``part``), checked
  for its shape and kept for its round.
* ``prune``: forget what is for entries now in the log.

A round reaches the rest of the session only through the narrow
:class:`RoundSession` it is handed: send a message, reject a peer's input, append,
persist-and-send-first, accuse.  That protocol, the defaults and the bounds live
in net/round_base.py; the parts rounds (sealed parts in net/parts.py, secret
choices in net/choice_rounds.py, which share one store of the parts as they
arrive) there; the other rounds here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.api import Action
from p2ptable.net.choice_rounds import ChoicesRound, CommitsRound
from p2ptable.net.parts import COLLECT_FROM, PartsRound, SealedPartsRound
from p2ptable.net.round_base import (
    ALL,
    PART_WINDOW,
    RELAY_WAIT,
    WINDOW,
    Gathering,
    Round,
    RoundSession,
    gone_seats,
    relay_wake,
)
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.randomness.chain import check_preimage
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, signed_message
from p2ptable.replay.kinds import Kind
from p2ptable.replay.rows import ROWS, Live

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Expected, Ledger

__all__ = [
    "ALL",
    "COLLECT_FROM",
    "PART_WINDOW",
    "RELAY_WAIT",
    "WINDOW",
    "ActionRound",
    "ChanceRound",
    "ChoicesRound",
    "CommitsRound",
    "EscrowRound",
    "Idle",
    "PartsRound",
    "ResultRound",
    "Round",
    "RoundSession",
    "SealedPartsRound",
    "ShuffleRound",
    "make_rounds",
]


_ACTION = Kind.ACTION  # bound once: a member's lookup through its enum costs more


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

    def asks(self, table: RoundSession, expected: Expected) -> bool:
        mine = expected.seat == table.seat and not expected.forced
        return mine and table.seat not in gone_seats(table.ledger)  # not when a bot plays it

    def submit(self, table: RoundSession, action: Action, now: float, clock: bool = False) -> None:
        entry = authoring.action_entry(table.ledger, table.seat, table.secrets, action, clock)
        table.send_first(entry, "entry", {"entry": entry.encode()})

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


class EscrowRound(Round):
    """Each seat's escrow of its deck secret, in seat order, made at once
    (replay/escrow_entries.py).  Our ledger opens our share of each escrow as
    it arrives and refuses a false one; catch-up then stops the game with the
    escrow and our complaint as proof (net/accusations.py, ``cheat``)."""

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        if expected.seat != table.seat:
            return False  # the dealer's entry message brings it
        entry = authoring.escrow_entry(table.ledger, table.seat, table.secrets)
        table.append(entry)
        table.send(ALL, "entry", {"entry": entry.encode()})
        return True

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return {expected.seat} if expected.seat is not None else set()


class ChanceRound(Gathering[tuple[bytes, bytes, int]]):  # (pre, prev, step)
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
            gone = gone_seats(table.ledger)  # a stand-in collects nothing
            for entry in reversed(table.ledger.entries):
                if entry.body["t"] == _ACTION and entry.body["seat"] not in gone:
                    seat = entry.body["seat"]
                    break
            while seat in gone:
                seat += 1  # no staying seat has moved yet: the first one
            self._collector_at = (length, seat)
        return self._collector_at[1]

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        ledger = table.ledger
        index = ledger.next_index
        bucket = self.pending.setdefault(index, {})
        collector = self.collector(table)
        if table.seat not in bucket and table.seat not in gone_seats(ledger):
            pre = authoring.reveal(ledger, table.seat, table.secrets)
            bucket[table.seat] = (pre, ledger.head, ledger.chance_steps)
            if collector is None:
                self._send(table, ALL, index)
            else:
                if collector != table.seat:
                    self._send(table, collector, index)
                self._revealed = (index, now)  # RELAY_WAIT starts
        valid: dict[int, bytes] = {}
        for seat, (pre, prev, step) in list(bucket.items()):
            problem = self._problem(ledger, seat, pre, prev, step)
            if problem is None:
                valid[seat] = pre
            else:
                del bucket[seat]
                table.reject(seat, problem)
        if len(valid) < table.n - len(gone_seats(ledger)):
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
        pre, prev, step = self.pending[index][table.seat]
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
            if ledger.entries[d["i"]].kind == Kind.CHANCE:
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
        return relay_wake(self._revealed, wake, now)


class ResultRound(Gathering[bytes]):  # its signature
    """Every seat's signature on the result the rules computed."""

    message = "rsig"

    def step(self, table: RoundSession, expected: Expected, now: float) -> bool:
        ledger = table.ledger
        index = ledger.next_index
        body = authoring.result_body(ledger)
        sigs = self.pending.setdefault(index, {})
        if table.seat not in sigs and table.seat not in gone_seats(ledger):
            sigs[table.seat] = authoring.sign_result(ledger, body, table.secrets)
            table.send(ALL, "rsig", {"i": index, "sig": sigs[table.seat]})
        message = signed_message(ledger.game_id, body)
        for seat, sig in list(sigs.items()):
            if not verify_signature(table.keys[seat], sig, message):
                del sigs[seat]
                table.reject(seat, "result signature does not match the rules' result")
        if len(sigs) < table.n - len(gone_seats(ledger)):  # the staying seats sign it
            return False
        table.append(Entry(body, tuple(sorted(sigs.items()))))
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


def make_rounds() -> dict[Kind, Round]:
    """The session's table: the round for each kind of entry the ledger expects,
    the one its row in the registry names (open and secrets share one; the
    three parts rounds share their store of parts)."""
    parts = PartsRound()
    commits = CommitsRound(parts)
    made: dict[Live, Round] = {
        Live.MOVE: ActionRound(),
        Live.SHUFFLE: ShuffleRound(),
        Live.ESCROW: EscrowRound(),
        Live.CHANCE: ChanceRound(),
        Live.PARTS: SealedPartsRound(parts, Kind.OPEN, Kind.SECRETS),
        Live.COMMITS: commits,
        Live.CHOICES: ChoicesRound(parts, commits),
        Live.RESULT: ResultRound(),
    }
    table = {kind: made[row.live] for kind, row in ROWS.items() if row.live is not None}
    table[Kind.NONE] = Idle()
    return table


def each_round(table: dict[Kind, Round]) -> tuple[Round, ...]:
    """Every round of ``table`` once, with the rounds they share (the parts'
    store before the first that uses it): what the session ticks and prunes,
    and whose ``message`` it hands each contribution to."""
    found: dict[Round, None] = {}
    for round_ in table.values():
        for each in (*round_.helpers(), round_):
            found.setdefault(each)
    return tuple(found)
