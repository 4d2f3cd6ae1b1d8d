"""ANSI styling: off without a TTY, with NO_COLOR or TERM=dumb; width helpers."""

from __future__ import annotations

import pytest

from p2ptable.ui.style import Style, color_enabled, fit, strip_ansi, visible_len, wrap_tokens


@pytest.mark.parametrize(
    ("env", "isatty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"TERM": "xterm-256color"}, True, True),
        # https://no-color.org: "when present and not an empty string ... prevents colour"
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": "0"}, True, False),
        ({"NO_COLOR": ""}, True, True),
        ({"TERM": "dumb"}, True, False),
        ({"NO_COLOR": "", "TERM": "dumb"}, True, False),
    ],
)
def test_color_enabled(env: dict[str, str], isatty: bool, expected: bool) -> None:
    assert color_enabled(env, isatty) is expected


def test_styles_do_nothing_without_colour() -> None:
    plain = Style(color=False)
    for paint in (plain.bold, plain.dim, plain.green, plain.yellow, plain.cyan, plain.red):
        assert paint("text") == "text"
    assert plain.paint("text", "bold", "red") == "text"


def test_styles_wrap_text_in_sgr_codes_with_colour() -> None:
    st = Style(color=True)
    assert st.bold("x") == "\x1b[1mx\x1b[0m"
    assert st.paint("x", "bold", "yellow") == "\x1b[1;33mx\x1b[0m"
    assert st.dim("") == ""  # nothing to style, no stray codes
    assert strip_ansi(st.green("5 x4*")) == "5 x4*"
    assert visible_len(st.green("5 x4*") + " ") == 6


def test_fit_cuts_long_lines_with_an_ellipsis() -> None:
    assert fit("short", 10) == "short"
    assert fit("exactly 10", 10) == "exactly 10"
    assert fit("a bit too long", 10) == "a bit t..."


def test_wrap_tokens_measures_plain_text_and_keeps_styles() -> None:
    tokens = [(t, f"<{t}>") for t in ("3 x1*", "5 x4*", "7 x2", "10 x3")]
    assert wrap_tokens(tokens, 17) == ["<3 x1*>  <5 x4*>", "<7 x2>  <10 x3>"]
    assert wrap_tokens(tokens, 18)[0] == "<3 x1*>  <5 x4*>  <7 x2>"  # exactly 18 columns
    assert wrap_tokens(tokens, 4) == ["<3 x1*>", "<5 x4*>", "<7 x2>", "<10 x3>"]
    assert wrap_tokens([], 10) == [""]


def test_events_that_do_not_fit_are_counted_in_the_title():
    # Issue 25: "Earlier events drop out of 'Recent' on small terminals" without a sign.
    from p2ptable.ui.style import Style, recent_block

    lines = recent_block([f"event {n}" for n in range(10)], str, Style(), 80, room=5)
    assert lines == ["", "Recent (7 earlier not shown)", "  event 7", "  event 8", "  event 9"]
    assert recent_block(["a", "b"], str, Style(), 80, room=5)[1] == "Recent"
