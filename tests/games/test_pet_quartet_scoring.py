"""Pet Quartet scoring: soloists, quartets, advanced scoring and the tie-breaks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pet_quartet_helpers import start

from p2ptable.games.pet_quartet import GAME
from p2ptable.games.pet_quartet.scoring import outcome, points

# The rulebook's figure is missing from the text, so these collections are
# reconstructed to fit every number it gives.  Patrick's five sets score
# 1 + 0 + 1 + 1 + 0 (basic) and 4 + 0 + 4 + 9 + 0 (advanced): two quartets, both above
# 5, a pair, a soloist 9 and a triple.  Sarah's score 1 + 1 + 0 + 1 + 0 and
# 4 + 4 + 0 + 4 + 0: a quartet of 5, another quartet, a pair, a soloist 4 and a triple.
# No value is used more often than the deck holds it.
PATRICK = (6,) * 4 + (3,) * 2 + (7,) * 4 + (9,) + (8,) * 3
SARAH = (5,) * 4 + (9,) * 4 + (6,) * 2 + (4,) + (7,) * 3


def test_scoring_example_basic_sarah_wins_with_the_lowest_quartet():
    # "Patrick: 1 + 0 + 1 + 1 + 0 = 3 points. Sarah: 1 + 1 + 0 + 1 + 0 = 3 points.
    # Patrick and Sarah are tied, but Sarah has the lowest-valued quartet (5) so Sarah
    # wins!"
    result = outcome([PATRICK, SARAH], "basic")
    assert result.scores == (3, 3)
    assert result.winners == (1,)
    assert result.explanation == (
        "seat 0 and seat 1 tied on 3; seat 1 wins with the lowest-valued quartet (5)"
    )


def test_scoring_example_advanced_patrick_wins():
    # "Patrick scores 4 + 0 + 4 + 9 + 0 = 17 points. Sarah scores 4 + 4 + 0 + 4 + 0 =
    # 12 points. So if they had chosen to play with the advanced scoring, Patrick
    # would have won the game instead of Sarah!"
    result = outcome([PATRICK, SARAH], "advanced")
    assert result.scores == (17, 12)
    assert result.winners == (0,)
    assert result.explanation == "seat 0 wins with 17 points"


@pytest.mark.parametrize(
    ("cards", "basic", "advanced"),
    [
        ((), 0, 0),
        ((7,), 1, 7),  # a soloist
        ((7, 7), 0, 0),
        ((7, 7, 7), 0, 0),
        ((7, 7, 7, 7), 1, 4),  # a quartet
        ((7, 7, 7, 7, 7), 0, 0),
        ((3, 5, 5, 5, 5, 12), 3, 19),
    ],
)
def test_only_soloists_and_quartets_score(cards, basic, advanced):
    # "you only want to have exactly one card from that set, or exactly four cards
    # from that set." / "Players score 1 point for each of their soloists and 1 point
    # for each of their quartets." / "Each quartet scores 4 points. Each soloist
    # scores its full numbered value."
    assert points(cards, "basic") == basic
    assert points(cards, "advanced") == advanced


def test_the_most_points_wins():
    # "The player with the most points wins."
    result = outcome([(3,), (3, 4), (5, 5)], "basic")
    assert (result.scores, result.winners) == ((1, 2, 0), (1,))
    assert result.explanation == "seat 1 wins with 2 points"


def test_a_quartet_beats_no_quartet_in_a_tie():
    # "In the case of a tie, the tied player with the lowest-valued quartet wins."
    result = outcome([(3, 13), (9, 9, 9, 9, 4)], "basic")
    assert result.winners == (1,)
    assert result.explanation == (
        "seat 0 and seat 1 tied on 2; seat 1 wins with the lowest-valued quartet (9)"
    )


def test_tie_on_quartets_goes_to_the_highest_soloist():
    # "If the players are still tied, the player with the highest-valued soloist wins."
    result = outcome([(5, 5, 5, 5, 8), (5, 5, 5, 5, 11), (3, 4)], "basic")
    assert result.winners == (1,)
    assert result.explanation == (
        "seat 0, seat 1 and seat 2 tied on 2; seat 0 and seat 1 have the lowest-valued "
        "quartet (5); seat 1 wins with the highest-valued soloist (11)"
    )


def test_tie_with_no_quartets_goes_to_the_highest_soloist():
    result = outcome([(3, 6), (4, 5)], "basic")
    assert result.winners == (0,)
    assert result.explanation == (
        "seat 0 and seat 1 tied on 2; none has a quartet; "
        "seat 0 wins with the highest-valued soloist (6)"
    )


def test_a_complete_tie_is_a_shared_victory():
    # "And if the players are somehow still tied, the tied players share the victory
    # in perfect harmony."
    result = outcome([(4, 4, 4, 4, 9), (9, 4, 4, 4, 4), (3,)], "basic")
    assert result.winners == (0, 1)
    assert result.explanation == (
        "seat 0 and seat 1 tied on 2; each has a lowest quartet of 4; "
        "each has a highest soloist of 9; seat 0 and seat 1 share the victory"
    )


def test_nobody_scoring_is_a_shared_victory_of_everyone():
    result = outcome([(), (5, 5)], "advanced")
    assert result.winners == (0, 1)
    assert result.explanation == (
        "seat 0 and seat 1 tied on 0; none has a quartet; none has a soloist; "
        "seat 0 and seat 1 share the victory"
    )


def test_tie_breaks_apply_only_among_the_tied_leaders():
    # "the tied player with the lowest-valued quartet wins": seat 2's quartet of 3
    # does not matter, seat 2 is not tied for the lead.
    result = outcome([(4, 4, 4, 4, 6), (6, 6, 6, 6, 3), (3, 3, 3, 3)], "basic")
    assert result.winners == (0,)


def test_advanced_scoring_keeps_the_same_tie_breaks():
    # "The tiebreaking rules are unchanged."
    result = outcome([(6, 6, 6, 6), (5, 5, 5, 5), (4,)], "advanced")
    assert result.scores == (4, 4, 4)
    assert result.winners == (1,)
    assert result.explanation == (
        "seat 0, seat 1 and seat 2 tied on 4; seat 1 wins with the lowest-valued quartet (5)"
    )


def test_the_game_outcome_uses_the_chosen_scoring():
    over = replace(start(2, scoring="advanced"), collections=(PATRICK, SARAH), phase="over")
    assert GAME.outcome(over).winners == (0,)
    assert GAME.outcome(replace(over, scoring="basic")).winners == (1,)
