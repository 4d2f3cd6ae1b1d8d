"""`verify FILE...`: many replays at once, one per core, reported in the files' order.

Issue 29: "`verify` ... of many files at once (`verify FILE…`) using every core."
Each file's report is exactly what `verify FILE` alone prints; a file that cannot
be read is said and the others are still checked; the exit status is 0 only when
every file is valid.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from p2ptable.cli import main

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
# Small ones first and last, so a report that arrived out of order would show.
FILES = [
    REPLAYS / "pet-quartet-2p-duet-advanced.p2pt",
    REPLAYS / "vorsicht-lehrer-4p.p2pt",
    REPLAYS / "pet-quartet-3p-live.p2pt",
]


def alone(path: Path, *options: str) -> str:
    result = CliRunner().invoke(main, ["verify", *options, str(path)])
    assert result.exit_code == 0, result.output
    return result.output


def test_several_files_print_each_report_as_alone_in_the_order_given():
    result = CliRunner().invoke(main, ["verify", *map(str, FILES)])
    assert result.exit_code == 0, result.output
    assert result.output == "".join(alone(path) for path in FILES)


def test_events_of_several_files_come_with_their_own_report():
    result = CliRunner().invoke(main, ["verify", "--events", *map(str, FILES[:2])])
    assert result.exit_code == 0
    assert result.output == "".join(alone(path, "--events") for path in FILES[:2])


def test_json_of_several_files_is_a_list_of_reports_each_naming_its_file(tmp_path):
    missing = tmp_path / "gone.p2pt"
    result = CliRunner().invoke(main, ["verify", "--json", str(FILES[0]), str(missing)])
    assert result.exit_code == 1
    reports = json.loads(result.output)
    assert [(r["file"], r["valid"]) for r in reports] == [
        (str(FILES[0]), True),
        (str(missing), False),
    ]
    first = json.loads(alone(FILES[0], "--json"))
    assert {k: v for k, v in reports[0].items() if k != "file"} == first
    assert reports[1]["error"]["reason"] == f"no such file: {missing}"


def test_an_unreadable_or_invalid_file_fails_the_run_and_the_others_are_still_checked(tmp_path):
    bad = tmp_path / "cut.p2pt"
    bad.write_bytes(FILES[0].read_bytes()[:-40])  # the last entry torn
    missing = tmp_path / "gone.p2pt"
    result = CliRunner().invoke(main, ["verify", str(missing), str(bad), str(FILES[2])])
    assert result.exit_code == 1
    assert f"Error: no such file: {missing}\n" in result.output
    assert f"{bad}: INVALID" in result.output
    assert result.output.endswith(alone(FILES[2]))
