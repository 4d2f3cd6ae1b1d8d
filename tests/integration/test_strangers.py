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
    slow = ("--bot", "random", "--bot-delay", "0.05")
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
        codes = peers.wait_all()
    finally:
        for sock in strangers:
            sock.close()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in names}
    blobs = {name: peers.replay(name).read_bytes() for name in names}
    assert len(set(blobs.values())) == 1, "replays differ"
    assert verify_file(peers.replay("Ana")).valid
