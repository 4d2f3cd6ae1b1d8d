"""The messages a session exchanges about its peers rather than its entries:
``hello``, ``ping``, ``welcome``, ``bye`` and a late ``gsig`` (one collaborator of
net/session.py; protocol/wire.md 6.5, 6.10, 6.13).

How it works: a ``ping`` every ``PING_EVERY`` seconds carries our log length,
head and endpoint, so a peer that is behind is sent what it lacks and one that
is ahead is asked (catch-up's doing).  A ``hello`` says we (re)started; it is
answered with a ``welcome`` (a ping holding the sender's own parts we hold: a
seat that resumed takes its commit back from them, net/parts.py) and with
every round's contribution again.  A seat that leaves says ``bye``: the others
show it (:class:`PeerLeft`, ``left``) until anything else comes from it, and
nothing else changes.  A seat's hello and pings also name where it listens: a
new port on the same address is where its frames go now (``endpoints``).

:class:`Greetings` owns the endpoints, who said bye and when the next ping is
due; it is handed the narrow :class:`GreetingSession` for the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from p2ptable.net.accusations import PING_EVERY
from p2ptable.net.catch_up import CatchUpSession
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.net.events import LEAVE_REASONS, Event, Moved, PeerLeft
from p2ptable.net.round_base import ALL
from p2ptable.net.wire import Message, RemoteProtocolError

if TYPE_CHECKING:
    from p2ptable.net.catch_up import CatchUp
    from p2ptable.net.peers import PeerStates


class GreetingSession(CatchUpSession, Protocol):
    """What the greetings use of their session (catch-up's part of it too)."""

    peers: PeerStates
    catch_up: CatchUp

    def report(self, event: Event) -> None: ...

    def back_in_contact(self, seat: int, now: float) -> None:
        """``seat`` (re)started or is heard again: the whole timeout for it again."""
        ...

    def resend(self, dest: int) -> None:
        """Every round's contribution of ours again, to ``dest``."""
        ...

    def held_of(self, seat: int, start: int) -> list[bytes]:
        """``seat``'s own parts we hold for entries from ``start`` on."""
        ...

    def take_own(self, raws: list, sender: int) -> None:
        """Our own parts that ``sender`` holds (its welcome)."""
        ...


class Greetings:
    """The session's hellos, pings, welcomes and byes (see the module docstring)."""

    def __init__(self, endpoints: list[str], now: float) -> None:
        self.endpoints = endpoints  # where every seat listens (ours in every hello)
        self.left: dict[int, str] = {}  # seats whose last frame was a bye: why
        self.next_ping = now

    def send_ping(self, table: GreetingSession, dest: int | None) -> None:
        """Our log length and head: how peers learn who lacks what (wire.md 6.5)."""
        ledger, ours = table.ledger, self.endpoints[table.seat]
        table.send(dest, "ping", {"len": ledger.next_index, "head": ledger.head, "ep": ours})

    def send_hello(self, table: GreetingSession, dest: int | None) -> None:
        ours = self.endpoints[table.seat]
        table.send(dest, "hello", {"len": table.ledger.next_index, "ep": ours})

    def tick(self, table: GreetingSession, now: float) -> None:
        """A ping when one is due, and our hello again to any seat that has not
        answered it since we resumed."""
        if now >= self.next_ping:
            self.next_ping = now + PING_EVERY
            self.send_ping(table, ALL)
            for seat in table.peers.unanswered():
                # Resumed, and no welcome from it yet: our hello may have
                # gone to a peer that was down, or been lost.
                self.send_hello(table, seat)

    def heard(self, message: Message) -> None:
        """Any frame from a seat: one that said bye and sends anything else is back."""
        if message.kind != "bye":
            self.left.pop(message.sender, None)

    def on_hello(self, table: GreetingSession, message: Message, now: float) -> None:
        # A peer (re)started: tell it where we are, what we hold of its own
        # (a welcome), and resend what we owe it.
        sender = message.sender
        peer = table.peers[sender]
        peer.their_len = message.data["len"]
        table.peers.heard_length(sender)
        self.moved(table, sender, message.data["ep"])
        # It (re)started: give it the whole timeout to send what we wait for.
        table.back_in_contact(sender, now)
        ledger, ours = table.ledger, self.endpoints[table.seat]
        length, head = ledger.next_index, ledger.head
        yours = table.held_of(sender, length)
        table.send(sender, "welcome", {"len": length, "head": head, "ep": ours, "yours": yours})
        table.resend(sender)
        table.catch_up.push(table, sender, peer.their_len)

    def moved(self, table: GreetingSession, seat: int, endpoint: str) -> None:
        """A seat's hello and pings name where it listens: a new port on the same address
        (it resumed there, its old port taken) is where its frames go now.  Only
        the seat can say so (the frame is authenticated and fresh), and only the
        port may change, so no seat can point the others at another machine: a
        claim of another address is ignored (we keep reaching the seat where we
        always have), the rest of the message is taken."""
        old = self.endpoints[seat]
        if not old or endpoint == old:
            return
        try:
            ip, _ = parse_endpoint(endpoint)
            old_ip, _ = parse_endpoint(old)
        except ValueError as exc:
            raise RemoteProtocolError(f"hello with a bad endpoint: {exc}") from None
        if ip != old_ip:
            # Not believed, but no fault either: a host reached by 127.0.0.1 names
            # its LAN address, and a seat's hello is still its hello.  Refusing the
            # message left a resumed seat waiting for that welcome for ever.
            return
        self.endpoints[seat] = endpoint
        table.report(Moved(seat, endpoint))

    def on_ping(self, table: GreetingSession, message: Message, now: float) -> None:
        # Not an answer to our hello: after a resume it may have left before its
        # sender knew we were back, so it says nothing of what it holds of ours.
        peer = table.peers[message.sender]
        previous, peer.their_len = peer.their_len, message.data["len"]
        peer.their_head = message.data["head"]
        self.moved(table, message.sender, message.data["ep"])
        table.catch_up.on_ping(table, message, previous)

    def on_welcome(self, table: GreetingSession, message: Message, now: float) -> None:
        # The answer to our hello: a ping, with our own parts the sender holds
        # (after a resume, our commit comes back this way: net/parts.py).
        table.take_own(message.data["yours"], message.sender)
        self.on_ping(table, message, now)
        table.peers.heard_length(message.sender)

    def on_bye(self, table: GreetingSession, message: Message, now: float) -> None:
        # Said, and shown; nothing else.  The seat is alive until its silence
        # says otherwise (ALIVE), and like a seat that restarts it gets the whole
        # withholding timeout again for what we wait on it for: a bye can make a
        # wait longer, never shorter.
        why = message.data["why"]
        why = why if why in LEAVE_REASONS else ""
        self.left[message.sender] = why
        table.report(PeerLeft(message.sender, why))
        table.back_in_contact(message.sender, now)

    def on_gsig(self, table: GreetingSession, message: Message, now: float) -> None:
        # A genesis signature after the genesis: the sender is still in its
        # genesis round, or came back to it (net/pending_genesis.py).  Answer with
        # ours, as the round would, so it can complete the genesis too; only a
        # peer that has not told us of a log of its own (a session's first frame
        # is its hello), so two sessions never answer each other's answers.
        ours = dict(table.ledger.entries[0].sigs).get(table.seat)
        if ours is not None and table.peers[message.sender].their_len == 0:
            table.send(message.sender, "gsig", {"sig": ours})


# The messages the greetings handle (the session's other messages are catch-up's
# and the rounds' contributions).
HANDLERS: dict[str, Callable[[Greetings, GreetingSession, Message, float], None]] = {
    "hello": Greetings.on_hello,
    "ping": Greetings.on_ping,
    "welcome": Greetings.on_welcome,
    "gsig": Greetings.on_gsig,
    "bye": Greetings.on_bye,
}
