"""The thin ZeroMQ adapter: one inbox bound per peer, one link per peer it sends to.

Nothing here knows the protocol.  Every message is one ZeroMQ frame: a channel
byte (``L`` lobby, ``G`` game) followed by the payload (one frame, not two: each
frame is a separate call and copy on both sides, for every message).

Every peer binds one DEALER socket, its *inbox*, and connects one DEALER, a
*link*, to the inbox of each peer it sends to; messages only ever travel from a
link to an inbox, the host's lobby replies included (it opens a link to the
endpoint the joiner announced).  No socket sets a routing id and there is no
ROUTER.  A ROUTER files each connection under a routing id that the connecting
side may choose: a stranger who chose a seat's id took the seat's connection over
(with ROUTER_HANDOVER), or crashed the process (libzmq asserts when the id it
generates next, predictable because it comes from an unseeded ``rand()``, is
already taken).  A bound DEALER fair-queues its connections and files none, so a
stranger's connection is one more queue and displaces nothing; whoever sent a
message is told by its signature or tag, never by its socket.

Links the host opens to answer knocks are kept in a small least-recently-used
set (at most ``MAX_REPLY_LINKS``; the oldest is closed with a linger so its last
frame still leaves); a link becomes permanent when the peer ``connect``s to that
endpoint for the game.  Options: LINGER 0 (closing never blocks), a maximum
message size so a hostile peer cannot make us buffer huge frames, and TCP
keepalive.  Each message hands on the sender's IP address as ZeroMQ reports it
(``Peer-Address``), which the lobby's rate limits count by.
"""

from __future__ import annotations

from collections import OrderedDict

import zmq

from p2ptable.net.transport import BAD, GAME, LOBBY, Incoming

__all__ = ["BAD", "GAME", "LOBBY", "Incoming", "ZmqTransport"]

# The largest message: a channel byte and a game frame (wire.MAX_FRAME) or a
# lobby frame (smaller); ZeroMQ drops a connection that sends a larger one.
MAX_MESSAGE = 256 * 1024 + 1
# Messages ZeroMQ queues per connection before we read them: with MAX_MESSAGE,
# what one connection can make us buffer (25 MiB), however fast it sends.
RECEIVE_QUEUE = 100
MAX_REPLY_LINKS = 32
REPLY_LINGER_MS = 1000
MAX_FEED_LINKS = 8  # links to spectators (net/gallery.py MAX_WATCHERS)
FEED_QUEUE = 4  # frames queued for one spectator at most (each at most 128 KiB)


def _shape_error(count: int) -> bytes:
    if count != 1:
        return b"%d frames instead of one (channel byte and payload)" % count
    return b"an empty frame (no channel byte)"


def _recv_one(sock: zmq.Socket) -> tuple[bytes, int, str] | None:
    """One whole message from ``sock``: its first frame, how many frames it had
    and the sender's address; None if there was none after all.

    ``copy=False`` frames say whether more parts follow (``more``) without a
    socket-option call, and carry the connection's metadata; the parts of one
    message arrive together, so reading them all never blocks."""
    try:
        part = sock.recv(zmq.NOBLOCK, copy=False)
    except zmq.Again:
        return None
    first, count = part.bytes, 1
    try:
        address = part.get("Peer-Address")
        assert isinstance(address, str)  # a text property (only "fd" is a number)
    except zmq.ZMQError:  # no such property on this transport
        address = ""
    while part.more:
        part = sock.recv(zmq.NOBLOCK, copy=False)
        count += 1
    return first, count, address


