"""Small English helpers shared by every game's log phrases and screens.

The games word their own events ("Cleo draws an 8"); these helpers keep the grammar
in one place, so every game and every screen says "an 8", "an 11", "an 18".
"""

from __future__ import annotations

from collections.abc import Sequence


def article(number: int) -> str:
    """The indefinite article for ``number`` read aloud: "an" before a vowel sound.

    Numbers read aloud start with a vowel sound exactly when they start with "eight"
    (8, 80-89, 800-899, 8000, ...) or with "eleven" or "eighteen" (11, 18, 11000,
    18500, ...: the first group of thousands is 11 or 18).
    """
    if number < 0:
        return "a"  # "a minus three"
    digits = str(number)
    lead = len(digits) % 3 or 3  # the digits before the first thousands separator
    return "an" if digits[0] == "8" or int(digits[:lead]) in (11, 18) else "a"


def a(number: int) -> str:
    """``number`` with its article: "a 7", "an 8", "an 11"."""
    return f"{article(number)} {number}"


#: How many characters of a name the screens' tables show (in full elsewhere).
NAME_WIDTH = 14


def plural(n: int, word: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def listed(names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cleo``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def short_name(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` cut to ``width`` characters for a table column (``Alexandra..``)."""
    return name if len(name) <= width else name[: width - 2] + ".."


def pronoun_name(view: dict, names: Sequence[str], seat: int) -> str:
    """``you`` for the view's own seat, else the seat's name."""
    return "you" if seat == view["you"] else names[seat]


def possessive_name(view: dict, names: Sequence[str], seat: int) -> str:
    """``Your`` for the view's own seat, else ``Ana's``."""
    return "Your" if seat == view["you"] else f"{names[seat]}'s"
