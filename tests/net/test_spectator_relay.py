"""The spectators' channel between seated sessions (net/sideline.py), over MemoryNet.

Issue 26: a spectator "writes in a separate spectators' channel that seats can
hide"; the brief: the host relays it to the seats, "a spectator flood must be
bounded ... and must never delay a move", "a spectator line is never confused
with a seat's line (different channel ...)".
"""

from __future__ import annotations

from p2ptable.crypto.signing import SigningKey
from p2ptable.net import spectator_talk
from p2ptable.net.events import SpectatorTalked, Talked
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Rejected, Session
from p2ptable.net.spectator_talk import SpectatorLine, make_record
from p2ptable.net.wire import Message, seal
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger

EVE = SigningKey(b"\x05" * 32)


def table(talks: bool = True, players: int = 3):  # noqa: ANN201
    """Sessions at a table whose genesis lets spectators talk (or not), a few moves in."""
    seats = [authoring.SeatSecrets.from_seed(b"relay", i, 512) for i in range(players)]
    body = authoring.genesis_body(
        "pet-quartet", {"scoring": "basic", "variant": "standard"},
        [f"P{i}" for i in range(players)], [s.key.public for s in seats],
        [s.chain.head for s in seats], [s.link_public for s in seats], 512, bytes(16),
        spectators_talk=talks,
    )  # fmt: skip
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    logs = {i: [genesis.encode()] for i in range(players)}
    sessions = {
        i: Session(Ledger(genesis), i, seats[i], 0.0, boot=bytes([i]) * 8) for i in range(players)
    }
    net = MemoryNet(sessions, logs)
    net.pump()
    for _ in range(3):
        mover = next(s for s in sessions.values() if s.my_turn())
        mover.submit(mover.legal_actions()[0], net.now)
        net.pump()
    for session in sessions.values():
        session.take_events()
    return sessions, net, logs


def eve_says(session: Session, n: int, text: str = "go P1") -> bytes:
    line = SpectatorLine("Eve", EVE.public, n, session.log_length, text)
    return make_record(EVE, session.ledger.game_id, line)


def test_the_host_relays_a_spectators_line_to_every_seat_apart_from_talk_and_the_log():
    sessions, net, logs = table()
    lengths = {seat: len(log) for seat, log in logs.items()}
    sessions[0].relay_spectators(eve_says(sessions[0], 1))
    net.pump()
    for session in sessions.values():
        events = session.take_events()
        (said,) = [e for e in events if isinstance(e, SpectatorTalked)]
        assert (said.line.name, said.line.text) == ("Eve", "go P1")
        assert not [e for e in events if isinstance(e, Talked)]  # not a seat's talk
        assert session.sideline.talk.lines == [] and session.sideline.records == []
    assert {seat: len(log) for seat, log in logs.items()} == lengths  # beside the log


def test_a_flood_of_spectators_lines_never_delays_a_move():
    sessions, net, _ = table()
    mover = next(s for s in sessions.values() if s.my_turn())
    for n in range(1, 200):
        sessions[0].relay_spectators(eve_says(sessions[0], n, f"spam {n}"))
    mover.submit(mover.legal_actions()[0], net.now)
    net.pump()
    assert len({s.ledger.head for s in sessions.values()}) == 1
    assert len({s.log_length for s in sessions.values()}) == 1
    shown = [e for e in sessions[1].take_events() if isinstance(e, SpectatorTalked)]
    assert len(shown) == 2 * spectator_talk.TABLE_BURST  # the host held to a rate
    assert sessions[1].sideline.spectators.dropped == 199 - len(shown)


def _from(session: Session, sender: int, sender_session: Session, record: bytes) -> bytes:
    message = Message(
        "spectators", session.ledger.game_id, sender, sender_session.boot, 50_000,
        {"line": record},
    )  # fmt: skip
    return seal(message, session.links[sender])


def test_only_the_host_may_pass_on_a_spectators_line():
    sessions, net, _ = table()
    frame = _from(sessions[2], 1, sessions[1], eve_says(sessions[2], 1))  # from seat 1
    sessions[2].receive(frame, net.now)
    (rejected,) = sessions[2].take_events()
    assert isinstance(rejected, Rejected) and rejected.seat == 1
    assert "not from the host" in rejected.reason


def test_at_a_table_without_the_option_no_spectators_line_is_shown():
    sessions, net, _ = table(talks=False)
    frame = _from(sessions[1], 0, sessions[0], eve_says(sessions[1], 1))
    sessions[1].receive(frame, net.now)
    (rejected,) = sessions[1].take_events()
    assert isinstance(rejected, Rejected) and "lets spectators talk" in rejected.reason


def test_a_line_the_host_forged_or_broke_is_refused_as_the_hosts():
    sessions, net, _ = table()
    forged = make_record(  # the host writes words under Eve's key, signed with another
        SigningKey(b"\x09" * 32), sessions[1].ledger.game_id,
        SpectatorLine("Eve", EVE.public, 1, 0, "P1 cheats"),
    )  # fmt: skip
    for record in (forged, b"\x00junk", b""):
        sessions[1].receive(_from(sessions[1], 0, sessions[0], record), net.now)
    events = sessions[1].take_events()
    assert len(events) == 3 and all(isinstance(e, Rejected) and e.seat == 0 for e in events)
    assert sessions[1].sideline.spectators.kept == 0
