"""Small English helpers shared by every game's log phrases and screens.

The games word their own events ("Cleo draws an 8"); these helpers keep the grammar
in one place, so every game and every screen says "an 8", "an 11", "an 18".
"""

from __future__ import annotations


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
