"""The thin ZeroMQ adapter on 127.0.0.1: what a poll hands back.

Issue 3: "Bad input never crashes a peer ... malformed msgpack, oversized frames"
and the shape of a message (one frame: channel byte and payload) is checked here.
A poll takes at most one message (net/zmq_transport.py says why); the rest must
come on the next polls, in order, none lost.

Issue 12, finding 1: "A stranger who connects once with that id takes it over; the
real seat's frames are dropped from then on."  What to build: "nothing an
outsider can learn (a routing id, a port) lets it displace a seat's connection."
"""

from __future__ import annotations

import subprocess
import sys
import time

import zmq

from p2ptable.net import zmq_transport
from p2ptable.net.zmq_transport import BAD, GAME, LOBBY, ZmqTransport

# ZeroMQ's ROUTER names a connection that brings no routing id \x00 + a counter
# that starts at glibc's first unseeded rand(): 0x6b8b4567, then 0x6b8b4568, ...
GENERATED_IDS = [b"\x00" + (0x6B8B4567 + k).to_bytes(4, "big") for k in range(4)]


def poll_until(transport: ZmqTransport, count: int, limit: float = 5.0) -> list[list]:
    """Poll until ``count`` messages came (bounded in time); each poll's list."""
    polls: list[list] = []
    deadline = time.monotonic() + limit
    while sum(len(p) for p in polls) < count and time.monotonic() < deadline:
        incoming, _ = transport.poll(100)
        if incoming:
            polls.append(incoming)
    return polls


def stranger(endpoint: str, routing_id: bytes | None = None) -> zmq.Socket:
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    if routing_id:
        sock.setsockopt(zmq.ROUTING_ID, routing_id)
    sock.connect(endpoint)
    return sock


def test_each_poll_takes_one_message_and_the_rest_follow_in_order():
    receiver = ZmqTransport("127.0.0.1")
    sender = ZmqTransport("127.0.0.1")
    try:
        endpoint = f"tcp://127.0.0.1:{receiver.port}"
        sender.connect(endpoint)
        for k in range(5):
            sender.send(endpoint, GAME, b"move %d" % k)
        polls = poll_until(receiver, 5)
        assert all(len(p) == 1 for p in polls)
        got = [m for p in polls for m in p]
        assert [(m.channel, m.payload) for m in got] == [(GAME, b"move %d" % k) for k in range(5)]
        # The lobby's rate limits count by the address the connection came from.
        assert {m.address for m in got} == {"127.0.0.1"}
    finally:
        sender.close()
        receiver.close()


def test_a_message_of_the_wrong_shape_is_handed_on_as_bad_and_the_next_one_is_whole():
    receiver = ZmqTransport("127.0.0.1")
    sock = stranger(f"tcp://127.0.0.1:{receiver.port}")
    try:
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


def test_a_stranger_with_a_seats_routing_id_displaces_nothing():
    # Before: the mesh link's routing id was b"G" + the seat's key[:8] and the
    # ROUTER handed the id over to whoever connected with it last, so every frame
    # the seat sent afterwards was lost.  Now no socket has an id to take.
    receiver = ZmqTransport("127.0.0.1")
    seat = ZmqTransport("127.0.0.1")
    endpoint = f"tcp://127.0.0.1:{receiver.port}"
    key = bytes(range(32))
    strangers = []
    try:
        seat.connect(endpoint)
        seat.send(endpoint, GAME, b"before")
        assert [m.payload for p in poll_until(receiver, 1) for m in p] == [b"before"]
        for ident in [b"G" + key[:8], *GENERATED_IDS, None]:
            strangers.append(stranger(endpoint, ident))
            strangers[-1].send(GAME + b"stranger")
        for k in range(5):
            seat.send(endpoint, GAME, b"after %d" % k)
        got = [m.payload for p in poll_until(receiver, 5 + len(strangers)) for m in p]
        assert [g for g in got if g.startswith(b"after")] == [b"after %d" % k for k in range(5)]
        assert got.count(b"stranger") == len(strangers)
    finally:
        for sock in strangers:
            sock.close()
        seat.close()
        receiver.close()


