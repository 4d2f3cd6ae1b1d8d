"""The secret choice a seat keeps before its commit leaves (REPLAY.choice).

Issue 14: "a seat that crashes and resumes re-makes the same commit (a second,
different commit for one position is equivocation)".  The choice is kept durably
before the commit leaves, in one fixed-size record overwritten in place (one
write and one fdatasync), and read back by `resume`.  Issue 22, 1: "The choice
file becomes an optimisation, not a single point of failure; a damaged or forged
one is reported and ignored, never trusted over the commit" (the commit comes
back from the other seats: tests/choices/test_choices_session.py).
"""

from __future__ import annotations

import pytest

from p2ptable.net.choice_file import (
    CHOICE_RECORD,
    ChoiceKeeper,
    choice_path,
    load_choice,
)
from p2ptable.net.session import Choice


def save_choice(replay, choice: Choice) -> None:  # noqa: ANN001 - a keeper of its own
    keeper = ChoiceKeeper(replay)
    try:
        keeper.keep(choice)
    finally:
        keeper.close()


def test_a_kept_choice_is_read_back_and_the_latest_wins(tmp_path):
    replay = tmp_path / "Ben.p2pt"
    assert load_choice(replay) == (None, None)  # never chose
    keeper = ChoiceKeeper(replay)
    assert load_choice(replay) == (None, None)  # made, nothing kept yet
    keeper.keep(Choice(12, "risk"))
    assert load_choice(replay) == (Choice(12, "risk"), None)
    keeper.keep(Choice(40, "take"))
    keeper.close()
    assert load_choice(replay) == (Choice(40, "take"), None)
    assert choice_path(replay).stat().st_size == CHOICE_RECORD  # never grows
    save_choice(replay, Choice(41, "bid 3"))  # a second keeper opens the same file
    assert load_choice(replay) == (Choice(41, "bid 3"), None)


@pytest.mark.parametrize("damage", ["flip", "length", "short", "not an action", "too big"])
def test_a_damaged_choice_file_is_reported_and_ignored(tmp_path, damage):
    replay = tmp_path / "Ben.p2pt"
    save_choice(replay, Choice(12, "risk" if damage != "not an action" else "risk 1 x!"))
    path = choice_path(replay)
    raw = bytearray(path.read_bytes())
    if damage == "flip":
        raw[6] ^= 1
    elif damage == "length":
        raw[0:4] = (300).to_bytes(4, "big")
    elif damage == "short":
        raw = raw[:10]
    elif damage == "too big":
        raw += bytes(CHOICE_RECORD)
    path.write_bytes(bytes(raw))
    choice, notice = load_choice(replay)
    assert choice is None
    assert notice.startswith("Ben.p2pt.choice is damaged") and "ignored" in notice
    assert "taken back from the other seats" in notice


def test_a_choice_too_long_for_its_record_is_our_error(tmp_path):
    keeper = ChoiceKeeper(tmp_path / "Ben.p2pt")
    with pytest.raises(ValueError, match="does not fit"):
        keeper.keep(Choice(1, "x" * CHOICE_RECORD))
    keeper.close()
