"""`p2ptable show`: the replay viewer's keys, its seat numbers and its bounds (issue 11).

Issue 11: "`show --step` has a prompt and keys to go forward, back and quit; `--at`
past the end is an error, not silently clamped."  And: "One numbering everywhere:
seats ... in `show --seat` ..." (decided: people count seats from 1, or name them;
JSON keeps 0-based indexes; `--seat 0` is an error that says seats count from 1).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from p2ptable.cli import main
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.ui.replay_viewer import ReplayError, Viewer, seat_index

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
GAME = REPLAYS / "pet-quartet-3p-maestro.p2pt"  # seats Ana, Ben, Cleo; entries 0..206
HIDDEN = REPLAYS / "vorsicht-lehrer-4p.p2pt"


def shown_entries(output: str) -> list[int]:
    return [int(n) for n in re.findall(r"^--- after entry (\d+) ---$", output, re.M)]


def run(*args: str, input: str | None = None):  # noqa: ANN201
    return CliRunner().invoke(main, ["show", *args], input=input)


# -- --step: a prompt, and keys to go forward, back and quit ----------------------


def test_step_shows_a_prompt_with_the_position_and_the_keys():
    result = run(str(GAME), "--step", "--at", "12", input="q\n")
    assert result.exit_code == 0, result.output
    assert shown_entries(result.output) == [12]
    assert "entry 12 of 206 — Enter/n next, b back, q quit" in result.output


def test_step_goes_forward_back_and_quits():
    # Enter and n go forward, b goes back, q quits; a word counts by its first letter.
    result = run(str(GAME), "--step", input="\nn\nb\nback\nnext\nquit\n")
    assert result.exit_code == 0, result.output
    assert shown_entries(result.output) == [0, 1, 2, 1, 0, 1]


def test_going_back_shows_exactly_the_screen_shown_before():
    result = run(str(GAME), "--step", "--at", "40", input="n\nn\nb\nb\nq\n")
    screens = re.split(r"^--- after entry \d+ ---$", result.output, flags=re.M)[1:]
    assert shown_entries(result.output) == [40, 41, 42, 41, 40]
    assert screens[3] == screens[1] and screens[4] == screens[0]
    assert screens[0] != screens[1]


def test_step_back_from_the_first_entry_stays_there():
    result = run(str(GAME), "--step", input="b\nq\n")
    assert shown_entries(result.output) == [0, 0]


def test_an_unknown_key_asks_again_and_the_end_of_input_quits():
    result = run(str(GAME), "--step", input="x\n")
    assert result.exit_code == 0
    assert shown_entries(result.output) == [0]
    assert "keys: Enter/n next, b back, q quit" in result.output


def test_stepping_past_the_last_entry_ends_the_viewer():
    result = run(str(GAME), "--step", "--at", "205", input="\n\n\n")
    assert result.exit_code == 0, result.output
    assert shown_entries(result.output) == [205, 206]
    assert "final scores" in result.output


def test_stepping_to_a_bad_entry_stops_with_the_error(tmp_path):
    payloads = parse_frames(GAME.read_bytes()).payloads
    payloads[3], payloads[4] = payloads[4], payloads[3]
    bad = tmp_path / "bad.p2pt"
    bad.write_bytes(MAGIC + b"".join(map(encode_frame, payloads)))
    result = run(str(bad), "--step", input="\n\n\n\n\n")
    assert result.exit_code == 1
    assert shown_entries(result.output) == [0, 1, 2]
    assert result.output.rstrip().endswith(
        "Error: the replay is invalid at entry 3: claims to be entry 4 (duplicated or reordered?)"
    )


# -- --at: past the end is an error -------------------------------------------------


def test_at_past_the_end_names_the_last_entry():
    result = run(str(GAME), "--at", "207")
    assert result.exit_code == 2
    assert "Error: Invalid value for --at: 207 is past the end: the last entry of " in (
        result.output
    )
    assert result.output.rstrip().endswith("is 206")
    assert "--- after entry" not in result.output  # nothing is shown, not even entry 206


def test_at_the_last_entry_and_at_the_genesis_are_shown():
    assert shown_entries(run(str(GAME), "--at", "206").output) == [206]
    assert shown_entries(run(str(GAME), "--at", "0").output) == [0]


def test_at_cannot_be_negative():
    result = run(str(GAME), "--at", "-1")
    assert result.exit_code == 2
    assert "-1 is not in the range x>=0" in result.output


# -- --seat: counted from 1, or a name ----------------------------------------------


def test_seat_one_is_the_first_seat():
    # Ana is the first seat: her hand is her view's, so "--seat 1" and "--seat ana"
    # show the same screen, and Ben's (seat 2) differs.
    first = run(str(HIDDEN), "--at", "40", "--seat", "1")
    assert first.exit_code == 0, first.output
    assert run(str(HIDDEN), "--at", "40", "--seat", "ANA").output == first.output
    assert run(str(HIDDEN), "--at", "40", "--seat", "2").output != first.output
    assert "Your hand" in first.output


def test_seat_zero_says_seats_count_from_one():
    result = run(str(GAME), "--seat", "0")
    assert result.exit_code == 2
    assert (
        "Error: Invalid value for --seat: seats count from 1, not 0: "
        "the seats are 1 Ana, 2 Ben, 3 Cleo" in result.output
    )


def test_a_seat_past_the_last_and_an_unknown_name_list_the_seats():
    result = run(str(GAME), "--seat", "4")
    assert "no seat 4: this game has 3 seats: 1 Ana, 2 Ben, 3 Cleo" in result.output
    result = run(str(GAME), "--seat", "Dev")
    assert "no seat named 'Dev': the seats are 1 Ana, 2 Ben, 3 Cleo" in result.output


@pytest.mark.parametrize(
    "typed,seat", [("1", 0), ("3", 2), (" 2 ", 1), ("ana", 0), ("CLEO", 2), ("Ben", 1)]
)
def test_seat_index_reads_a_number_from_one_or_a_name(typed, seat):
    assert seat_index(typed, ["Ana", "Ben", "Cleo"]) == seat


@pytest.mark.parametrize("typed", ["0", "-1", "4", "+0", "", "Dev", "1.5"])
def test_seat_index_refuses_anything_else(typed):
    with pytest.raises(ValueError):
        seat_index(typed, ["Ana", "Ben", "Cleo"])


# -- the viewer checks as it goes, and says each error once -----------------------


def test_a_bad_entry_is_named_once(tmp_path):
    """A ledger error already reads "entry N: reason"; the viewer said it twice
    ("invalid at entry 20: entry 20: claims to be entry 21")."""
    payloads = parse_frames(GAME.read_bytes()).payloads
    payloads[20], payloads[21] = payloads[21], payloads[20]
    bad = tmp_path / "swapped.p2pt"
    bad.write_bytes(MAGIC + b"".join(map(encode_frame, payloads)))
    result = run(str(bad))
    assert result.exit_code == 1
    assert result.output.rstrip().endswith(
        "Error: the replay is invalid at entry 20: claims to be entry 21 (duplicated or reordered?)"
    )
    assert shown_entries(result.output) == [19]  # the last good entry is shown first


def test_the_viewer_checks_only_as_far_as_it_shows(tmp_path):
    payloads = parse_frames(GAME.read_bytes()).payloads
    payloads[100], payloads[101] = payloads[101], payloads[100]
    bad = tmp_path / "late.p2pt"
    bad.write_bytes(MAGIC + b"".join(map(encode_frame, payloads)))
    viewer = Viewer(bad)
    assert viewer.last == 206
    assert viewer.screen(99) and viewer.screen(3)  # forward, then back
    with pytest.raises(ReplayError, match="^entry 100: claims to be entry 101"):
        viewer.screen(150)


def test_a_terminal_answers_with_single_keys(monkeypatch, capsys):
    """On a terminal each key counts at once (no Enter): arrows too, and q quits.
    (Ctrl-C interrupts, exit status 130: tests/test_cli_interrupts.py.)"""
    import click

    from p2ptable.cli import records

    class Terminal:
        def isatty(self) -> bool:
            return True

    keys = iter(["n", "\r", "\x1b[C", "\x1b[D", "B", "?", "q"])
    monkeypatch.setattr(records.sys, "stdin", Terminal())
    monkeypatch.setattr(click, "getchar", lambda: next(keys))
    records._step(Viewer(GAME), None, 0)
    output = capsys.readouterr().out
    assert shown_entries(output) == [0, 1, 2, 3, 2, 1]
    assert "entry 1 of 206 — Enter/n next, b back, q quit " in output
    assert "keys: Enter/n next, b back, q quit" in output  # after "?"


# -- --seat on your own replay of a game not over: your own cards named -------------
# Issue 25: "the card you gave, took, were given or were dealt is named to you (only
# to you), on the screen and in `show --seat` for your own replay while the game is
# unfinished (your secrets file is beside it)".


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Teacher's Pet cut at entry 59 (no deck secrets in the log), kept as Ben's
    peer keeps it: the replay, and beside it Ben's own secrets file."""
    from p2ptable.net.persistence import save_secrets
    from p2ptable.randomness.chain import DEFAULT_LENGTH
    from p2ptable.replay.seat_secrets import SeatSecrets
    from p2ptable.sim import simulate

    folder = tmp_path_factory.mktemp("own")
    whole = simulate("teachers-pet", 3, "cut", folder / "whole.p2pt").path
    cut = folder / "ben.p2pt"
    cut.write_bytes(
        MAGIC + b"".join(encode_frame(p) for p in parse_frames(whole.read_bytes()).payloads[:60])
    )
    secrets = SeatSecrets.from_seed(b"cut", 1, DEFAULT_LENGTH)  # sim's seat 1: Ben
    save_secrets(cut, secrets, 1, [f"tcp://127.0.0.1:{47001 + k}" for k in range(3)], 47002)
    return cut


