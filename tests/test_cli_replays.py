"""`p2ptable replays`: the replays a person has saved, newest first (issue 11).

Issue 11: "The replays a person has saved can be listed (`p2ptable replays`: newest
first, game, players, result), since their names are long."  The listing reads the
data directory (XDG_DATA_HOME respected), shows a damaged or foreign file as such
and never opens the secrets and peer logs kept next to the replays.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.cli import main
from p2ptable.replay.catalog import describe, list_replays
from p2ptable.replay.entries import Entry, make_body
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames

REPLAYS = Path(__file__).resolve().parents[1] / "replays"


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    """An empty data directory for this test, as a person's XDG_DATA_HOME."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "xdg" / "p2ptable" / "replays"
    folder.mkdir(parents=True)
    return folder


def sim(out: Path, *args: str) -> None:
    result = CliRunner().invoke(main, ["sim", *args, "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output


def at(path: Path, when: int) -> Path:
    os.utime(path, (when, when))
    return path


def listing(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["replays", *args])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_lists_the_data_directory_newest_first_with_game_players_and_result(data):
    sim(data / "old.p2pt", "pet-quartet", "-n", "3", "--seed", "a")
    sim(data / "new.p2pt", "vorsicht-lehrer", "-n", "4", "--seed", "b")
    at(data / "old.p2pt", 1_700_000_000)
    at(data / "new.p2pt", 1_800_000_000)
    lines = listing()
    assert lines[0] == f"Replays in {data}, newest first (read, not verified):"
    assert lines[2] == f"    {data / 'new.p2pt'}"
    assert lines[4] == f"    {data / 'old.p2pt'}"
    assert len(lines) == 5
    new, old = lines[1], lines[3]
    assert "vorsicht-lehrer" in new and "Ana, Ben, Cleo, Dev" in new
    assert "pet-quartet" in old and "Ana, Ben, Cleo" in old
    # The winner and the entry count are the ones verify finds.
    from p2ptable.replay.verify import verify_file

    for line, name in ((new, "new.p2pt"), (old, "old.p2pt")):
        report = verify_file(data / name)
        winner = report.seats[report.result["winners"][0]]["name"]
        assert f"winner: {winner}  ({report.entries} entries)" in line


def test_the_date_is_when_the_file_was_last_written(data):
    import time

    sim(data / "g.p2pt", "pet-quartet", "-n", "2", "--seed", "d")
    when = 1_750_000_000
    at(data / "g.p2pt", when)
    assert listing()[1].startswith(time.strftime("%Y-%m-%d %H:%M", time.localtime(when)))


def test_secrets_and_peer_logs_are_not_listed_or_opened(data, monkeypatch):
    sim(data / "g.p2pt", "pet-quartet", "-n", "2", "--seed", "s")
    (data / "g.p2pt.secrets").write_text("{}")
    (data / "g.p2pt.peer.log").write_text("peer log\n")
    (data / "notes.txt").write_text("hello\n")
    (data / "folder.p2pt").mkdir()
    read = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real(self))
    lines = listing()
    assert len(lines) == 3 and lines[2] == f"    {data / 'g.p2pt'}"
    assert read == ["g.p2pt"]


def test_an_unfinished_and_a_stopped_game_say_so(data, tmp_path):
    sim(full := tmp_path / "full.p2pt", "pet-quartet", "-n", "2", "--seed", "u")
    payloads = parse_frames(full.read_bytes()).payloads
    (data / "cut.p2pt").write_bytes(MAGIC + b"".join(map(encode_frame, payloads[:30])))
    torn = MAGIC + b"".join(map(encode_frame, payloads[:30])) + encode_frame(payloads[30])[:-3]
    (data / "torn.p2pt").write_bytes(torn)
    assert describe(data / "cut.p2pt").ended == "unfinished"
    assert describe(data / "cut.p2pt").entries == 30
    assert describe(data / "torn.p2pt").ended == "unfinished (last record torn)"
    # A game stopped by an abort entry (unsigned here: the listing does not verify).
    abort = make_body(t="abort", i=30, prev=bytes(32), reason="withheld", culprit=1,
                      detail="", evidence=[])  # fmt: skip
    stopped = MAGIC + b"".join(map(encode_frame, payloads[:30]))
    (data / "stopped.p2pt").write_bytes(stopped + encode_frame(Entry(abort, ((0, b""),)).encode()))
    assert describe(data / "stopped.p2pt").ended == "stopped: withheld (Ben)"


def test_damaged_foreign_and_empty_files_are_listed_as_such(data):
    good = (REPLAYS / "pet-quartet-3p-maestro.p2pt").read_bytes()
    damaged = bytearray(good)
    damaged[-30] ^= 1
    (data / "damaged.p2pt").write_bytes(bytes(damaged))
    (data / "foreign.p2pt").write_bytes(b"PK\x03\x04 a zip file, renamed")
    (data / "empty.p2pt").write_bytes(b"")
    (data / "junk.p2pt").write_bytes(MAGIC + encode_frame(b"\x93junk"))
    ended = {p.path.name: p.ended for p in list_replays(data)}
    assert ended["damaged.p2pt"].startswith("damaged at entry 206: checksum mismatch")
    assert ended["foreign.p2pt"] == "not a p2ptable replay (bad magic)"
    assert ended["empty.p2pt"] == "empty file"
    assert ended["junk.p2pt"] == "not a replay: no genesis entry"
    assert describe(data / "damaged.p2pt").players == ("Ana", "Ben", "Cleo")


def test_names_from_a_file_cannot_reach_the_terminal_as_escapes(data):
    """A genesis anyone wrote may name a seat "\\x1b]0;owned\\x07": the listing is
    read without verifying, so it keeps printable characters only."""
    seat = {"name": "\x1b]0;owned\x07Eve", "key": bytes(32), "chain": bytes(32), "link": bytes(32)}
    body = make_body(t="genesis", protocol="p2ptable/1", game="pet-quartet\x1b[2J",
                     options={}, seats=[seat], chain_len=1, nonce=bytes(16))  # fmt: skip
    (data / "evil.p2pt").write_bytes(MAGIC + encode_frame(Entry(body, ()).encode()))
    saved = describe(data / "evil.p2pt")
    assert saved.players == ("]0;ownedEve",) and saved.game == "pet-quartet[2J"
    assert "\x1b" not in "\n".join(listing())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=4), st.booleans())
