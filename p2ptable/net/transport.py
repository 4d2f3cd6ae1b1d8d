"""What the peer loop needs from a network: the seam between the I/O loop and the wire.

How it works
------------
A peer (net/peer.py) and its arrival at the table (net/arrival.py) are handed a
:class:`Transport` (``transport=``), as httpx is handed one: the ZeroMQ adapter
(net/zmq_transport.py) in a real process, or an in-memory one
(net/memory_transport.py) that joins any number of peers in one process, so
everything above the socket (knock, lobby, genesis, game, result) runs in a test.

Every message is a channel (:data:`LOBBY`, :data:`GAME`) and a payload.  A peer
has one inbox (``port``) and sends to the inboxes of others: ``send`` on a link
it ``connect``-ed (the game mesh, and a joiner to its host), ``reply`` for the
host's lobby answers to joiners most of whom are never seated, ``feed`` for
answers to spectators (a short queue: one that stops reading loses answers).
``poll`` waits at most ``timeout_ms`` for a message or a registered file
descriptor (a person's input) and returns what came: at most one message a call.
A message of the wrong shape comes as channel :data:`BAD`, its payload saying
what is wrong with it.  Nothing here knows the protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

LOBBY = b"L"
GAME = b"G"
BAD = b"?"  # a message of the wrong shape (payload: what is wrong with it)


@dataclass(frozen=True)
class Incoming:
    channel: bytes
    payload: bytes
    address: str  # the sender's IP address, as its connection shows it ("" if unknown)


class Transport(Protocol):
    """An inbox, and links to other peers' inboxes (see the module docstring)."""

    @property
    def port(self) -> int:
        """The port our inbox listens on (our endpoint is advertised with it)."""
        ...

    def connect(self, endpoint: str) -> None:
        """A link to ``endpoint``, kept until ``close``."""

    def forget(self, endpoint: str) -> None:
        """Close the link to ``endpoint`` (its seat listens elsewhere now)."""

    def send(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        """A message on the link to ``endpoint`` (``connect`` first)."""

    def reply(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        """A message to ``endpoint`` without a link kept for good (the host's lobby)."""

    def feed(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        """A message to a spectator, on a short queue."""

    def register_fd(self, fd: int) -> None:
        """Wake ``poll`` when ``fd`` is readable too."""

    def unregister_fd(self, fd: int | None) -> None: ...

    def poll(self, timeout_ms: int) -> tuple[list[Incoming], bool]:
        """What arrived within ``timeout_ms``, and whether a registered fd is readable."""
        ...

    def close(self, linger_ms: int = 0) -> None:
        """Close everything; ``linger_ms`` lets what is queued still leave."""
