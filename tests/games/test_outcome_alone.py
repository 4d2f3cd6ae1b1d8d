"""What each game with hidden hands says when every other player has left a
table that keeps going (issue 27, step 4; each game's RULES.md, "The end")."""

from __future__ import annotations

from pathlib import Path

from p2ptable.games import get_game, get_package
from p2ptable.games.teachers_pet import scoring as pet_scoring
from p2ptable.games.vorsicht_lehrer import scoring as lehrer_scoring


def test_vorsicht_lehrer_the_last_player_at_the_table_wins_and_the_points_stand():
    # RULES.md: "When every other player has left, the game ends at once where it
    # stands: the negative points so far are the scores, and the player still at
    # the table wins, whatever their points".
    outcome = lehrer_scoring.outcome_alone([3, 12, 0, 7], 100, 1)
    assert outcome.winners == (1,) and outcome.scores == (3, 12, 0, 7)
    assert outcome.lower_is_better
    assert "every other player left" in outcome.explanation
    capped = lehrer_scoring.outcome_alone([3, 130, 0], 100, 0)
    assert capped.scores == (3, 100, 0)  # "points beyond the end field do not count"


def test_teachers_pet_the_last_player_at_the_table_is_the_teachers_pet():
    # RULES.md: "the Pet Points so far are the scores, and the player still at the
    # table is the Teacher's Pet, whatever their points".
    outcome = pet_scoring.outcome_alone([9, 2, 14], 1)
    assert outcome.winners == (1,) and outcome.scores == (9, 2, 14)
    assert not outcome.lower_is_better
    assert "every other player left" in outcome.explanation


def test_every_game_that_keeps_going_has_the_rule_and_its_rules_notes_say_it():
    for name in ("vorsicht-lehrer", "teachers-pet"):
        assert callable(getattr(get_game(name), "outcome_alone", None)), name
        notes = Path(get_package(name).notes).read_text()
        assert "When every other player has left" in notes, name
