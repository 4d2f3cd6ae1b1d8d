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
``Simultaneous(seats)`` ``action`` by the lowest seat still to choose that seat
``Chance(step)``        ``chance`` with every seat's next preimage   nobody (chains)
``GameOver``            ``result`` with the scores and winners       every seat
after ``result``        nothing                                      -
======================  ===========================================  ==============

A game with hidden hands answers its ``"deal"`` chance steps from a sealed deck
instead, with ``shuffle``, ``open`` and ``secrets`` entries and a ``reveal`` proof in
the actions that play a hand card: ``replay/sealed_book.py`` has that table.

:meth:`Ledger.append` checks, in order: the frame decodes, the index and the hash
link, the kind and author against ``expected()``, the signature(s), then the
content (legal action, preimages on their chains, the re-derived chance outcome,
the recomputed result) and only then applies it.  Any failure raises
:class:`InvalidEntry` with the entry index, the reason and, when a valid
signature proves who wrote it, the ``culprit`` seat.  A rejected entry leaves the
ledger unchanged, so a live peer can keep going after bad input.

Verifying a replay file is: read the genesis, append every entry, check the end.
The same class validates entries arriving from peers in a live game.  The genesis
is checked by ``replay/genesis.py``; the sealed deck of a hidden-hand game lives in
``replay/sealed_book.py``; the evidence rules of aborts in ``replay/evidence.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.api import (
    Action,
    Chance,
    ChanceStep,
    Game,
    GameOver,
    IllegalAction,
    Outcome,
    Simultaneous,
    Turn,
)
from p2ptable.randomness.chain import check_preimage
from p2ptable.randomness.derive import derive_outcome
from p2ptable.replay import evidence as evidence_rules
from p2ptable.replay.entries import (
    Entry,
    MalformedEntry,
    bundled_parts,
    signed_message,
)
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import (
    MAX_CHAIN_LEN,
    MAX_SEAT_NAME,
    SeatInfo,
    check_genesis_signatures,
    read_genesis,
    sealed_book_for,
)
from p2ptable.sealed.errors import SealedDeckError

# Kept importable from here: the ledger is where readers look for them.
__all__ = [
    "MAX_CHAIN_LEN",
    "MAX_SEAT_NAME",
    "Applied",
    "Expected",
    "InvalidEntry",
    "Ledger",
    "SeatInfo",
    "Stopped",
]


@dataclass(frozen=True)
class Expected:
    """What the next entry must be: ``kind`` and, for an action, the ``seat``;
    for a chance entry the ``step`` and its number; for a result the ``outcome``."""

    kind: str  # "action" | "chance" | "shuffle" | "open" | "secrets" | "result" | "none"
    seat: int | None = None
    chance: ChanceStep | None = None
    step_number: int | None = None
    outcome: Outcome | None = None
    targets: tuple[int | None, ...] = ()  # an open: the seat each card goes to


@dataclass(frozen=True)
class Stopped:
    """The game was stopped by an ``abort`` entry.  ``proved`` is True when the
    entry carries evidence that every verifier re-checks (equivocation: two
    different moves signed by the culprit for one position); False when it is the
    detecting seat's signed account (withholding, abandoning), which names an
    *accused* seat but proves nothing about it."""

    index: int
    reason: str
    culprit: int
    detector: int
    detail: str
    proved: bool


@dataclass(frozen=True)
class Applied:
    """What an accepted entry did, for screens and narratives."""

    index: int
    kind: str
    seat: int | None
    text: str


