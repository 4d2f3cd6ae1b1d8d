"""The spectators' channel on the full-screen table, through Textual's pilot.

The brief: "a seat's full-screen table shows spectators' lines in the events
pane, marked as a spectator's (never confusable with a seat's talk), unless
hidden; `hide spectators` / `show spectators` typed on the typing line and
`--hide-spectators` work as in the line mode ('N lines were said while it was
hidden')"; and "the full-screen `watch` gets a typing line for talk when the
table allows spectators to talk (and none when it does not), with 'slow down'
and other refusals shown; Esc / q behave as on a seat's screen".

A seat's two sides run together here: the app (the person's keys) hands its
line to the frontend (the peer's side, ui/tui/link.py), whose snapshot the app
then draws, as in a real table but in one thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import SimpleNamespace

from textual.widgets import RichLog, Static

from p2ptable.net.events import Talked
from p2ptable.net.session import Session
from p2ptable.net.spectator_talk import BURST, REFILL
from p2ptable.net.talk import TalkLine
from p2ptable.ui.text import SpectatorSaid
from p2ptable.ui.tui.app import (
    SPECTATOR_KEYS,
    SPECTATOR_TALK_KEYS,
    TYPING_KEYS,
    HelpScreen,
    LeaveScreen,
    TableApp,
    screen_text,
)
from p2ptable.ui.tui.channel import Link, Typed
from p2ptable.ui.tui.link import FullScreenFrontend
from p2ptable.ui.tui.panes import SPECTATOR_STYLE
from p2ptable.ui.tui.typing import SPECTATOR_HINT, TypingLine
from p2ptable.ui.tui.watching import MAY_TALK, SpectatorScreen
from tests.ui.test_spectators_channel import eve, seat

Steps = Callable[[TableApp, object], Awaitable[None]]


def on_screen(link: Link, steps: Steps, size: tuple[int, int] = (100, 30)) -> None:
    """Run ``steps`` against the app drawing what ``link`` is handed."""

    async def run() -> None:
        app = TableApp(link, bell=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await steps(app, pilot)
            await pilot.pause()

    try:
        asyncio.run(run())
    finally:
        link.close()


def pane(app: TableApp, name: str) -> str:
    """What the pane ``name`` says (typed: under the choice; events; keys), its
    rows joined: the screen has other panes beside it."""
    if name == "events":
        rows = [strip.text for strip in app.query_one("#events", RichLog).lines]
        return " ".join(" ".join(rows).split())
    return " ".join(app.screen.query_one(f"#{name}").render().plain.split())  # type: ignore[attr-defined]


def help_shown(app: TableApp) -> str:
    return " ".join(app.screen.query_one(Static).render().plain.split())  # type: ignore[attr-defined]


def styles_of(app: TableApp, words: str) -> set[str]:
    """The styles the events pane drew the row holding ``words`` in."""
    log = app.query_one("#events", RichLog)
    for strip in log.lines:
        if words in strip.text:
            return {str(s.style) for s in strip if s.text.strip() and s.style is not None}
    raise AssertionError(f"{words!r} is not in the events pane")


# -- a seat's table ----------------------------------------------------------------------


def test_a_spectators_line_is_in_the_events_pane_marked_apart_from_a_seats_talk() -> None:
    session = seat()
    ui = FullScreenFrontend()
    ui.show(session, [eve(1, "go Ana"), Talked(TalkLine(1, 1, 1, "go Ana"), b"")], 1.0)
    said = [line for line in ui.lines if "(spectator) Eve says: go Ana" in line]
    assert len(said) == 1 and isinstance(said[0], SpectatorSaid)

    async def steps(app: TableApp, pilot: object) -> None:
        shown = screen_text(app)
        assert "talk      (spectator) Eve says: go Ana" in shown
        assert "talk      Ben says: go Ana" in shown
        # Its own style too, which no name or words typed can take.
        assert any("italic" in s for s in styles_of(app, "(spectator) Eve"))
        assert not any("italic" in s for s in styles_of(app, "Ben says"))

    assert "italic" in SPECTATOR_STYLE
    on_screen(ui.link, steps)


def test_a_seat_types_hide_spectators_then_show_spectators_and_is_told_what_it_missed() -> None:
    session = seat()
    ui = FullScreenFrontend()
    ui.show(session, [], 1.0)

    async def typed(app: TableApp, pilot, words: str) -> None:  # noqa: ANN001
        await pilot.press(*words, "enter")  # the h (or s) opens the typing line
        await pilot.pause()
        assert ui.choose(session, 2.0, typed=True) is None  # answered, not for the peer
        await pilot.pause()

    async def steps(app: TableApp, pilot) -> None:  # noqa: ANN001
        await typed(app, pilot, "hide spectators")
        assert "The spectators' channel is hidden (show spectators" in pane(app, "typed")
        ui.show(session, [eve(1, "psst"), eve(2, "psst again")], 3.0)
        await pilot.pause()
        assert "psst" not in screen_text(app)
        await typed(app, pilot, "show spectators")
        assert "shown (2 lines were said while it was hidden)" in pane(app, "typed")
        ui.show(session, [eve(3, "back")], 4.0)
        await pilot.pause()
        assert "(spectator) Eve says: back" in screen_text(app)

    on_screen(ui.link, steps)


def test_hide_spectators_from_the_start_and_from_the_lobby() -> None:
    session = seat()
    flagged = FullScreenFrontend(hide_spectators=True)  # --hide-spectators
    flagged.show(session, [eve(1, "hello seats")], 1.0)
    assert not any("hello seats" in line for line in flagged.lines)
    flagged.link.close()

    lobby = FullScreenFrontend()
    lobby.link.send(Typed("hide spectators"))
    assert lobby.choose(None, 0.0, typed=True) is None  # not a lobby command
    snap = lobby.link.take()
    assert snap is not None and "will be hidden" in snap.message
    lobby.show(session, [eve(1, "psst")], 1.0)
    assert not any("psst" in line for line in lobby.lines) and lobby.spectators.missed == 1
    lobby.link.close()


def test_at_a_table_without_the_channel_the_words_say_so() -> None:
    ui = FullScreenFrontend()
    ui.link.send(Typed("show spectators"))
    assert ui.choose(seat(talks=False), 1.0, typed=True) is None
    snap = ui.link.take()
    assert snap is not None and "Spectators do not talk at this table" in snap.message
    assert "does not show" not in snap.message  # the line mode's caveat is gone
    ui.link.close()


# -- a spectator's table (watch) ---------------------------------------------------------


def watched(session: Session, talks: bool) -> SpectatorScreen:
    """A spectator's screen of ``session``'s table as the watch loop draws it."""
    screen = SpectatorScreen()
    follower = SimpleNamespace(ledger=session.ledger, over=False)
    if talks:
        screen.may_talk()
    screen.draw(follower, [], ["You are watching"])  # type: ignore[arg-type]
    return screen


def typing_line(app: TableApp) -> TypingLine:
    return app.query_one("#say", TypingLine)


def test_a_spectator_at_a_table_that_lets_them_talk_types_a_line() -> None:
    screen = watched(seat(), talks=True)

    async def steps(app: TableApp, pilot) -> None:  # noqa: ANN001
        assert SPECTATOR_TALK_KEYS in screen_text(app) and MAY_TALK in pane(app, "events")
        await pilot.press("apostrophe")
        await pilot.pause()
        assert typing_line(app).is_open and SPECTATOR_HINT in screen_text(app)
        assert TYPING_KEYS in screen_text(app)
        await pilot.press(*"go Ben", "enter")
        await pilot.press("g", "o", "escape")  # Esc: closed unsent
        await pilot.press("t", *"say 12 quick", "enter")  # t, digits and q are text
        await pilot.press("t", "space", "enter")  # nothing to say
        await pilot.pause()
        assert not typing_line(app).is_open
        assert not isinstance(app.screen, LeaveScreen | HelpScreen)
        assert screen.typed() == ["go Ben", "12 quick"] and not screen.gone

    on_screen(screen.link, steps)


def test_a_spectators_refused_line_is_said_under_the_choice() -> None:
    screen = watched(seat(), talks=True)
    slow = f"slow down: at most {BURST} lines at once, then one every {REFILL:g} s"

    async def steps(app: TableApp, pilot) -> None:  # noqa: ANN001
        screen.refused(slow)
        screen.draw(SimpleNamespace(ledger=seat().ledger, over=False), [], [])  # type: ignore[arg-type]
        await pilot.pause()
        assert f"Not said: {slow}." in pane(app, "typed")
        screen.said("      talk      (spectator) Eve says: hi")  # the next one went
        screen.draw(SimpleNamespace(ledger=seat().ledger, over=False), [], [])  # type: ignore[arg-type]
        await pilot.pause()
        assert "Not said" not in pane(app, "typed")
        assert "(spectator) Eve says: hi" in pane(app, "events")

    on_screen(screen.link, steps)


def test_a_spectator_at_a_table_that_does_not_let_them_talk_has_no_typing_line() -> None:
    screen = watched(seat(talks=False), talks=False)

    async def steps(app: TableApp, pilot) -> None:  # noqa: ANN001
        assert SPECTATOR_KEYS in screen_text(app) and "talk" not in screen_text(app)[-80:]
        await pilot.press("apostrophe", *"hello", "enter")
        await pilot.pause()
        assert not typing_line(app).is_open
        assert screen.typed() == []

    on_screen(screen.link, steps)


def test_a_spectators_q_asks_then_stops_watching_and_the_help_is_a_spectators() -> None:
    screen = watched(seat(), talks=True)

    async def steps(app: TableApp, pilot) -> None:  # noqa: ANN001
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "spectators' channel" in help_shown(app) and "break" not in help_shown(app)
        await pilot.press("escape")
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen) and "Stop watching?" in help_shown(app)
        await pilot.press("n")  # stays
        await pilot.pause()
        assert screen.typed() == [] and not screen.gone
        await pilot.press("q", "y")
        await pilot.pause()
        assert screen.typed() == [] and screen.gone

    on_screen(screen.link, steps)


def test_the_watch_loop_says_a_typed_line_or_shows_why_not_on_the_full_screen() -> None:
    from p2ptable.net.lobby import JoinerLobby
    from p2ptable.replay import authoring
    from p2ptable.watch import _Watch

    lobby = JoinerLobby("TST-CDE", authoring.SeatSecrets.generate(2), "Eve",
                        "tcp://127.0.0.1:1", watch=True)  # fmt: skip
    screen = SpectatorScreen()
    state = _Watch(lobby, screen, None, "Eve", ("127.0.0.1", 1))
    screen.link.send(Typed("'hello"))
    for text in screen.typed():  # as the loop does with what the app sent
        state.typed(text, 0.0)
    assert screen.message == "Not said: not yet: the game has not begun."
    assert screen.dirty and not screen.snapshot().typing  # no genesis: no typing line
    screen.link.close()
