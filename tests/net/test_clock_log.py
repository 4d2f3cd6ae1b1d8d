"""The table's clock in the log: the genesis names it, a clock move says so.

Issue 26: "the screen and the log's words say 'the clock moved for Ben'".  The
clock's seconds are in the genesis every seat signs (absent: no clock, so a
genesis of before is byte for byte the same), and a move the clock made carries
``clock: true`` in the action its own seat signs: nobody else can sign it, so
nobody can make (or unmake) a clock move for another seat.
"""

from __future__ import annotations

import pytest

from p2ptable.bots.clock import ClockedFrontend, on_the_clock
from p2ptable.crypto.encoding import pack, unpack_canonical
from p2ptable.engine.api import Action
from p2ptable.net.frontend import ClockMove
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.kinds import ActionBody
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.verify import verify_bytes
from p2ptable.ui.narrative import event_line

from .test_clock import Walked


def clock_table(players: int, clock: int | None, seed: str = "clocklog"):
    seats = [authoring.SeatSecrets.from_seed(seed.encode(), i, 512) for i in range(players)]
    body = authoring.genesis_body(
        "pet-quartet",
        {"scoring": "basic", "variant": "standard"},
        ["Ana", "Ben", "Cleo"][:players],
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [s.link_public for s in seats],
        512,
        b"\x01" * 16,
        clock=clock,
    )
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    logs = {i: [genesis.encode()] for i in range(players)}
    sessions = {
        i: Session(Ledger(genesis), i, seats[i], 0.0, boot=bytes([i]) * 8) for i in range(players)
    }
    return seats, sessions, logs, genesis


def test_a_genesis_without_a_clock_has_no_clock_field():
    *_, genesis = clock_table(2, None)
    assert "clock" not in unpack_canonical(genesis.body_bytes)
    assert Ledger(genesis).clock is None


def test_the_genesis_names_the_tables_clock():
    _, sessions, _, genesis = clock_table(2, 45)
    assert unpack_canonical(genesis.body_bytes)["clock"] == 45
    assert sessions[0].clock == 45


@pytest.mark.parametrize("bad", [0, -5, 24 * 3600 + 1])
def test_a_clock_out_of_range_is_a_bad_genesis(bad):
    with pytest.raises(InvalidEntry, match="clock"):
        clock_table(2, bad)


def mover_of(sessions):
    return next(s for s in sessions.values() if s.my_turn())


def test_a_clock_move_is_said_in_the_log_for_every_seat():
    _, sessions, logs, _ = clock_table(2, 30)
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = mover_of(sessions)
    action = mover.legal_actions()[0]
    mover.submit(action, net.now, clock=True)
    net.pump()
    log = [Entry.decode(r) for r in logs[1 - mover.seat]]
    (move,) = [e for e in log if e.body["t"] == "action"]
    assert move.body["clock"] is True
    # Every seat's words, and a replay's: "(the clock moved for Ben)".
    ledger = Ledger(log[0])
    said = [ledger.append(e) for e in log[1:]]
    words = event_line(said[log.index(move) - 1], ["Ana", "Ben"], {})
    assert words.endswith(f"(the clock moved for {['Ana', 'Ben'][mover.seat]})")


def test_a_move_its_player_chose_has_no_clock_field():
    _, sessions, logs, _ = clock_table(2, 30)
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = mover_of(sessions)
    mover.submit(mover.legal_actions()[0], net.now)
    net.pump()
    bodies = [Entry.decode(r).body for r in logs[0][1:]]
    assert [b for b in bodies if b["t"] == "action" and "clock" not in b]
    assert not [b for b in bodies if "clock" in b]


def forged(seats, ledger: Ledger, seat: int, signer: int, clock: object = True) -> Entry:
    body = ActionBody(ledger.next_index, ledger.head, seat, "draw", None, None, clock)
    return authoring.sign_body(ledger.game_id, body.encode(), {seat: seats[signer].key})


def _ledger_at_first_move(clock: int | None):
    seats, sessions, logs, genesis = clock_table(2, clock)
    net = MemoryNet(sessions, logs)
    net.pump()
    ledger = Ledger(genesis)
    for raw in logs[0][1:]:
        ledger.append(Entry.decode(raw))
    return seats, ledger, mover_of(sessions).seat


def test_nobody_can_sign_a_clock_move_for_another_seat():
    seats, ledger, mover = _ledger_at_first_move(30)
    other = 1 - mover
    with pytest.raises(InvalidEntry, match="signature"):
        ledger.append(forged(seats, ledger, mover, signer=other))


