"""What a peer keeps on disk for `p2ptable resume` (net/persistence.py).

Issue 3: "a player whose process died (kill -9) starts again from its replay file
and its saved secrets ... Secrets are stored with owner-only permissions."
Issue 4: the seat's deck secret is kept with them, so a resumed seat reads its hand.
Issue 12: "`resume` never shortens a replay silently: a torn last record is cut
after a copy of the original is kept; damage in the middle is refused with the
entry index." and "`resume` errors: every damaged or wrong secrets/replay input is
a one-line `Error:`."
"""

from __future__ import annotations

import json
import os
import stat
import struct
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptable.net.persistence import (
    ResumeError,
    load_resume,
    save_secrets,
    secrets_path,
)
from p2ptable.net.seat_lock import hold_seat_lock, lock_path
from p2ptable.replay import authoring
from p2ptable.replay.logfile import MAGIC, LogWriter, frame_offsets, parse_frames
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import simulate
from tests.budget import examples

NONCE = b"\x03" * 16
ENDPOINTS = ["tcp://127.0.0.1:4001", "tcp://127.0.0.1:4002"]
CHAIN = 256


def write_game(tmp_path, seat: int = 1):
    """A Vorsicht Lehrer! table (hidden hands, so a deck key) with only its genesis."""
    seats = [authoring.SeatSecrets.from_seed(b"persist", i, 64) for i in range(2)]
    genesis = authoring.local_genesis(
        "vorsicht-lehrer", {"track": "100"}, ["Ana", "Ben"], seats, 64, NONCE
    )
    replay = tmp_path / "Ben.p2pt"
    with LogWriter(replay, new=True) as writer:
        writer.append(genesis.encode())
    save_secrets(replay, seats[seat], seat, ENDPOINTS, 4001 + seat)
    return replay, seats


def finished_game(tmp_path, seat: int = 1, seed: str = "persist") -> Path:
    """A whole two-seat Pet Quartet game (about 150 entries) and seat 1's secrets."""
    replay = tmp_path / "Ben.p2pt"
    simulate("pet-quartet", 2, seed, replay, bots=["random"] * 2, chain_len=CHAIN)
    secrets = authoring.SeatSecrets.from_seed(seed.encode(), seat, CHAIN)
    save_secrets(replay, secrets, seat, ENDPOINTS, 4001 + seat)
    return replay


def siblings(replay: Path) -> set[str]:
    return {p.name for p in replay.parent.iterdir()} - {replay.name, secrets_path(replay).name}


# -- the secrets file ----------------------------------------------------------------------


def test_the_deck_secret_is_saved_owner_only_and_read_back(tmp_path):
    replay, seats = write_game(tmp_path)
    secrets = secrets_path(replay)
    assert stat.S_IMODE(os.stat(secrets).st_mode) == 0o600
    resumed = load_resume(replay)
    assert resumed.seat == 1 and resumed.secrets.deck == seats[1].deck
    assert resumed.ledger.book.readers == {1: seats[1].deck}
    assert resumed.notice is None


def test_a_host_admitting_spectators_keeps_its_code_and_no_other_seat_has_one(tmp_path):
    # A resumed host admits its spectators again with the same code (net/peer.py):
    # it keeps the code with its secrets, the owner's file alone.
    replay, seats = write_game(tmp_path, seat=0)
    assert load_resume(replay).spectators_code is None  # saved without (and files of before)
    save_secrets(replay, seats[0], 0, ENDPOINTS, 4001, spectators_code="7KQ-M2X")
    assert load_resume(replay).spectators_code == "7KQ-M2X"
    assert stat.S_IMODE(os.stat(secrets_path(replay)).st_mode) == 0o600


def test_the_secrets_file_is_replaced_whole_and_owner_only(tmp_path):
    # "The secrets file must also be written durably (write temp + fsync + rename +
    # fsync dir)": an old file is replaced, not rewritten in place (so a crash
    # leaves the old one or the new one), keeps no temporary behind, and is
    # owner-only even if the old one was not.
    replay, seats = write_game(tmp_path)
    path = secrets_path(replay)
    os.chmod(path, 0o644)
    before = os.stat(path).st_ino
    save_secrets(replay, seats[1], 1, ENDPOINTS, 4002)
    assert os.stat(path).st_ino != before  # a new file, renamed over the old
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert siblings(replay) == set()
    assert json.loads(path.read_text())["seat"] == 1