def test_your_own_unfinished_replay_names_your_cards_to_you(unfinished: Path) -> None:
    result = run(str(unfinished), "--seat", "Ben")
    assert result.exit_code == 0, result.output
    assert "a card is dealt to Ben [Hall Pass]" in result.output
    assert "Your hand (6 cards)\n  Assignment (Math), Assignment (Reading), Art 2" in result.output
    assert result.stderr == ""


def test_another_seat_of_it_and_everyone_see_no_hidden_card(unfinished: Path) -> None:
    ana = run(str(unfinished), "--seat", "Ana")
    assert ana.exit_code == 0, ana.output
    assert "a card is dealt to Ben\n" in ana.stdout and "[" not in ana.stdout
    assert ana.stderr == (
        "Note: Ana's hidden cards are not named: the log holds no deck secrets (every "
        "seat publishes its own at the end of the game), and ben.p2pt.secrets is "
        "another seat's.\n"
    )
    public = run(str(unfinished))
    assert "a card is dealt to Ben\n" in public.stdout and "[" not in public.stdout
    assert "Assignment (Math), Assignment (Reading)" not in public.stdout + ana.stdout


def test_an_audited_replay_names_that_seats_cards_only() -> None:
    # The card a seat handed over, named in its own lines; another seat's, not.
    path = REPLAYS / "teachers-pet-4p.p2pt"
    ana = run(str(path), "--seat", "Ana", "--at", "16").output
    ben = run(str(path), "--seat", "Ben", "--at", "16").output
    assert "hands a card to Cleo [Music 4]" in ana
    assert "hands a card to Cleo\n" in ben and "[" not in ben
