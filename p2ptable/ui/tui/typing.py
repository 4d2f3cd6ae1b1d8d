"""The full-screen table's typing line: where a person types what the line mode
reads from a line of its input: talk (``'words``, ``say words``), ``break``,
and in the host's lobby ``start``, ``bots`` and ``remove NAME``.

How it works
------------
The line is closed (hidden) until a key opens it, so the menu's keys stay the
table's: ``'`` opens it with the ``'`` of a line of talk typed, ``t`` opens it
empty, and any other letter but ``q`` (the leave key) opens it with that letter,
so that typing ``break`` or ``start`` at the table just works.  While it is
open every key goes into it, digits too (the menu's number keys wait until it
closes); Enter hands the line as it is to the peer's side (``channel.Typed``),
which reads it as the line mode reads a line (``ui/typed_line.py``), and closes
it; Esc closes it unsent.  Nothing is parsed here.
"""

from __future__ import annotations

from textual.widgets import Input

from p2ptable.net.talk import MAX_TEXT

TALK = "'"  # opens the line with it typed: a line of talk
EMPTY = "t"  # opens the line empty
LEAVE = "q"  # the table's leave key: never opens the line
MAX_TYPED = MAX_TEXT + 10  # a line of talk, its ' or say, and room to spare
# What the pane under the choice says while the line is open.
HINT = "Type 'words to talk, or break:"
LOBBY_HINT = "Type start, bots or remove NAME:"


def opening(character: str | None) -> str | None:
    """What the line opens with when ``character`` is typed at the table, or
    None when that key does not open it (a digit, ``q``, a key with no text)."""
    if character == TALK:
        return TALK
    if character == EMPTY:
        return ""
    if character is not None and len(character) == 1 and character.isalpha():
        return None if character == LEAVE else character
    return None


class TypingLine(Input):
    """One row under the choice, hidden until opened (see the module docstring)."""

    DEFAULT_CSS = """
    TypingLine { height: 1; padding: 0 1; background: $boost; }
    """

    def __init__(self, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(
            placeholder="'words: talk   break   Enter: send   Esc: close",
            max_length=MAX_TYPED,
            compact=True,
            select_on_focus=False,  # the letter that opened it stays, typed on after
            id=id,
        )
        self.display = False

    @property
    def is_open(self) -> bool:
        return bool(self.display)

    def open(self, text: str) -> None:
        self.display = True
        self.value = text
        self.cursor_position = len(text)
        # At once, not at the next idle (Widget.focus defers it): the keys that
        # came with the opening letter (a fast typist, a paste) are the line's,
        # and an Enter among them sends it instead of choosing from the menu.
        self.screen.set_focus(self)

    def close(self) -> None:
        self.value = ""
        self.display = False