def test_a_clock_field_added_to_a_seats_signed_move_breaks_its_signature():
    seats, ledger, mover = _ledger_at_first_move(30)
    honest = authoring.action_entry(ledger, mover, seats[mover], Action("draw", ()))
    body = dict(honest.body, clock=True)
    tampered = Entry(pack(body), honest.sigs)
    with pytest.raises(InvalidEntry, match="signature"):
        ledger.append(tampered)


def test_a_clock_move_at_a_table_without_a_clock_is_refused():
    seats, ledger, mover = _ledger_at_first_move(None)
    with pytest.raises(InvalidEntry, match="without a clock"):
        ledger.append(forged(seats, ledger, mover, signer=mover))


def test_a_clock_field_is_true_or_absent():
    seats, ledger, mover = _ledger_at_first_move(30)
    with pytest.raises(InvalidEntry, match="true or absent"):
        ledger.append(forged(seats, ledger, mover, signer=mover, clock=False))


def test_without_a_clock_the_frontend_only_passes_through():
    _, sessions, logs, _ = clock_table(2, None)
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = mover_of(sessions)
    front = ClockedFrontend(Walked())
    front.show(mover, [], now=0.0)
    assert front.choose(mover, 10_000.0, typed=False) is None
    assert front.wake_at(mover, 10_000.0) == 10_000.0 + 3600
    assert front.line(mover, 0.0) is None and front.clock is None


def test_a_walked_away_table_plays_to_the_end_on_the_clock_alone():
    """Every seat a person who never answers: the clock plays the whole game,
    every move says so, and the replay verifies."""
    _, sessions, logs, _ = clock_table(3, 5)
    net = MemoryNet(sessions, logs)
    fronts = {i: ClockedFrontend(Walked()) for i in sessions}
    now = 0.0
    for _ in range(5000):
        net.pump()
        if all(s.finished for s in sessions.values()):
            break
        for i, session in sessions.items():
            fronts[i].show(session, [], now)
            moved = fronts[i].choose(session, now, typed=False)
            if moved is not None:
                assert isinstance(moved, ClockMove)
                session.submit(moved.action, net.now, clock=True)
        now += 5.0
    assert all(s.finished for s in sessions.values())
    raw = MAGIC + b"".join(encode_frame(p) for p in logs[0])
    report = verify_bytes(raw)
    assert report.valid, report.error
    actions = [Entry.decode(r).body for r in logs[0][1:]]
    moves = [b for b in actions if b["t"] == "action"]
    assert moves and all(b.get("clock") is True for b in moves)


def test_the_screen_line_names_whoever_must_act():
    _, sessions, logs, _ = clock_table(2, 30)
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = mover_of(sessions)
    waiting = sessions[1 - mover.seat]
    names = mover.names
    assert on_the_clock(waiting) == [mover.seat]
    front = ClockedFrontend(Walked())
    front.show(waiting, [], now=100.0)
    assert front.line(waiting, 112.5) == f"clock: 18 s left for {names[mover.seat]}"
    assert front.line(waiting, 112.5, step=10) == f"clock: 20 s left for {names[mover.seat]}"
    mine = ClockedFrontend(Walked())
    mine.show(mover, [], now=100.0)
    assert mine.line(mover, 100.0) == "clock: 30 s left for you, then the clock moves for you"


def test_a_spectators_screen_counts_down_for_whoever_must_act():
    from p2ptable.bots.clock import WatchedClock

    _, sessions, logs, genesis = clock_table(2, 30)
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = mover_of(sessions)
    ledger = Ledger(genesis)  # what a spectator holds: the public log
    for raw in logs[0][1:]:
        ledger.append(Entry.decode(raw))
    watched = WatchedClock(30)
    names = ["Ana", "Ben"]
    assert watched.line(ledger, names, 100.0) == f"clock: 30 s left for {names[mover.seat]}"
    assert watched.line(ledger, names, 121.5) == f"clock: 9 s left for {names[mover.seat]}"
    assert (
        watched.line(ledger, names, 121.5, step=10) == f"clock: 10 s left for {names[mover.seat]}"
    )


def test_the_full_screen_table_leads_its_status_with_the_time_left():
    from p2ptable.ui.tui.link import FullScreenFrontend

    _, sessions, logs, _ = clock_table(2, 30)
    net = MemoryNet(sessions, logs)
    net.pump()
    mover = mover_of(sessions)
    screen = FullScreenFrontend()
    try:
        clocked = ClockedFrontend(screen)
        clocked.show(mover, [], now=100.0)
        snap = screen.snapshot(mover, 110.0)
        assert snap.status[0] == "clock: 20 s left for you, then the clock moves for you"
    finally:
        screen.link.close()
