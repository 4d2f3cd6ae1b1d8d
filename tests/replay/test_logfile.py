"""The replay file on disk: magic, frames, torn records and damage.

Specification tests for protocol/replay.md section "The file".  Each test says the
rule it checks.  Frames are also built by hand with struct and zlib, as an
independent writer would.
"""

from __future__ import annotations

import os
import stat
import struct
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2ptable.replay import logfile
from p2ptable.replay.logfile import (
    MAGIC,
    MAX_FRAME,
    LogWriter,
    cut_tail,
    encode_frame,
    frame_offsets,
    next_intact_frame,
    parse_frames,
    read_file,
)
from p2ptable.replay.outputs import OutputRefused
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import simulate


def frame(payload: bytes) -> bytes:
    """By hand: u32be(len) || payload || u32be(CRC-32/ISO-HDLC(payload))."""
    return struct.pack(">I", len(payload)) + payload + struct.pack(">I", zlib.crc32(payload))


PAYLOADS = [b"genesis", b"", b"x" * 300, bytes(range(256))]
FILE = MAGIC + b"".join(frame(p) for p in PAYLOADS)


def boundaries(payloads: list[bytes]) -> list[int]:
    """The file offsets where each frame ends (the magic's end first)."""
    ends = [len(MAGIC)]
    for payload in payloads:
        ends.append(ends[-1] + 8 + len(payload))
    return ends


# -- writing -------------------------------------------------------------------------------


def test_the_magic_is_ten_bytes():
    # "magic = 'P2PTABLE' 0x00 0x01": the name, a NUL and the format version 1.
    assert MAGIC == b"P2PTABLE\x00\x01" and len(MAGIC) == 10


def test_frames_are_length_payload_crc32():
    # "frame = u32be(len(payload)) || payload || u32be(crc32(payload))", CRC-32 as in
    # zlib (CRC-32/ISO-HDLC, check value cbf43926); the CRC covers the payload only.
    assert zlib.crc32(b"123456789") == 0xCBF43926
    for payload in PAYLOADS:
        assert encode_frame(payload) == frame(payload)
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc" + bytes.fromhex("352441c2")


def test_a_new_file_starts_with_the_magic(tmp_path):
    path = tmp_path / "game.p2pt"
    with LogWriter(path):
        pass
    assert path.read_bytes() == MAGIC


def test_the_writer_appends_frames_and_flushes_each_one(tmp_path):
    # "The writer flushes every frame to the operating system before returning":
    # another process (here: a plain read) sees each frame as soon as append returns.
    path = tmp_path / "game.p2pt"
    with LogWriter(path) as writer:
        for count, payload in enumerate(PAYLOADS, start=1):
            writer.append(payload)
            assert path.read_bytes() == MAGIC + b"".join(frame(p) for p in PAYLOADS[:count])
    assert path.read_bytes() == FILE


def test_reopening_appends_without_a_second_magic(tmp_path):
    # A writer reopening an existing log (a resumed game) appends after its frames.
    path = tmp_path / "game.p2pt"
    with LogWriter(path) as writer:
        writer.append(PAYLOADS[0])
    with LogWriter(path, fsync=True) as writer:
        for payload in PAYLOADS[1:]:
            writer.append(payload)
    assert path.read_bytes() == FILE
    assert path.read_bytes().count(MAGIC) == 1
    result = read_file(path)
    assert (result.payloads, result.error, result.good_length) == (PAYLOADS, None, len(FILE))


# -- reading -------------------------------------------------------------------------------


def test_a_well_formed_file_parses_completely():
    result = parse_frames(FILE)
    assert result.payloads == PAYLOADS
    assert result.error is None
    assert result.good_length == len(FILE)


def test_a_file_with_only_the_magic_has_no_entries():
    # Framing alone accepts it; verify then reports the missing genesis.
    result = parse_frames(MAGIC)
    assert (result.payloads, result.error, result.good_length) == ([], None, len(MAGIC))
    report = verify_bytes(MAGIC)
    assert (report.valid, report.error["entry"]) == (False, 0)
    assert report.error["reason"] == "no genesis entry"


