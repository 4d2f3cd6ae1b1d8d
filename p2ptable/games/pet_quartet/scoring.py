"""Pet Quartet scoring: soloists, quartets and the tie-breaks.

How it works
------------
A collection is grouped by value.  A value held exactly once is a *soloist*, exactly
four times a *quartet*; any other count scores nothing.  Basic scoring gives 1 point
for each; advanced scoring gives a soloist its value and a quartet 4.

Among the seats tied on the top score the tie-breaks apply in turn, each keeping only
the seats that do best on it: the lowest-valued quartet (having one beats having
none), then the highest-valued soloist; whoever is still tied shares the victory.
Every step taken is written into ``Outcome.explanation``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from p2ptable.engine.api import Outcome

Collection = Sequence[int]


def soloists(cards: Collection) -> list[int]:
    """Values held exactly once, ascending."""
    return sorted(v for v, n in Counter(cards).items() if n == 1)


def quartets(cards: Collection) -> list[int]:
    """Values held exactly four times, ascending."""
    return sorted(v for v, n in Counter(cards).items() if n == 4)


def points(cards: Collection, scoring: str) -> int:
    """ "1 POINT per Soloist, 1 POINT per Quartet"; advanced: "Soloists score their
    value. Each quartet scores 4 points." """
    if scoring == "advanced":
        return sum(soloists(cards)) + 4 * len(quartets(cards))
    return len(soloists(cards)) + len(quartets(cards))


def _names(seats: Sequence[int]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# Each tie-break: (key to minimise, what the best key is called, what an even key is called).
_TieBreak = tuple[Callable[[Collection], float], Callable[[float], str], Callable[[float], str]]

_NONE = float("inf")

_TIE_BREAKS: tuple[_TieBreak, ...] = (
    (
        lambda cards: min(quartets(cards), default=_NONE),
        lambda key: f"the lowest-valued quartet ({key:.0f})",
        lambda key: (
            "none has a quartet" if key == _NONE else f"each has a lowest quartet of {key:.0f}"
        ),
    ),
    (
        lambda cards: -max(soloists(cards), default=-_NONE),
        lambda key: f"the highest-valued soloist ({-key:.0f})",
        lambda key: (
            "none has a soloist" if key == _NONE else f"each has a highest soloist of {-key:.0f}"
        ),
    ),
)


def outcome(collections: Sequence[Collection], scoring: str) -> Outcome:
    """Scores, winners and how the winners were decided."""
    scores = tuple(points(cards, scoring) for cards in collections)
    top = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == top]
    if len(tied) == 1:
        unit = "point" if top == 1 else "points"
        return Outcome(scores, (tied[0],), f"seat {tied[0]} wins with {top} {unit}")
    said = [f"{_names(tied)} tied on {top}"]
    for key, best_is, even_is in _TIE_BREAKS:
        best = min(key(collections[seat]) for seat in tied)
        leaders = [seat for seat in tied if key(collections[seat]) == best]
        if len(leaders) == 1:
            said.append(f"seat {leaders[0]} wins with {best_is(best)}")
            return Outcome(scores, (leaders[0],), "; ".join(said))
        said.append(f"{_names(leaders)} have {best_is(best)}" if leaders != tied else even_is(best))
        tied = leaders
    said.append(f"{_names(tied)} share the victory")
    return Outcome(scores, tuple(tied), "; ".join(said))
