"""`show` on the full-screen table (issue 25): a replay stepped with the arrows,
from the replay viewer's checked ledger."""

from __future__ import annotations

import asyncio
from pathlib import Path

from p2ptable.ui.replay_viewer import Viewer
from p2ptable.ui.tui.app import screen_text
from p2ptable.ui.tui.replay import ReplayApp

REPLAY = Path(__file__).parents[3] / "replays" / "teachers-pet-4p.p2pt"


def test_the_arrows_step_and_end_shows_the_final_scores() -> None:
    async def run() -> None:
        viewer = Viewer(REPLAY)
        app = ReplayApp(viewer, 180, seat=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            shown = screen_text(app)
            assert "After entry 180 of" in shown and "Ben's view" in shown
            assert "Your hand" in shown and "Players" in shown and "Active Teacher" in shown
            await pilot.press("right")
            await pilot.pause()
            assert "After entry 181 of" in screen_text(app)
            await pilot.press("left", "left")
            await pilot.pause()
            assert "After entry 179 of" in screen_text(app)
            await pilot.press("end")
            await pilot.pause()
            assert "final Pet Points" in screen_text(app)
            await pilot.press("q")
        assert app.return_code == 0

    asyncio.run(run())


def test_a_damaged_tail_is_said_at_the_last_entry(tmp_path: Path) -> None:
    torn = tmp_path / "torn.p2pt"
    torn.write_bytes(REPLAY.read_bytes() + b"\x00\x00\x00\x09junk")

    async def run() -> None:
        viewer = Viewer(torn)
        app = ReplayApp(viewer, viewer.last)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "The replay is invalid at entry" in screen_text(app)
            await pilot.press("ctrl+c")
        assert app.return_code == 130

    asyncio.run(run())
