"""The thin ZeroMQ adapter on 127.0.0.1: what a poll hands back.

Issue 3: "Bad input never crashes a peer ... malformed msgpack, oversized frames"
and the shape of a message (one frame: channel byte and payload) is checked here.
A poll takes at most one message per socket (net/zmq_transport.py says why); the
rest must come on the next polls, in order, none lost.
"""

from __future__ import annotations

import time

import zmq

from p2ptable.net.zmq_transport import BAD, GAME, LOBBY, ZmqTransport


def poll_until(transport: ZmqTransport, count: int, limit: float = 5.0) -> list[list]:
    """Poll until ``count`` messages came (bounded in time); each poll's list."""
    polls: list[list] = []
    deadline = time.monotonic() + limit
    while sum(len(p) for p in polls) < count and time.monotonic() < deadline:
        incoming, _ = transport.poll(100)
        if incoming:
            polls.append(incoming)
    return polls


def test_each_poll_takes_one_message_per_socket_and_the_rest_follow_in_order():
    receiver = ZmqTransport("127.0.0.1")
    sender = ZmqTransport("127.0.0.1")
    try:
        endpoint = f"tcp://127.0.0.1:{receiver.port}"
        sender.connect(endpoint, identity=b"Gsender", listen=False)
        for k in range(5):
            sender.send(endpoint, GAME, b"move %d" % k)
        polls = poll_until(receiver, 5)
        assert all(len(p) == 1 for p in polls)
        got = [m for p in polls for m in p]
        assert [(m.channel, m.payload) for m in got] == [(GAME, b"move %d" % k) for k in range(5)]
        assert {m.ident for m in got} == {b"Gsender"} and {m.via for m in got} == {"router"}
    finally:
        sender.close()
        receiver.close()


def test_a_message_of_the_wrong_shape_is_handed_on_as_bad_and_the_next_one_is_whole():
    receiver = ZmqTransport("127.0.0.1")
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    try:
        sock.connect(f"tcp://127.0.0.1:{receiver.port}")
        sock.send_multipart([b"G", b"x", b"y"])  # three frames
        sock.send(b"")  # no channel byte
        sock.send(LOBBY + b"hello")
        got = [m for p in poll_until(receiver, 3) for m in p]
        assert [(m.channel, m.payload) for m in got] == [
            (BAD, b"3 frames instead of one (channel byte and payload)"),
            (BAD, b"an empty frame (no channel byte)"),
            (LOBBY, b"hello"),
        ]
    finally:
        sock.close()
        receiver.close()
