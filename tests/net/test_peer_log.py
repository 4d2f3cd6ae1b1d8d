"""The peer log stays small whatever others send.

Issue 12: "every rejected frame appends a line to the peer log (unbounded disk)"
and "peer-log lines for rejected frames are aggregated per sender and reason".
"""

from __future__ import annotations

from p2ptable.net.peer_log import MAX_EARLY, MAX_KINDS, PeerLog


def test_a_flood_of_one_kind_is_one_line_then_a_count(tmp_path):
    log = PeerLog()
    log.path = tmp_path / "x.peer.log"
    for seq in range(10_000):
        log.rejected("seat 2 (Ben)", f"replayed message (seq {seq} already seen)", now=0.5)
    log.summarize(now=1.0)
    lines = log.path.read_text().splitlines()
    assert len(lines) == 2
    assert "rejected a message from seat 2 (Ben): replayed message (seq 0 already seen)" in lines[0]
    assert "rejected 9999 more messages from seat 2 (Ben) like: replayed message (seq N" in lines[1]


def test_kinds_are_bounded_too(tmp_path):
    log = PeerLog()
    log.path = tmp_path / "x.peer.log"
    for i in range(5_000):
        log.rejected(f"10.0.{i // 256}.{i % 256}", f"reason {chr(65 + i % 26)}{i}", now=0.0)
    log.summarize(now=1.0)
    lines = log.path.read_text().splitlines()
    assert len(lines) <= MAX_KINDS + MAX_KINDS + 1
    assert "too many kinds" in lines[-1]


def test_lines_before_the_replay_exists_are_kept_within_a_bound(tmp_path):
    log = PeerLog()
    for i in range(MAX_EARLY + 100):
        log.note(f"lobby line {i}")
    log.path = tmp_path / "x.peer.log"
    log.note("the game began")
    lines = log.path.read_text().splitlines()
    assert len(lines) == MAX_EARLY + 1 and lines[-1].endswith("the game began")


def test_seats_are_counted_from_one_and_named_as_everywhere_else():
    # Issue 25: the peer log's "seat 2 wins" was the screen's seat 3 (0- vs 1-based).
    from p2ptable.net.peer_log import seats_named

    said = seats_named("seat 2 wins with 7 points; seat 0 and seat 9", ["Ana", "Ben", "Cleo"])
    assert said == "seat 3 (Cleo) wins with 7 points; seat 1 (Ana) and seat 10"
