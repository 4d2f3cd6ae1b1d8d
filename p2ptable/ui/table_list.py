"""The open tables heard on the LAN, as a person reads them, and the pick.

How it works
------------
:func:`table_lines` words each table heard (net/announce_record.py has already
made every text in it safe to print): the host's name, the game's title and
options, the seats taken, the address `join` takes, and, for a table another
address claims too (the same table id or host name: net/listing.py, rule 4),
the conflict, so both are shown and neither is trusted.  :func:`parse_pick`
reads what the person typed at the menu: a number, or Enter for the first
table, except when the choice is ambiguous (a table in conflict): then Enter
picks nothing and the person types the number of the table at the address the
host printed.  Nothing here reads input, prints or listens: the CLI does
(cli/tables.py), so every case is testable with plain strings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from p2ptable.games import get_game
from p2ptable.net.listing import HeardTable
from p2ptable.ui.text import options_words

NO_TABLES = (
    "No open tables heard in {wait:g} s. A network that filters multicast (many "
    "Wi-Fi access points do) shows none: type the address the host printed, e.g. "
    "p2ptable join 192.168.1.20:47001 --code CODE --name <your name>"
)
NO_WATCHABLE = (
    "No table that admits spectators heard in {wait:g} s (the host opens it with "
    "--spectators). A network that filters multicast shows none: type the address "
    "the host printed, e.g. p2ptable watch 192.168.1.20:47001 --code CODE"
)
PICK_PROMPT = "Which table? (number, Enter for 1, q to leave)"
PICK_PROMPT_AMBIGUOUS = "Which table? (number, q to leave)"
CONFLICT_NOTE = (
    "Two addresses announce one table id or host name (marked conflict): one of them "
    "is not the host. Pick the table at the address the host printed"
)
MAX_CONFLICTS_SHOWN = 2
QUIT_WORDS = frozenset({"q", "quit"})


def _title(game: str) -> str:
    try:
        return get_game(game).title
    except KeyError:
        return f"{game} (a game this p2ptable does not know)"


def describe(table: HeardTable) -> str:
    """``Ana: Pet Quartet (variant=maestro), 1 of 3 seats taken, at 10.0.0.5:47001``."""
    ad = table.announcement
    options = options_words(ad.options, ())
    game = _title(ad.game) + (f" ({options})" if options else "")
    seats = f"{ad.taken} of {ad.seats} seats taken" if ad.open else "full"
    watch = ", spectators welcome" if ad.watch else ""
    if ad.keep:  # the coalition bound, before anyone sits down (issue 27)
        watch += ", keeps going without a player who leaves"
    conflict = ""
    if table.conflicts:
        more = len(table.conflicts) - MAX_CONFLICTS_SHOWN
        shown = "; ".join(table.conflicts[:MAX_CONFLICTS_SHOWN]) + (
            f"; {more} more" if more > 0 else ""
        )
        conflict = f" [conflict: {shown}]"
    return f"{ad.host}: {game}, {seats}{watch}, at {table.where}{conflict}"


def table_lines(
    tables: Sequence[HeardTable], wait: float, numbered: bool = False, watching: bool = False
) -> list[str]:
    """What `p2ptable tables` prints (and `join` or `watch` before its menu)."""
    if not tables:
        return [(NO_WATCHABLE if watching else NO_TABLES).format(wait=wait)]
    width = len(str(len(tables)))
    what = "Tables that admit spectators" if watching else "Open tables"
    head = f"{what} heard in {wait:g} s (a listing is a hint: the code proves the host):"
    rows = [
        (f"  {n:>{width}}) " if numbered else "  ") + describe(t)
        for n, t in enumerate(tables, start=1)
    ]
    if any(t.conflicts for t in tables):
        rows.append(CONFLICT_NOTE + ("; Enter picks nothing." if numbered else "."))
    return [head, *rows]


@dataclass(frozen=True)
class Invalid:
    """Not a pick; ``message`` says what to type instead."""

    message: str


class Quit:
    """The person typed q: join nothing."""


def parse_pick(line: str, count: int, ambiguous: bool = False) -> int | Invalid | Quit:
    """The index (from 0) of the table ``line`` picks among ``count``; Enter
    picks the first, unless the choice is ``ambiguous`` (a table in conflict)."""
    typed = line.strip().lower()
    if typed in QUIT_WORDS:
        return Quit()
    hint = "choose 1" if count == 1 else f"choose 1-{count}"
    if not typed and ambiguous:
        return Invalid(
            "two addresses claim one table (marked conflict), so Enter picks nothing: "
            f"type the number of the table at the address the host printed ({hint}), "
            "or q to leave"
        )
    if not typed:
        return 0
    if re.fullmatch(r"\d{1,6}", typed):
        number = int(typed)
        if 1 <= number <= count:
            return number - 1
        return Invalid(f"there is no table {number}: {hint}, or q to leave")
    return Invalid(f"type a table's number: {hint}, or q to leave")
