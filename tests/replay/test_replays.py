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
