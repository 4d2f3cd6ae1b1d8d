"""Teacher's Pet's result: the most Pet Points wins; ties are shared (option ``tie``).

How it works
------------
"After Final Scores have been tallied, the Player with the most Pet Points is the
winner."  The rulebook has no tie-break, so by default (``tie=shared``) every
seat tied on the most Pet Points shares the victory.  ``tie=fewer-detentions``
is the ruling p2ptable played before the option (and replays of then still do):
among the tied seats the one with the fewest Detentions is the Teacher's Pet (the
best-behaved student); still tied, they share it.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2ptable.engine.api import Outcome


def pet_points(n: int) -> str:
    """``1 Pet Point``, ``-1 Pet Point``, ``3 Pet Points``, ``0 Pet Points``."""
    return f"{n} Pet Point" if abs(n) == 1 else f"{n} Pet Points"


def _names(seats: Sequence[int]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outcome(points: Sequence[int], detentions: Sequence[int], tie: str = "shared") -> Outcome:
    """Scores (Pet Points), winners and how they were decided."""
    best = max(points)
    tied = [seat for seat, p in enumerate(points) if p == best]
    if len(tied) == 1:
        text = f"seat {tied[0]} is the Teacher's Pet with {pet_points(best)}"
        return Outcome(tuple(points), tuple(tied), text)
    if tie == "shared":
        text = f"{_names(tied)} share the victory with {pet_points(best)} each"
        return Outcome(tuple(points), tuple(tied), text)
    fewest = min(detentions[seat] for seat in tied)
    winners = tuple(seat for seat in tied if detentions[seat] == fewest)
    if len(winners) == 1:
        text = (
            f"seat {winners[0]} is the Teacher's Pet: {pet_points(best)} like "
            f"{_names([s for s in tied if s != winners[0]])}, and the fewest Detentions "
            f"({fewest})"
        )
    else:
        text = (
            f"{_names(winners)} share the victory with {pet_points(best)} and "
            f"{fewest} Detentions each"
        )
    return Outcome(tuple(points), winners, text)


def outcome_alone(points: Sequence[int], seat: int) -> Outcome:
    """Every other player left (a table that keeps going, RULES.md "The end"):
    the school day ends where it stands, nothing is played late, the Pet Points
    so far are the scores, and the player still at the table wins."""
    text = (
        f"seat {seat} is the Teacher's Pet: every other player left the table "
        "(the Pet Points so far stand)"
    )
    return Outcome(tuple(points), (seat,), text)
