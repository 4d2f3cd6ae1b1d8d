"""ANSI styling and width helpers for terminal screens.

How it works
------------
A :class:`Style` wraps text in ANSI SGR codes (``ESC [ 1 m`` ... ``ESC [ 0 m``) when
its ``color`` flag is on and returns the text unchanged when it is off, so a screen
is written once and rendered either way.  Whether to turn colour on is the caller's
decision, taken once at the edge with :func:`color_enabled` (``NO_COLOR``, a TTY,
``TERM=dumb``); nothing here reads the environment itself.

Screens lay out *plain* text first (padding, wrapping and truncation count
characters) and style the pieces afterwards, so escape codes never upset a column.
:func:`visible_len` and :func:`strip_ansi` let tests and callers measure styled text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

#: SGR parameter for each style name.
CODES: dict[str, str] = {
    "bold": "1",
    "dim": "2",
    "underline": "4",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def color_enabled(env: Mapping[str, str], isatty: bool) -> bool:
    """Whether to use colour: only on a TTY whose TERM is not ``dumb``, and never
    when ``NO_COLOR`` is set to a non-empty value (https://no-color.org)."""
    if env.get("NO_COLOR", ""):
        return False
    if env.get("TERM", "") == "dumb":
        return False
    return isatty


@dataclass(frozen=True)
class Style:
    """Styling functions that do nothing when ``color`` is False."""

    color: bool = False

    def paint(self, text: str, *styles: str) -> str:
        """``text`` in the given styles (names from :data:`CODES`)."""
        if not self.color or not styles or not text:
            return text
        codes = ";".join(CODES[name] for name in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")

    def dim(self, text: str) -> str:
        return self.paint(text, "dim")

    def green(self, text: str) -> str:
        return self.paint(text, "green")

    def yellow(self, text: str) -> str:
        return self.paint(text, "yellow")

    def cyan(self, text: str) -> str:
        return self.paint(text, "cyan")

    def red(self, text: str) -> str:
        return self.paint(text, "red")


#: How many recent events a screen shows when it is not told how many lines it has.
RECENT_LINES = 6
#: The fewest recent events a screen shows, however small the terminal.
MIN_RECENT_LINES = 3


def recent_room(rows: int | None, *used: Sequence[str]) -> int | None:
    """The lines left for the "Recent" section when a screen may use ``rows`` lines
    and its other parts take ``used`` (``None``: not told, the default count)."""
    if rows is None:
        return None
    return rows - sum(len(part) for part in used)


def recent_count(room: int | None) -> int:
    """How many event lines the "Recent" section shows in ``room`` lines (its blank
    line and title included; ``None``: not told, :data:`RECENT_LINES`)."""
    return RECENT_LINES if room is None else max(MIN_RECENT_LINES, room - 2)


def recent_block(
    recent: Sequence[str],
    humanize: Callable[[str], str],
    st: Style,
    width: int,
    room: int | None = None,
) -> list[str]:
    """The "Recent" section every game screen shows: the latest event lines, one line
    each, oldest first.  ``room`` is how many lines the section may take, its blank
    line and title included; it shows as many of the latest events as fit there, and
    never fewer than :data:`MIN_RECENT_LINES`.  Without ``room``, the last
    :data:`RECENT_LINES`.  Events that do not fit never drop out unsaid: the title
    says how many earlier ones are not shown ("Recent (4 earlier not shown)")."""
    if not recent:
        return []
    shown = recent[-recent_count(room) :]
    hidden = len(recent) - len(shown)
    title = "Recent" if not hidden else f"Recent ({hidden} earlier not shown)"
    lines = ["", st.bold(title)]
    lines += [st.dim("  " + fit(humanize(r), width - 2)) for r in shown]
    return lines


def strip_ansi(text: str) -> str:
    """``text`` without ANSI SGR escape codes."""
    return _ANSI.sub("", text)


def visible_len(text: str) -> int:
    """How many columns ``text`` takes on screen (escape codes take none)."""
    return len(strip_ansi(text))


def fit(text: str, width: int) -> str:
    """Plain ``text`` cut to ``width`` columns, ending in ``...`` when cut."""
    if len(text) <= width:
        return text
    return text[: max(width - 3, 0)] + "..."


def wrap_tokens(tokens: Sequence[tuple[str, str]], width: int, sep: str = "  ") -> list[str]:
    """Lay out ``(plain, styled)`` tokens in lines of at most ``width`` columns.

    Lengths are measured on the plain form; the lines hold the styled form.  A token
    wider than ``width`` gets a line of its own (it is never split).
    """
    lines: list[str] = []
    current: list[str] = []
    used = 0
    for plain, styled in tokens:
        extra = len(plain) if not current else len(sep) + len(plain)
        if current and used + extra > width:
            lines.append(sep.join(current))
            current, used = [], 0
            extra = len(plain)
        current.append(styled)
        used += extra
    if current:
        lines.append(sep.join(current))
    return lines or [""]
