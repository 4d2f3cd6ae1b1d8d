"""Ctrl-C and a closed pipe: every command ends the same way (issue 22, part 6).

Issue 22: "Exit status 130 for an interrupt in every command (today some print
click's "Aborted!" and exit 1, which for `verify` means INVALID); a closed pipe
(`verify --events | head`) ends quietly; `sim` leaves no partial `--out` file
when interrupted."

130 is what a shell reports for a program stopped by SIGINT (128 + 2).  A reader
that goes away (`| head -1`) ends the command with 141, what a shell reports for
a program stopped by SIGPIPE (128 + 13), as `cat` or `yes` would end, and with
nothing on the standard error: the output was cut short, so the status is not
verify's 0 (valid) or 1 (invalid), and a script under `set -o pipefail` cannot
take a listing that was cut off for a verdict.  Ctrl-C and Ctrl-D at a live
game's prompt are in tests/integration/test_people_leaving.py.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from p2ptable.cli import main
from p2ptable.sim import simulate

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
BIG = REPLAYS / "teachers-pet-4p.p2pt"  # 408 entries: far more output than a small pipe holds


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    return simulate("pet-quartet", 2, "interrupts", tmp_path_factory.mktemp("g") / "g.p2pt").path


def arguments(good: Path, tmp: Path) -> dict[str, list[str]]:
    """Arguments each command accepts (its work is replaced by an interrupt)."""
    return {
        "games": [],
        "rules": ["pet-quartet"],
        "sim": ["pet-quartet", "-n", "2", "--seed", "s", "-o", str(tmp / "new.p2pt")],
        "verify": [str(good)],
        "show": [str(good), "--step"],
        "export": [str(good)],
        "replays": ["--dir", str(tmp)],
        "tables": [],
        "host": ["pet-quartet", "--seats", "2", "--name", "Ana"],
        "join": ["--name", "Ben"],
        "watch": [],
        "play": ["pet-quartet"],
        "resume": [str(good)],
    }


def test_every_command_is_covered(good, tmp_path):
    assert set(arguments(good, tmp_path)) == set(main.loaded())


@pytest.mark.parametrize("name", sorted(main.loaded()))
def test_an_interrupt_exits_130_in_every_command(monkeypatch, good, tmp_path, name):
    def interrupted(**kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(main.loaded()[name], "callback", interrupted)
    result = CliRunner().invoke(main, [name, *arguments(good, tmp_path)[name]])
    assert result.exit_code == 130, result.output
    assert "Aborted!" not in result.output
    assert "Traceback" not in result.output


def test_ctrl_c_at_a_question_exits_130_and_ctrl_d_does_not(monkeypatch):
    # click.prompt (join's pick of a table, its code) turns both into click.Abort,
    # keeping the one it caught as the context: as it does it here.
    def interrupted(**kwargs: object) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.Abort() from None

    def asked(**kwargs: object) -> None:
        click.prompt("Join code (as the host printed it)")

    monkeypatch.setattr(main.loaded()["join"], "callback", interrupted)
    assert CliRunner().invoke(main, ["join", "--name", "Ben"]).exit_code == 130
    monkeypatch.setattr(main.loaded()["join"], "callback", asked)
    ended = CliRunner().invoke(main, ["join", "--name", "Ben"], input="")
    # No answer: not an interrupt, and said as an error (issue 25: it printed "Aborted!").
    assert ended.exit_code == 1 and "Aborted!" not in ended.output
    assert "Error: the input ended before an answer\n" in ended.output


def test_ctrl_c_on_a_terminal_is_not_the_replay_viewer_s_q(monkeypatch, good, capsys):
    # It was read as q (exit 0); now it interrupts, and the group says 130 (above).
    from p2ptable.cli import records
    from p2ptable.ui.replay_viewer import Viewer

    class Terminal:
        def isatty(self) -> bool:
            return True

    def getchar() -> str:  # what click.getchar does with a typed Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(records.sys, "stdin", Terminal())
    monkeypatch.setattr(click, "getchar", getchar)
    with pytest.raises(KeyboardInterrupt):
        records._step(Viewer(good), None, 0)
    assert "--- after entry 0 ---" in capsys.readouterr().out


# -- real processes --------------------------------------------------------------


def _default_sigint() -> None:  # runs in the child, before exec
    # A suite started in the background of a non-interactive shell runs with
    # SIGINT ignored, which exec keeps: the command would never see the signal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args: list[str], cwd: Path, **kw: object) -> subprocess.Popen:
    env = dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1")
    env.pop("P2PTABLE_DEBUG", None)
    return subprocess.Popen(
        [sys.executable, "-m", "p2ptable", *args], cwd=cwd, env=env, start_new_session=True,
        preexec_fn=_default_sigint, **kw,
    )  # fmt: skip


def ended(proc: subprocess.Popen, timeout: float = 30.0) -> int:
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise


def wait_for_output(path: Path, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not path.read_bytes().strip():
        assert time.monotonic() < end, "the command printed nothing"
        time.sleep(0.02)


def test_sigint_stops_the_replay_viewer_reading_a_pipe_with_130(tmp_path, good):
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "wb") as o, open(err, "wb") as e:
        proc = start(["show", str(good), "--step"], tmp_path, stdin=subprocess.PIPE, stdout=o,
                     stderr=e)  # fmt: skip
    try:
        wait_for_output(out)  # it shows entry 0 and waits for a line
        os.killpg(proc.pid, signal.SIGINT)
        assert ended(proc) == 130
    finally:
        proc.stdin.close()
    assert "Aborted!" not in err.read_text() and "Traceback" not in err.read_text()


def test_an_interrupted_sim_exits_130_and_leaves_no_file(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    printed, err = tmp_path / "printed", tmp_path / "err"
    args = ["sim", "teachers-pet", "-n", "6", "--seed", "long", "-o", str(folder / "game.p2pt")]
    with open(printed, "wb") as o, open(err, "wb") as e:
        proc = start(args, tmp_path, stdout=o, stderr=e)
    wait_for_output(printed)  # entries are being written: the game is under way
    os.killpg(proc.pid, signal.SIGINT)
    assert ended(proc) == 130
    assert "Replay written" not in printed.read_text()  # it was cut short
    assert list(folder.iterdir()) == []  # no partial file, no temporary one
    assert "Aborted!" not in err.read_text() and "Traceback" not in err.read_text()


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    # `p2ptable verify --events BIG | head -1`: one line per entry, each written
    # as it is made, so lines are still coming when the reader leaves.
    read, write = os.pipe()
    fcntl.fcntl(read, fcntl.F_SETPIPE_SZ, 4096)  # the smallest pipe: the output overflows it
    err = tmp_path / "err"
    with open(err, "wb") as e:
        proc = start(["verify", "--events", str(BIG)], tmp_path, stdout=write, stderr=e)
    os.close(write)
    with os.fdopen(read, "rb") as reader:
        first = reader.readline()  # `| head -1`: one line, then the reader is gone
    assert first
    assert ended(proc) == 141
    assert err.read_text() == ""  # no "Error: Broken pipe", no traceback


def test_sim_whose_reader_goes_away_ends_quietly_too(tmp_path):
    # `p2ptable sim ... | head -1` said "Error: cannot write FILE: Broken pipe": the
    # pipe was taken for the replay file it writes.
    read, write = os.pipe()
    fcntl.fcntl(read, fcntl.F_SETPIPE_SZ, 4096)
    err = tmp_path / "err"
    args = ["sim", "teachers-pet", "-n", "3", "--seed", "pipe", "-o", str(tmp_path / "g.p2pt")]
    with open(err, "wb") as e:
        proc = start(args, tmp_path, stdout=write, stderr=e)
    os.close(write)
    with os.fdopen(read, "rb") as reader:
        assert reader.readline()
    assert ended(proc) == 141
    assert err.read_text() == ""
    assert not (tmp_path / "g.p2pt").exists()  # cut short: no file, as after Ctrl-C