class Ledger:
    """A validated log and the game state it leads to."""

    def __init__(self, genesis: Entry, readers: Mapping[int, int] | None = None) -> None:
        """``readers`` (seat -> deck secret) are the seats whose hidden cards this
        ledger may read: a peer's own seat, or every seat for an audit."""
        info = read_genesis(genesis)
        self.game: Game = info.game
        self.seats = info.seats
        self.options = info.options
        self.chain_len = info.chain_len
        self.game_id = info.game_id
        self.book = sealed_book_for(info, readers)
        check_genesis_signatures(genesis, info)
        state = info.state
        self.entries: list[Entry] = [genesis]
        self.hashes: list[bytes] = [genesis.hash]
        self.state: Any = state
        if self.book is not None:
            self.book.fill(self.game.face_down(state))
        self.chain_tips: list[bytes] = [s.chain_head for s in self.seats]
        self.chance_steps = 0
        self.result: Outcome | None = None
        self.stopped: Stopped | None = None
        self._expected: tuple[int, Expected] | None = None

    # -- what comes next -------------------------------------------------------

    @property
    def next_index(self) -> int:
        return len(self.entries)

    @property
    def head(self) -> bytes:
        return self.hashes[-1]

    @property
    def finished(self) -> bool:
        return self.result is not None

    def expected(self) -> Expected:
        """What the next entry must be (computed once per log position)."""
        cached = self._expected
        if cached is not None and cached[0] == len(self.entries):
            return cached[1]
        expected = self._compute_expected()
        self._expected = (len(self.entries), expected)
        return expected

    def _compute_expected(self) -> Expected:
        if self.result is not None or self.stopped is not None:
            return Expected("none")
        decision = self.game.pending(self.state)
        if isinstance(decision, Turn):
            return _action_by(decision.seat)
        if isinstance(decision, Simultaneous):
            return _action_by(min(decision.seats))
        book = self.book
        if isinstance(decision, Chance):
            step = decision.step
            if book is not None and step.kind == "deal":
                shuffler = book.next_shuffler()
                if shuffler is not None:
                    return Expected("shuffle", seat=shuffler, chance=step)
                return Expected("open", seat=step.seat, chance=step, targets=self._deals(step))
            return Expected("chance", chance=step, step_number=self.chance_steps)
        if isinstance(decision, GameOver):
            if book is not None and book.secrets is None:
                return Expected("secrets")
            return Expected("result", outcome=self.game.outcome(self.state))
        raise TypeError(f"unknown decision {decision!r}")  # pragma: no cover

    # -- accepting entries -----------------------------------------------------

    def append(self, entry: Entry) -> Applied:
        """Validate ``entry`` as the next one and apply it; InvalidEntry if not."""
        # Every peer runs this for every entry: locals instead of repeated lookups.
        index = len(self.entries)
        try:
            body = entry.body
        except (MalformedEntry, ValueError) as exc:
            raise InvalidEntry(index, f"malformed: {exc}") from None
        kind = body["t"]
        if kind == "genesis":
            raise InvalidEntry(index, "a second genesis entry")
        if body["i"] != index:
            raise InvalidEntry(index, f"claims to be entry {body['i']} (duplicated or reordered?)")
        if body["prev"] != self.hashes[-1]:
            raise InvalidEntry(index, "does not link to the previous entry's hash")
        if self.stopped is not None:
            raise InvalidEntry(index, "entry after the game was stopped")
        if self.result is not None:
            raise InvalidEntry(index, "entry after the game's result")
        if kind == "abort":
            applied = self._abort(index, entry, body)
            self.entries.append(entry)
            self.hashes.append(entry.hash)
            return applied
        expected = self.expected()
        if expected.kind == "none":
            raise InvalidEntry(index, "entry after the game's result")
        if kind != expected.kind:
            raise InvalidEntry(index, f"expected a {expected.kind} entry, found {kind}")
        book = self.book
        saved = None if book is None else (book.state, book.secrets)
        try:
            applied = _HANDLERS[kind](self, index, entry, body, expected)
        except InvalidEntry:
            if self.book is not None and saved is not None:
                # A refused entry leaves no trace, even one that passed some of its
                # sealed checks (a transfer) before failing another (a reveal).
                self.book.state, self.book.secrets = saved
            raise
        self.entries.append(entry)
        self.hashes.append(entry.hash)
        return applied

    def _check_single_sig(self, index: int, entry: Entry, seat: int) -> None:
        if len(entry.sigs) != 1 or entry.sigs[0][0] != seat:
            raise InvalidEntry(index, f"must carry exactly one signature, by seat {seat}")
        message = signed_message(self.game_id, entry.body_bytes)
        if not verify_signature(self.seats[seat].key, entry.sigs[0][1], message):
            raise InvalidEntry(index, f"bad signature (claimed by seat {seat})")

    def _action(self, index: int, entry: Entry, body: dict, expected: Expected) -> Applied:
        seat = body["seat"]
        if seat != expected.seat:
            raise InvalidEntry(
                index, f"seat {seat} acted out of turn (seat {expected.seat} to act)"
            )
        self._check_single_sig(index, entry, seat)
        try:
            action = _parse_action(body["action"])
            new_state = self.game.apply(self.state, seat, action)
        except (ValueError, IllegalAction) as exc:
            raise InvalidEntry(index, f"illegal action {body['action']!r}: {exc}", seat) from None
        book = self.book
        shown = None if book is None else self.game.hand_card_played(self.state, seat, action)
        given = None if book is None else self.game.hand_card_given(self.state, seat, action)
        if shown is None and "reveal" in body:
            raise InvalidEntry(index, "carries a reveal but plays no hand card", seat)
        if given is None and "transfer" in body:
            raise InvalidEntry(index, "carries a transfer but gives no hand card", seat)
        if given is not None:
            if "transfer" not in body:
                why = f"gives a hand card without its proof: {action.text}"
                raise InvalidEntry(index, why, seat)
            assert self.book is not None
            try:
                seen = self.book.apply_transfer(seat, given[0], given[1], body["transfer"])
            except SealedDeckError as exc:
                why = f"transfer of {action.text!r}: {exc.reason}"
                raise InvalidEntry(index, why, seat) from None
            if seen is not None:
                new_state = self.game.given_card_seen(new_state, given[1], seen)
        if shown is not None:
            if "reveal" not in body:
                why = f"plays a hand card without its proof: {action.text}"
                raise InvalidEntry(index, why, seat)
            assert self.book is not None
            try:
                self.book.apply_reveal(seat, shown[0], shown[1], body["reveal"])
            except SealedDeckError as exc:
                why = f"reveal of {action.text!r}: {exc.reason}"
                raise InvalidEntry(index, why, seat) from None
        # Describe only once the action is known to be legal (describe may assume it).
        text = self.game.describe(self.state, seat, action)
        self._set_state(new_state)
        return Applied(index, "action", seat, text)

    def _deals(self, step: ChanceStep) -> tuple[int | None, ...]:
        """The seats of the deals the rules make in a row from here, for one open:
        each resolved with an unknown card, as every peer but the receiver does."""
        assert self.book is not None
        if step.seat is None:
            return (None,)  # a face-up card may change what the rules do next
        targets: list[int | None] = [step.seat]
        state = self.game.deal_from_sealed(self.state, None)
        left = len(self.book.state.deck)
        while len(targets) < left:
            decision = self.game.pending(state)
            if not (isinstance(decision, Chance) and decision.step.kind == "deal"):
                break
            if decision.step.seat is None or len(self.game.face_down(state)) != left - len(targets):
                break  # a face-up card, or new cards going into the deck
            targets.append(decision.step.seat)
            state = self.game.deal_from_sealed(state, None)
        return tuple(targets)

    def _set_state(self, state: Any) -> None:
        self.state = state
        if self.book is not None:
            self.book.fill(self.game.face_down(state))

    def _shuffle(self, index: int, entry: Entry, body: dict, expected: Expected) -> Applied:
        seat = body["seat"]
        if seat != expected.seat:
            raise InvalidEntry(index, f"seat {seat} shuffled out of turn (seat {expected.seat})")
        self._check_single_sig(index, entry, seat)
        assert self.book is not None
        try:
            self.book.apply_shuffle(seat, body["msg"])
        except SealedDeckError as exc:
            raise InvalidEntry(index, exc.reason, seat) from None
        cards = len(self.book.state.deck)
        return Applied(index, "shuffle", seat, f"shuffles the deck ({cards} cards, proved)")

    def _open(self, index: int, entry: Entry, body: dict, expected: Expected) -> Applied:
        if entry.sigs:
            raise InvalidEntry(index, "an open entry carries no signatures (its proofs prove it)")
        assert self.book is not None
        parts = self._bundled_parts(index, body)
        try:
            dealt = self.book.apply_open(expected.targets, parts)
        except SealedDeckError as exc:
            who = "" if exc.seat is None else f"the part of seat {exc.seat}: "
            raise InvalidEntry(index, f"{who}{exc.reason}") from None
        state = self.state
        for card in dealt:
            state = self.game.deal_from_sealed(state, card.card)
        self._set_state(state)
        if dealt[0].to is None:
            return Applied(index, "open", None, f"a card is drawn face up: {dealt[0].card}")
        if len(dealt) == 1:
            return Applied(
                index, "open", dealt[0].to, f"a card is dealt to {self.seats[dealt[0].to].name}"
            )
        counts = {s: sum(1 for d in dealt if d.to == s) for s in dict.fromkeys(d.to for d in dealt)}
        if len(set(counts.values())) == 1 and len(counts) == len(self.seats):
            each = next(iter(counts.values()))
            return Applied(index, "open", None, f"{len(dealt)} cards are dealt, {each} to each")
        who = ", ".join(f"{n} to {self.seats[s].name}" for s, n in counts.items())  # type: ignore[index]
        return Applied(index, "open", None, f"{len(dealt)} cards are dealt: {who}")

    def _secrets(self, index: int, entry: Entry, body: dict, expected: Expected) -> Applied:
        if entry.sigs:
            raise InvalidEntry(index, "a secrets entry carries no signatures (keys prove it)")
        assert self.book is not None
        parts = self._bundled_parts(index, body)
        try:
            self.book.apply_secrets(parts)
        except SealedDeckError as exc:
            who = "" if exc.seat is None else f"the part of seat {exc.seat}: "
            raise InvalidEntry(index, f"{who}{exc.reason}") from None
        return Applied(index, "secrets", None, "every seat shows its deck secret for the audit")

    def _bundled_parts(self, index: int, body: dict) -> list:
        """The messages of a bundle's parts, each signed by its seat (checked)."""
        try:
            parts = bundled_parts(body)
        except MalformedEntry as exc:
            raise InvalidEntry(index, str(exc)) from None
        if len(parts) != len(self.seats):
            raise InvalidEntry(index, f"needs one part per seat ({len(self.seats)})")
        for seat, part in enumerate(parts):
            message = signed_message(self.game_id, part.body_bytes)
            if not verify_signature(self.seats[seat].key, part.sigs[0][1], message):
                raise InvalidEntry(index, f"the part of seat {seat} is not signed by it")
        return [part.body["msg"] for part in parts]

    def _chance(self, index: int, entry: Entry, body: dict, expected: Expected) -> Applied:
        step, number = expected.chance, expected.step_number
        assert step is not None and number is not None
        if body["step"] != number:
            raise InvalidEntry(index, f"chance step {body['step']}, expected {number}")
        if body["purpose"] != step.purpose:
            raise InvalidEntry(index, f"purpose {body['purpose']!r}, expected {step.purpose!r}")
        if number >= self.chain_len:
            raise InvalidEntry(index, f"randomness chains exhausted ({self.chain_len} steps)")
        n = len(self.seats)
        pre = body["pre"]
        if entry.sigs:
            raise InvalidEntry(index, "a chance entry carries no signatures (its chains prove it)")
        if len(pre) != n:
            raise InvalidEntry(index, f"needs one preimage per seat ({n}), has {len(pre)}")
        for seat, value in enumerate(pre):
            if not isinstance(value, bytes):
                raise InvalidEntry(index, f"preimage of seat {seat} is not bytes")
            if not check_preimage(self.chain_tips[seat], value):
                raise InvalidEntry(index, f"the value for seat {seat} is not on its chain")
        outcome = derive_outcome(self.game_id, number, step.purpose, pre, step.ranges)
        if tuple(body["outcome"]) != outcome:
            raise InvalidEntry(
                index, f"recorded outcome {body['outcome']} != derived {list(outcome)}"
            )
        text = self.game.describe_chance(self.state, outcome)
        self._set_state(self.game.resolve(self.state, outcome))
        self.chain_tips = list(pre)
        self.chance_steps += 1
        return Applied(index, "chance", step.seat, text)

    def _result(self, index: int, entry: Entry, body: dict, expected: Expected) -> Applied:
        outcome = expected.outcome
        assert outcome is not None
        if list(body["scores"]) != list(outcome.scores) or list(body["winners"]) != list(
            outcome.winners
        ):
            raise InvalidEntry(
                index,
                f"recorded result scores={body['scores']} winners={body['winners']} differs "
                f"from the rules: scores={list(outcome.scores)} winners={list(outcome.winners)}",
            )
        n = len(self.seats)
        if [seat for seat, _ in entry.sigs] != list(range(n)):
            raise InvalidEntry(index, "the result needs one signature from each seat, in order")
        message = signed_message(self.game_id, entry.body_bytes)
        for seat, sig in entry.sigs:
            if not verify_signature(self.seats[seat].key, sig, message):
                raise InvalidEntry(index, f"bad result signature (claimed by seat {seat})")
        self.result = outcome
        return Applied(index, "result", None, outcome.explanation)

    def _abort(self, index: int, entry: Entry, body: dict) -> Applied:
        n = len(self.seats)
        culprit, reason = body["culprit"], body["reason"]
        if len(entry.sigs) != 1 or not 0 <= entry.sigs[0][0] < n:
            raise InvalidEntry(index, "an abort carries exactly one signature, by a seat")
        detector = entry.sigs[0][0]
        message = signed_message(self.game_id, entry.body_bytes)
        if not verify_signature(self.seats[detector].key, entry.sigs[0][1], message):
            raise InvalidEntry(index, f"bad abort signature (claimed by seat {detector})")
        if not 0 <= culprit < n or culprit == detector:
            raise InvalidEntry(index, "an abort must name another seat", detector)
        evidence = body["evidence"]
        if reason == "equivocation":
            self.check_equivocation(culprit, evidence, detector, index)
        elif reason == "cheated":
            self.check_cheat(culprit, evidence, detector, index)
        elif reason in ("withheld", "abandoned"):
            if evidence:
                raise InvalidEntry(index, f"a {reason} abort carries no evidence", detector)
        else:
            raise InvalidEntry(index, f"unknown abort reason {reason!r}", detector)
        proved = reason in ("equivocation", "cheated")
        self.stopped = Stopped(index, reason, culprit, detector, body["detail"], proved)
        name = self.seats[culprit].name
        how = "proved by signed evidence" if proved else f"reported by seat {detector}"
        return Applied(index, "abort", culprit, f"game stopped: {name} {reason} ({how})")

    def check_equivocation(
        self, culprit: int, evidence: list, detector: int, index: int | None = None
    ) -> None:
        """Raise InvalidEntry unless ``evidence`` proves that ``culprit`` signed two
        different entries for one position (see replay/evidence.py)."""
        evidence_rules.check_equivocation(self, culprit, evidence, detector, index)

    def check_cheat(
        self, culprit: int, evidence: list, detector: int, index: int | None = None
    ) -> None:
        """Raise InvalidEntry unless ``evidence`` is a message signed by ``culprit``
        for this position that fails its check (see replay/evidence.py)."""
        evidence_rules.check_cheat(self, culprit, evidence, detector, index)

    def rejection(self, entry: Entry) -> InvalidEntry | None:
        """Why ``entry`` would be refused as the next entry (None: it would be
        accepted).  The ledger is left exactly as it was."""
        saved = dict(self.__dict__)
        book = None if self.book is None else (self.book.state, self.book.secrets)
        size = len(self.entries)
        try:
            self.append(entry)
        except InvalidEntry as exc:
            return exc
        finally:
            del self.entries[size:]
            del self.hashes[size:]
            self.__dict__.update(saved)
            if self.book is not None and book is not None:
                self.book.state, self.book.secrets = book
        return None


# What handles each kind of entry once append has matched it to ``expected()``.
_HANDLERS = {
    "action": Ledger._action,
    "chance": Ledger._chance,
    "shuffle": Ledger._shuffle,
    "open": Ledger._open,
    "secrets": Ledger._secrets,
    "result": Ledger._result,
}


# Expected("action", seat=...) for each seat: the same frozen value at every turn,
# and building a six-field frozen dataclass costs more than the rest of expected().
_ACTION_BY: dict[int, Expected] = {}


def _action_by(seat: int) -> Expected:
    expected = _ACTION_BY.get(seat)
    if expected is None:
        expected = _ACTION_BY[seat] = Expected("action", seat=seat)
    return expected


# Action.parse, remembered: a game has a few dozen distinct action texts and every
# peer parses every move.  Actions are frozen values, so sharing one is safe; only
# texts that parse are kept, and the table is emptied before it grows large.
_ACTIONS: dict[str, Action] = {}
_ACTIONS_MAX = 1024


def _parse_action(text: str) -> Action:
    action = _ACTIONS.get(text)
    if action is None:
        action = Action.parse(text)
        if len(_ACTIONS) >= _ACTIONS_MAX:
            _ACTIONS.clear()
        _ACTIONS[text] = action
    return action
