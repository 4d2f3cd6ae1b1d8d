"""The school and teacher cards, loaded from the data files next to this module.

How it works
------------
``school-cards.txt`` and ``teacher-cards.txt`` hold one comma-separated row per kind
of card with a ``copies`` column; comment lines start with ``#``.  Loading expands
each row into that many cards and numbers them in file order, so a card *is* its id
(an int: ``0..57`` for school cards, ``0..19`` for teacher cards) and the rules only
ever store ids.  ``SCHOOL[id]`` and ``TEACHER[id]`` give a card's values.

The lists are a reconstruction (the rulebook names only three cards; see RULES.md):
replace the files and everything else follows, provided the counts stay at 58 and 20
and every risk number can be thrown with 3 dice.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib.resources import files

SCHOOL_FILE = "school-cards.txt"
TEACHER_FILE = "teacher-cards.txt"
SCHOOL_COUNT = 58  # "58 School cards (blue back)"
TEACHER_COUNT = 20  # "20 Teacher's cards (blue back with teacher's symbol)"
LOWEST_THROW, HIGHEST_THROW = 3, 18  # what 3 dice can show


@dataclass(frozen=True)
class SchoolCard:
    """A prank: patience points (black box), negative points, risk throw."""

    id: int
    name: str
    german: str
    patience: int
    negative: int
    risk: int


@dataclass(frozen=True)
class TeacherCard:
    """A teacher card: extra patience, negative points for all, risk, detention star."""

    id: int
    name: str
    german: str
    patience: int
    negative: int
    risk: int
    detention: bool


def _rows(filename: str) -> list[dict[str, str]]:
    text = files(__package__).joinpath(filename).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines))


def _check(name: str, patience: int, negative: int, risk: int) -> None:
    if patience < 0 or negative < 0:
        raise ValueError(f"card {name!r}: patience and negative points must be >= 0")
    if negative and not LOWEST_THROW <= risk <= HIGHEST_THROW:
        raise ValueError(f"card {name!r}: risk {risk} cannot be thrown with 3 dice")


def load_school(filename: str = SCHOOL_FILE) -> tuple[SchoolCard, ...]:
    """Every school card, its id being its position."""
    cards: list[SchoolCard] = []
    for row in _rows(filename):
        values = int(row["patience"]), int(row["negative"]), int(row["risk"])
        _check(row["name"], *values)
        for _ in range(int(row["copies"])):
            cards.append(SchoolCard(len(cards), row["name"], row["german"], *values))
    return tuple(cards)


def load_teacher(filename: str = TEACHER_FILE) -> tuple[TeacherCard, ...]:
    """Every teacher card, its id being its position."""
    cards: list[TeacherCard] = []
    for row in _rows(filename):
        values = int(row["patience"]), int(row["negative"]), int(row["risk"])
        _check(row["name"], *values)
        for _ in range(int(row["copies"])):
            cards.append(
                TeacherCard(
                    len(cards), row["name"], row["german"], *values, row["detention"] == "1"
                )
            )
    return tuple(cards)


SCHOOL: tuple[SchoolCard, ...] = load_school()
TEACHER: tuple[TeacherCard, ...] = load_teacher()