def test_any_file_is_described_without_an_exception(tmp_path_factory, payloads, torn):
    path = tmp_path_factory.mktemp("any") / "x.p2pt"
    data = MAGIC + b"".join(map(encode_frame, payloads))
    path.write_bytes(data[:-2] if torn and payloads else data)
    saved = describe(path)
    assert saved.ended and saved.path == path


def test_no_data_directory_yet_is_not_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nothing-yet"))
    lines = listing()
    assert lines == [f"No replays in {tmp_path / 'nothing-yet' / 'p2ptable' / 'replays'}."]


def test_dir_lists_another_folder(data, tmp_path):
    other = tmp_path / "elsewhere"
    other.mkdir()
    shutil.copy(REPLAYS / "pet-quartet-2p-duet-advanced.p2pt", other / "duet.p2pt")
    lines = listing("--dir", str(other))
    assert lines[0] == f"Replays in {other}, newest first (read, not verified):"
    assert "pet-quartet" in lines[1] and lines[2] == f"    {other / 'duet.p2pt'}"
    assert listing() == [f"No replays in {data}."]


def test_dir_that_does_not_exist_is_an_error(tmp_path):
    result = CliRunner().invoke(main, ["replays", "--dir", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert result.output.rstrip().endswith(f"Error: Invalid value for --dir: no such folder: "
                                           f"{tmp_path / 'nope'}")  # fmt: skip