def test_a_secrets_file_without_a_deck_secret_is_a_clear_error(tmp_path):
    # Found in review: a secrets file written before deck secrets existed made
    # resume fail with a bare KeyError.
    replay, _ = write_game(tmp_path)
    secrets = secrets_path(replay)
    data = json.loads(secrets.read_text())
    del data["deck"]
    secrets.write_text(json.dumps(data))
    with pytest.raises(ResumeError, match="no deck secret"):
        load_resume(replay)


# -- damage: a torn last record is cut (a copy kept), anything else refused ----------------


def test_a_damaged_length_in_the_middle_is_refused_not_cut(tmp_path):
    # The review: "A damaged length prefix anywhere makes `resume` cut the rest of
    # the file off in place, silently (a finished 159-entry game became 5)."
    replay = finished_game(tmp_path)
    original = replay.read_bytes()
    offsets = frame_offsets(parse_frames(original).payloads)
    assert len(offsets) > 100
    damaged = bytearray(original)
    # Entry 5's length now claims more than the rest of the file.
    struct.pack_into(">I", damaged, offsets[5], len(original))
    replay.write_bytes(bytes(damaged))
    with pytest.raises(ResumeError, match="entry 5 is damaged") as caught:
        load_resume(replay)
    assert "nothing was changed" in str(caught.value)
    assert replay.read_bytes() == bytes(damaged)  # not cut
    assert siblings(replay) == set()  # and no copy needed


@pytest.mark.parametrize("where", ["length", "payload", "crc"])
def test_any_damage_with_entries_after_it_is_refused_with_its_index(tmp_path, where):
    replay = finished_game(tmp_path)
    original = replay.read_bytes()
    offsets = frame_offsets(parse_frames(original).payloads)
    damaged = bytearray(original)
    position = {"length": offsets[40] + 3, "payload": offsets[40] + 20, "crc": offsets[41] - 1}
    damaged[position[where]] ^= 0x01
    replay.write_bytes(bytes(damaged))
    with pytest.raises(ResumeError, match="entry 40 is damaged"):
        load_resume(replay)
    assert replay.read_bytes() == bytes(damaged)
    assert siblings(replay) == set()


@pytest.mark.parametrize("short", [1, 5, 30, "all-but-length"])
def test_a_torn_last_record_is_cut_after_a_copy_is_kept(tmp_path, short):
    # "a torn LAST record is cut only after a copy of the original file is kept
    # next to it ... say it in the message".
    replay = finished_game(tmp_path)
    whole = replay.read_bytes()
    payloads = parse_frames(whole).payloads
    last = frame_offsets(payloads)[-1]
    cut = last + 2 if short == "all-but-length" else len(whole) - short
    torn = whole[:cut]
    replay.write_bytes(torn)
    resumed = load_resume(replay)
    assert resumed.ledger.next_index == len(payloads) - 1
    assert replay.read_bytes() == whole[:last]
    (copy,) = siblings(replay)
    assert copy.startswith("Ben.p2pt.torn-")
    assert (tmp_path / copy).read_bytes() == torn
    assert copy in resumed.notice and f"entry {len(payloads) - 1}" in resumed.notice
    assert verify_bytes(replay.read_bytes()).entries == len(payloads) - 1


def test_a_damaged_last_record_is_cut_like_a_torn_one(tmp_path):
    # A power cut can leave the last frame's bytes half written (its checksum
    # fails) with nothing after it: it is the last record, so it is cut the same way.
    replay = finished_game(tmp_path)
    whole = replay.read_bytes()
    damaged = bytearray(whole)
    damaged[-10] ^= 0xFF
    replay.write_bytes(bytes(damaged))
    resumed = load_resume(replay)
    last = frame_offsets(parse_frames(whole).payloads)[-1]
    assert replay.read_bytes() == whole[:last]
    assert "checksum mismatch" in resumed.notice
    (copy,) = siblings(replay)
    assert (tmp_path / copy).read_bytes() == bytes(damaged)


