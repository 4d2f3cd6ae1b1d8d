"""The ledger: a game's log, validated entry by entry against the rules.

How it works
------------
A :class:`Ledger` starts from a genesis entry and accepts one entry at a time.
:meth:`Ledger.expected` says what the next entry must be, straight from the
rules' pending decision:

======================  ===========================================  ==============
rules say               next entry                                   signed by
======================  ===========================================  ==============
``Turn(seat)``          ``action`` by that seat                      that seat
``Simultaneous(seats)`` ``commits``, then ``choices`` (secret: each bundles every
                        seat's signed part, replay/choices.py)       the parts' seats
``Chance(step)``        ``chance`` with every seat's next preimage   nobody (chains)
``GameOver``            ``result`` with the scores and winners       every seat
(``keep_going``)        first an ``escrow`` by each seat in order    that seat
after ``result``        nothing                                      -
======================  ===========================================  ==============

A game with hidden hands answers its ``"deal"`` chance steps from a sealed deck
instead, with ``shuffle``, ``open`` and ``secrets`` entries and a ``reveal`` proof in
the actions that play a hand card: ``replay/sealed_book.py`` has that table.

:meth:`Ledger.append` checks, in order: the frame decodes, the index and the hash
link, the kind and author against ``expected()``, the signature(s), then the
content (legal action, preimages on their chains, the re-derived chance outcome,
the recomputed result) and only then commits it.  Any failure raises
:class:`InvalidEntry` with the entry index, the reason and, when a valid
signature proves who wrote it, the ``culprit`` seat.

Everything an entry changes, besides the lists of entries and hashes, is one
frozen :class:`~p2ptable.replay.position.Position` (the rules' state, the chain
tips, the chance steps, the sealed book, the result or the halt).  Each kind's
handler (its row's, in the registry replay/rows.py) computes the next position from the
current one without changing anything; ``append`` commits it with one assignment
once every check has passed.  So a rejected entry leaves the ledger unchanged (a
live peer keeps going after bad input), and :meth:`Ledger.rejection` is the same
checks with the answer dropped.

Verifying a replay file is: read the genesis, append every entry, check the end.
The same class validates entries arriving from peers in a live game.  The genesis
is checked by ``replay/genesis.py``; the sealed deck of a hidden-hand game lives in
``replay/sealed_book.py`` and its entries' handlers in ``replay/sealed_entries.py``;
the evidence rules of aborts in ``replay/evidence.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from p2ptable.engine.api import (
    Chance,
    ChanceStep,
    Game,
    GameOver,
    Outcome,
    Simultaneous,
    Turn,
)
from p2ptable.engine.frozen import replace
from p2ptable.replay import choices, escrow_entries, rows, sealed_entries, stand_in
from p2ptable.replay import evidence as evidence_rules
from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import (
    MAX_CHAIN_LEN,
    MAX_SEAT_NAME,
    GenesisInfo,
    SeatInfo,
    check_genesis_signatures,
    read_genesis,
    sealed_book_for,
)
from p2ptable.replay.kinds import Kind, Reason
from p2ptable.replay.position import Applied, Expected, Halt, Position
from p2ptable.replay.sealed_book import SealedBook

# The ledger's name for a halt before it was Halt (net/events.py has a Stopped
# event of its own); kept so that old imports keep working.
Stopped = Halt

# Kept importable from here: the ledger is where readers look for them.
__all__ = [
    "MAX_CHAIN_LEN",
    "MAX_SEAT_NAME",
    "Applied",
    "Expected",
    "Halt",
    "InvalidEntry",
    "Ledger",
    "Position",
    "SeatInfo",
    "Stopped",
]


class Ledger:
    """A validated log and the game state it leads to."""

    def __init__(self, genesis: Entry, readers: Mapping[int, int] | None = None) -> None:
        """``readers`` (seat -> deck secret) are the seats whose hidden cards this
        ledger may read: a peer's own seat, or every seat for an audit."""
        info = read_genesis(genesis)
        book = sealed_book_for(info, readers)
        check_genesis_signatures(genesis, info)
        self._info: GenesisInfo = info
        self.game: Game[Any] = info.game
        self.seats = info.seats
        self.options = info.options
        self.chain_len = info.chain_len
        self.game_id = info.game_id
        self.entries: list[Entry] = [genesis]
        self.hashes: list[bytes] = [genesis.hash]
        tips = tuple(s.chain_head for s in info.seats)
        # Everything append changes besides the two lists: one value, one assignment.
        self._position: Position = sealed_entries.settle(info.game, info.state, book, tips, 0)
        self._expected_at: Position | None = None  # the position _expected is for
        self._expected: Expected | None = None
        # After a seat left (replay/stand_in.py): the log read with the gone
        # seats' secrets alone, over which the stand-in moves (None: none left,
        # or this ledger reads only the gone seats); and the gone entry made last.
        self._shadow: Ledger | None = None
        self._gone_made: tuple[Position, Entry | None] | None = None

    # -- where the log stands (the position, and its fields by their old names) ----

    @property
    def clock(self) -> int | None:
        """The table's seconds per decision (the genesis's ``clock``), or None."""
        return self._info.clock

    @property
    def spectators_talk(self) -> bool:
        """Whether spectators may write in their own channel (the genesis's
        ``spectators_talk``, host --spectators-talk)."""
        return self._info.spectators_talk

    @property
    def position(self) -> Position:
        """Where the log stands after its last entry (changed only by ``append``)."""
        return self._position

    @property
    def state(self) -> Any:
        return self._position.state

    @property
    def chain_tips(self) -> tuple[bytes, ...]:
        return self._position.chain_tips

    @property
    def chance_steps(self) -> int:
        return self._position.chance_steps

    @property
    def book(self) -> SealedBook | None:
        return self._position.book

    @property
    def result(self) -> Outcome | None:
        return self._position.result

    @property
    def stopped(self) -> Halt | None:
        return self._position.stopped

    @property
    def next_index(self) -> int:
        return len(self.entries)

    @property
    def head(self) -> bytes:
        return self.hashes[-1]

    @property
    def finished(self) -> bool:
        return self._position.result is not None

    # -- what comes next -------------------------------------------------------

    def expected(self) -> Expected:
        """What the next entry must be (computed once per log position)."""
        position = self._position
        if self._expected_at is position:
            return self._expected  # type: ignore[return-value]
        expected = self._expected = self._compute_expected(position)
        self._expected_at = position
        return expected

    def _compute_expected(self, position: Position) -> Expected:
        if position.result is not None or position.stopped is not None:
            return _NOTHING
        book = position.book
        if book is not None and book.escrows is not None:
            kept = self._expected_keeping_on(position)
            if kept is not None:
                return kept
        game = self.game
        decision = game.pending(position.state)
        if isinstance(decision, Turn):
            if decision.forced:
                return Expected(_ACTION, seat=decision.seat, forced=True)
            return _action_by(decision.seat)
        if isinstance(decision, Simultaneous):
            return self._expected_together(position, decision)
        if isinstance(decision, Chance):
            return self._expected_chance(position, decision.step)
        if isinstance(decision, GameOver):
            if book is not None and book.secrets is None:
                return Expected(_SECRETS)
            return Expected(_RESULT, outcome=game.outcome(position.state))
        raise TypeError(f"unknown decision {decision!r}")  # pragma: no cover

    def _expected_keeping_on(self, position: Position) -> Expected | None:
        """At a table that goes on without a leaver (keep_going): every seat's
        escrow first; once one player is left, the end (replay/stand_in.py).
        None: the game's own decision comes next."""
        book = position.book
        assert book is not None
        dealer = escrow_entries.next_dealer(book)
        if dealer is not None:
            return Expected(Kind.ESCROW, seat=dealer)
        if len(book.gone) != book.seats - 1:
            return None
        if book.secrets is None:
            return Expected(_SECRETS)
        (seat,) = (s for s in range(book.seats) if s not in book.gone)
        alone = stand_in.alone_outcome(self.game, position.state, seat, book.seats)
        return Expected(_RESULT, outcome=alone)

    def _expected_together(self, position: Position, decision: Simultaneous) -> Expected:
        """A secret choice: committed first, all at once, then revealed
        (replay/choices.py).  A seat that left is not asked: its stand-in's
        choice is applied with the others' (replay/stand_in.py)."""
        kind = _COMMITS if position.commits is None else _CHOICES
        gone = position.book.gone if position.book is not None else ()
        if not gone:
            return Expected(kind, targets=tuple(sorted(decision.seats)))
        asked = tuple(sorted(s for s in decision.seats if s not in gone))
        left = tuple(sorted(s for s in decision.seats if s in gone))
        if not asked:
            kind = _CHOICES  # only stand-ins choose: nothing to commit first
        if kind == _COMMITS or not left:
            return Expected(kind, targets=asked)
        state = self.stand_in_state
        made = stand_in.stand_in_choices(self.game, state, left, self.game_id, self.head)
        return Expected(kind, targets=asked, stand_ins=made)

    def _expected_chance(self, position: Position, step: ChanceStep) -> Expected:
        """What a chance step needs: at a table with hidden hands a shuffle or the
        opening of a dealt card (replay/sealed_book.py), else commit-reveal."""
        book = position.book
        if book is not None and step.kind == "pick" and step.seat is not None:
            if book.needs_hand_shuffle(step.seat):
                return Expected(_SHUFFLE, seat=step.seat, chance=step, hand=True)
        if book is not None and step.kind == "deal":
            shuffler = book.next_shuffler()
            if shuffler is not None:
                return Expected(_SHUFFLE, seat=shuffler, chance=step)
            targets = sealed_entries.deals(self.game, position, step)
            return Expected(_OPEN, seat=step.seat, chance=step, targets=targets)
        return Expected(_CHANCE, chance=step, step_number=position.chance_steps)

    # -- accepting entries -----------------------------------------------------

    def append(self, entry: Entry) -> Applied:
        """Validate ``entry`` as the next one and commit it; InvalidEntry if not."""
        did, position = self._next(entry)
        before = self._position.book
        self._position = position  # the one change, once every check has passed
        self.entries.append(entry)
        self.hashes.append(entry.hash)
        if self._shadow is not None and did.kind != _DEPARTURE:
            self._shadow.append(entry)  # a departure makes a new one (_departed)
        if did.kind == _DEPARTURE and before is not None:
            self._departed(did.seat, before)  # type: ignore[arg-type]
        return did

    def _departed(self, leaver: int, before: SealedBook) -> None:
        """A seat left and its secret is public.  The cards it was dealt before
        are read by replaying the log once with it among the readers, so the
        rules' state holds its hand as every reader's (no rules hook needed);
        and the stand-in's state is a ledger of the gone seats' secrets alone."""
        book = self._position.book
        assert book is not None  # a departure's book
        if leaver not in before.readers:
            again = Ledger(self.entries[0], readers=dict(book.readers))
            for entry in self.entries[1:]:
                again.append(entry)
            self._position, self._shadow = again._position, again._shadow
            return
        gone = {seat: book.readers[seat] for seat in book.gone}
        if set(book.readers) == set(gone):
            self._shadow = None  # we read only the gone seats: our state is the stand-in's
        elif self._shadow is None or set(self._shadow.book.readers) != set(gone):  # type: ignore[union-attr]
            shadow = Ledger(self.entries[0], readers=gone)
            for entry in self.entries[1:]:
                shadow.append(entry)
            self._shadow = shadow

    @property
    def stand_in_state(self) -> Any:
        """The rules' state as the gone seats' secrets alone read it: what the
        stand-in moves over (replay/stand_in.py), the same on every peer."""
        return self._shadow.state if self._shadow is not None else self.state

    def gone_entry(self) -> Entry | None:
        """The entry a gone seat makes at this position (its stand-in's action or
        shuffle, unsigned), or None when no gone seat is to make one."""
        position = self._position
        if self._gone_made is None or self._gone_made[0] is not position:
            made = stand_in.gone_entry(self, self.stand_in_state, self.expected())
            self._gone_made = (position, made)
        return self._gone_made[1]

    def rejection(self, entry: Entry) -> InvalidEntry | None:
        """Why ``entry`` would be refused as the next entry (None: it would be
        accepted).  The ledger is left exactly as it was: the checks change nothing."""
        try:
            self._next(entry)
        except InvalidEntry as exc:
            return exc
        return None

    def _next(self, entry: Entry) -> tuple[Applied, Position]:
        """Every check of ``entry`` as the next entry: what it does and the position
        it leads to (nothing is changed); InvalidEntry if it is not acceptable."""
        # Every peer runs this for every entry: locals instead of repeated lookups.
        index = len(self.entries)
        try:
            body = entry.body
        except (MalformedEntry, ValueError) as exc:
            raise InvalidEntry(index, f"malformed: {exc}") from None
        kind = body["t"]
        if kind == _GENESIS:
            raise InvalidEntry(index, "a second genesis entry")
        if body["i"] != index:
            raise InvalidEntry(index, f"claims to be entry {body['i']} (duplicated or reordered?)")
        if body["prev"] != self.hashes[-1]:
            raise InvalidEntry(index, "does not link to the previous entry's hash")
        position = self._position
        if position.stopped is not None:
            raise InvalidEntry(index, "entry after the game was stopped")
        if position.result is not None:
            raise InvalidEntry(index, "entry after the game's result")
        if kind == _ABORT:
            return self._abort(position, index, entry, body)
        expected = self.expected()
        if kind in _ANYWHERE:  # a seat that left (replay/departure.py)
            return _HANDLE[kind](self._info, position, index, entry, body, expected)
        book = position.book
        if book is not None and book.gone and expected.seat in book.gone and kind == expected.kind:
            made = self.gone_entry()
            if made is not None and (entry.sigs or entry.body_bytes != made.body_bytes):
                what = made.body.get("action", kind)
                why = f"not the stand-in's {kind} for seat {expected.seat} (it makes {what!r})"
                raise InvalidEntry(index, why)
        if expected.kind == _NONE:
            raise InvalidEntry(index, "entry after the game's result")
        if kind != expected.kind:
            raise InvalidEntry(index, f"expected a {expected.kind} entry, found {kind}")
        return _HANDLE[kind](self._info, position, index, entry, body, expected)

    def _abort(
        self, position: Position, index: int, entry: Entry, body: dict[str, Any]
    ) -> tuple[Applied, Position]:
        n = len(self.seats)
        culprit, reason = body["culprit"], Reason.of(body["reason"])
        detector: int | None = None
        if entry.sigs:
            # The first form: one seat's signed account (still read in old logs).
            if len(entry.sigs) != 1 or not 0 <= entry.sigs[0][0] < n:
                raise InvalidEntry(index, "a signed abort carries exactly one signature, by a seat")
            detector = entry.sigs[0][0]
            if not self._info.signed_by(detector, entry.sigs[0][1], entry.body_bytes):
                raise InvalidEntry(index, f"bad abort signature (claimed by seat {detector})")
            if culprit == detector:
                raise InvalidEntry(index, "an abort must name another seat", detector)
        if not 0 <= culprit < n:
            raise InvalidEntry(index, "an abort must name another seat", detector)
        evidence = body["evidence"]
        if reason is None:
            raise InvalidEntry(index, f"unknown abort reason {body['reason']!r}", detector)
        if reason is Reason.EQUIVOCATION:
            self.check_equivocation(culprit, evidence, detector, index)
        elif reason is Reason.CHEATED:
            self.check_cheat(culprit, evidence, detector, index)
        elif evidence:  # withheld, abandoned: absence cannot be signed
            raise InvalidEntry(index, f"a {reason} abort carries no evidence", detector)
        proved = reason.proved
        halt = Halt(index, reason, culprit, detector, body["detail"], proved)
        name = self.seats[culprit].name
        if proved:
            how = "proved by signed evidence"
        elif detector is None:
            how = "reported, not proved"
        else:
            how = f"reported by seat {detector}"
        did = Applied(index, Kind.ABORT, culprit, f"game stopped: {name} {reason} ({how})")
        return did, replace(position, stopped=halt)

    def choice_problem(self, seat: int, msg: object) -> str | None:
        """What is wrong with ``seat``'s part of the pending ``commits`` or
        ``choices`` entry, or None (replay/choices.py)."""
        return choices.part_problem(self._info, self._position, self.expected(), seat, msg)

    @property
    def protocol(self) -> str:
        """The protocol version the genesis names (replay.md section 10)."""
        return self._info.protocol

    def signed_parts(self, kind: Kind) -> bool:
        """Whether this log's ``kind`` entries (commits, choices) keep their
        parts' signatures (replay/choices.py, ``signed_parts``)."""
        return choices.signed_parts(self._info, kind)

    def check_equivocation(
        self, culprit: int, evidence: list[Any], detector: int | None, index: int | None = None
    ) -> None:
        """Raise InvalidEntry unless ``evidence`` proves that ``culprit`` signed two
        different entries for one position (see replay/evidence.py)."""
        evidence_rules.check_equivocation(self, culprit, evidence, detector, index)

    def check_cheat(
        self, culprit: int, evidence: list[Any], detector: int | None, index: int | None = None
    ) -> None:
        """Raise InvalidEntry unless ``evidence`` is a message signed by ``culprit``
        for this position that fails its check (see replay/evidence.py)."""
        evidence_rules.check_cheat(self, culprit, evidence, detector, index)


