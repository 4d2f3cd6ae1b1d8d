"""The thin ZeroMQ adapter: one ROUTER bound per peer, one DEALER per other peer.

Nothing here knows the protocol.  Every message is one ZeroMQ frame: a channel
byte (``L`` lobby, ``G`` game) followed by the payload (one frame, not two: each
frame is a separate call and copy on both sides, for every message).  A peer
sends only through its DEALER to another peer's ROUTER, except the host's lobby
replies, which go back through its ROUTER to the joiner's DEALER.  Options:
LINGER 0 (closing never blocks), HANDOVER on the ROUTER (a resumed peer reclaims
its identity), a maximum message size so a hostile peer cannot make us buffer
huge frames, and TCP keepalive.
"""

from __future__ import annotations

from dataclasses import dataclass

import zmq

MAX_MESSAGE = 512 * 1024
LOBBY = b"L"
GAME = b"G"
BAD = b"?"  # a message of the wrong shape (payload: what is wrong with it)


def _shape_error(count: int) -> bytes:
    if count != 1:
        return b"%d frames instead of one (channel byte and payload)" % count
    return b"an empty frame (no channel byte)"


def _recv_one(sock: zmq.Socket) -> tuple[bytes, bytes, int] | None:
    """One whole message from ``sock``: its first two frames (b"" if absent) and
    how many frames it had; None if there was none after all.

    ``copy=False`` frames say whether more parts follow (``more``) without a
    socket-option call; the parts of one message arrive together, so reading them
    all never blocks."""
    try:
        part = sock.recv(zmq.NOBLOCK, copy=False)
    except zmq.Again:
        return None
    first, second, count = part.bytes, b"", 1
    while part.more:
        part = sock.recv(zmq.NOBLOCK, copy=False)
        count += 1
        if count == 2:
            second = part.bytes
    return first, second, count


@dataclass(frozen=True)
class Incoming:
    via: str  # "router" or the endpoint of the DEALER it came in on
    ident: bytes | None  # the ROUTER-side identity (for lobby replies)
    channel: bytes
    payload: bytes


class ZmqTransport:
    def __init__(self, bind_host: str = "0.0.0.0", port: int = 0) -> None:
        self.ctx = zmq.Context.instance()
        self.router = self._socket(zmq.ROUTER)
        self.router.setsockopt(zmq.ROUTER_HANDOVER, 1)
        if port:
            self.router.bind(f"tcp://{bind_host}:{port}")
            self.port = port
        else:
            self.port = self.router.bind_to_random_port(f"tcp://{bind_host}")
        self.dealers: dict[str, zmq.Socket] = {}
        self.poller = zmq.Poller()
        self.poller.register(self.router, zmq.POLLIN)
        self._by_socket: dict[zmq.Socket, str] = {}

    def _socket(self, kind: int) -> zmq.Socket:
        sock = self.ctx.socket(kind)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        sock.setsockopt(zmq.TCP_KEEPALIVE, 1)
        sock.setsockopt(zmq.SNDHWM, 10_000)
        sock.setsockopt(zmq.RCVHWM, 10_000)
        return sock

    def connect(self, endpoint: str, identity: bytes | None = None, listen: bool = True) -> None:
        """A DEALER to ``endpoint``.  ``listen=False`` for send-only links (the game
        mesh: replies come in on our ROUTER), so each wake-up polls fewer sockets."""
        if endpoint in self.dealers:
            return
        sock = self._socket(zmq.DEALER)
        if identity:
            sock.setsockopt(zmq.ROUTING_ID, identity)
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
        sock.connect(endpoint)
        self.dealers[endpoint] = sock
        self._by_socket[sock] = endpoint
        if listen:
            self.poller.register(sock, zmq.POLLIN)

    def send(self, endpoint: str, channel: bytes, payload: bytes) -> None:
        try:
            self.dealers[endpoint].send(channel + payload, zmq.NOBLOCK)
        except zmq.Again:
            pass  # the peer is gone and its queue is full: catch-up will repair

    def reply(self, ident: bytes, channel: bytes, payload: bytes) -> None:
        try:
            self.router.send_multipart([ident, channel + payload], zmq.NOBLOCK)
        except (zmq.Again, zmq.ZMQError):
            pass  # the joiner went away

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

        At most one message per socket per call: a socket holding more is readable
        again at once, and almost every wake-up brings one message.  Reading on
        until the socket is empty would end every wake-up in pyzmq's "try again"
        error, which it builds in Python: more than the whole receive costs."""
        out: list[Incoming] = []
        fd_ready = False
        for sock, _ in self.poller.poll(timeout_ms):
            if sock is self.router:
                got = _recv_one(sock)
                if got is None:
                    continue
                ident, data, count = got
                if count == 2 and data:
                    out.append(Incoming("router", ident, data[:1], data[1:]))
                else:  # not [identity, channel + payload]: let the peer log it
                    out.append(Incoming("router", ident, BAD, _shape_error(count - 1)))
            elif isinstance(sock, zmq.Socket):
                got = _recv_one(sock)
                if got is None:
                    continue
                data, _, count = got
                where = self._by_socket[sock]
                if count == 1 and data:
                    out.append(Incoming(where, None, data[:1], data[1:]))
                else:
                    out.append(Incoming(where, None, BAD, _shape_error(count)))
            else:
                fd_ready = True
        return out, fd_ready

    def close(self, linger_ms: int = 0) -> None:
        """Close every socket; ``linger_ms`` lets frames already queued (our
        last result signature, an abort) still leave."""
        for sock in [self.router, *self.dealers.values()]:
            sock.close(linger=linger_ms)
