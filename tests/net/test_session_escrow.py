"""Escrow between sans-IO sessions (issue 27): every seat escrows its deck secret
at the start of a ``keep_going`` table, every holder checks its share, and a
dealer that gives a holder a false share is named with signed evidence.

Issue 27: "Every holder checks its share against the commitments on arrival; a
dealer whose share fails is named with signed evidence, as a bad shuffle is today."
"""

from __future__ import annotations

import random

from p2ptable.net import rounds
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session, Stopped
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, sign_body
from p2ptable.replay.kinds import EscrowBody, Kind
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.verify import verify_bytes
from p2ptable.sealed.group import N

from .test_session_memory import play_out

NONCE = b"\x09" * 16


def make_table(players: int, seed: str = "escrow", keep_going: bool = True):
    seats = [authoring.SeatSecrets.from_seed(seed.encode(), i, 512) for i in range(players)]
    names = [f"P{i}" for i in range(players)]
    genesis = authoring.local_genesis(
        "vorsicht-lehrer", {"track": "100"}, names, seats, 512, NONCE, keep_going
    )
    logs = {i: [genesis.encode()] for i in range(players)}
    sessions = {
        i: Session(
            Ledger(genesis, readers={i: seats[i].deck}), i, seats[i], 0.0, boot=bytes([i]) * 8
        )
        for i in range(players)
    }
    return seats, sessions, logs


def log_file(log: list[bytes]) -> bytes:
    return MAGIC + b"".join(encode_frame(p) for p in log)


def test_a_keep_going_table_escrows_first_and_ends_with_identical_audited_logs():
    _, sessions, logs = make_table(4)
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(5))
    assert all(s.finished for s in sessions.values())
    files = {log_file(log) for log in logs.values()}
    assert len(files) == 1
    kinds = [Entry.decode(p).body["t"] for p in logs[0]]
    assert kinds[1:5] == [Kind.ESCROW] * 4
    report = verify_bytes(files.pop())
    assert report.valid, report.error
    assert report.audited is True


def test_a_dealer_that_gives_a_holder_a_false_share_is_named_by_every_peer(monkeypatch):
    """Seat 1 escrows with seat 3's share spoiled.  Every ledger takes the entry
    (its shape is right); seat 3 opens its share, finds it off the committed
    polynomial and stops the game with the escrow and its complaint as proof;
    every honest peer ends the same way, naming seat 1, and verify agrees."""
    seats, sessions, logs = make_table(4)
    cheater, victim = 1, 3
    honest_escrow = authoring.escrow_entry

    def lying(ledger, seat, secrets):
        entry = honest_escrow(ledger, seat, secrets)
        if seat != cheater:
            return entry
        msg = dict(entry.body["msg"])
        shares = [list(s) for s in msg["shares"]]
        for share in shares:
            if share[0] == victim:
                share[2] = ((int.from_bytes(share[2], "big") + 1) % N).to_bytes(32, "big")
        msg["shares"] = shares
        body = EscrowBody(ledger.next_index, ledger.head, seat, msg)
        return sign_body(ledger.game_id, body.encode(), {seat: secrets.key})

    monkeypatch.setattr(rounds.authoring, "escrow_entry", lying)
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(6), max_moves=30)
    for _ in range(5):
        net.advance(1.0)
        net.pump()
    honest = [s for seat, s in sessions.items() if seat != cheater]
    stops = [e for s in honest for e in s.take_events() if isinstance(e, Stopped)]
    assert stops and all(e.culprit == cheater and e.proved for e in stops)
    ends = {log_file(logs[s.seat]) for s in honest}
    assert len(ends) == 1
    report = verify_bytes(ends.pop())
    assert report.stopped is not None and report.stopped["proved"]
    assert report.stopped["culprit"] == cheater
    assert "false" in report.stopped["detail"]


def test_a_malformed_escrow_is_refused_by_every_peer_and_names_its_dealer(monkeypatch):
    """An escrow one commitment short is wrong for everyone to see: every honest
    peer refuses it and stops with the signed escrow alone as proof."""
    seats, sessions, logs = make_table(4, "escrow-short")
    cheater = 2
    honest_escrow = authoring.escrow_entry

    def short(ledger, seat, secrets):
        entry = honest_escrow(ledger, seat, secrets)
        if seat != cheater:
            return entry
        msg = {**entry.body["msg"], "commitments": entry.body["msg"]["commitments"][:-1]}
        body = EscrowBody(ledger.next_index, ledger.head, seat, msg)
        return sign_body(ledger.game_id, body.encode(), {seat: secrets.key})

    monkeypatch.setattr(rounds.authoring, "escrow_entry", short)
    # The cheater's own ledger would refuse its escrow too: it appends nothing,
    # so it sends the entry itself, as a cheater's own code would.
    original_append = sessions[cheater].append

    def append_or_send(entry):
        if entry.kind == Kind.ESCROW and entry.body["seat"] == cheater:
            sessions[cheater].send(None, "entry", {"entry": entry.encode()})
            raise RuntimeError("the cheater stops here")  # its session fails
        original_append(entry)

    sessions[cheater].append = append_or_send
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(7), max_moves=30)
    for _ in range(3):
        net.advance(1.0)
        net.pump()
    honest = [s for seat, s in sessions.items() if seat != cheater]
    stops = [e for s in honest for e in s.take_events() if isinstance(e, Stopped)]
    assert len(stops) == 3 and all(e.culprit == cheater and e.proved for e in stops)
    ends = {log_file(logs[s.seat]) for s in honest}
    assert len(ends) == 1
    report = verify_bytes(ends.pop())
    assert report.stopped is not None and report.stopped["culprit"] == cheater
    assert "commitments" in report.stopped["detail"]
