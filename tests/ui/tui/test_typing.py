"""The full-screen table's typing line (ui/tui/typing.py), through Textual's
pilot: the full-screen table "cannot take talk, break, or the host's lobby
commands (start, bots, remove NAME)"; now "an input line where a person types
talk ('... / say ...), break, and in the host's lobby start / bots / remove
NAME ... Number keys for menu choices must keep working when the input is not
focused; while typing, digits go into the text."

The app hands the line as typed to the peer's side (channel.Typed), which reads
it as the line mode reads a line (tests/ui/tui/test_frontend.py)."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import OptionList

from p2ptable.ui.tui.app import LOBBY_KEYS, TYPING_KEYS, HelpScreen, LeaveScreen, screen_text
from p2ptable.ui.tui.channel import Typed
from p2ptable.ui.tui.panes import LOBBY_TYPING
from p2ptable.ui.tui.snapshot import Snapshot
from p2ptable.ui.tui.typing import TypingLine
from tests.ui.tui.test_keys import LONGEST, at_the_table, entry

SEAT = replace(LONGEST, typing=True)  # a person's seat: it may type
LOBBY = Snapshot("", None, lines=("Table open: Pet Quartet for 3 players",), typing=True)


def typing_line(app) -> TypingLine:  # noqa: ANN001
    return app.query_one("#say", TypingLine)


def test_an_apostrophe_opens_the_line_for_talk_and_enter_sends_it() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        assert not typing_line(app).is_open  # closed: the menu's keys are the table's
        await pilot.press("apostrophe")
        await pilot.pause()
        assert typing_line(app).is_open and typing_line(app).has_focus
        assert typing_line(app).value == "'"
        assert TYPING_KEYS in screen_text(app)  # the key line says how to send it
        await pilot.press(*"good luck", "enter")
        await pilot.pause()
        assert not typing_line(app).is_open
        assert app.query_one("#choice", OptionList).has_focus
        await pilot.press("1", "enter")  # the numbers choose again

    assert at_the_table(steps, snap=SEAT) == [Typed("'good luck"), entry(1).action]


def test_while_the_line_is_open_digits_q_and_the_question_mark_are_text() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("t")  # t opens it empty
        await pilot.pause()
        assert typing_line(app).value == ""
        await pilot.press("1", "2", "space", "q", "question_mark", "backspace", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, LeaveScreen | HelpScreen)

    assert at_the_table(steps, snap=SEAT) == [Typed("12 q")]


def test_typing_break_at_the_table_just_works() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press(*"break", "enter")  # the b opens the line with it

    assert at_the_table(steps, snap=SEAT) == [Typed("break")]


def test_escape_closes_the_line_unsent_and_the_numbers_choose_again() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("apostrophe", "h", "i", "escape")
        await pilot.pause()
        assert not typing_line(app).is_open
        await pilot.press("2", "enter")

    assert at_the_table(steps, snap=SEAT) == [entry(2).action]


def test_an_empty_line_sends_nothing() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("t", "space", "enter")

    assert at_the_table(steps, snap=SEAT) == []


def test_the_hosts_lobby_takes_start_bots_and_remove() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        shown = screen_text(app)
        assert LOBBY_KEYS in shown and "type start" in shown
        assert LOBBY_TYPING.split(":")[0][:40] in " ".join(shown.split())
        await pilot.press(*"start", "enter")
        await pilot.press(*"bots", "enter")
        await pilot.press("t", *"remove Dan", "enter")

    sent = at_the_table(steps, snap=LOBBY)
    assert sent == [Typed("start"), Typed("bots"), Typed("remove Dan")]


def test_a_spectator_and_a_watched_bot_have_no_typing_line() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("apostrophe", *"break", "enter")
        await pilot.pause()
        assert not typing_line(app).is_open
        assert "talk" not in app.query_one("#keys").render().plain  # type: ignore[attr-defined]

    watching = replace(LONGEST, menu=None, my_turn=False, watching=True)
    assert at_the_table(steps, snap=watching) == []


def test_what_came_of_a_line_is_shown_under_the_choice() -> None:
    said = replace(SEAT, message="slow down: one line every 2 s")

    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        assert "slow down: one line every 2 s" in screen_text(app)

    at_the_table(steps, snap=said)


def test_the_help_says_how_to_type() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("question_mark")
        await pilot.pause()
        shown = " ".join(screen_text(app).split())
        assert "open the typing line" in shown and "break" in shown and "start" in shown

    at_the_table(steps, snap=SEAT, size=(100, 50))


def test_a_click_on_the_menu_while_typing_chooses_and_a_letter_types_on() -> None:
    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        await pilot.press("apostrophe", "h", "i")
        await pilot.click("#choice", offset=(4, 0))  # its first line holds entry 1
        await pilot.pause()
        assert typing_line(app).is_open and not typing_line(app).has_focus
        await pilot.press("2", "enter")  # the menu has the focus: numbers choose
        await pilot.press("x", "enter")  # a letter goes back to the line, on its end

    sent = at_the_table(steps, snap=SEAT)
    assert sent == [entry(1).action, entry(2).action, Typed("'hix")]


def test_break_typed_in_one_burst_is_sent_and_chooses_nothing() -> None:
    """Keys that arrive together (a fast typist, a paste, or a terminal that hands
    the app a whole line at once) go into the line the first letter opened: the
    Enter at the end sends it, never choosing the highlighted menu entry (found by
    hand: "break" and Enter sent together played the highlighted card)."""
    from textual import events

    async def steps(app, pilot, link) -> None:  # noqa: ANN001
        for key in [*"break", "enter"]:
            app.post_message(events.Key(key, None if key == "enter" else key))
        await pilot.pause()
        await pilot.pause()

    assert at_the_table(steps, snap=SEAT) == [Typed("break")]