@pytest.mark.parametrize(
    "data", [b"P2PTABLE\x00\x02", b"p2ptable\x00\x01", b"PK\x03\x04 a zip", b"\x00" * 10 + FILE]
)
def test_bad_magic_is_damage_not_a_torn_write(data):
    # Anything that does not start with the magic (including another format version)
    # is "not a p2ptable replay": torn=False, nothing read.
    result = parse_frames(data)
    assert result.payloads == [] and result.good_length == 0
    assert result.error.index == 0 and result.error.torn is False
    assert "bad magic" in result.error.reason


@pytest.mark.parametrize("cut", range(len(MAGIC)))
def test_a_file_truncated_inside_the_header_is_torn(cut):
    # A file shorter than the magic that is a prefix of it (the empty file included)
    # is a writer that crashed while creating it: torn=True at entry 0.
    result = parse_frames(MAGIC[:cut])
    assert result.payloads == [] and result.good_length == 0
    assert (result.error.index, result.error.torn) == (0, True)
    assert "header" in result.error.reason


def test_an_empty_file_is_a_torn_header():
    result = parse_frames(b"")
    assert (result.error.index, result.error.torn, result.good_length) == (0, True, 0)


def test_a_torn_last_frame_reports_its_index_and_the_good_length():
    # "The file ends inside a frame": torn=True, the index of the frame being written,
    # and good_length at the end of the last intact frame (where a writer would
    # truncate to before appending again).  Every cut inside the last frame, from
    # inside its length prefix to one byte short of its CRC's end, is torn.
    ends = boundaries(PAYLOADS)
    last = len(PAYLOADS) - 1
    for cut in range(ends[last] + 1, ends[last + 1]):
        result = parse_frames(FILE[:cut])
        assert result.payloads == PAYLOADS[:last], cut
        assert (result.error.index, result.error.torn) == (last, True), cut
        assert result.good_length == ends[last], cut
        assert "torn record" in result.error.reason


@given(st.integers(0, len(FILE)))
def test_any_prefix_is_complete_or_torn_never_damaged(cut):
    # A crash can stop a writer anywhere: reading the prefix it left never reports
    # damage, and keeps every frame that was completely written.
    result = parse_frames(FILE[:cut])
    ends = boundaries(PAYLOADS)
    intact = max(i for i, end in enumerate(ends) if end <= cut) if cut >= len(MAGIC) else 0
    assert result.payloads == PAYLOADS[:intact]
    if cut in ends:
        assert result.error is None and result.good_length == cut
    else:
        assert result.error.torn is True
        assert result.error.index == intact
        assert result.good_length == (ends[intact] if cut >= len(MAGIC) else 0)


def test_an_oversize_length_is_damage():
    # "len <= 1 MiB (1048576)": a larger length is a damaged frame even if the file
    # ends right after it, because no writer ever produces one.
    head = MAGIC + frame(b"genesis")
    for data in (
        head + struct.pack(">I", MAX_FRAME + 1),
        head + struct.pack(">I", 0xFFFFFFFF) + b"rest",
    ):
        result = parse_frames(data)
        assert result.payloads == [b"genesis"]
        assert (result.error.index, result.error.torn) == (1, False)
        assert result.good_length == len(head)
        assert "over the 1048576-byte limit" in result.error.reason


def test_a_frame_of_exactly_the_limit_is_allowed():
    payload = bytes(MAX_FRAME)
    result = parse_frames(MAGIC + frame(payload))
    assert result.error is None and result.payloads == [payload]


@pytest.mark.parametrize("where", ["payload", "crc"])
def test_a_crc_mismatch_is_damage(where):
    # A frame that is all there but whose CRC does not match was changed on disk.
    ends = boundaries(PAYLOADS)
    damaged = bytearray(FILE)
    position = ends[2] + 4 + 10 if where == "payload" else ends[3] - 1
    damaged[position] ^= 0x01
    result = parse_frames(bytes(damaged))
    assert result.payloads == PAYLOADS[:2]
    assert (result.error.index, result.error.torn) == (2, False)
    assert result.good_length == ends[2]
    assert "checksum mismatch" in result.error.reason


