"""The fault drill of issue 12 (scripts/drill.py), and the pieces it is built from.

Issue 12: "`scripts/drill.py` runs N live games (both games, 2–6 seats) with random
faults: kill -9 of a random seat at a random moment (lobby, genesis, sealed
shuffles, play) followed by resume, a stranger sending junk, replays of recorded
frames and routing-id takeovers, and a power-loss simulation (the tail of a
replay cut back to its last fsync). It prints: games completed, replays
byte-identical, entries lost, seats falsely accused."
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
import zmq

from p2ptable.replay.entries import Entry
from p2ptable.replay.logfile import parse_frames
from p2ptable.sim import simulate

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "drill.py"


def load_drill():
    spec = importlib.util.spec_from_file_location("drill", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["drill"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


drill = load_drill()


def run_drill(*args: str, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


# -- the power cut -----------------------------------------------------------------


@pytest.fixture(scope="module")
def game_replay(tmp_path_factory) -> bytes:
    out = tmp_path_factory.mktemp("sim") / "game.p2pt"
    simulate("vorsicht-lehrer", 3, "drill", out)
    return out.read_bytes()


def signed_alone_by(payload: bytes, seat: int) -> bool:
    sigs = Entry.decode(payload).sigs
    return len(sigs) == 1 and sigs[0][0] == seat


def next_cut(payloads: list[bytes], start: int, seat: int) -> int:
    """The first length from ``start`` whose last entry someone else wrote."""
    return next(
        n for n in range(start, len(payloads)) if not signed_alone_by(payloads[n - 1], seat)
    )


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_power_cut_takes_only_what_was_never_synced(game_replay, seat):
    # wire.md 6.10: "So every entry a seat signed is on stable storage before any
    # peer can hold it. The entries of others are written without a sync each."
    # Cut in the middle of the game, the replay keeps its genesis and everything
    # up to the seat's last own entry, and loses only others' entries after it.
    payloads = parse_frames(game_replay).payloads
    middle = next_cut(payloads, len(payloads) // 2, seat)
    whole = game_replay[: drill.frame_offsets(payloads)[middle]]
    kept, lost = drill.power_cut(whole, seat, "clean", random.Random(1))
    before, after = payloads[:middle], parse_frames(kept).payloads
    assert after == before[: len(after)] and len(after) + lost == middle
    assert signed_alone_by(after[-1], seat)
    assert not any(signed_alone_by(p, seat) for p in before[len(after) :])
    assert lost > 0


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_power_cut_after_the_end_takes_nothing(game_replay, seat):
    # net/session.py: the entry that ends the game is synced before the seat
    # tells anyone it holds the whole log (the others may leave then).
    kept, lost = drill.power_cut(game_replay, seat, "torn", random.Random(3))
    assert (kept, lost) == (game_replay, 0)


def test_a_power_cut_can_leave_a_torn_frame_or_zeros(game_replay):
    # wire.md 6.10: resume cuts "a torn or damaged last record" and "the file ends
    # in zero bytes where entries should be (a size that reached the disk without
    # its data)"; the drill leaves both behind.
    payloads = parse_frames(game_replay).payloads
    whole = game_replay[: drill.frame_offsets(payloads)[next_cut(payloads, 60, 1)]]
    clean, lost = drill.power_cut(whole, 1, "clean", random.Random(2))
    torn, _ = drill.power_cut(whole, 1, "torn", random.Random(2))
    zeros, _ = drill.power_cut(whole, 1, "zeros", random.Random(2))
    assert lost > 0
    assert torn.startswith(clean) and len(torn) > len(clean)
    assert parse_frames(torn).error.torn
    assert zeros.startswith(clean) and set(zeros[len(clean) :]) == {0}
    assert drill.intact_entries(zeros) == parse_frames(clean).payloads


# -- the man in the middle ---------------------------------------------------------


def test_the_wiretap_forwards_zeromq_unchanged_and_records_what_it_carries():
    # What the "replays of recorded frames" fault needs: a proxy at a seat's
    # endpoint that changes nothing on the way, and keeps the one-frame messages
    # it carried so it can send them again.
    port = drill.free_port()
    ctx = zmq.Context.instance()
    inbox = ctx.socket(zmq.DEALER)
    link = ctx.socket(zmq.DEALER)
    try:
        inbox.bind(f"tcp://{drill.TAP_HOST}:{port}")
    except zmq.ZMQError:
        inbox.close(linger=0)
        link.close(linger=0)
        pytest.skip(f"cannot bind {drill.TAP_HOST} (loopback is only 127.0.0.1 here)")
    tap = drill.Wiretap(port, seed=3, inject=False)
    tap.start()
    try:
        link.connect(f"tcp://127.0.0.1:{port}")
        sent = [b"L" + bytes([n]) * n for n in range(1, 40)] + [b"G" + b"x" * 70_000]
        for message in sent:
            link.send(message)
        link.send_multipart([b"G", b"two frames"])
        inbox.setsockopt(zmq.RCVTIMEO, 5000)
        got = [inbox.recv() for _ in sent]
        assert got == sent
        assert inbox.recv_multipart() == [b"G", b"two frames"]
        # Lobby frames are kept; a game frame only when its envelope decodes.
        assert [r.message for r in tap.recorded()] == sent[:-1]
        tap.cut()
        deadline = time.monotonic() + 5
        while tap.cuts == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert tap.cuts == 1
        link.send(b"L after the cut")  # ZeroMQ connects again, through the tap
        assert inbox.recv() == b"L after the cut"
    finally:
        tap.stop()
        link.close(linger=0)
        inbox.close(linger=0)


def test_the_zmtp_reader_returns_every_byte_and_only_one_frame_messages():
    reader = drill.ZmtpReader()
    greeting = bytes(64)
    ready = bytes([4, 5]) + b"READY"  # a command
    one = drill.zmtp_frame(b"G" + b"a" * 300)  # a long frame
    first, second = bytes([1, 2]) + b"G1", bytes([0, 2]) + b"G2"  # one two-frame message
    stream = greeting + ready + one + first + second + drill.zmtp_frame(b"L!")
    pieces, at, rng = [], 0, random.Random(4)
    while at < len(stream):
        step = rng.randint(1, 50)
        pieces += reader.feed(stream[at : at + step])
        at += step
    assert b"".join(raw for raw, _ in pieces) == stream
    assert [m for _, m in pieces if m is not None] == [b"G" + b"a" * 300, b"L!"]


# -- the drill itself --------------------------------------------------------------


def test_a_two_seat_game_survives_a_kill_a_stranger_and_replayed_frames():
    # Seed 95's first game: Pet Quartet at two seats; Ana, behind the man in the
    # middle, is killed at entry 81 and resumed, while junk, takeover ids and
    # recorded frames (of her earlier run too) arrive.
    done = run_drill(
        "--games", "1", "--seed", "95", "--seats", "2", "--game", "pet-quartet",
        "--faults", "kill,junk,replay,takeover", "--min-games", "1", timeout=150,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "kill Ana@play(81) -> " in done.stdout  # it fired
    assert "games completed: 1/1 (100.0 %)" in done.stdout
    assert "replays byte-identical: 1/1" in done.stdout
    assert "entries lost: 0" in done.stdout
    assert "seats falsely accused: 0" in done.stdout


@pytest.mark.slow
def test_six_games_under_every_fault_that_works_today_meet_the_bar(tmp_path):
    # Seed 24: both games, 2-6 seats; kills in the lobby (the joiner joins again),
    # in the genesis round, in the shuffles and in play; power cuts of a seat and
    # of the whole table; junk, replayed frames, takeovers, dropped connections.
    # Left out until test_drill_findings.py passes: cuts just after the result
    # ("end").
    done = run_drill(
        "--games", "6", "--seed", "24", "--moments", "start,shuffle,play",
        "--min-games", "6", "--keep", str(tmp_path), timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "games completed: 6/6 (100.0 %)" in done.stdout
    assert "replays byte-identical: 6/6" in done.stdout
    assert "entries lost: 0" in done.stdout
    assert "seats falsely accused: 0" in done.stdout
    assert "bar (100 % completed, 0 lost, 0 falsely accused, >= 6 games): met" in done.stdout
