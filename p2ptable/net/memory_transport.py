"""An in-memory transport: whole tables of peers in one process, no sockets.

How it works
------------
As httpx ships ``MockTransport`` beside its real one, this is the
:class:`~p2ptable.net.transport.Transport` a test hands to
:class:`~p2ptable.net.peer.Peer` (``transport=``) so that everything above the
socket runs in one process: the knock and the lobby's handshake, the genesis
round, the game and its result, through the same ``Peer.run`` loop a real
process runs (each peer in a thread of its own, since ``run`` blocks).

A :class:`Switchboard` is the network: it holds every inbox by its endpoint
(``tcp://IP:PORT``, as a peer advertises it), and :meth:`Switchboard.transport`
opens one.  A message is put straight into the receiving inbox, with the
sender's IP address as ``address`` (the lobby's rate limits count by it); one
for an endpoint that nobody listens on yet waits for it (as ZeroMQ queues on a
link until its peer binds), at most :data:`MAX_WAITING` of them.  ``filter``, if
set, sees every message first and may change it or drop it (None): a lossy or
hostile network in a test.

Each inbox wakes its ``poll`` through a pipe of its own, so ``poll`` waits for a
message and for the file descriptors registered with it (a person's input) in
one ``select``, and sleeps exactly as long as it is told, like ZeroMQ's poller.
As the ZeroMQ adapter does, ``poll`` returns at most one message a call.
"""

from __future__ import annotations

import os
import selectors
import threading
from collections import deque
from collections.abc import Callable

from p2ptable.net.transport import Incoming

MAX_WAITING = 10_000  # messages kept for an endpoint that nobody listens on yet
FIRST_PORT = 41_000

# (sender's endpoint, target endpoint, channel, payload) -> the payload, or None to drop it
Filter = Callable[[str, str, bytes, bytes], bytes | None]


class Switchboard:
    """The in-memory network joining :class:`MemoryTransport` inboxes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inboxes: dict[str, MemoryTransport] = {}
        self._waiting: dict[str, deque[Incoming]] = {}
        self._next_port = FIRST_PORT
        self.filter: Filter | None = None
        self.sent = 0  # messages put into an inbox (or kept for one)

    def transport(self, ip: str = "127.0.0.1", port: int = 0) -> MemoryTransport:
        """An inbox listening at ``tcp://IP:PORT`` (any free port if 0)."""
        with self._lock:
            if not port:
                while f"tcp://{ip}:{self._next_port}" in self._inboxes:
                    self._next_port += 1
                port = self._next_port
                self._next_port += 1
            endpoint = f"tcp://{ip}:{port}"
            if endpoint in self._inboxes:
                raise OSError(f"{endpoint} is already in use")
            inbox = MemoryTransport(self, ip, port)
            self._inboxes[endpoint] = inbox
            for message in self._waiting.pop(endpoint, ()):
                inbox._put(message)
        return inbox

    def post(self, sender: MemoryTransport, endpoint: str, channel: bytes, payload: bytes) -> None:
        """``payload`` from ``sender`` into the inbox at ``endpoint`` (or kept for it)."""
        if self.filter is not None:
            filtered = self.filter(sender.endpoint, endpoint, channel, payload)
            if filtered is None:
                return
            payload = filtered
        message = Incoming(channel, payload, sender.ip)
        with self._lock:
            self.sent += 1
            inbox = self._inboxes.get(endpoint)
            if inbox is None:
                waiting = self._waiting.setdefault(endpoint, deque())
                if len(waiting) < MAX_WAITING:
                    waiting.append(message)
                return
        inbox._put(message)

    def _closed(self, inbox: MemoryTransport) -> None:
        with self._lock:
            if self._inboxes.get(inbox.endpoint) is inbox:
                del self._inboxes[inbox.endpoint]


class MemoryTransport:
    """One peer's inbox and links on a :class:`Switchboard` (net/transport.py)."""

    def __init__(self, board: Switchboard, ip: str, port: int) -> None:
        self.board, self.ip, self._port = board, ip, port
        self.endpoint = f"tcp://{ip}:{port}"
        self.links: set[str] = set()
        self._inbox: deque[Incoming] = deque()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._fds: set[int] = set()
        self._lock = threading.Lock()  # a sender's thread against our close
        self.closed = False

    @property
    def port(self) -> int:
        return self._port

    def _put(self, message: Incoming) -> None:
        with self._lock:
            if self.closed:
                return  # as a closed socket's: lost
            self._inbox.append(message)
            try:
                os.write(self._wake_w, b"\0")
            except BlockingIOError:
                pass  # the pipe is full, so readable: poll wakes anyway

    # -- links ---------------------------------------------------------------------

    def connect(self, endpoint: str) -> None:
        self.links.add(endpoint)

    def forget(self, endpoint: str) -> None:
        self.links.discard(endpoint)

    def send(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        """As the ZeroMQ adapter: only on a link made with ``connect``."""
        if endpoint not in self.links:
            raise KeyError(endpoint)
        self.board.post(self, endpoint, channel, payload)

    def reply(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        self.board.post(self, endpoint, channel, payload)

    def feed(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        self.board.post(self, endpoint, channel, payload)

    # -- waiting -------------------------------------------------------------------

    def register_fd(self, fd: int) -> None:
        self._selector.register(fd, selectors.EVENT_READ)
        self._fds.add(fd)

    def unregister_fd(self, fd: int | None) -> None:
        if fd is not None and fd in self._fds:
            self._selector.unregister(fd)
            self._fds.discard(fd)

    def poll(self, timeout_ms: int) -> tuple[list[Incoming], bool]:
        """At most one message, and whether a registered fd is readable, within
        ``timeout_ms`` (at once if a message is waiting)."""
        timeout = 0.0 if self._inbox else max(0, timeout_ms) / 1000
        ready = {key.fd for key, _ in self._selector.select(timeout)}
        if self._wake_r in ready:
            try:
                os.read(self._wake_r, 65536)
            except BlockingIOError:
                pass
        out = [self._inbox.popleft()] if self._inbox else []
        return out, bool(ready & self._fds)

    def close(self, linger_ms: int = 0) -> None:
        """What was sent is in its inbox already: nothing lingers."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            os.close(self._wake_w)
        self.board._closed(self)
        self._selector.close()
        os.close(self._wake_r)