def test_reading_stops_at_the_first_bad_frame():
    # Nothing after a damaged frame is trusted: its length might be wrong too.
    ends = boundaries(PAYLOADS)
    damaged = bytearray(FILE)
    damaged[ends[1] + 5] ^= 0xFF
    assert parse_frames(bytes(damaged)).payloads == PAYLOADS[:1]


# -- where the damage is: the last record, or the middle ---------------------------------


def test_a_damaged_length_in_the_middle_is_not_a_torn_record():
    # Bug found in review: a length field damaged to claim more than the rest of
    # the file read as "torn", and resume cut every later entry off ("a finished
    # 159-entry game became 5").  Intact frames after it prove it is damage.
    ends = boundaries(PAYLOADS)
    damaged = bytearray(FILE)
    struct.pack_into(">I", damaged, ends[1], len(FILE))
    result = parse_frames(bytes(damaged))
    assert result.payloads == PAYLOADS[:1]
    assert (result.error.index, result.error.torn, result.error.tail) == (1, False, False)
    assert f"an intact frame follows at byte {ends[2]}" in result.error.reason


def test_a_torn_record_is_the_tail():
    ends = boundaries(PAYLOADS)
    result = parse_frames(FILE[: ends[-1] - 3])
    assert (result.error.torn, result.error.tail) == (True, True)


@pytest.mark.parametrize("frame_index, tail", [(3, True), (2, False), (0, False)])
def test_a_checksum_mismatch_is_the_tail_only_if_nothing_intact_follows(frame_index, tail):
    # Frame 1 is empty (8 zero bytes), which never counts as an intact entry, so
    # damage to frame 0 is followed by intact frames 2 and 3.
    ends = boundaries(PAYLOADS)
    damaged = bytearray(FILE)
    damaged[ends[frame_index + 1] - 1] ^= 0x01
    result = parse_frames(bytes(damaged))
    assert (result.error.index, result.error.torn, result.error.tail) == (frame_index, False, tail)
    assert ("an intact frame follows" in result.error.reason) is not tail


def test_bad_magic_is_never_a_tail():
    assert parse_frames(b"PK\x03\x04").error.tail is False


def test_next_intact_frame_finds_frames_and_skips_empty_ones():
    ends = boundaries(PAYLOADS)
    assert next_intact_frame(FILE, 0) == ends[0]
    assert next_intact_frame(FILE, ends[0] + 1) == ends[2]  # not the empty frame 1
    assert next_intact_frame(FILE, ends[3] + 1) is None
    assert frame_offsets(PAYLOADS) == ends[:-1]


# -- durability ----------------------------------------------------------------------------


@pytest.fixture
def syncs(monkeypatch):
    """Every fdatasync/fsync the writer asks for, as ("data"|"full", is a directory)."""
    calls: list[tuple[str, bool]] = []

    def record(kind):
        def call(fd):
            calls.append((kind, stat.S_ISDIR(os.fstat(fd).st_mode)))

        return call

    monkeypatch.setattr(logfile.os, "fdatasync", record("data"), raising=False)
    monkeypatch.setattr(logfile.os, "fsync", record("full"))
    return calls


def test_sync_puts_appended_frames_on_disk_once(tmp_path, syncs):
    # "an entry we sign reaches the disk (fsync, or an equivalent you measure)
    # before it leaves": sync() syncs the data of what was appended, and a new
    # file's directory entry the first time; a second sync with nothing new is free.
    path = tmp_path / "game.p2pt"
    with LogWriter(path, new=True) as writer:
        writer.append(b"genesis")
        assert syncs == []  # appending alone never waits for the disk
        writer.sync()
        assert syncs == [("data", False), ("full", True)]
        writer.sync()
        assert len(syncs) == 2
        writer.append(b"move")
        writer.sync()
        assert syncs[2:] == [("data", False)]


