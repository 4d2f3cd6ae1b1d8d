"""The command line: thin, with help everywhere and clear errors (click's CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from p2ptable.cli import main

REPLAYS = Path(__file__).resolve().parents[1] / "replays"


@pytest.fixture
def runner():
    return CliRunner()


def test_every_command_has_help(runner):
    for name, command in main.loaded().items():
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        assert command.help, f"{name} has no help text"
        assert "Usage: main " + name in result.output or f"Usage: p2ptable {name}" in (
            result.output
        )


# Issue 29: the CLI's start-up is cut by importing a command's module only when it
# runs; the table naming each command's module must hold every command, and
# `--help` must still list them all with their help.
def test_the_table_of_command_modules_names_every_command_and_only_those():
    from p2ptable.cli.app import COMMANDS

    commands = main.loaded()
    assert set(COMMANDS) == set(commands)
    for name, module in COMMANDS.items():
        assert commands[name].callback.__module__ == module, name


def test_help_lists_every_command_with_its_help(runner):
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = result.output.split("Commands:")[1]
    for name, command in main.loaded().items():
        first_words = command.get_short_help_str().split()[0]
        assert any(line.split()[:2] == [name, first_words] for line in listed.splitlines()), name


def test_verify_does_not_import_the_live_commands():
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from p2ptable.cli import main\n"
        "try:\n"
        f"    main(['verify', {str(REPLAYS / 'pet-quartet-3p-live.p2pt')!r}])\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "print(sorted(m for m in sys.modules if m.startswith('p2ptable.cli.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert "p2ptable.cli.records" in out
    assert "p2ptable.cli.live" not in out and "p2ptable.cli.tables" not in out


# Issue 11: "Every option has help text."
@pytest.mark.parametrize("name", list(main.loaded()))
def test_every_option_has_help(runner, name):
    command = main.loaded()[name]
    missing = [
        param.opts[0]
        for param in command.params
        if isinstance(param, click.Option) and not param.hidden and not param.help
    ]
    assert not missing, f"{name}: options without help: {missing}"
    shown = runner.invoke(main, [name, "--help"]).output
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.opts[-1] in shown


def test_games_lists_pet_quartet_and_its_options(runner):
    result = runner.invoke(main, ["games"])
    assert result.exit_code == 0
    assert "pet-quartet  (Pet Quartet, 2-6 players)" in result.output
    assert "--variant standard|maestro|duet  (default standard)" in result.output


def test_rules_prints_the_rules_notes(runner):
    result = runner.invoke(main, ["rules", "pet-quartet"])
    assert result.exit_code == 0
    assert result.output.startswith("# Pet Quartet: how to play")


def test_unknown_game_is_a_usage_error(runner):
    result = runner.invoke(main, ["rules", "chess"])
    assert result.exit_code == 2
    known = "(known: pet-quartet, teachers-pet, vorsicht-lehrer)"
    assert f"unknown game 'chess' {known}" in result.output


def test_sim_then_verify(runner, tmp_path):
    out = tmp_path / "game.p2pt"
    result = runner.invoke(
        main, ["sim", "pet-quartet", "-n", "3", "--seed", "cli", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Final scores:" in result.output
    assert f"Replay written to {out}" in result.output
    verified = runner.invoke(main, ["verify", str(out)])
    assert verified.exit_code == 0
    assert verified.output.strip().endswith(
        "VALID — every signature, random value and rule checks out."
    )


def test_sim_is_deterministic(runner, tmp_path):
    paths = [tmp_path / "a.p2pt", tmp_path / "b.p2pt"]
    for path in paths:
        args = ["sim", "pet-quartet", "-n", "4", "--seed", "same", "--out", str(path), "-q"]
        assert runner.invoke(main, args).exit_code == 0
    assert paths[0].read_bytes() == paths[1].read_bytes()


def test_verify_json_report(runner, tmp_path):
    out = tmp_path / "game.p2pt"
    args = ["sim", "pet-quartet", "-n", "2", "--seed", "j", "--out", str(out), "-q"]
    runner.invoke(main, args + ["--variant", "duet"])
    result = runner.invoke(main, ["verify", str(out), "--json"])
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["valid"] is True
    assert report["game"] == "pet-quartet"
    assert report["options"] == {"scoring": "basic", "variant": "duet"}
    assert [s["name"] for s in report["seats"]] == ["Ana", "Ben"]
    assert len(report["seats"][0]["key"]) == 64
    assert report["entries"] > 10
    assert len(report["result"]["scores"]) == 2
    assert report["result"]["winners"]
    # Pet Quartet's final public state: each seat's collection by value.
    assert all(isinstance(c, dict) for c in report["final"]["collections"])
    assert "error" not in report


def test_verify_names_the_bad_entry(runner, tmp_path):
    out = tmp_path / "game.p2pt"
    runner.invoke(main, ["sim", "pet-quartet", "-n", "2", "--seed", "t", "--out", str(out), "-q"])
    data = bytearray(out.read_bytes())
    data[-20] ^= 0xFF
    out.write_bytes(bytes(data))
    result = runner.invoke(main, ["verify", str(out)])
    assert result.exit_code == 1
    assert "INVALID at entry" in result.output
    as_json = json.loads(runner.invoke(main, ["verify", str(out), "--json"]).output)
    assert as_json["valid"] is False
    assert as_json["error"]["entry"] > 0


def test_impossible_options_are_a_clear_error(runner, tmp_path):
    out = tmp_path / "x.p2pt"
    args = ["sim", "pet-quartet", "-n", "3", "--seed", "x", "--out", str(out), "--variant", "duet"]
    result = runner.invoke(main, args)
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "2 players" in result.output
    result = runner.invoke(main, ["sim", "pet-quartet", "-n", "3", "--seed", "x", "--out",
                                  str(out), "--option", "colour=red"])  # fmt: skip
    assert result.exit_code == 1
    assert "has no option 'colour'" in result.output


def test_host_refuses_a_malformed_code_and_an_existing_replay(runner, tmp_path):
    result = runner.invoke(main, ["host", "pet-quartet", "--seats", "2", "--name", "A",
                                  "--code", "LIV-EG", "--port", "0"])  # fmt: skip
    assert result.exit_code == 1
    assert "not a join code: 'LIV-EG' (too short; " in result.output
    existing = tmp_path / "old.p2pt"
    existing.write_bytes(b"keep me")
    result = runner.invoke(main, ["host", "pet-quartet", "--seats", "2", "--name", "A",
                                  "--port", "0", "--replay", str(existing)])  # fmt: skip
    assert result.exit_code == 1
    assert "already exists" in result.output
    assert existing.read_bytes() == b"keep me"


def test_join_refuses_a_bad_address(runner):
    result = runner.invoke(main, ["join", "nowhere", "--code", "ABC-DEF", "--name", "B"])
    assert result.exit_code == 1
    assert "expected HOST:PORT" in result.output


def test_resume_needs_the_secrets_file(runner, tmp_path):
    out = tmp_path / "game.p2pt"
    runner.invoke(main, ["sim", "pet-quartet", "-n", "2", "--seed", "r", "--out", str(out), "-q"])
    result = runner.invoke(main, ["resume", str(out)])
    assert result.exit_code == 1
    assert "no secrets file next to the replay" in result.output


def test_show_prints_the_table_after_an_entry(runner):
    replay = str(REPLAYS / "pet-quartet-3p-maestro.p2pt")
    result = runner.invoke(main, ["show", replay, "--at", "40"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("--- after entry 40 ---\nPet Quartet | Maestro tiles")
    assert "   40  chance    Cleo draws a 10" in result.output
    final = runner.invoke(main, ["show", replay])
    assert "final scores" in final.output


def test_show_stops_at_a_bad_entry(runner, tmp_path):
    data = bytearray((REPLAYS / "pet-quartet-3p-maestro.p2pt").read_bytes())
    data[-30] ^= 1
    bad = tmp_path / "bad.p2pt"
    bad.write_bytes(bytes(data))
    result = runner.invoke(main, ["show", str(bad)])
    assert result.exit_code == 1
    assert "Error: the replay is invalid at entry" in result.output


def test_games_lists_vorsicht_lehrer_with_its_hidden_hands(runner):
    games = runner.invoke(main, ["games"])
    assert "--option track=200|100  (default 200)" in games.output
    assert "(hidden hands, dealt from a sealed deck)" in games.output


def test_vorsicht_lehrer_sim_ranks_the_fewest_points_first(runner, tmp_path):
    out = tmp_path / "v.p2pt"
    result = runner.invoke(main, ["sim", "vorsicht-lehrer", "-n", "3", "--seed", "v",
                                  "--out", str(out), "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    scores = [int(line.split()[1]) for line in result.output.splitlines() if line.startswith("  ")
              and line.split()[1].isdigit()]  # fmt: skip
    assert scores == sorted(scores)
    assert "*winner*" in result.output.splitlines()[2]
    assert runner.invoke(main, ["verify", str(out)]).exit_code == 0


def test_show_reads_every_hand_of_an_audited_hidden_hand_game(runner, tmp_path):
    """Issue 4: after the end-of-game audit, a replay "can show every hand at every
    moment"; a log without the seats' secrets shows none."""
    from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames

    golden = REPLAYS / "vorsicht-lehrer-4p.p2pt"
    result = runner.invoke(main, ["show", str(golden), "--at", "40", "--seat", "2"])
    assert result.exit_code == 0, result.output
    assert "Your hand" in result.output and "not known here" not in result.output
    payloads = parse_frames(golden.read_bytes()).payloads[:45]
    cut = tmp_path / "cut.p2pt"
    cut.write_bytes(MAGIC + b"".join(encode_frame(p) for p in payloads))
    result = runner.invoke(main, ["show", str(cut), "--at", "40", "--seat", "2"])
    assert "(a card not known here)" in result.output


