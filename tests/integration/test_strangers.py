"""Strangers on the wire of a live game: real peer processes on 127.0.0.1.

Issue 12, finding 1: "One TCP connection cuts a seat's link for good. Game frames
travel from a DEALER whose routing id is public (b"G" + the key's first bytes) to
ROUTERs with ROUTER_HANDOVER on. A stranger who connects once with that id takes
it over; the real seat's frames are dropped from then on."  What to build: "Links
that strangers cannot take over: nothing an outsider can learn (a routing id, a
port) lets it displace a seat's connection."
"""

from __future__ import annotations

import json
import time

import pytest
import zmq

from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import verify_file

from .peers import Peers, free_port, wait_for_entries


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    group.close()


# The routing id the mesh links had (b"G" + the seat's key[:8]), and the ids ZeroMQ
# generates for connections that bring none (glibc's rand() is never seeded, so
# the first is 0x6b8b4567, then +1, ...): before, the first cut the seat's link for
# good, the second aborted the process ("Assertion failed" in libzmq).
@pytest.mark.parametrize("ids", ["mesh", "generated"])
def test_a_stranger_with_every_seats_routing_id_cannot_cut_a_link(peers, ids):
    port = free_port()
    names = ["Ana", "Ben", "Cleo"]
    slow = ("--bot", "random", "--bot-delay", "0.02")  # 140 moves: 3 s at least
    peers.host("Ana", "pet-quartet", 3, port, *slow)
    peers.join("Ben", port, *slow)
    peers.join("Cleo", port, *slow)
    wait_for_entries(peers.replay("Cleo"), 3)
    # What an outsider can learn: every seat's key (in any challenge, or the
    # genesis) and every seat's port (in the roster).
    genesis = Ledger(Entry.decode(parse_frames(peers.replay("Cleo").read_bytes()).payloads[0]))
    keys = [seat.key for seat in genesis.seats]
    endpoints = json.loads(peers.replay("Cleo").with_name("Cleo.p2pt.secrets").read_text())[
        "endpoints"
    ]
    ctx = zmq.Context.instance()
    strangers = []
    try:
        for seat, target in enumerate(endpoints):
            for other, key in enumerate(keys):
                if other == seat:
                    continue
                generated = [b"\x00" + (0x6B8B4567 + k).to_bytes(4, "big") for k in range(3)]
                for ident in [b"G" + key[:8]] if ids == "mesh" else generated:
                    sock = ctx.socket(zmq.DEALER)
                    sock.setsockopt(zmq.LINGER, 0)
                    sock.setsockopt(zmq.ROUTING_ID, ident)
                    sock.connect(target)
                    sock.send(b"G" + b"\xc1")
                    strangers.append(sock)
        time.sleep(0.5)  # the strangers are connected while the game goes on
        assert all(proc.poll() is None for proc in peers.procs.values()), "the game ended first"
        codes = peers.wait_all()
    finally:
        for sock in strangers:
            sock.close()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in names}
    blobs = {name: peers.replay(name).read_bytes() for name in names}
    assert len(set(blobs.values())) == 1, "replays differ"
    assert verify_file(peers.replay("Ana")).valid


def test_a_stranger_knocking_in_a_loop_gets_five_guesses_and_the_table_still_fills(peers):
    # Finding 9: "knocks are not rate-limited".  A stranger at another address
    # (127.0.0.2: loopback, but not the players' 127.0.0.1) knocks 40 times with
    # guessed codes, and sends junk, while the table waits for Ben.
    from p2ptable.net import lobby
    from p2ptable.net.join_code import CodeExchange
    from p2ptable.replay import authoring

    port = free_port()
    peers.host("Ana", "pet-quartet", 2, port, "--bot", "random")
    me = authoring.SeatSecrets.from_seed(b"stranger", 0, 8)
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 2000)
    sock.connect(f"tcp://127.0.0.2:0;127.0.0.1:{port}")  # from 127.0.0.2
    try:
        for n in range(40):
            guess = f"GU{n:04d}"
            knock = {"pake": CodeExchange(guess, host=False).message,
                     "endpoint": f"tcp://127.0.0.2:{40000 + n}"}  # fmt: skip
            sock.send(b"L" + lobby.seal_lobby("knock", knock, me))
            sock.send(b"L" + b"\xc1" * n)
    finally:
        sock.close()
    time.sleep(1.0)
    peers.join("Ben", port, "--bot", "random")
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in ["Ana", "Ben"]}
    log = peers.replay("Ana").with_name("Ana.p2pt.peer.log").read_text()
    assert log.count("too many join attempts from 127.0.0.2") >= 1
    assert "Ben joined (2/2)" in log
    assert verify_file(peers.replay("Ana")).valid