# What handles each kind of entry once the ledger has matched it to ``expected()``:
# the registry's column (an abort, which may come at any position, is the ledger's
# own ``_abort``, and a genesis starts a ledger).
_HANDLE = rows.handlers()
_ANYWHERE = rows.anywhere()
_NOTHING = Expected(Kind.NONE)
# Kind members bound once: on Python 3.11 a member looked up through its enum
# class costs several times the comparison, and every peer runs this for every entry.
_GENESIS, _ABORT, _NONE = Kind.GENESIS, Kind.ABORT, Kind.NONE
_DEPARTURE = Kind.DEPARTURE
_ACTION, _CHANCE, _SHUFFLE, _OPEN = Kind.ACTION, Kind.CHANCE, Kind.SHUFFLE, Kind.OPEN
_SECRETS, _COMMITS, _CHOICES, _RESULT = Kind.SECRETS, Kind.COMMITS, Kind.CHOICES, Kind.RESULT

# Expected(Kind.ACTION, seat=...) for each seat: the same frozen value at every turn,
# and building a six-field frozen dataclass costs more than the rest of expected().
_ACTION_BY: dict[int, Expected] = {}


def _action_by(seat: int) -> Expected:
    expected = _ACTION_BY.get(seat)
    if expected is None:
        expected = _ACTION_BY[seat] = Expected(_ACTION, seat=seat)
    return expected