class ZmqTransport:
    """The transport (net/transport.py) of a real peer: ZeroMQ over TCP."""

    def __init__(self, bind_host: str = "0.0.0.0", port: int = 0) -> None:
        self.ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
        self.inbox = self._socket()
        if port:
            self.inbox.bind(f"tcp://{bind_host}:{port}")
            self.port = port
        else:
            self.port = self.inbox.bind_to_random_port(f"tcp://{bind_host}")
        self.links: dict[str, zmq.Socket] = {}
        self._replies: OrderedDict[str, zmq.Socket] = OrderedDict()
        self._feeds: OrderedDict[str, zmq.Socket] = OrderedDict()
        self.poller = zmq.Poller()
        self.poller.register(self.inbox, zmq.POLLIN)

    def _socket(self) -> zmq.Socket:
        sock = self.ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        sock.setsockopt(zmq.TCP_KEEPALIVE, 1)
        sock.setsockopt(zmq.SNDHWM, 10_000)
        sock.setsockopt(zmq.RCVHWM, RECEIVE_QUEUE)
        return sock

    def _link(self, endpoint: str) -> zmq.Socket:
        sock = self._socket()
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
        sock.connect(endpoint)
        return sock

    def connect(self, endpoint: str) -> None:
        """A link to ``endpoint``, kept until ``close`` (the game mesh).  The
        caller has checked ``endpoint`` (net/endpoints.py) if it came from the
        network: ZeroMQ raises on a malformed one."""
        if endpoint in self.links:
            return
        reply = self._replies.pop(endpoint, None)  # lobby frames went this way: keep the order
        self.links[endpoint] = reply if reply is not None else self._link(endpoint)

    def forget(self, endpoint: str) -> None:
        """Close the link to ``endpoint`` (its seat listens elsewhere now)."""
        sock = self.links.pop(endpoint, None)
        if sock is not None:
            sock.close(linger=0)

    def send(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        try:
            self.links[endpoint].send(channel + payload, zmq.NOBLOCK)
        except zmq.Again:
            pass  # the peer is gone and its queue is full: catch-up will repair

    def reply(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        """Send to ``endpoint`` without keeping a link for good: the host's lobby
        answers to joiners, most of whom may never be seated."""
        sock = self.links.get(endpoint)
        if sock is None:
            sock = self._replies.pop(endpoint, None) or self._link(endpoint)
            self._replies[endpoint] = sock  # the most recently used, last
            while len(self._replies) > MAX_REPLY_LINKS:
                _, oldest = self._replies.popitem(last=False)
                oldest.close(linger=REPLY_LINGER_MS)
        try:
            sock.send(channel + payload, zmq.NOBLOCK)
        except zmq.Again:
            pass  # the joiner is not there: it will knock again or give up

    def feed(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        """Send to a spectator (net/gallery.py) on a link whose queue holds only
        FEED_QUEUE frames: one that stops reading loses answers, and we keep no
        more than that for it.  At most MAX_FEED_LINKS such links, the least
        recently used closed first."""
        sock = self._feeds.pop(endpoint, None)
        if sock is None:
            sock = self._link(endpoint)
            sock.setsockopt(zmq.SNDHWM, FEED_QUEUE)
        self._feeds[endpoint] = sock  # the most recently used, last
        while len(self._feeds) > MAX_FEED_LINKS:
            _, oldest = self._feeds.popitem(last=False)
            oldest.close(linger=0)
        try:
            sock.send(channel + payload, zmq.NOBLOCK)
        except zmq.Again:
            pass  # its queue is full: it asks again when it has read

    def register_fd(self, fd: int) -> None:
        self.poller.register(fd, zmq.POLLIN)

    def unregister_fd(self, fd: int | None) -> None:
        if fd is not None:
            try:
                self.poller.unregister(fd)
            except KeyError:
                pass

    def poll(self, timeout_ms: int) -> tuple[list[Incoming], bool]:
        """Messages that arrived, and whether a registered fd (stdin) is readable.

        At most one message per call: the inbox holding more is readable again at
        once, and almost every wake-up brings one message.  Reading on until it is
        empty would end every wake-up in pyzmq's "try again" error, which it
        builds in Python: more than the whole receive costs."""
        out: list[Incoming] = []
        fd_ready = False
        for sock, _ in self.poller.poll(timeout_ms):
            if sock is self.inbox:
                got = _recv_one(sock)
                if got is None:
                    continue
                data, count, address = got
                if count == 1 and data:
                    out.append(Incoming(data[:1], data[1:], address))
                else:  # not one frame of channel + payload: let the peer log it
                    out.append(Incoming(BAD, _shape_error(count), address))
            else:
                fd_ready = True
        return out, fd_ready

    def close(self, linger_ms: int = 0) -> None:
        """Close every socket; ``linger_ms`` lets frames already queued (our
        last result signature, an abort) still leave."""
        for sock in [self.inbox, *self.links.values(), *self._replies.values()]:
            sock.close(linger=linger_ms)
        for sock in self._feeds.values():
            sock.close(linger=0)