def test_a_tail_of_zeros_is_cut_like_a_torn_record(tmp_path):
    # On some file systems a power cut keeps a file's new size and not its data:
    # the tail reads as zeros (which frame as empty payloads, never an entry).
    replay = finished_game(tmp_path)
    whole = replay.read_bytes()
    replay.write_bytes(whole + bytes(4099))
    resumed = load_resume(replay)
    assert replay.read_bytes() == whole
    assert "zero bytes" in resumed.notice
    assert resumed.ledger.next_index == len(parse_frames(whole).payloads)


def test_two_cuts_keep_two_copies(tmp_path):
    replay = finished_game(tmp_path)
    whole = replay.read_bytes()
    replay.write_bytes(whole[:-3])
    load_resume(replay)
    replay.write_bytes(replay.read_bytes()[:-3])
    load_resume(replay)
    assert len(siblings(replay)) == 2


def test_a_refused_resume_changes_nothing_even_with_a_torn_tail(tmp_path):
    # Everything is checked before the cut: wrong secrets with a torn tail leave
    # the replay as it was, and keep no copy.
    replay = finished_game(tmp_path)
    torn = replay.read_bytes()[:-3]
    replay.write_bytes(torn)
    path = secrets_path(replay)
    data = json.loads(path.read_text())
    data["seat"] = 0
    path.write_text(json.dumps(data))
    with pytest.raises(ResumeError, match="says seat 0, but its key is seat 1's"):
        load_resume(replay)
    assert replay.read_bytes() == torn and siblings(replay) == set()


def test_an_entry_that_does_not_verify_is_refused_with_its_index(tmp_path):
    # Well framed but not the game's next entry (here: entry 7 twice).
    replay = finished_game(tmp_path)
    payloads = parse_frames(replay.read_bytes()).payloads
    from p2ptable.replay.logfile import encode_frame

    data = MAGIC + b"".join(encode_frame(p) for p in payloads[:8] + payloads[7:])
    replay.write_bytes(data)
    with pytest.raises(ResumeError, match="entry 8 does not verify"):
        load_resume(replay)
    assert replay.read_bytes() == data


# -- every wrong input is a one-line ResumeError -------------------------------------------


def _set(field, value):
    def change(data):
        data[field] = value

    return change


def _drop(field):
    def change(data):
        del data[field]

    return change


SECRETS_CASES = {
    "seat 99": (_set("seat", 99), "says seat 99, but the game has seats 0 to 1"),
    "seat -1": (_set("seat", -1), "says seat -1, but the game has seats 0 to 1"),
    "seat as text": (_set("seat", "1"), "'seat' is not a int"),
    "seat true": (_set("seat", True), "'seat' is not a int"),
    "no key": (_drop("key"), "has no 'key'"),
    "no endpoints": (_drop("endpoints"), "has no 'endpoints'"),
    "key not hex": (_set("key", "zz" * 32), "'key' is not 64 hex digits"),
    "key short": (_set("key", "ab" * 16), "'key' is not 64 hex digits"),
    "key with spaces": (_set("key", "ab " * 21 + "a"), "'key' is not 64 hex digits"),
    "deck not hex": (_set("deck", "0x" + "1" * 62), "'deck' is not 64 hex digits"),
    "deck zero": (_set("deck", "0" * 64), "deck secret is out of range"),
    "deck wrong": (_set("deck", "1" * 64), "deck secret is not seat 1's deck key"),
    "chain secret not hex": (_set("chain_secret", "g" * 64), "'chain_secret' is not 64 hex"),
    "chain secret wrong": (_set("chain_secret", "1" * 64), "chain_secret is not the one"),
    "link wrong": (_set("link", "2" * 64), "link key is not the one"),
    "chain_len 0": (_set("chain_len", 0), "chain_len 0 is not positive"),
    "chain_len -5": (_set("chain_len", -5), "chain_len -5 is not positive"),
    "chain_len float": (_set("chain_len", 64.0), "'chain_len' is not a int"),
    "chain_len other": (_set("chain_len", 10**12), "chain_len 1000000000000 is not the game's"),
    "one endpoint": (_set("endpoints", ENDPOINTS[:1]), "lists 1 endpoints for a game of 2"),
    "three endpoints": (_set("endpoints", ENDPOINTS * 2), "lists 4 endpoints for a game of 2"),
    "endpoints not a list": (_set("endpoints", "tcp://1.2.3.4:5"), "'endpoints' is not a list"),
    "endpoint a name": (
        _set("endpoints", ["tcp://a:1", ENDPOINTS[1]]),
        "endpoint 0 is 'tcp://a:1', not tcp://IP:PORT",
    ),
    "endpoint not text": (_set("endpoints", [5, ENDPOINTS[1]]), "endpoint 0 is 5, not tcp://"),
    "endpoint no port": (
        _set("endpoints", [ENDPOINTS[0], "tcp://127.0.0.1"]),
        "endpoint 1 is 'tcp://127.0.0.1', not tcp://IP:PORT",
    ),
    "endpoint port 0": (
        _set("endpoints", ["tcp://127.0.0.1:0", ENDPOINTS[1]]),
        "endpoint 0 has port 0",
    ),
    "endpoint bad address": (
        _set("endpoints", ["tcp://300.1.1.1:4", ENDPOINTS[1]]),
        "endpoint 0 is 'tcp://300.1.1.1:4'",
    ),
    "port 70000": (_set("port", 70000), "port 70000 is not 1 to 65535"),
    "port 0": (_set("port", 0), "port 0 is not 1 to 65535"),
    "port not its endpoint's": (_set("port", 4001), "port 4001 is not its own endpoint's"),
    "spectators not text": (_set("spectators", 5), "'spectators' is not a join code"),
    "spectators empty": (_set("spectators", ""), "'spectators' is not a join code"),
}


