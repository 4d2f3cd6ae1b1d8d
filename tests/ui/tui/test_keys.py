"""Choosing at the full-screen table, through Textual's pilot (issue 25): "chosen
with numbers as today, or arrows and Enter, or a mouse click; ? help; a key to
scroll the events; a key to leave (asks first, then behaves as Ctrl-C)"; "a bell
when it becomes your turn (--no-bell), the turn line highlighted"."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

from textual.widgets import RichLog

from p2ptable.net.frontend import Leave
from p2ptable.ui.tui.app import HelpScreen, LeaveScreen, TableApp, screen_text
from p2ptable.ui.tui.channel import Link
from p2ptable.ui.tui.snapshot import Snapshot
from tests.ui.tui.tables import tables

TABLES = tables()
LONGEST = TABLES["teachers-pet-longest-menu"]


def at_the_table(
    steps: Callable[[TableApp, object, Link], Awaitable[None]],
    snap: Snapshot = LONGEST,
    bell: bool = True,
    size: tuple[int, int] = (80, 24),
) -> list:
    """Run ``steps`` against the app showing ``snap``; what the person sent."""

    async def run() -> list:
        link = Link()
        app = TableApp(link, bell=bell)
        try:
            async with app.run_test(size=size) as pilot:
                link.publish(snap)
                await pilot.pause()
                await steps(app, pilot, link)
                await pilot.pause()
                return link.received()
        finally:
            link.close()

    return asyncio.run(run())


def entry(number: int):  # noqa: ANN201
    assert LONGEST.menu is not None
    return next(e for e in LONGEST.menu.entries if e.number == number)


def test_a_number_and_enter_choose_that_line() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("1", "2", "enter")

    assert at_the_table(steps) == [entry(12).action]


def test_the_arrows_and_enter_choose_the_highlighted_line() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("down", "enter")

    assert at_the_table(steps) == [entry(2).action]


def test_a_click_chooses_the_line_clicked() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.click("#choice", offset=(4, 0))  # its first line holds entry 1
        await pilot.pause()

    assert at_the_table(steps) == [entry(1).action]


def test_a_number_not_on_the_menu_is_said_and_nothing_is_sent() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("9", "9", "enter")
        await pilot.pause()
        assert "There is no choice 99" in screen_text(app)

    assert at_the_table(steps) == []


def test_question_mark_shows_the_help_and_escape_closes_it() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Keys" in screen_text(app) and "Teacher's Pet" in screen_text(app)
        await pilot.press("1", "enter")  # keys of the table do nothing over the help
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)

    assert at_the_table(steps) == []


def test_q_asks_before_leaving_and_y_leaves_as_ctrl_c_does() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, LeaveScreen)
        assert link.received() == []
        await pilot.press("q", "y")

    assert at_the_table(steps) == [Leave("interrupted")]


def test_ctrl_c_leaves_at_once() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("ctrl+c")

    assert at_the_table(steps) == [Leave("interrupted")]


def test_the_bell_rings_once_when_it_becomes_your_turn() -> None:
    waiting = replace(LONGEST, menu=None, my_turn=False)

    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        assert app.bells == 0
        assert not app.query_one("#now").has_class("my-turn")
        link.publish(LONGEST)
        await pilot.pause()
        link.publish(replace(LONGEST, status=("a clock redraw",)))
        await pilot.pause()
        assert app.bells == 1
        assert app.query_one("#now").has_class("my-turn")

    at_the_table(steps, snap=waiting)

    async def no_bell(app, pilot, link) -> None:  # noqa: ANN001
        link.publish(LONGEST)
        await pilot.pause()
        assert app.bells == 0 and app.query_one("#now").has_class("my-turn")

    at_the_table(no_bell, snap=waiting, bell=False)


def test_every_event_is_kept_and_page_up_scrolls_back() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        log = app.query_one("#events", RichLog)
        assert len(log.lines) >= len(LONGEST.lines)  # nothing lost (wrapped lines count more)
        for _ in range(50):  # the log scrolls to its end once laid out (later on a busy machine)
            if log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y:
                break
            await pilot.pause(0.02)
        bottom = log.scroll_y
        assert bottom > 0, "the events did not scroll to their end"
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y < bottom
        more = replace(LONGEST, lines=(*LONGEST.lines, "a new event"))
        link.publish(more)
        await pilot.pause()
        assert log.lines[-1].text.strip() == "a new event"

    at_the_table(steps)