def test_fsync_true_syncs_every_append(tmp_path, syncs):
    path = tmp_path / "game.p2pt"
    with LogWriter(path, fsync=True) as writer:
        writer.append(b"a")
        writer.append(b"b")
    assert [kind for kind, is_dir in syncs if not is_dir] == ["data"] * 3  # magic, a, b


def test_cut_tail_keeps_the_whole_file_before_cutting(tmp_path):
    path = tmp_path / "game.p2pt"
    path.write_bytes(FILE)
    copy = cut_tail(path, 20)
    again = cut_tail(path, 10)
    assert path.read_bytes() == FILE[:10]
    assert copy.read_bytes() == FILE and again.read_bytes() == FILE[:20]
    assert copy != again and copy.name.startswith("game.p2pt.torn-")


# -- verify reports framing errors ---------------------------------------------------------


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"not a replay", "bad magic"),
        (b"", "file ends inside the header"),
        (MAGIC[:4], "file ends inside the header"),
        (MAGIC + frame(b"genesis")[:-1], "torn record"),
        (MAGIC + frame(b"genesis")[:-1] + b"\x00", "checksum mismatch"),
    ],
    ids=["bad-magic", "empty", "short-header", "torn-genesis", "damaged-genesis"],
)
def test_verify_reports_why_there_is_no_genesis(data, reason):
    # Regression: verify used to say "no genesis entry" whenever no frame was intact,
    # hiding the framing error (bad magic, a torn or damaged first frame).
    report = verify_bytes(data)
    assert (report.valid, report.error["entry"], report.entries) == (False, 0, 0)
    assert reason in report.error["reason"]


# -- simulations are reproducible ----------------------------------------------------------


def test_the_same_seed_gives_a_byte_identical_file(tmp_path):
    # Keys, chains, nonce and bots all come from the seed and Ed25519 is
    # deterministic (RFC 8032), so a simulation is reproducible byte for byte.
    first, second = tmp_path / "a.p2pt", tmp_path / "b.p2pt"
    simulate("pet-quartet", 3, "same", first, bots=["random"] * 3, chain_len=256)
    simulate("pet-quartet", 3, "same", second, bots=["random"] * 3, chain_len=256)
    assert first.read_bytes() == second.read_bytes()
    assert verify_bytes(first.read_bytes()).valid


def test_different_seeds_give_different_files(tmp_path):
    first, second = tmp_path / "a.p2pt", tmp_path / "b.p2pt"
    simulate("pet-quartet", 2, "one seed", first, bots=["random"] * 2, chain_len=256)
    simulate("pet-quartet", 2, "another seed", second, bots=["random"] * 2, chain_len=256)
    a, b = parse_frames(first.read_bytes()), parse_frames(second.read_bytes())
    # Even the genesis differs: other keys, chain heads and nonce.
    assert a.payloads[0] != b.payloads[0]
    assert first.read_bytes() != second.read_bytes()


def test_a_simulation_replaces_an_existing_file_only_when_told(tmp_path):
    # "a simulation always writes a fresh file": never appends to an old game.
    # Issue 22: other existing files are replaced only with force, a replay never
    # (tests/test_cli_outputs.py).
    path = tmp_path / "game.p2pt"
    path.write_bytes(b"old contents")
    with pytest.raises(OutputRefused, match="already exists"):
        simulate("pet-quartet", 2, "fresh", path, bots=["random"] * 2, chain_len=256)
    assert path.read_bytes() == b"old contents"
    simulate("pet-quartet", 2, "fresh", path, bots=["random"] * 2, chain_len=256, force=True)
    assert path.read_bytes().startswith(MAGIC)
    assert verify_bytes(path.read_bytes()).valid


def test_a_new_game_never_appends_to_an_existing_replay(tmp_path):
    # Bug found by hand: a second `play --replay same.p2pt` appended a second game
    # to the first one's file, which then failed to verify ("a second genesis").
    path = tmp_path / "game.p2pt"
    with LogWriter(path, new=True) as writer:
        writer.append(b"first")
    with pytest.raises(FileExistsError):
        LogWriter(path, new=True)
    assert parse_frames(path.read_bytes()).payloads == [b"first"]
