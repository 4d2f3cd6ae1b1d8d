"""A replay that holds no whole entry next to a pending genesis (issue 22, 5).

"An empty replay file next to an intact `.pending` makes `resume` refuse ('holds
no entries'), and the other seats hang. `resume` must come back from it (the
pending genesis is the truth)."  The replay is made as the genesis completes: the
file, its header, the genesis frame, then a sync; :func:`unborn` says which files
a seat killed in between can leave, and nothing more (a file with a whole entry
is a replay to resume, whatever follows it).  The live case is in
tests/integration/test_genesis_resume.py.
"""

from __future__ import annotations

import pytest

from p2ptable.net.pending_genesis import set_aside, unborn
from p2ptable.replay.logfile import MAGIC, encode_frame


@pytest.mark.parametrize(
    "data",
    [
        b"",
        MAGIC[:3],
        MAGIC,
        MAGIC + b"\x00\x00",  # a torn length
        MAGIC + encode_frame(b"genesis body" * 10)[:-5],  # a torn genesis frame
        MAGIC + bytes(64),  # the size reached the disk, the data did not
    ],
    ids=["empty", "part of the header", "the header", "torn length", "torn genesis", "zeros"],
)
def test_what_a_seat_killed_while_making_its_replay_leaves_is_unborn(tmp_path, data):
    replay = tmp_path / "Ben.p2pt"
    replay.write_bytes(data)
    assert unborn(replay)
    kept = set_aside(replay)
    assert not replay.exists() and kept.read_bytes() == data  # nothing is lost
    assert kept.name.startswith("Ben.p2pt.torn-")


@pytest.mark.parametrize(
    "data",
    [
        MAGIC + encode_frame(b"x"),  # a whole entry: a replay to resume (or refuse)
        MAGIC + encode_frame(b"x") + b"\x00\x01",
        b"not a replay at all, and longer than a header",
        b"PNG\x00" + bytes(8),
    ],
)
def test_a_file_with_a_whole_entry_or_of_another_kind_is_not_unborn(tmp_path, data):
    replay = tmp_path / "Ben.p2pt"
    replay.write_bytes(data)
    assert not unborn(replay)
    assert not unborn(tmp_path / "missing.p2pt")