@pytest.mark.parametrize("case", SECRETS_CASES, ids=list(SECRETS_CASES))
def test_every_wrong_secrets_field_is_a_one_line_resume_error(tmp_path, case):
    # The review: "`resume` tracebacks on ... secrets that are not JSON or miss a
    # key, seat 99 (seat -1 is accepted), a non-hex deck secret, `chain_len` 0, a
    # short endpoint list".
    change, message = SECRETS_CASES[case]
    replay, _ = write_game(tmp_path)
    path = secrets_path(replay)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(ResumeError) as caught:
        load_resume(replay)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


FILE_CASES = {
    "secrets not JSON": ("secrets", b"{not json", "is not JSON"),
    "secrets not UTF-8": ("secrets", b"\xff\xfe{}", "is not JSON"),
    "secrets nested deep": ("secrets", b"[" * 50_000, "is not JSON"),
    "secrets a list": ("secrets", b"[1, 2]", "is not a JSON object"),
    "secrets empty": ("secrets", b"", "is not JSON"),
    "secrets huge": ("secrets", b" " * 100_000 + b"{}", "too big to be one"),
    "replay empty": ("replay", b"", "holds no entries"),
    "replay only the magic": ("replay", MAGIC, "holds no entries"),
    "replay not a replay": ("replay", b"PK\x03\x04 a zip file", "is not a p2ptable replay"),
    "replay genesis malformed": (
        "replay",
        MAGIC + b"\x00\x00\x00\x03abc" + bytes.fromhex("352441c2"),
        "entry 0 is malformed",
    ),
}


@pytest.mark.parametrize("case", FILE_CASES, ids=list(FILE_CASES))
def test_every_broken_file_is_a_one_line_resume_error(tmp_path, case):
    which, content, message = FILE_CASES[case]
    replay, _ = write_game(tmp_path)
    (secrets_path(replay) if which == "secrets" else replay).write_bytes(content)
    with pytest.raises(ResumeError) as caught:
        load_resume(replay)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_files_are_resume_errors(tmp_path):
    replay, _ = write_game(tmp_path)
    with pytest.raises(ResumeError, match="no replay file at"):
        load_resume(tmp_path / "nothing.p2pt")
    secrets_path(replay).unlink()
    with pytest.raises(ResumeError, match="no secrets file next to the replay"):
        load_resume(replay)


def test_secrets_of_another_game_are_refused(tmp_path):
    replay, _ = write_game(tmp_path)
    stranger = authoring.SeatSecrets.from_seed(b"another game", 1, 64)
    save_secrets(replay, stranger, 1, ENDPOINTS, 4002)
    with pytest.raises(ResumeError, match="belongs to another game or seat"):
        load_resume(replay)


@pytest.fixture(scope="module")
def real_files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("real")
    replay = finished_game(tmp, seed="mutate")
    return replay.read_bytes(), secrets_path(replay).read_bytes()


