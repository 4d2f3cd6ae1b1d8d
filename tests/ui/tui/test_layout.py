"""The full-screen table's layout, through Textual's pilot (issue 25).

"Everything needed to choose is in view at 80x24; at 60 columns the panes
stack; at 120x40 and up the board grows."  Each game's turn (and Teacher's
Pet's longest menu) is drawn at the three sizes and compared with a text
snapshot kept in tests/ui/tui/snapshots/ (``P2PTABLE_UPDATE_SNAPSHOTS=1``
writes them anew: read the diff before committing it).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from p2ptable.ui.tui.app import TableApp, screen_text
from p2ptable.ui.tui.channel import Link
from p2ptable.ui.tui.snapshot import Snapshot
from tests.ui.tui.tables import tables

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZES = [(80, 24), (60, 30), (120, 40)]
TABLES = tables()


def drawn(snap: Snapshot, size: tuple[int, int]) -> tuple[str, dict[str, tuple]]:
    """The screen's text, and where the panes are (x, y, width, height)."""

    async def run() -> tuple[str, dict[str, tuple]]:
        link = Link()
        app = TableApp(link, bell=False)
        try:
            async with app.run_test(size=size) as pilot:
                link.publish(snap)
                await pilot.pause()
                await pilot.pause()
                regions = {
                    name: tuple(app.query_one(f"#{name}").region)
                    for name in ("board", "players", "hand", "choice", "now")
                }
                return screen_text(app), regions
        finally:
            link.close()

    return asyncio.run(run())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_layout_matches_its_snapshot(table: str, size: tuple[int, int]) -> None:
    text, _ = drawn(TABLES[table], size)
    path = SNAPSHOTS / f"{table}-{size[0]}x{size[1]}.txt"
    if os.environ.get("P2PTABLE_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8")
    assert len(text.splitlines()) == size[1]
    assert all(len(line) <= size[0] for line in text.splitlines())


@pytest.mark.parametrize("table", sorted(TABLES))
def test_board_scores_hand_and_choice_are_all_in_view_at_80x24(table: str) -> None:
    text, regions = drawn(TABLES[table], (80, 24))
    for name, (x, y, width, height) in regions.items():
        assert width > 0 and height > 0, name
        assert 0 <= x and x + width <= 80 and 0 <= y and y + height <= 24, (name, regions)
    snap = TABLES[table]
    assert snap.menu is not None
    first = snap.menu.entries[0]
    assert f"1) {first.full if first.words == first.full else ''}"[:12] in text
    assert "Players" in text and ("Your hand" in text or "Your collection" in text)
    assert "Your turn" in text


def test_the_longest_teachers_pet_menu_is_the_longest() -> None:
    snap = TABLES["teachers-pet-longest-menu"]
    assert snap.menu is not None and len(snap.menu) >= 25


def test_at_60_columns_the_panes_stack() -> None:
    _, regions = drawn(TABLES["teachers-pet"], (60, 30))
    xs = {regions[name][0] for name in ("board", "players", "now")}
    assert len(xs) == 1  # one column
    assert regions["players"][1] < regions["now"][1]


def test_at_120x40_the_board_grows() -> None:
    small, _ = drawn(TABLES["teachers-pet"], (80, 24))
    large, _ = drawn(TABLES["teachers-pet"], (120, 40))
    assert "┌ 1 Classroom" in large and "┌" not in small


def test_in_the_lobby_the_join_line_is_on_the_board_whole() -> None:
    join = "  p2ptable join 192.168.1.20:47001 --code 7KQ-M2X --name <their name>"
    lobby = Snapshot("", None, lines=("Table open: Pet Quartet for 3 players. Others join with:",
                                      join, "Ben joined (2/3)"))  # fmt: skip
    text, _ = drawn(lobby, (80, 24))
    assert join.rstrip() in text.splitlines()[4:6] or any(
        line.strip() == join.strip() for line in text.splitlines()
    )
    assert "Ben joined (2/3)" in text and "Waiting for the table to fill" in text


def test_a_spectator_is_shown_the_keys_of_a_spectator() -> None:
    snap = TABLES["teachers-pet"]
    assert snap.view is not None
    public = Snapshot(snap.game, dict(snap.view, you=None, hand=None), snap.names, snap.lines,
                      spectator=True)  # fmt: skip
    text, _ = drawn(public, (80, 24))
    assert "q: stop watching" in text and "choose" not in text.splitlines()[-1]


def test_a_new_menu_shows_its_first_choice_after_a_longer_one() -> None:
    # Found by a person's run at 80x24: after a turn's long menu, the late plays'
    # menu came with the choice pane scrolled past choice 1 (its long question
    # left the list four lines), and nothing on the screen said 1 was there.
    first, late = TABLES["teachers-pet-longest-menu"], TABLES["teachers-pet-late"]

    async def run() -> str:
        link = Link()
        app = TableApp(link, bell=False)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                link.publish(first)
                await pilot.pause()
                await pilot.press("end")  # the person looked at the last choices
                await pilot.pause()
                link.publish(late)
                await pilot.pause()
                await pilot.pause()
                return screen_text(app)
        finally:
            link.close()

    text = asyncio.run(run())
    assert late.menu is not None
    assert "1) " in text, text
