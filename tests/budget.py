"""How hard the randomized tests try: a share in the default run, all in a thorough one.

The default run (``pytest``, what .ci/run runs) stays under five minutes on a
two-core machine, so the costliest property tests, and the random playouts of
every game, do half their work there: each says so where it is defined, with
``examples(full)``, which is ``full`` in a thorough run and half of it (at least
one) otherwise; a test over a product of settings runs a pairwise cover of it
(``pairwise``), the whole product being marked slow.  A thorough run, every count
in full and the slow tests too:

    .venv/bin/python -m pytest -m 'slow or not slow' --hypothesis-profile thorough

(The profile is registered by tests/conftest.py, before hypothesis reads the
option.)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations

from hypothesis import settings

THOROUGH = "thorough"


QUICK = "p2ptable"


def register() -> None:
    """The default run's profile, and the thorough one (the counts are examples()'s).

    Neither has a deadline per example: hypothesis's 200 ms is a timed assertion,
    and on a machine whose cores four test workers and their peers share, an
    example of a test that parses a few bytes took 437 ms once (DeadlineExceeded,
    reported as a flaky failure).  Speed is measured by scripts/, never asserted."""
    settings.register_profile(QUICK, deadline=None)
    settings.register_profile(THOROUGH, settings.get_profile(QUICK))
    settings.load_profile(QUICK)  # --hypothesis-profile, if given, loads its own after


def thorough() -> bool:
    """Whether this run was asked to try everything (--hypothesis-profile thorough)."""
    current = getattr(settings, "get_current_profile_name", None)
    name = current() if current is not None else getattr(settings, "_current_profile", None)
    return name == THOROUGH


def examples(full: int) -> int:
    """The examples a property test draws: ``full`` when thorough, else half."""
    return full if thorough() else max(1, full // 2)


def pairwise(rows: Sequence[Sequence[Hashable]]) -> list[int]:
    """Indexes of a few ``rows`` that hold, between them, every value and every
    pair of values that any row holds in two of its columns (all rows of the same
    length): a cover of every two settings together, where a product of settings
    is too many to run.

    Greedy (each pick the row with the most pairs not yet held, the first of
    equals), so the same rows give the same cover on every run and machine.
    Only pairs some row holds are asked for: a product with rows left out (a
    variant refused at a seat count) is covered as far as it goes."""
    held = [
        {(a, row[a], b, row[b]) for a, b in combinations(range(len(row)), 2)}
        | {(a, row[a]) for a in range(len(row))}  # a row of one column: each value
        for row in rows
    ]
    wanted = set().union(*held) if held else set()
    chosen: list[int] = []
    while wanted:
        best = max(range(len(rows)), key=lambda k: len(held[k] & wanted))
        chosen.append(best)
        wanted -= held[best]
    return sorted(chosen)
