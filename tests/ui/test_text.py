"""What people read: one numbering of seats everywhere, and "an 8", not "a 8".

Issue 11: "seats and conductors are named the same way on the screens, in
`show --seat`, `verify --events` and `sim`'s output ... 'an 8', 'an 11'."  The log
and JSON keep 0-based indexes; a person reads names, or seats counted from 1.
"""

from __future__ import annotations

import pytest

from p2ptable.games.words import a, article
from p2ptable.replay.verify import VerifyReport
from p2ptable.ui.text import name_seats, options_words, seat_label, verify_summary

NAMES = ["Ana", "Ben", "Cleo"]


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        (3, "a"), (7, "a"), (10, "a"), (12, "a"), (13, "a"), (1, "a"), (0, "a"),
        (8, "an"), (11, "an"), (18, "an"),  # eight, eleven, eighteen
        (80, "an"), (83, "an"), (800, "an"), (8000, "an"),  # eighty-three, eight hundred
        (81, "an"), (100, "a"), (110, "a"), (118, "a"), (180, "a"),  # one hundred eighty
        (11000, "an"), (18500, "an"), (1100, "a"), (1800, "a"), (111, "a"),
        (-8, "a"),
    ],
)  # fmt: skip
def test_the_article_follows_the_number_read_aloud(number: int, expected: str) -> None:
    assert article(number) == expected


def test_a_number_with_its_article() -> None:
    assert [a(n) for n in (7, 8, 11, 12, 18)] == ["a 7", "an 8", "an 11", "a 12", "an 18"]


def test_seats_are_counted_from_one_for_people() -> None:
    assert [seat_label(s) for s in range(3)] == ["seat 1", "seat 2", "seat 3"]


def test_name_seats_puts_names_for_0_based_seat_numbers() -> None:
    assert name_seats("seat 0 and seat 2 tied; seat 1 passes", NAMES) == (
        "Ana and Cleo tied; Ben passes"
    )
    # Only whole numbers: "seat 1" inside "seat 12" is not seat 1.
    many = [f"P{n}" for n in range(13)]
    assert name_seats("seat 12 then seat 1", many) == "P12 then P1"
    assert name_seats("every seat shows its secret", NAMES) == "every seat shows its secret"


def test_name_seats_never_shows_a_0_based_number() -> None:
    # A seat the names do not cover is still counted from 1.
    assert name_seats("seat 5 is not at this table", NAMES) == "seat 6 is not at this table"


def _report(**fields) -> VerifyReport:
    seats = [{"name": n, "key": f"{i:02x}" * 32} for i, n in enumerate(NAMES)]
    return VerifyReport(game="pet-quartet", options={"variant": "standard"}, seats=seats,
                        entries=12, **fields)  # fmt: skip


def test_verify_lists_seats_from_one() -> None:
    out = verify_summary("g.p2pt", _report(valid=True))
    assert "  seat 1: Ana          key 0000000000000000…" in out
    assert "  seat 3: Cleo         key 0202020202020202…" in out
    assert "seat 0" not in out


def test_a_rematchs_first_player_is_shown_as_its_seat_list_counts() -> None:
    # A rematch's genesis names the seat that plays first by its index ("1" is the
    # second seat); verify counted it from 0 beside a seat list counted from 1.
    report = _report(valid=True)
    report.options = {"variant": "standard", "first": "1"}
    out = verify_summary("g.p2pt", report)
    assert "(first=seat 2 (Ben), variant=standard)" in out
    assert "first=1" not in out
    # From a file or a stranger's listing, a value that is no seat stays as it is.
    for odd in ("²", "12345678", "x", ""):
        assert options_words([("first", odd)], NAMES) == f"first={odd}"


def test_verify_names_the_cheater_as_its_seat_list_does() -> None:
    error = {"entry": 7, "reason": "seat 1 acted out of turn (seat 0 to act)", "culprit": 1,
             "culprit_name": "Ben"}  # fmt: skip
    out = verify_summary("g.p2pt", _report(error=error))
    assert out.splitlines()[-1] == (
        "g.p2pt: INVALID at entry 7: Ben acted out of turn (Ana to act). Cheater: seat 2 (Ben)."
    )


def test_names_are_listed_as_a_sentence_says_them():
    # Issue 25 (noticed): "Bea, Cal chose already".
    from p2ptable.ui.text import listed

    assert [listed(n) for n in ([], ["Ana"], ["Ana", "Ben"], ["Ana", "Ben", "Cleo"])] == [
        "",
        "Ana",
        "Ana and Ben",
        "Ana, Ben and Cleo",
    ]
