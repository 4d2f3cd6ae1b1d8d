"""One seat's side of a sealed-deck table, sans-IO: bytes in, bytes and events out.

Theory of operation
-------------------
N seats agree on a table (game id, number of seats, the cards, the hand size and
the order in which seats will reveal cards) and each runs a :class:`SealedSeat`.
There is no leader: every seat makes its own messages and checks everyone's,
with the pure functions of ``p2ptable.sealed``.  The machine never touches a
socket or a clock and never draws randomness itself (``rand`` is an argument).

The driver hands it every message from another seat with :meth:`receive` (which
only parses and files it), then calls :meth:`step` until it returns False, sending
:meth:`take_outgoing` after each call.  One step is one unit of work, and making
our own message always comes before checking someone else's, so the driver can
send our shuffle before we spend 50 ms verifying the one it was built on: the next
shuffler starts while the others are still verifying (safe, because no card can
be opened before every seat has verified every shuffle).

=======  =======================================  ===================================  =======
phase    we make (first)                          we check (then), and emit            next
=======  =======================================  ===================================  =======
KEYS     (our key, sent by the constructor)       each key and its proof               SHUFFLE
                                                  all in: KeysReady
SHUFFLE  our shuffle, once the messages of every  the shuffles in seat order,          DEAL
         seat before us are in (not yet checked)  ours with ``own=True``: Shuffled(s)
DEAL     our shares for every card not ours       each seat's shares as they come;     PLAY
                                                  all in: HandDealt(our cards)
PLAY     our reveal, when :meth:`reveal` is       the reveal of the seat whose turn    END
         called on our turn                       it is: Revealed(seat, card)
END      our secret (the game is over)            each secret against its key;         DONE
                                                  all in: Done(every hand as dealt)
=======  =======================================  ===================================  =======

Messages may arrive early, late or twice: each is filed under its kind and seat
(reveals in a queue per seat, at most that seat's number of turns) and used when
its phase comes.  An exact duplicate, and bytes that are not a well-formed
envelope from that seat, are refused with a :class:`Rejected` event and the table
goes on.  A well-formed message that does not check out (a proof fails, a second
and different message for one slot, a false reveal, a wrong secret) is the
sender's doing: :class:`Cheated` names it and the machine stops in ERROR for good.
Every message carries the hash of the history it was made on
(``p2ptable.sealed.envelope``); a mismatch stops the table with ``Cheated(None)``
before any proof is checked, so a seat sending different messages to different
seats can never get an honest seat blamed.  Our own mistakes (a reveal out of
turn, a bad index, a bad configuration) raise :class:`SealedUsageError`.

Withholding is not detected here (there is no clock): :meth:`waiting_for` says
whose message is missing, and the driver decides how long to wait.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Sequence

from p2ptable.sealed import deck, elgamal
from p2ptable.sealed.audit import AddCards, AuditReport, Op, Open, Reveal, Shuffle, audit
from p2ptable.sealed.dealing import OpenRound, add_shares, begin_open, finish_open, make_shares
from p2ptable.sealed.deck import SealedState
from p2ptable.sealed.envelope import (
    Envelope,
    decode_envelope,
    encode_envelope,
    extend_history,
    seal_message,
    start_of_history,
)
from p2ptable.sealed.errors import SealedDeckError, SealedUsageError
from p2ptable.sealed.group import Rand
from p2ptable.sealed.messages import SecretMessage
from p2ptable.sealed.table_events import (
    Cheated,
    Done,
    Event,
    HandDealt,
    KeysReady,
    Phase,
    Rejected,
    Revealed,
    Shuffled,
)

# The table above, as code: per phase, (make our message, check the next one).
_STEPS = {
    Phase.KEYS: (None, "_take_key"),
    Phase.SHUFFLE: ("_make_shuffle", "_take_shuffle"),
    Phase.DEAL: ("_make_shares", "_take_shares"),
    Phase.PLAY: (None, "_take_reveal"),  # our own reveal comes from reveal()
    Phase.END: ("_make_secret", "_take_secret"),
}


ALL = None  # destination of every message: every other seat


class SealedSeat:
    """One seat's view of the sealed-deck table.  See the module docstring."""

    def __init__(
        self,
        game_id: bytes,
        seat: int,
        seats: int,
        cards: Sequence[int],
        hand: int,
        rand: Rand,
        *,
        turns: Sequence[int] = (),
        secret: int | None = None,
    ) -> None:
        cards, turns = tuple(cards), tuple(turns)
        if len(game_id) != 32 or not 2 <= seats or not 0 <= seat < seats:
            raise SealedUsageError("a table needs a 32-byte game id, 2 seats or more, our seat")
        if hand < 1 or hand * seats > len(cards) or len(set(cards)) != len(cards):
            raise SealedUsageError(f"cannot deal {seats} hands of {hand} from {len(cards)} cards")
        if any(not 0 <= s < seats for s in turns) or any(turns.count(s) > hand for s in turns):
            raise SealedUsageError(f"reveal turns {turns!r}: a seat, at most {hand} times each")
        self.game_id, self.seat, self.seats, self.cards = game_id, seat, seats, cards
        self.turns, self.rand = turns, rand
        self.secret = deck.new_secret(rand) if secret is None else secret
        self.deal_to = tuple(s for _ in range(hand) for s in range(seats))
        self.phase = Phase.KEYS
        self.error: SealedDeckError | None = None
        self.state: SealedState | None = None  # set once every key is in
        self.hand: tuple[int, ...] = ()  # our cards, as they are now
        self.record: list[Op] = []  # every operation, for the audit and the game log
        self.head = start_of_history(game_id, seats, cards, hand, turns)
        self.outgoing: list[tuple[int | None, bytes]] = []
        self.events: list[Event] = []
        self._inbox: dict[tuple[str, int], Envelope] = {}  # one per kind and seat
        self._reveals: dict[int, deque[Envelope]] = {s: deque() for s in range(seats)}
        self._revealed = [0] * seats
        self._seen: set[bytes] = set()
        self._keys: dict[int, Envelope] = {}
        self._secrets: dict[int, int] = {}
        self._shuffled = 0
        self._turn = 0
        self._round: OpenRound | None = None
        self._dealt: SealedState | None = None
        self._send(deck.make_key(game_id, seat, self.secret, rand))

    # -- public API ----------------------------------------------------------------

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        out, self.outgoing = self.outgoing, []
        return out

    def take_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    @property
    def my_turn(self) -> bool:
        """Whether :meth:`reveal` may be called now."""
        return self.phase is Phase.PLAY and self.turns[self._turn] == self.seat

    def receive(self, sender: int, data: bytes) -> None:
        """File one message from seat ``sender`` (authenticated by the transport)."""
        if not 0 <= sender < self.seats or sender == self.seat:
            raise SealedUsageError(f"seat {sender} is not another seat of this table")
        if self.phase in (Phase.DONE, Phase.ERROR):
            return
        digest = hashlib.sha256(data).digest()
        if digest in self._seen:
            self.events.append(Rejected(sender, "duplicate message, ignored"))
            return
        try:
            env = decode_envelope(data, sender)
        except SealedDeckError as exc:
            self.events.append(Rejected(sender, exc.reason))
            return
        if env.kind == "reveal":
            if len(self._reveals[sender]) + self._revealed[sender] >= self.turns.count(sender):
                self.events.append(Rejected(sender, "a reveal beyond its turns, ignored"))
                return
            self._reveals[sender].append(env)
        elif (env.kind, sender) in self._inbox:
            self._fail(SealedDeckError(sender, f"sent two different {env.kind} messages"))
            return
        else:
            self._inbox[env.kind, sender] = env
        self._seen.add(digest)

    def step(self) -> bool:
        """Do the next unit of work; False when there is nothing to do until more arrives."""
        if self.phase not in _STEPS:
            return False
        make, take = _STEPS[self.phase]
        try:
            return (make is not None and getattr(self, make)()) or getattr(self, take)()
        except SealedDeckError as exc:
            self._fail(exc)
            return True

    def reveal(self, index: int) -> int:
        """On our turn, show our hand card ``index`` to everyone; returns the card."""
        if not self.my_turn:
            raise SealedUsageError(f"it is not seat {self.seat}'s turn to reveal")
        msg = deck.make_reveal(self.state, self.seat, self.secret, index, self.rand)
        env = self._send(msg)
        self.state, card = deck.apply_reveal(self.state, msg)
        self.hand = self.hand[:index] + self.hand[index + 1 :]
        self._revealed_by(env, self.seat, card)
        return card

    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose next message the table needs (for the driver's timeouts)."""
        if self.phase is Phase.SHUFFLE:
            missing = [s for s in range(self.seats) if ("shuffle", s) not in self._inbox]
            return () if not missing or missing[0] == self.seat else (missing[0],)
        if self.phase is Phase.PLAY:
            seat = self.turns[self._turn]
            return () if seat == self.seat or self._reveals[seat] else (seat,)
        kind = {Phase.KEYS: "key", Phase.DEAL: "shares", Phase.END: "secret"}.get(self.phase)
        others = (s for s in range(self.seats) if s != self.seat)
        return tuple(s for s in others if kind and (kind, s) not in self._inbox)

    def audit(self) -> AuditReport:
        """Once Done: replay the whole record with every secret, re-checking everything."""
        if self.phase is not Phase.DONE:
            raise SealedUsageError("the audit needs every seat's secret")
        keys = [self._keys[s].msg for s in range(self.seats)]
        secrets = [SecretMessage(s, self._secrets[s]) for s in range(self.seats)]
        return audit(self.game_id, keys, secrets, self.record)

    # -- the steps of the table ---------------------------------------------------------

    def _take_key(self) -> bool:
        seat = next((s for s in range(self.seats) if self._fresh("key", s, self._keys)), None)
        if seat is None:
            return False
        env = self._checked("key", seat)
        deck.check_key(self.game_id, env.msg)
        self._keys[seat] = env
        if len(self._keys) == self.seats:
            keys = [self._keys[s] for s in range(self.seats)]
            table = deck.make_table(self.game_id, [e.msg for e in keys])  # refuses a reused key
            self.state = deck.add_cards(deck.new_state(table), self.cards)
            self.record.append(AddCards(self.cards))
            self.head = extend_history(self.head, *(e.body for e in keys))
            self._enter(Phase.SHUFFLE, KeysReady())
        return True

    def _make_shuffle(self) -> bool:
        before = [self._inbox.get(("shuffle", s)) for s in range(self._shuffled, self.seat)]
        if ("shuffle", self.seat) in self._inbox or None in before:
            return False
        # Build on the shuffles before ours as received; they are verified in order
        # by _take_shuffle, and a bad one stops the table before any card is opened.
        state, head = self.state, self.head
        for env in before:
            state = deck.apply_shuffle(state, env.msg, own=True)  # step and size only
            head = extend_history(head, env.body)
        self._send(deck.make_shuffle(state, self.seat, self.rand), head)
        return True

    def _take_shuffle(self) -> bool:
        seat = self._shuffled
        if ("shuffle", seat) not in self._inbox:
            return False
        env = self._checked("shuffle", seat)
        self.state = deck.apply_shuffle(self.state, env.msg, own=seat == self.seat)
        self.record.append(Shuffle(env.msg))
        self.head = extend_history(self.head, env.body)
        self._shuffled += 1
        self.events.append(Shuffled(seat))
        if self._shuffled == self.seats:
            self._round = begin_open(self.state, self.deal_to)
            self.phase = Phase.DEAL
        return True

    def _make_shares(self) -> bool:
        if ("shares", self.seat) in self._inbox:
            return False
        self._send(make_shares(self.state, self.seat, self.secret, self.deal_to, self.rand))
        return True

    def _take_shares(self) -> bool:
        seat = next((s for s in self._round.missing if ("shares", s) in self._inbox), None)
        if seat is None:
            return False
        self._round = add_shares(self._round, self._checked("shares", seat).msg)
        if not self._round.missing:
            self.state, _ = finish_open(self._round)
            shares = [self._inbox["shares", s] for s in range(self.seats)]
            self.record.append(Open(self.deal_to, tuple(e.msg for e in shares)))
            self.head = extend_history(self.head, *(e.body for e in shares))
            self._dealt = self.state
            self.hand = deck.read_hand(self.state, self.seat, self.secret)
            self._enter(Phase.PLAY if self.turns else Phase.END, HandDealt(self.hand))
        return True

    def _take_reveal(self) -> bool:
        seat = self.turns[self._turn]
        if seat == self.seat or not self._reveals[seat]:
            return False
        env = self._reveals[seat].popleft()
        self._check_basis(env, seat)
        self.state, card = deck.apply_reveal(self.state, env.msg)
        self._revealed_by(env, seat, card)
        return True

    def _revealed_by(self, env: Envelope, seat: int, card: int) -> None:
        self.record.append(Reveal(env.msg))
        self.head = extend_history(self.head, env.body)
        self._revealed[seat] += 1
        self._turn += 1
        self._enter(
            Phase.END if self._turn == len(self.turns) else Phase.PLAY, Revealed(seat, card)
        )

    def _make_secret(self) -> bool:
        if ("secret", self.seat) in self._inbox:
            return False
        self._send(SecretMessage(self.seat, self.secret))
        return True

    def _take_secret(self) -> bool:
        seat = next((s for s in range(self.seats) if self._fresh("secret", s, self._secrets)), None)
        if seat is None:
            return False
        secret = self._checked("secret", seat).msg.secret
        if elgamal.public_key(secret) != self.state.table.keys[seat]:
            raise SealedDeckError(seat, "published a secret that does not match its key")
        self._secrets[seat] = secret
        if len(self._secrets) == self.seats:
            hands = tuple(
                deck.read_hand(self._dealt, s, self._secrets[s]) for s in range(self.seats)
            )
            self._enter(Phase.DONE, Done(hands))
        return True

    # -- helpers --------------------------------------------------------------------------

    def _send(self, msg, basis: bytes | None = None) -> Envelope:
        """Wrap our message on our history, file it like anyone's, and send it to all."""
        env = seal_message(self.head if basis is None else basis, msg)
        if env.kind != "reveal":
            self._inbox[env.kind, self.seat] = env
        self.outgoing.append((ALL, encode_envelope(env)))
        return env

    def _fresh(self, kind: str, seat: int, done: dict) -> bool:
        return seat not in done and (kind, seat) in self._inbox

    def _checked(self, kind: str, seat: int) -> Envelope:
        env = self._inbox[kind, seat]
        self._check_basis(env, seat)
        return env

    def _check_basis(self, env: Envelope, seat: int) -> None:
        if env.basis != self.head:
            raise SealedDeckError(
                None,
                f"seat {seat}'s {env.kind} message was made on a different history than ours: the"
                " seats were not all sent the same messages, or do not play the same table",
            )

    def _enter(self, phase: Phase, event: Event | None = None) -> None:
        self.phase = phase
        if event is not None:
            self.events.append(event)

    def _fail(self, exc: SealedDeckError) -> None:
        self.phase, self.error = Phase.ERROR, exc
        self.events.append(Cheated(exc.seat, exc.reason))
