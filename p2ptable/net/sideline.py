"""Beside the game: the table's talk and its breaks, live (one collaborator of
net/session.py).

How it works: :class:`Sideline` joins the two sans-IO books to the session's
frames.  Talk (net/talk.py): :meth:`Sideline.say` signs our line, sends it to
every seat in a ``talk`` frame and reports it (:class:`Talked`), and a ``talk``
frame that arrives is checked by the :class:`~p2ptable.net.talk.TalkBook` (its
signature, its seat, its counter, the rate) and reported once.  The peer keeps
every :class:`Talked` record in ``REPLAY.talk`` (replay/talk_file.py); nothing
of it touches the log, the rounds or the clocks, so talk never delays a move.

A break (net/pause.py): :meth:`Sideline.propose` signs a break at the position
our log stands at (its length and head) and sends the signature to every seat in
a ``break`` frame; the same call agrees to a break another seat proposed there.
The wish stands: if a move comes first (a proposal is for one position),
:meth:`Sideline.tick` signs again where the game stands, so the seats that typed
break meet at the next position they share. A ``break`` frame carries one seat's
signature, its own or one it relays (``seat`` says whose: it is checked against
that seat's key, so relaying proves nothing the signer did not sign). When every
seat's signature over one position is in hand the break is agreed: every
signature is relayed once to every seat (so a seat whose own copy of a signature
was lost still agrees), the session takes no more moves, and
:class:`BreakAgreed` hands the :class:`~p2ptable.net.pause.Agreement` to the
peer, which keeps it in ``REPLAY.break`` and ends. A proposal is for one
position: a move made ends it (the game has moved on; our standing wish signs
the new one). A seat proposing a thousand times is one proposal, reported once
(:class:`BreakNews` only for a signature new at this position). A ``break`` or
``talk`` frame is a game frame: it is opened with a seat's link key like every
other (net/wire.py), so a spectator or a stranger, who holds none, cannot send
one at all.

The spectators' channel (net/spectator_talk.py), at a table whose genesis says
``spectators_talk``: the host's peer hands :meth:`Sideline.relay` each line its
spectators said (the gallery checked it), and it goes to every seat in a
``spectators`` frame and is reported (:class:`SpectatorTalked`).  A seat takes
a ``spectators`` frame only from the host (seat 0) and only at such a table,
checks the spectator's signature again, and holds the host to a rate: a
host flooding costs one tag and one signature check per frame.  Nothing of it
is kept on disk.

Errors say who was wrong: a peer's bad record or signature is a
RemoteProtocolError naming it (a ``Rejected`` event, the game goes on); our own
line or break that may not go now is reported as :class:`Declined`, with the
reason for the person (nothing is raised at the caller: one way out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from p2ptable.crypto.signing import verify_signature
from p2ptable.net.events import BreakAgreed, BreakNews, Declined, Event, SpectatorTalked, Talked
from p2ptable.net.pause import (
    Agreement,
    PauseBook,
    PauseRejected,
    Position,
    decode_signal,
    signed_message,
)
from p2ptable.net.pause import encode_signal as _encode
from p2ptable.net.spectator_talk import Heard, Rejected, open_record
from p2ptable.net.talk import TalkBook, TalkLine, TalkRefused, TalkRejected
from p2ptable.net.wire import Message, RemoteProtocolError

if TYPE_CHECKING:
    from p2ptable.replay import authoring
    from p2ptable.replay.ledger import Ledger

ALL = None  # every other seat (net/rounds.py's ALL)
PASSED = 8  # positions behind ours whose break signatures still count


class BreakRefused(Exception):
    """Our break that cannot be proposed now: the reason is for the person."""


class SidelineSession(Protocol):
    """What the sideline may use of its session."""

    ledger: Ledger
    seat: int
    secrets: authoring.SeatSecrets

    def send(self, dest: int | None, kind: str, data: dict) -> None: ...

    def report(self, event: Event) -> None: ...

    def reject(self, seat: int | None, why: str) -> None: ...

    @property
    def resuming(self) -> bool: ...


class Sideline:
    """The talk and the break of one session (module docstring)."""

    def __init__(self, game_id: bytes, keys: list[bytes], seat: int) -> None:
        self.talk = TalkBook(game_id, keys, seat)
        self.pause = PauseBook(game_id, tuple(keys), seat)
        self.agreed: Agreement | None = None
        self.wanted = False  # our person typed break: we sign wherever the game stands
        # Every line kept, as its record, in the order we heard them: what our
        # table's spectators pull (net/gallery.py).  Bounded as the book is.
        self.records: list[bytes] = []
        self.spectators = Heard(game_id)  # the spectators' channel, as the host relays it
        # A signature for a position our log has not reached yet (its sender
        # is ahead of us by a move in flight): one per seat, the latest, taken
        # when we get there.  Without it a seat a frame behind never sees the
        # break the others signed, and the proposal waits for ever.
        self._ahead: dict[int, tuple[Position, bytes, int]] = {}
        # The signatures of positions our log has passed, each checked: a break
        # every seat signed at a position just behind us is agreed all the same
        # (the automatic steps, a chance entry or a deal, go on after the last
        # move; the seats may be a step apart as the last signature arrives).
        self._passed: dict[Position, dict[int, bytes]] = {}
        self._spent: Position | None = None  # the break we came back from (taken_back)

    def taken_back(self, agreement: Agreement) -> None:
        """The break we came back from (REPLAY.break, believed) is spent: its
        signatures, copies of which may still arrive (each peer sends them once
        more as it agrees), never make it again.  Ed25519 signs deterministically,
        so a new break at that position would be the same bytes: the table
        breaks again once a move has been made."""
        self._spent = agreement.position

    def resume(self, lines: list[TalkLine], records: list[bytes]) -> None:
        """The talk kept beside our replay, taken back after a restart."""
        self.talk.resume(lines)
        self.records += records

    # -- ours ----------------------------------------------------------------------

    def say(self, session: SidelineSession, text: str, now: float) -> None:
        """Our line to every seat, or :class:`Declined` (too fast, empty, closed)."""
        try:
            line, record = self.talk.say(session.secrets.key, text, session.ledger.next_index, now)
        except TalkRefused as exc:
            session.report(Declined(str(exc)))
            return
        session.send(ALL, "talk", {"line": record})
        self.records.append(record)
        session.report(Talked(line, record))

    def propose(self, session: SidelineSession) -> None:
        """Our signature on a break where the game stands: a proposal, or our
        agreement to the one there; :class:`Declined` when none can be taken."""
        try:
            self._propose(session)
        except BreakRefused as exc:
            session.report(Declined(str(exc)))
            return
        self.wanted = True

    def tick(self, session: SidelineSession) -> None:
        """A break we asked for stands: the game moved on before every seat
        signed, so we sign again where it stands now (each seat that typed
        break does the same, so the table meets at the next position it
        shares)."""
        if self._ahead and self.agreed is None:
            self._arrived(session)
        if not self.wanted or self.agreed is not None:
            return
        ledger = session.ledger
        if ledger.finished or ledger.stopped is not None:
            self.wanted = False
        elif not session.resuming:
            self._propose(session)  # nothing new at a position we signed already

    def _propose(self, session: SidelineSession) -> None:
        ledger = session.ledger
        if ledger.finished or ledger.stopped is not None:
            raise BreakRefused("the game is over: there is nothing to break")
        if session.resuming:
            raise BreakRefused("not yet: we are still catching up with the table")
        if self.agreed is not None:
            return
        self._here(ledger)
        if self.pause.seat in self.pause.sigs:
            return  # signed already: the others are asked
        sig = self.pause.sign(session.secrets.key)
        self._sent(session, self.pause.seat, sig)
        self._news(session, self.pause.seat)

    def proposal(self, ledger: Ledger) -> BreakNews | None:
        """The break proposed where our log stands now, if any (for the screen:
        a proposal at a position the game has left is gone)."""
        pause = self.pause
        here = pause.position
        if here is None or here.at != ledger.next_index or here.head != ledger.head:
            return None
        if pause.proposer is None:
            return None
        return BreakNews(here.at, pause.proposer, pause.proposer, pause.waiting_for)

    # -- theirs --------------------------------------------------------------------

    def on_talk(self, session: SidelineSession, message: Message, now: float) -> None:
        record = message.data["line"]
        try:
            line = self.talk.receive(record, message.sender, now)
        except TalkRejected as exc:
            raise RemoteProtocolError(exc.reason, message.sender) from None
        if line is not None:
            self.records.append(record)
            session.report(Talked(line, record))

    def relay(self, session: SidelineSession, record: bytes) -> None:
        """A line our spectators said (we host; our gallery checked it and
        held it to its rates): to every seat, and to our own screen."""
        try:
            line = open_record(record, session.ledger.game_id)
        except Rejected:
            return  # the gallery opened it: never, but not a reason to stop
        session.send(ALL, "spectators", {"line": record})
        session.report(SpectatorTalked(line))

    def on_spectators(self, session: SidelineSession, message: Message, now: float) -> None:
        if message.sender != 0 or not session.ledger.spectators_talk:
            raise RemoteProtocolError(
                "a spectator's line not from the host of a table that lets spectators talk",
                message.sender,
            )
        try:
            line = self.spectators.receive(message.data["line"], now)
        except Rejected as exc:
            raise RemoteProtocolError(str(exc), message.sender) from None
        if line is not None:
            session.report(SpectatorTalked(line))

    def on_break(self, session: SidelineSession, message: Message, now: float) -> None:
        data = message.data
        try:
            signal = {"at": data["at"], "head": data["head"], "sig": data["sig"]}
            position, sig = decode_signal(signal)
        except ValueError as exc:
            raise RemoteProtocolError(f"malformed break: {exc}", message.sender) from None
        if self.agreed is not None or position == self._spent:
            return
        seat = data["seat"]
        if position.at > session.ledger.next_index:
            if 0 <= seat < len(self.pause.keys):  # checked when we get there
                held = self._ahead.get(seat)
                if held is None or held[0].at <= position.at:
                    self._ahead[seat] = (position, sig, message.sender)
            return
        if position.at < session.ledger.next_index:
            self._behind(session, seat, position, sig, message.sender)
            return
        self._take(session, seat, position, sig, message.sender)

    def _behind(
        self, session: SidelineSession, seat: int, position: Position, sig: bytes, sender: int
    ) -> None:
        """A signature for a position of our log we have passed, lately: kept,
        and the break agreed if every seat has signed that position."""
        ledger = session.ledger
        if position.at < ledger.next_index - PASSED or ledger.hashes[position.at - 1] != (
            position.head
        ):
            return  # long past, or not our log: the game has moved on
        self._here(ledger)  # our own signatures there, kept as passed
        if seat in self._passed.get(position, {}):
            return  # nothing new: checked once
        keys = self.pause.keys
        if not 0 <= seat < len(keys):
            raise RemoteProtocolError(f"a break signed by seat {seat}, not at the table", sender)
        if not verify_signature(keys[seat], sig, signed_message(self.pause.game_id, position)):
            raise RemoteProtocolError("a break signature that does not check", sender)
        self._passed.setdefault(position, {})[seat] = sig
        self._forget_passed(ledger.next_index)
        signed = self._passed.get(position, {})
        if len(signed) == len(keys):
            self._agree(session, Agreement(position, tuple(signed[s] for s in range(len(keys)))))

    def _take(
        self, session: SidelineSession, seat: int, position: Position, sig: bytes, sender: int
    ) -> None:
        self._here(session.ledger)
        try:
            new = self.pause.receive(seat, position, sig)
        except PauseRejected as exc:
            raise RemoteProtocolError(exc.reason, sender) from None
        if new:
            self._news(session, seat)

    def _arrived(self, session: SidelineSession) -> None:
        """The signatures held for a position we have now reached, taken; those
        for a position we passed, or another head at our length, dropped."""
        at = session.ledger.next_index
        for seat, (position, sig, sender) in list(self._ahead.items()):
            if position.at > at:
                continue
            del self._ahead[seat]
            try:
                self._take(session, seat, position, sig, sender)
            except RemoteProtocolError as exc:
                session.reject(exc.seat, exc.reason)

    # -- the rest --------------------------------------------------------------------

    def _here(self, ledger: Ledger) -> None:
        pause, here = self.pause, Position(ledger.next_index, ledger.head)
        if pause.position is not None and pause.position != here and pause.sigs:
            self._passed[pause.position] = dict(pause.sigs)  # see _behind
            self._forget_passed(here.at)
        pause.moved(here)

    def _forget_passed(self, at: int) -> None:
        for position in [p for p in self._passed if p.at < at - PASSED]:
            del self._passed[position]

    def _sent(self, session: SidelineSession, seat: int, sig: bytes) -> None:
        position = self.pause.position
        assert position is not None
        self._send(session, position, seat, sig)

    def _send(self, session: SidelineSession, position: Position, seat: int, sig: bytes) -> None:
        session.send(ALL, "break", {**_encode(position, sig), "seat": seat})

    def _agree(self, session: SidelineSession, agreement: Agreement) -> None:
        self.agreed = agreement
        # Each signature once more to every seat: one whose copy was lost agrees too.
        for each, sig in enumerate(agreement.sigs):
            self._send(session, agreement.position, each, sig)
        session.report(BreakAgreed(agreement))

    def _news(self, session: SidelineSession, seat: int) -> None:
        pause = self.pause
        assert pause.position is not None and pause.proposer is not None
        session.report(BreakNews(pause.position.at, seat, pause.proposer, pause.waiting_for))
        agreement = pause.agreement()
        if agreement is not None:
            self._agree(session, agreement)


HANDLERS: dict[str, Callable[[Sideline, SidelineSession, Message, float], None]] = {
    "talk": Sideline.on_talk,
    "spectators": Sideline.on_spectators,
    "break": Sideline.on_break,
}
