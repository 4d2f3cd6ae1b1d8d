"""Joining the same way everywhere (issue 25).

Issue 25: "Join flow the same everywhere: `--name` defaults to the login name on
every command; `join ADDRESS` without `--code` asks for the code; a badly formed
code at the prompt asks again instead of exiting".  And: Ctrl-D at a click prompt
printed a bare "Aborted!"; it is an error that says what happened.
Driven with CliRunner; what the library is handed is caught before any socket.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from p2ptable import play
from p2ptable import watch as watching
from p2ptable.cli import main


class Caught(ValueError):
    """What a command handed the library: said as an Error line, and kept."""


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> dict:
    got: dict = {}

    def catch(name: str):  # noqa: ANN202
        def called(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            got.update(what=name, args=args, kwargs=kwargs)
            raise Caught("caught")

        return called

    monkeypatch.setattr(play, "join", catch("join"))
    monkeypatch.setattr(play, "host", catch("host"))
    monkeypatch.setattr(watching, "watch", catch("watch"))
    monkeypatch.setattr("getpass.getuser", lambda: "dana")
    return got


def test_join_without_code_asks_for_it(handed: dict) -> None:
    result = CliRunner().invoke(main, ["join", "127.0.0.1:47001"], input="7KQ-M2X\n")
    assert result.output.startswith("Join code (as the host printed it): ")
    assert handed["args"][:3] == ("127.0.0.1:47001", "7KQ-M2X", "Dana")


def test_a_badly_formed_code_is_asked_again(handed: dict) -> None:
    result = CliRunner().invoke(main, ["join", "127.0.0.1:47001"], input="nope\n7KQ-M2X\n")
    assert "Error: not a join code: 'nope'" in result.output
    assert result.output.count("Join code (as the host printed it): ") == 2
    assert handed["args"][1] == "7KQ-M2X"


def test_watch_asks_the_same(handed: dict) -> None:
    result = CliRunner().invoke(main, ["watch", "127.0.0.1:47001"], input="x\n7KQ-M2X\n")
    assert result.output.count("Join code (as the host printed it): ") == 2
    assert handed["args"][:3] == ("127.0.0.1:47001", "7KQ-M2X", "Dana")


def test_the_end_of_the_input_at_the_question_is_said_without_aborted(handed: dict) -> None:
    result = CliRunner().invoke(main, ["join", "127.0.0.1:47001"], input="")
    assert result.exit_code == 1 and handed == {}
    assert "Aborted" not in result.output
    assert "Error: the input ended before an answer" in result.output


@pytest.mark.parametrize(
    "command",
    [
        ["host", "pet-quartet", "--seats", "2", "--port", "0"],
        ["join", "127.0.0.1:47001", "--code", "7KQ-M2X"],
        ["watch", "127.0.0.1:47001", "--code", "7KQ-M2X"],
    ],
)
def test_the_name_is_the_login_name_unless_given(handed: dict, command: list[str]) -> None:
    CliRunner().invoke(main, command)
    name = handed["args"][2]
    assert name == "Dana"
    CliRunner().invoke(main, [*command, "--name", "Eve"])
    assert handed["args"][2] == "Eve"


def test_no_bell_reaches_the_library(handed: dict) -> None:
    CliRunner().invoke(main, ["join", "127.0.0.1:47001", "--code", "7KQ-M2X", "--no-bell"])
    assert handed["kwargs"]["bell"] is False
    CliRunner().invoke(main, ["join", "127.0.0.1:47001", "--code", "7KQ-M2X"])
    assert handed["kwargs"]["bell"] is True


# -- -q: nothing but errors ----------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["join", "127.0.0.1:47001", "--code", "7KQ-M2X", "--bot", "random"]]
)
def test_quiet_prints_nothing_when_the_game_ends(monkeypatch, tmp_path, command) -> None:
    # Issue 25: "`-q` prints nothing but errors"; it printed where the replay went.
    monkeypatch.setattr(play, "join", lambda *a, **k: play.PlayResult(0, tmp_path / "g.p2pt"))
    loud = CliRunner().invoke(main, command)
    assert loud.exit_code == 0 and "Replay saved to" in loud.output
    quiet = CliRunner().invoke(main, [*command, "-q"])
    assert quiet.exit_code == 0 and quiet.output == ""


def test_quiet_says_what_a_script_must_know_on_the_standard_error(monkeypatch, tmp_path) -> None:
    left = play.PlayResult(play.LEFT, tmp_path / "g.p2pt").with_hint()
    monkeypatch.setattr(play, "join", lambda *a, **k: left)
    result = CliRunner().invoke(main, ["join", "127.0.0.1:47001", "--code", "7KQ-M2X", "-q"])
    assert result.exit_code == play.LEFT and result.stdout == ""
    assert f"To continue where you stopped: p2ptable resume {tmp_path / 'g.p2pt'}" in result.stderr