# Issue 11: "`sim --out` into a missing folder, `verify --json` on a missing file or
# a folder (print the JSON error object, as for an invalid file) ...: one line,
# `Error: …`, non-zero exit."


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_verify_json_on_a_missing_file_or_a_folder_prints_the_json_error(runner, tmp_path, kind):
    path = tmp_path / "game.p2pt"
    if kind == "folder":
        path.mkdir()
    result = runner.invoke(main, ["verify", "--json", str(path)])
    assert result.exit_code == 1
    report = json.loads(result.output)
    if kind == "missing":
        reason = f"no such file: {path}"
    else:
        reason = f"{path} is a folder, not a replay file"
    assert report == {"valid": False, "game": None, "protocol": None, "options": {}, "seats": [],
                      "entries": 0,
                      "result": None, "final": None,
                      "error": {"entry": 0, "reason": reason, "culprit": None}}  # fmt: skip
    text = runner.invoke(main, ["verify", str(path)])
    assert (text.exit_code, text.output) == (1, f"Error: {reason}\n")


def test_sim_into_a_missing_folder_says_so_and_creates_nothing(runner, tmp_path):
    out = tmp_path / "demos" / "game.p2pt"
    args = ["sim", "pet-quartet", "-n", "2", "--seed", "m", "--out", str(out), "-q"]
    result = runner.invoke(main, args)
    assert result.exit_code == 1
    assert result.output == (
        f"Error: cannot write {out}: the folder {out.parent} does not exist (create it first)\n"
    )
    assert not out.parent.exists()
    (tmp_path / "demos").write_text("a file where the folder should be")
    result = runner.invoke(main, args)
    assert result.output == f"Error: cannot write {out}: {out.parent} is not a folder\n"


