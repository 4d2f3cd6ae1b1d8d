"""`p2ptable rules GAME`: how to play first, then how p2ptable reads the rulebook.

Issue 11: "`p2ptable rules GAME` starts with how to play, in a page a player reads
before a first game; then how p2ptable settles what the rulebook leaves open. Test
names and phase tables belong in the code, not in what players read."
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from p2ptable.games import get_game
from p2ptable.games.notes import DEVELOPER_NOTES

GAMES = ["pet-quartet", "vorsicht-lehrer"]
TESTS = Path(__file__).resolve().parents[1]


def rules_md(name: str) -> str:
    package = name.replace("-", "_")
    path = Path(__file__).resolve().parents[2] / "p2ptable" / "games" / package / "RULES.md"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_the_notes_start_with_how_to_play_then_the_readings(name: str) -> None:
    game = get_game(name)
    notes = game.rules_notes()
    headings = re.findall(r"^#+ .*$", notes, re.MULTILINE)
    assert headings[0] == f"# {game.title}: how to play"
    for part in ("## The goal", "## Set-up", "## Your turn", "## The end"):
        assert part in headings, part
    settles = headings.index("# How p2ptable settles what the rulebook leaves open")
    assert settles > headings.index("## The end")


@pytest.mark.parametrize("name", GAMES)
def test_players_read_no_test_names_no_phase_table_and_no_0_based_seats(name: str) -> None:
    notes = get_game(name).rules_notes()
    assert not re.search(r"\btest_\w+", notes)
    assert "|---" not in notes and "TABLE" not in notes
    assert not re.search(r"\bseat \d", notes)
    assert DEVELOPER_NOTES not in notes and "For developers" not in notes
    assert all(len(line) <= 80 for line in notes.splitlines()), "a page 80 columns wide"


@pytest.mark.parametrize("name", GAMES)
def test_the_developer_part_names_tests_that_exist(name: str) -> None:
    # Every decision is still backed by the tests its developer notes name.
    text = rules_md(name)
    notes = get_game(name).rules_notes()
    assert text.startswith(notes) and DEVELOPER_NOTES in text[len(notes) :]
    named = set(re.findall(r"`(test_\w+)`", text))
    defined = {
        test
        for path in TESTS.rglob("test_*.py")
        for test in re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE)
    }
    assert len(named) > 30
    assert named <= defined, named - defined
