"""Every recorded game in replays/ verifies (CI runs this on each submission)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2ptable.replay.verify import verify_file

REPLAYS = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.p2pt"))


def test_there_are_recorded_games():
    assert REPLAYS


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_recorded_game_verifies(path):
    report = verify_file(path)
    assert report.valid, report.error
    assert report.result is not None


@pytest.mark.parametrize(
    ("name", "leaver", "shares"),
    [
        ("teachers-pet-4p-killed-for-good.p2pt", "Dev", 3),  # rebuilt from the 3 others' shares
        ("vorsicht-lehrer-3p-left-on-purpose.p2pt", "Ben", 1),  # its own secret, shown by itself
    ],
)
def test_the_recorded_departures_hold_what_rebuilds_the_leavers_secret(name, leaver, shares):
    """Issue 27's recorded games (replay.md section 4, departure; 9.8): one seat
    gone for good (kill -9, never resumed) and one that typed `leave`; each log
    holds one departure of that seat, in the form of its case, and verifies."""
    from p2ptable.replay.entries import Entry
    from p2ptable.replay.kinds import Kind
    from p2ptable.replay.logfile import parse_frames

    path = Path(__file__).resolve().parents[2] / "replays" / name
    report = verify_file(path)
    assert report.valid and report.audited, report.error
    seat = [s["name"] for s in report.seats].index(leaver)
    entries = [Entry.decode(p) for p in parse_frames(path.read_bytes()).payloads]
    (gone,) = [e for e in entries if e.kind == Kind.DEPARTURE]
    assert gone.body["of"] == seat and len(gone.body["seats"]) == shares
    after = entries[gone.body["i"] + 1 :]
    assert any(e.kind == Kind.ACTION and e.body.get("seat") == seat and not e.sigs for e in after)