def _mutate_json(value, draw):
    """Replace one field of the secrets object with an arbitrary JSON value."""
    if not isinstance(value, dict):
        return value
    key = draw(st.sampled_from([*value, "extra"]))
    value = dict(value)
    choice = draw(st.integers(0, 2))
    if choice == 0:
        value.pop(key, None)
    else:
        value[key] = draw(
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=70),
                lambda inner: st.lists(inner, max_size=4),
                max_leaves=6,
            )
        )
    return value


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_mutation_of_real_files_escapes_as_anything_but_resume_error(real_files, data):
    # "no other exception type ever escapes: add a hypothesis test that mutates a
    # real secrets file and replay and asserts only ResumeError or success".
    replay_bytes, secrets_bytes = real_files
    target = data.draw(st.sampled_from(["replay", "secrets-json", "secrets-bytes"]))
    if target == "replay":
        damaged = bytearray(replay_bytes)
        for _ in range(data.draw(st.integers(1, 3))):
            kind = data.draw(st.sampled_from(["flip", "cut", "insert"]))
            where = data.draw(st.integers(0, max(0, len(damaged) - 1)))
            if kind == "flip" and damaged:
                damaged[where] ^= data.draw(st.integers(1, 255))
            elif kind == "cut":
                del damaged[where:]
            else:
                damaged[where:where] = data.draw(st.binary(min_size=1, max_size=16))
        replay_bytes = bytes(damaged)
    elif target == "secrets-json":
        mutated = _mutate_json(json.loads(secrets_bytes), data.draw)
        secrets_bytes = json.dumps(mutated).encode()
    else:
        damaged = bytearray(secrets_bytes)
        where = data.draw(st.integers(0, len(damaged) - 1))
        damaged[where] = data.draw(st.integers(0, 255))
        secrets_bytes = bytes(damaged)
    with tempfile.TemporaryDirectory() as tmp:
        replay = Path(tmp) / "Ben.p2pt"
        replay.write_bytes(replay_bytes)
        secrets_path(replay).write_bytes(secrets_bytes)
        try:
            resumed = load_resume(replay)
        except ResumeError as exc:
            assert "\n" not in str(exc)
            # Refused: nothing on disk changed.
            assert replay.read_bytes() == replay_bytes
            assert siblings(replay) == set()
        else:
            # Resumed: the log kept is every entry the file held intact, and if a
            # tail was cut the original is kept beside it.
            assert resumed.ledger.next_index == len(parse_frames(replay.read_bytes()).payloads)
            if replay.read_bytes() != replay_bytes:
                (copy,) = siblings(replay)
                assert (Path(tmp) / copy).read_bytes() == replay_bytes


# -- a running seat is locked --------------------------------------------------------------


def test_a_seat_lock_refuses_a_second_holder_and_frees_on_release(tmp_path):
    # "Resuming a seat that is still running says so": the second lock (here a
    # second file descriptor in this process) is refused with the holder's pid.
    replay, _ = write_game(tmp_path)
    with hold_seat_lock(replay):
        with pytest.raises(ResumeError, match=rf"still running \(pid {os.getpid()}\)"):
            hold_seat_lock(replay)
        load_resume(replay)  # the holder itself may read its seat back
    assert not lock_path(replay).exists()  # released: the lock file is gone
    with hold_seat_lock(replay):
        pass


HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from p2ptable.net.seat_lock import hold_seat_lock
    lock = hold_seat_lock(Path(sys.argv[1]))
    print("held", flush=True)
    time.sleep(60)
    """
)


def test_resuming_a_seat_another_process_runs_says_so(tmp_path):
    replay, _ = write_game(tmp_path)
    torn = replay.read_bytes()[:-2]
    replay.write_bytes(torn)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(replay)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ResumeError, match=rf"still running \(pid {holder.pid}\)"):
            load_resume(replay)
        assert replay.read_bytes() == torn  # the running seat's file is left alone
        with pytest.raises(ResumeError, match="still running"):
            hold_seat_lock(replay)
    finally:
        holder.kill()
        holder.wait(timeout=10)
    # Killed (as by a crash): the kernel dropped its lock, so the seat resumes.
    with hold_seat_lock(replay):
        with pytest.raises(ResumeError, match="holds no entries"):
            load_resume(replay)
