"""Which screen a person gets (issue 25): "The line mode stays as --plain, chosen
by itself when stdout is not a terminal or TERM=dumb"; "the default play opens
the full-screen table"."""

from __future__ import annotations

import io

import pytest

from p2ptable import play
from p2ptable.bots.seat import BotFrontend
from p2ptable.ui.terminal import TerminalFrontend
from p2ptable.ui.tui.link import FullScreenFrontend


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch):  # noqa: ANN001, ANN201
    """A terminal for input and output; set in the test itself, as pytest sets
    its own capture of the output between a fixture and its test."""
    monkeypatch.setenv("TERM", "xterm-256color")

    def patch(name: str, value: object) -> None:
        monkeypatch.setattr(name, value)

    return patch


def test_a_person_at_a_terminal_gets_the_full_screen_table(terminal) -> None:  # noqa: ANN001
    terminal("sys.stdout", Tty())
    terminal("sys.stdin", Tty())
    frontend = play.make_frontend(None, False)
    assert isinstance(frontend, FullScreenFrontend) and frontend.bell
    frontend.link.close()


def test_no_bell_is_passed_on(terminal) -> None:  # noqa: ANN001
    terminal("sys.stdout", Tty())
    terminal("sys.stdin", Tty())
    frontend = play.make_frontend(None, False, bell=False)
    assert isinstance(frontend, FullScreenFrontend) and not frontend.bell
    frontend.link.close()


def test_plain_asks_for_the_line_mode(terminal) -> None:  # noqa: ANN001
    terminal("sys.stdout", Tty())
    terminal("sys.stdin", Tty())
    frontend = play.make_frontend(None, False, plain=True)
    assert isinstance(frontend, TerminalFrontend)


def test_term_dumb_gets_the_line_mode(terminal) -> None:  # noqa: ANN001
    terminal("sys.stdout", Tty())
    terminal("sys.stdin", Tty())
    import os

    os.environ["TERM"] = "dumb"  # the fixture's monkeypatch puts TERM back
    assert isinstance(play.make_frontend(None, False), TerminalFrontend)


def test_output_to_a_pipe_gets_the_line_mode(terminal) -> None:  # noqa: ANN001
    terminal("sys.stdout", Tty())
    terminal("sys.stdin", Tty())
    terminal("sys.stdout", io.StringIO())
    assert isinstance(play.make_frontend(None, False), TerminalFrontend)
    assert isinstance(play.make_frontend("greedy", False), BotFrontend)


def test_a_watched_bot_gets_the_full_screen_table_even_with_input_from_a_pipe(terminal) -> None:  # noqa: ANN001
    terminal("sys.stdout", Tty())
    terminal("sys.stdin", Tty())
    terminal("sys.stdin", io.StringIO())
    frontend = play.make_frontend("greedy", False)
    assert isinstance(frontend, FullScreenFrontend) and frontend.bot is not None
    frontend.link.close()
    assert isinstance(play.make_frontend(None, False), TerminalFrontend)  # a person needs keys


def test_the_line_mode_rings_once_when_it_becomes_your_turn() -> None:
    from tests.ui.test_terminal import to_move

    _, net, mover = to_move()
    for bell, rings in ((True, 1), (False, 0)):
        out = Tty()
        ui = TerminalFrontend(stdin=io.StringIO(), stdout=out, bell=bell)
        ui.show(mover, [], net.now)
        ui.show(mover, [], net.now + 5)  # the clock's redraw: the same turn
        assert out.getvalue().count("\a") == rings
