"""No command writes over a replay, and none leaves half a file (issue 22, part 6).

Issue 22: "`p2ptable export F -o F` overwrites the signed replay with text and exits
0; any existing file is overwritten silently.  No command ever writes over a
replay (refuse the input file and any p2ptable replay); other existing files need
`--force`.  The same for `sim --out` and every other output path."

The output paths: `export -o`, `sim --out`, the hidden `--stats` of the live
commands, and `--replay` of host, join, play and watch (a new game's replay
must be a new file: tests/test_cli_errors.py walks those).  An output is written
to a temporary file next to it and renamed over the name at the end, so what is
interrupted leaves nothing behind (tests/test_cli_interrupts.py).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from p2ptable.cli import main
from p2ptable.replay import outputs
from p2ptable.replay.logfile import MAGIC
from p2ptable.sim import simulate

SIM = ["sim", "pet-quartet", "-n", "2", "--seed", "out", "-q"]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return simulate("pet-quartet", 2, "outputs", tmp_path_factory.mktemp("g") / "g.p2pt").path


def run(*args: str, within: int = 20):  # noqa: ANN201
    """The command in this process, failing (not hanging) if it does not end in time:
    a live command that did not refuse its arguments would open a table and wait."""

    def expire(signum, frame):  # noqa: ANN001
        raise TimeoutError(f"the command did not end within {within} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(within)
    try:
        return CliRunner().invoke(main, [str(a) for a in args])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def a_replay(tmp_path: Path, game: Path, name: str = "game.p2pt") -> tuple[Path, bytes]:
    path = tmp_path / name
    path.write_bytes(game.read_bytes())
    return path, path.read_bytes()


def only_files(folder: Path) -> list[str]:
    """What the folder holds (a temporary file left behind would show here)."""
    return sorted(p.name for p in folder.iterdir())


# -- export -o ---------------------------------------------------------------------


def test_export_refuses_to_write_over_its_own_input(tmp_path, game):
    path, before = a_replay(tmp_path, game)
    result = run("export", path, "-o", path)
    assert result.exit_code == 1
    assert f"Error: {path} is the replay being read: write the record to another file" in (
        result.output
    )
    assert path.read_bytes() == before


def test_export_knows_its_input_by_another_name(tmp_path, game):
    path, before = a_replay(tmp_path, game)
    (tmp_path / "sub").mkdir()
    same = tmp_path / "sub" / ".." / "game.p2pt"  # the same file, spelt otherwise
    linked = tmp_path / "hard.p2pt"
    os.link(path, linked)  # the same inode
    for other in (same, linked):
        result = run("export", path, "-o", other)
        assert result.exit_code == 1, result.output
        assert "is the replay being read" in result.output
    assert path.read_bytes() == before


def test_export_never_writes_over_another_replay_even_with_force(tmp_path, game):
    path, _ = a_replay(tmp_path, game)
    other, before = a_replay(tmp_path, game, "other.p2pt")
    for extra in ([], ["--force"]):
        result = run("export", path, "-o", other, *extra)
        assert result.exit_code == 1
        assert f"Error: {other} is a p2ptable replay: no command writes over one" in (result.output)
    assert other.read_bytes() == before


def test_export_replaces_another_file_only_with_force(tmp_path, game):
    path, _ = a_replay(tmp_path, game)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    result = run("export", path, "-o", notes)
    assert result.exit_code == 1
    assert f"Error: {notes} already exists: add --force to replace it" in result.output
    assert notes.read_text() == "my notes\n"
    result = run("export", path, "-o", notes, "--force")
    assert result.exit_code == 0, result.output
    assert notes.read_text().startswith('[Game "Pet Quartet"]')
    assert only_files(tmp_path) == ["game.p2pt", "notes.txt"]


def test_export_writes_a_new_file_whole(tmp_path, game):
    path, _ = a_replay(tmp_path, game)
    record = tmp_path / "game.txt"
    assert run("export", path, "-o", record).exit_code == 0
    assert record.read_text() == run("export", path).stdout
    assert only_files(tmp_path) == ["game.p2pt", "game.txt"]


# -- sim --out ---------------------------------------------------------------------


def test_sim_never_writes_over_a_replay_even_with_force(tmp_path, game):
    other, before = a_replay(tmp_path, game)
    for extra in ([], ["--force"]):
        result = run(*SIM, "--out", other, *extra)
        assert result.exit_code == 1
        assert f"Error: {other} is a p2ptable replay: no command writes over one" in (result.output)
    assert other.read_bytes() == before


def test_sim_replaces_another_file_only_with_force(tmp_path):
    out = tmp_path / "out.p2pt"
    out.write_text("not a replay\n")
    result = run(*SIM, "--out", out)
    assert result.exit_code == 1
    assert f"Error: {out} already exists: add --force to replace it" in result.output
    assert out.read_text() == "not a replay\n"
    assert run(*SIM, "--out", out, "--force").exit_code == 0
    assert out.read_bytes().startswith(MAGIC)
    assert only_files(tmp_path) == ["out.p2pt"]


def test_a_new_sim_file_is_readable_like_any_other_file(tmp_path):
    out = tmp_path / "out.p2pt"
    assert run(*SIM, "--out", out).exit_code == 0
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # not a temporary file's 0600


# -- the live commands' --stats ----------------------------------------------------


@pytest.mark.parametrize("command", ["host", "join"])
def test_stats_never_go_over_a_replay_or_a_file(tmp_path, game, command):
    other, before = a_replay(tmp_path, game)
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    args = {
        "host": ["host", "pet-quartet", "--seats", "2", "--name", "Ana", "--port", "0"],
        "join": ["join", "127.0.0.1:1", "--code", "ABC-DEF", "--name", "Ben"],
    }[command]
    result = run(*args, "--stats", other)
    assert result.exit_code == 1
    assert f"{other} is a p2ptable replay: no command writes over one" in result.output
    result = run(*args, "--stats", notes)
    assert result.exit_code == 1
    assert f"{notes} already exists" in result.output
    mine = tmp_path / "mine.p2pt"
    result = run(*args, "--replay", mine, "--stats", mine)
    assert result.exit_code == 1
    assert f"{mine} is this game's replay" in result.output
    assert other.read_bytes() == before and notes.read_text() == "mine\n"


# -- the library -------------------------------------------------------------------


def test_an_interrupted_write_leaves_nothing(tmp_path):
    out = tmp_path / "out.txt"
    with pytest.raises(KeyboardInterrupt):
        with outputs.written_whole(out) as part:
            part.write_text("half")
            raise KeyboardInterrupt
    assert only_files(tmp_path) == []


def test_a_replay_made_meanwhile_is_not_replaced(tmp_path, game):
    out = tmp_path / "out.txt"
    with pytest.raises(outputs.OutputRefused, match="is a p2ptable replay"):
        with outputs.written_whole(out, force=True) as part:
            part.write_text("a record")
            out.write_bytes(game.read_bytes())  # a game began writing there
    assert out.read_bytes() == game.read_bytes()
    assert only_files(tmp_path) == ["out.txt"]