VICTIM = """
import sys, time
from p2ptable.net.zmq_transport import ZmqTransport
t = ZmqTransport("127.0.0.1")
print(t.port, flush=True)
end, got = time.monotonic() + 10, []
while time.monotonic() < end and b"honest" not in got:
    incoming, _ = t.poll(100)
    got += [m.payload for m in incoming]
print("alive", sorted(set(got)), flush=True)
t.close()
"""


def test_a_stranger_claiming_zeromqs_next_generated_ids_cannot_crash_a_peer():
    # Found while fixing finding 1: a ROUTER given a routing id equal to the one
    # it generates next for an anonymous connection aborts the whole process
    # ("Assertion failed: ok (src/socket_base.cpp)"), and the ids it generates are
    # predictable.  A peer in a fresh process, as every real peer is:
    victim = subprocess.Popen(
        [sys.executable, "-c", VICTIM], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    strangers = []
    try:
        endpoint = f"tcp://127.0.0.1:{int(victim.stdout.readline())}"
        for ident in GENERATED_IDS:
            strangers.append(stranger(endpoint, ident))
            strangers[-1].send(GAME + b"stranger")
        time.sleep(0.3)  # the strangers hold their ids before anyone honest comes
        for _ in range(3):  # anonymous connections: what a seat's link is
            strangers.append(stranger(endpoint))
            strangers[-1].send(GAME + b"honest")
        out, _ = victim.communicate(timeout=20)
    finally:
        for sock in strangers:
            sock.close()
        if victim.poll() is None:
            victim.kill()
            victim.wait(timeout=10)
    assert victim.returncode == 0, out
    assert out.decode().splitlines()[-1] == "alive [b'honest', b'stranger']"


def test_links_opened_to_answer_knocks_are_bounded_and_become_the_mesh_link():
    receiver = ZmqTransport("127.0.0.1")
    host = ZmqTransport("127.0.0.1")
    try:
        limit = zmq_transport.MAX_REPLY_LINKS
        for k in range(limit + 5):  # knocks from endpoints nobody listens at
            # (on another loopback address: no port of this test can be among them)
            host.reply(f"tcp://127.0.0.9:{40000 + k}", LOBBY, b"challenge")
        assert len(host._replies) == limit and not host.links
        joiner = f"tcp://127.0.0.1:{receiver.port}"
        host.reply(joiner, LOBBY, b"roster")
        host.connect(joiner)  # the table is full: the same socket goes on for the game
        host.send(joiner, GAME, b"gsig")
        assert joiner not in host._replies and joiner in host.links
        got = [(m.channel, m.payload) for p in poll_until(receiver, 2) for m in p]
        assert got == [(LOBBY, b"roster"), (GAME, b"gsig")]
    finally:
        host.close()
        receiver.close()


def test_a_link_whose_peer_went_away_reconnects_by_itself():
    # "a seat whose link was disturbed reconnects by itself": the receiver's
    # process ends and a new one binds the same port (what `resume` does); the
    # sender does nothing but send.
    receiver = ZmqTransport("127.0.0.1")
    port = receiver.port
    sender = ZmqTransport("127.0.0.1")
    endpoint = f"tcp://127.0.0.1:{port}"
    try:
        sender.connect(endpoint)
        sender.send(endpoint, GAME, b"one")
        assert [m.payload for p in poll_until(receiver, 1) for m in p] == [b"one"]
        receiver.close()
        time.sleep(0.2)
        receiver = ZmqTransport("127.0.0.1", port)
        deadline, got = time.monotonic() + 10, []
        while b"two" not in got and time.monotonic() < deadline:
            sender.send(endpoint, GAME, b"two")
            got += [m.payload for p in poll_until(receiver, 1, limit=0.5) for m in p]
        assert b"two" in got
    finally:
        sender.close()
        receiver.close()