def test_verify_says_which_version_of_the_format_a_replay_is(runner):
    # Issue 14: "a replay of the previous version still verifies (or `verify` says
    # plainly which version it reads)": it does both.
    for name, version in [
        ("vorsicht-lehrer-4p.p2pt", "p2ptable/3"),
        ("vorsicht-lehrer-4p-protocol-2.p2pt", "p2ptable/2"),
        ("pet-quartet-3p-live.p2pt", "p2ptable/1"),
    ]:
        result = runner.invoke(main, ["verify", str(REPLAYS / name)])
        assert result.exit_code == 0, result.output
        assert f"format:  {version} (this version reads p2ptable/1, p2ptable/2, p2ptable/3)" in (
            result.output
        )
        report = json.loads(runner.invoke(main, ["verify", "--json", str(REPLAYS / name)]).output)
        assert report["protocol"] == version


def test_rules_longer_than_the_terminal_go_through_the_pager(runner, monkeypatch):
    # Issue 25: "`rules GAME` goes through a pager when it is longer than the
    # terminal (`--no-pager`)".
    import os

    from p2ptable.cli import games as game_commands

    paged: list[str] = []
    monkeypatch.setattr(game_commands.click, "echo_via_pager", lambda text: paged.append(text))
    monkeypatch.setattr(game_commands, "_longer_than_terminal", lambda page: True)
    result = runner.invoke(main, ["rules", "teachers-pet"])
    assert result.exit_code == 0 and result.output == "" and "Teacher's Pet" in paged[0]
    result = runner.invoke(main, ["rules", "teachers-pet", "--no-pager"])
    assert result.output == paged[0] + "\n" and len(paged) == 1
    monkeypatch.setattr(game_commands, "_longer_than_terminal", lambda page: False)
    assert runner.invoke(main, ["rules", "teachers-pet"]).output == paged[0] + "\n"
    assert len(paged) == 1
    # The decision: only on a terminal, counting the lines a long one wraps into.
    monkeypatch.undo()
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((20, 5)))
    assert game_commands._longer_than_terminal("a\n" * 5)
    assert not game_commands._longer_than_terminal("a\n" * 4)
    assert game_commands._longer_than_terminal("x" * 41 + "\n" + "a\n" * 2)  # 3 + 2 rows


def test_verify_says_which_options_an_old_genesis_reads_by_default(runner):
    # Issue 25: "`verify` does not say which options an old genesis read by default".
    old = runner.invoke(main, ["verify", str(REPLAYS / "vorsicht-lehrer-4p-protocol-1.p2pt")])
    assert (
        "\noptions: read by default, as the game was played before it existed (the genesis "
        "does not name it): teacher-choices=in-turn\n" in old.output
    )
    new = runner.invoke(main, ["verify", str(REPLAYS / "vorsicht-lehrer-4p.p2pt")])
    assert new.exit_code == 0 and "\noptions:" not in new.output


def test_verify_says_no_options_for_a_game_without_any():
    # Issue 25: it printed "teachers-pet ()".
    from p2ptable.replay.verify import VerifyReport
    from p2ptable.ui.text import verify_summary

    said = verify_summary("x.p2pt", VerifyReport(game="toy", seats=[]))
    assert said.splitlines()[0] == "game:    toy (no options), 0 seats"
