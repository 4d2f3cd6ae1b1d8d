"""What a session answers without changing anything: the table's facts, whose
decision it is, what our seat may see, and the take_*() hand-outs (h11's
convention: the caller takes what to write and send).

:class:`~p2ptable.net.session.Session` is this plus the machine that changes
it (input, stepping, the log); the split keeps each file readable, and these
are the only questions a frontend or a bot asks of a running game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from p2ptable.engine.api import Action, Game
from p2ptable.net.events import Choice, Event, Failed, Stopped, Write
from p2ptable.net.greetings import Greetings
from p2ptable.net.outbox import Outbox
from p2ptable.net.peers import PeerStates
from p2ptable.net.sideline import Sideline
from p2ptable.replay import departure
from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.ledger import Ledger

if TYPE_CHECKING:
    from p2ptable.net.departure_round import DepartureRound
    from p2ptable.net.round_base import RoundSession
    from p2ptable.net.rounds import CommitsRound, Round


class SessionView:
    """The read-only surface of a seat's session (see the module docstring)."""

    ledger: Ledger
    seat: int
    rounds: dict[Kind, Round]
    _commits: CommitsRound
    departure: DepartureRound  # (the round; replay.departure is the module's ``departure``)
    outbox: Outbox
    peers: PeerStates
    resumed: bool
    greetings: Greetings
    sideline: Sideline
    stopped: Stopped | None
    failed: Failed | None
    _own: Entry | None

    def _as_round(self) -> RoundSession:
        """This view is always a whole Session, which is what rounds are handed."""
        return cast("RoundSession", self)

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
    def clock(self) -> int | None:
        """The table's seconds per decision (host --clock), or None: no clock."""
        return self.ledger.clock

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
        if self.sideline.agreed is not None:
            return False  # the table takes a break here: nobody moves
        if self._catching_up():
            return False  # resumed: a peer may hold our move here already
        expected = self.ledger.expected()
        if self.stopped is not None:
            return False
        return self.rounds[expected.kind].asks(
            self._as_round(), expected
        )  # a move, a secret choice

    def choosing_together(self) -> bool:
        """Whether our decision now is a secret choice that other seats make at
        the same time (no one sees another's until all are made)."""
        return self.my_turn() and self.rounds[self.ledger.expected().kind].together

    def secret_choice(self) -> tuple[Action | None, list[int], list[int]]:
        """During a secret simultaneous choice: ours (None if we are not asked or
        have not chosen), the other asked seats whose commit we lack, and those
        whose commit we hold (they have chosen: what, nobody knows until the
        reveals; at a table with a collector, only it holds the others')."""
        expected = self.ledger.expected()
        if not self.rounds[expected.kind].together or self.stopped is not None:
            return None, [], []
        return self._commits.secret_choice(self._as_round(), expected)

    def take_writes(self) -> list[Write]:
        """Entries to persist, in order, each marked ``durable`` when it must be
        on stable storage before any frame of this batch leaves (net/outbox.py)."""
        return self.outbox.take_writes()

    def take_choices(self) -> list[Choice]:
        """Our secret choices to keep before any frame of this batch leaves."""
        return self.outbox.take_choices()

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        """Frames to send (destination seat, or None for every other seat)."""
        return self.outbox.take_outgoing()

    def take_events(self) -> list[Event]:
        return self.outbox.take_events()

    @property
    def outgoing(self) -> list[tuple[int | None, bytes]]:
        """The frames queued and not yet taken (to look at, not to take)."""
        return self.outbox.outgoing

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
        return dict(self.greetings.left)

    def gone_hands(self) -> dict[int, tuple[int, ...]]:
        """Each seat that left a table that keeps going (a bot plays for it,
        replay/stand_in.py) and its hand, which everyone reads from then on."""
        book = self.ledger.book
        return {} if book is None else book.gone_hands()

    def can_leave(self) -> bool:
        """Whether our player may leave for good now, a bot playing for them, at
        a table that keeps going without a player who leaves: at their turn,
        where nobody else can write the next entry (net/departure_round.py)."""
        expected = self.ledger.expected()
        ours = expected.kind == Kind.ACTION and expected.seat == self.seat and not expected.forced
        return ours and departure.can_depart(self.ledger.book, self.seat)

    def may_leave(self) -> bool:
        """Whether our player may ask to leave for good now, at once at their
        turn or at the next one: a table that keeps going, and we still at it."""
        return departure.can_depart(self.ledger.book, self.seat)

    @property
    def leaving_at_turn(self) -> bool:
        """Whether our player asked to leave for good, and we leave at our turn."""
        return self.departure.wished

    @property
    def left_for_good(self) -> bool:
        """Whether our player left on purpose in this run (a bot plays our seat):
        our peer goes once the others hold our departure (net/peer_exit.py). A
        seat resumed after it left watches the rest instead, to the end."""
        return not self.resumed and self.left_on_purpose(self.seat)

    def left_on_purpose(self, seat: int) -> bool:
        """Whether gone ``seat`` left on purpose (its own signed secret), rather
        than being rebuilt after it was named as having abandoned the game."""
        found = self.departure_of(seat)
        return found is not None and found[1].body["seats"] == [seat]

    def departure_of(self, seat: int) -> tuple[int, Entry] | None:
        """Gone ``seat``'s departure entry and its index in the log (None: the
        seat is not gone)."""
        book = self.ledger.book
        if book is None or seat not in book.gone:
            return None
        entries = self.ledger.entries
        for index in range(len(entries) - 1, -1, -1):
            entry = entries[index]
            if entry.kind == Kind.DEPARTURE and entry.body["of"] == seat:
                return index, entry
        return None

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
