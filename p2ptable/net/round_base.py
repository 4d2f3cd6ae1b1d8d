"""What every round of a live session shares (net/rounds.py has the table of
them): the narrow :class:`RoundSession` a round is handed, the :class:`Round`
defaults, a round that gathers one contribution per seat and log index, and the
bounds on what is gathered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from p2ptable.net import accusations
from p2ptable.net.stopping import LocalProtocolError
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry

if TYPE_CHECKING:
    from p2ptable.engine.api import Action
    from p2ptable.net.events import Event
    from p2ptable.replay.ledger import Expected, Ledger

T = TypeVar("T")  # what one seat contributes to a gathering round

# Contributions are kept only for entries at most this far ahead of our log: a
# peer further ahead has the entry itself, which catch-up brings, and a window
# bounds what a hostile seat can make us hold (every seat, every index in it).
WINDOW = 8
PART_WINDOW = WINDOW
# How long a peer leaves a chance step to its collector before sending its reveal
# to everyone (protocol/wire.md 6.3): far above a LAN's round trip, far below the
# withholding timeout, so a collector that sits on the reveals costs half a second.
RELAY_WAIT = 0.5
ALL = None  # destination: every other seat


def relay_wake(sent: tuple[int, float] | None, wake: float, now: float) -> float:
    """``wake``, or sooner the end of the RELAY_WAIT that began when our
    contribution went to a collector (``sent``: (index, when)), if still ahead."""
    if sent is None:
        return wake
    deadline = sent[1] + RELAY_WAIT
    return deadline if now < deadline < wake else wake


def gone_seats(ledger: Ledger) -> tuple[int, ...]:
    """The seats that left the table (replay/departure.py): their stand-ins'
    contributions are made by every peer, and nobody waits for them."""
    book = ledger.book
    return book.gone if book is not None else ()


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

    def can_leave(self) -> bool:
        """Whether our player may leave for good at this position (session_view.py)."""
        ...

    def keep_choice(self, index: int, action: str) -> None:
        """Our secret choice for the commits entry at ``index``, to be kept on
        stable storage before any frame of this batch leaves."""
        ...

    def report(self, event: Event) -> None:
        """An event for the peer (and the player) that changes nothing in the log."""
        ...

    @property
    def resuming(self) -> bool:
        """Whether we came back after a crash and some seat has not yet told us
        where it stands (wire.md 6.10): we may sign no choice of our own."""
        ...


class Round:
    """The defaults: a round with nothing to gather."""

    message: str | None = None  # the message kind carrying others' contributions
    together = False  # a secret choice that the asked seats make at the same time

    def withholdable(self, expected: Expected) -> bool:
        return True

    def asks(self, table: RoundSession, expected: Expected) -> bool:
        """Whether our player (or bot) is asked to choose now (``Session.my_turn``)."""
        return False

    def submit(self, table: RoundSession, action: Action, now: float, clock: bool = False) -> None:
        """Our player's choice ``action`` (legal, asked: ``Session.submit``);
        ``clock``: our clock ran out and the default bot chose it."""
        raise LocalProtocolError("it is not your turn")

    def arrived(self, table: RoundSession, entry: Entry) -> None:
        """``entry``, the one expected, is about to be appended."""

    def helpers(self) -> tuple[Round, ...]:
        """Rounds this one shares with others (their parts' store), which the
        session ticks, prunes and hands messages to once each."""
        return ()

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


class Gathering(Round, Generic[T]):
    """A round in which every seat contributes something, kept per log index."""

    def __init__(self) -> None:
        self.pending: dict[int, dict[int, T]] = {}

    def have(self, index: int) -> dict[int, T]:
        return self.pending.get(index, {})

    def awaited(self, table: RoundSession, expected: Expected) -> set[int]:
        return set(range(table.n)) - set(self.have(table.ledger.next_index))

    def prune(self, done: int) -> None:
        if self.pending:
            for index in [i for i in self.pending if i < done]:
                del self.pending[index]
