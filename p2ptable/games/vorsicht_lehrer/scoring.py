"""Vorsicht Lehrer!'s result: fewest negative points wins, ties share the victory.

How it works
------------
A seat's score is its negative points, counted only up to the end field ("remaining
points decay": a token cannot go past "Vorsicht Lehrer!").  "The student with the
fewest negative points" wins; the rulebook has no tie-break, so every seat tied on the
fewest shares the victory.  Lower is better here, unlike Pet Quartet: the explanation
says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2ptable.engine.api import Outcome


def final_scores(tokens: Sequence[int], track: int) -> tuple[int, ...]:
    """Negative points, capped at the end field."""
    return tuple(min(t, track) for t in tokens)


def _names(seats: Sequence[int]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outcome(tokens: Sequence[int], track: int) -> Outcome:
    """Scores (negative points), winners (the fewest) and how they were decided."""
    scores = final_scores(tokens, track)
    best = min(scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    unit = "negative point" if best == 1 else "negative points"
    if len(winners) == 1:
        text = f"seat {winners[0]} wins with the fewest {unit} ({best})"
    else:
        text = f"{_names(winners)} share the victory with the fewest {unit} ({best})"
    return Outcome(scores, winners, text, lower_is_better=True)


def outcome_alone(tokens: Sequence[int], track: int, seat: int) -> Outcome:
    """Every other player left (a table that keeps going, RULES.md "The end"):
    the game ends where it stands, the points so far are the scores, and the
    player still at the table wins, whatever its points."""
    scores = final_scores(tokens, track)
    text = f"seat {seat} wins: every other player left the table (the points so far stand)"
    return Outcome(scores, (seat,), text, lower_is_better=True)
