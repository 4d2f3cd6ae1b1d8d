"""A game's notes for players: the part of its ``RULES.md`` before the developers'.

Each game's ``RULES.md`` starts with how to play and how p2ptable settles what the
rulebook leaves open, in player words; then, after the :data:`DEVELOPER_NOTES`
line, the phase table and the tests behind each decision, which ``p2ptable rules``
does not print.
"""

from __future__ import annotations

from pathlib import Path

#: The line that starts the developers' part of a RULES.md.
DEVELOPER_NOTES = "<!-- developer notes:"


def player_notes(rules_md: Path) -> str:
    """What a player reads of ``rules_md``: everything before the developer notes."""
    text = rules_md.read_text(encoding="utf-8")
    return text.split(DEVELOPER_NOTES, 1)[0].rstrip() + "\n"
