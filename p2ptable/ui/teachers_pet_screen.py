"""The Teacher's Pet school as text, built from one seat's view (never the state).

How it works
------------
:func:`render` turns a view (``games/teachers_pet/view.py``) into a screen of at
most :data:`WIDTH` columns, top to bottom: a header (Day, Period, the two decks),
the Active Teacher and the room pawns are expected in, the ten School Rooms in two
columns (numbered 1-10 as the D10 rolls them; ``T`` the Active Teacher's room,
``M`` the Hall Monitor, then the pawns by player number), a line on where the
Monitor stands and what a Move needs, the players (Pet Points, cards in hand, a
Hall Pass in front, lost turns owed, Detentions), the viewer's own hand grouped by
kind, a set of Assignments being shown, the rules' own news, the caller's recent
events (as many as ``rows`` leaves room for), a line saying what happens now, and
the caller's status lines.  :func:`render_final` is the end-of-game screen and
:func:`describe_action_for_menu` words an action for the numbered menu.

A reaction window asks its question in the words of ``view.window_question``,
which depend on whose window is open and why, never on the hand: the screen of a
player holding a Hall Pass reads the same as the screen of one who does not
(only the hand section and the menu, which lists what the player can show,
differ).  The free Move is chosen in secret: the screen names who is asked, and
the view does not say who has chosen (the session's status lines do).

Everything is laid out as plain text first and styled afterwards (``ui/style.py``),
so ``color=False`` output has no escape codes and columns line up either way.
Log phrases say "seat 1" (from 0); the screen says the player's name.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

from p2ptable.games.teachers_pet.state import DAYS, PERIODS
from p2ptable.ui.screens import Panes
from p2ptable.ui.style import Style, fit, recent_block, recent_count, recent_room, wrap_tokens
from p2ptable.ui.teachers_pet_menu import (
    SNEAK_CHANCE as SNEAK_CHANCE,
)
from p2ptable.ui.teachers_pet_menu import arrange_for_menu as arrange_for_menu
from p2ptable.ui.teachers_pet_menu import describe_action_for_menu as describe_action_for_menu
from p2ptable.ui.teachers_pet_menu import (
    set_value,
    the_room,
)
from p2ptable.ui.teachers_pet_menu import squeal_changes_nothing as squeal_changes_nothing
from p2ptable.ui.teachers_pet_now import what_happens_now
from p2ptable.ui.teachers_pet_rooms import monitor_line, room_lines, school_map
from p2ptable.ui.text import name_seats, plural, pronoun_name, short_name

WIDTH = 80
ROOMS_WIDTH = 76  # the two columns of rooms need this many columns
NEWS_LINES = 3  # the latest of the rules' own happenings shown
#: how the hand is ordered: the cards that score, those played on your turn, the
#: reactions; then by subject and Pet Points
KIND_ORDER = {
    kind: n
    for n, kind in enumerate(
        ("assignment", "art", "music", "gift", "bully", "squeal", "hall-pass", "goody")
    )
}

View = dict[str, Any]
#: the players' columns in a narrow pane (the help says what they mean)
SHORT_HEADS = {
    "Pet Points": "pts",
    "Hall Pass": "pass",
    "lost turns": "lost",
    "Detentions": "det",
}


# -- the parts of the screen ---------------------------------------------------------------


def _header(view: View) -> str:
    parts = [
        "Teacher's Pet",
        f"Day {view['day']}/{DAYS} Period {view['period']}/{PERIODS}",
        f"Play Deck {view['deck_left']}, discard {len(view['discard'])}",
        f"Teacher Deck {view['teacher_deck_left']}",
    ]
    return " | ".join(parts)


def _teacher_line(view: View) -> str:
    teacher = view["teacher"]
    if teacher is None:
        return "No Active Teacher yet."
    return (
        f"Active Teacher: {teacher['teacher']}: pawns are expected in "
        f"{the_room(teacher['room'])} ({teacher['room']})."
    )


def _player_lines(
    view: View,
    names: Sequence[str],
    order: Sequence[int],
    statuses: Sequence[str],
    scores: Sequence[int],
    st: Style,
    final: bool = False,
    short: bool = False,
) -> list[str]:
    """One row per seat in ``order``: marker, number, name, status, then the numbers
    (under short headings with ``short``: points, cards, pass, lost, det.)."""
    labels = [
        f"{seat + 1} {short_name(n)}" + (" (you)" if seat == view["you"] else "")
        for seat, n in enumerate(names)
    ]
    name_w = max([len("Players"), *(len(label) for label in labels)])
    status_w = max([len(s) for s in statuses] + [0])
    passes = {seat for seat, _ in view["passes"]}
    columns = ["Pet Points"] if final else ["Pet Points", "cards", "Hall Pass", "lost turns"]
    columns.append("Detentions")
    if short:
        columns = [SHORT_HEADS.get(c, c) for c in columns]
    head = "  " + "Players".ljust(name_w) + ("  " + " " * status_w if status_w else "")
    lines = [st.bold(head + "".join(f"  {c}" for c in columns))]
    for seat in order:
        acting = seat == view["to_act"] and view["phase"] != "over"
        label = labels[seat]
        row = (st.yellow("> ") if acting else "  ") + (
            st.paint(label, "bold", "cyan") if seat == view["you"] else label
        )
        row += " " * (name_w - len(label))
        if status_w:
            status = statuses[seat]
            row += "  " + st.paint(status, "bold", "yellow") + " " * (status_w - len(status))
        values: list[object] = [scores[seat]]
        if not final:
            values += [
                view["hand_sizes"][seat],
                "yes" if seat in passes else "-",
                view["lost"][seat] or "-",
            ]
        values.append(view["detentions"][seat])
        row += "".join(f"  {value!s:>{len(c)}}" for c, value in zip(columns, values, strict=True))
        lines.append(row)
    return lines


def _card_key(card: dict[str, Any]) -> tuple[int, str, int]:
    return KIND_ORDER.get(card["kind"], len(KIND_ORDER)), card["subject"], card["points"]


def _grouped(cards: Sequence[dict[str, Any] | None]) -> list[str]:
    """``Assignment (Math) x2``, ``Art 3``...: cards by kind, like cards counted."""
    counts: dict[str, int] = {}
    for card in sorted((c for c in cards if c is not None), key=_card_key):
        counts[card["name"]] = counts.get(card["name"], 0) + 1
    unknown = sum(1 for c in cards if c is None)
    if unknown:
        counts["a card not known here"] = unknown
    return [name if n == 1 else f"{name} x{n}" for name, n in counts.items()]


def _hand_lines(view: View, st: Style, width: int = WIDTH) -> list[str]:
    hand = view["hand"]
    if hand is None:
        return []
    lines = [st.bold(f"Your hand ({plural(len(hand), 'card')})")]
    if not hand:
        return [*lines, "  (empty)"]
    groups = _grouped(hand)
    # the comma goes with its card, so a wrapped line still ends in one
    tokens = []
    for n, group in enumerate(groups):
        comma = "," if n < len(groups) - 1 else ""
        tokens.append((group + comma, st.cyan(group) + comma))
    lines += ["  " + line for line in wrap_tokens(tokens, width - 2, sep=" ")]
    return lines


def _shown_lines(view: View, names: Sequence[str], width: int = WIDTH) -> list[str]:
    shown = view["shown"]
    if not shown or view["turn_of"] is None:
        return []
    how = " (late: half points)" if view["late"] else ""
    value = set_value(view, len(shown))
    text = (
        f"Set shown by {pronoun_name(view, names, view['turn_of'])}{how}: "
        f"{', '.join(_grouped(shown))}, {plural(value, 'Pet Point')} if turned in now."
    )
    return textwrap.wrap(text, width, subsequent_indent="  ")


_ROLL = re.compile(r"the Hall Monitor rolls (\d+):")


def _not_echoed(news: Sequence[str], recent: Sequence[str]) -> list[str]:
    """The news without the Hall Monitor's rolls the shown event lines already say
    (the rules tell each roll, and so does its chance entry's line: once is enough).
    Each shown roll takes away one news line of the same roll, the latest first."""
    shown = [m.group(1) for m in map(_ROLL.search, recent) if m is not None]
    kept: list[str] = []
    for line in reversed(news):
        match = _ROLL.match(line)
        if match is not None and match.group(1) in shown:
            shown.remove(match.group(1))
            continue
        kept.append(line)
    return kept[::-1]


def _news_lines(
    view: View,
    names: Sequence[str],
    st: Style,
    recent: Sequence[str] = (),
    width: int = WIDTH,
) -> list[str]:
    news = _not_echoed(view["news"][-NEWS_LINES:], recent)
    if not news:
        return []
    lines = [st.bold("News")]
    return lines + [st.dim("  " + fit(name_seats(line, names), width - 2)) for line in news]


# -- the public functions ------------------------------------------------------------------


def render(
    view: View,
    names: Sequence[str],
    recent: Sequence[str],
    status: Sequence[str] = (),
    color: bool = False,
    rows: int | None = None,
    width: int = WIDTH,
) -> str:
    """The live school as ``view``'s seat sees it (no trailing newline), at most
    ``width`` columns wide (the rooms in one column below 80).

    ``recent`` is the event lines, oldest first; ``rows`` the terminal lines the
    screen may use: the school first, then as many of the latest events as fit (at
    least :data:`~p2ptable.ui.style.MIN_RECENT_LINES`; without ``rows``, the last
    :data:`~p2ptable.ui.style.RECENT_LINES`).
    """
    st = Style(color)
    bottom = ["", *(st.bold(line) for line in textwrap.wrap(what_happens_now(view, names), width))]
    bottom += [st.yellow(fit(line, width)) for line in status]
    # Laid out with every news line first, to learn which events show; then without
    # the rolls those events say (more room: the same events show, and maybe more).
    top = _top(view, names, st, (), width)
    shown = recent[-recent_count(recent_room(rows, top, bottom)) :]
    top = _top(view, names, st, shown, width)
    room = recent_room(rows, top, bottom)
    middle = recent_block(recent, lambda r: name_seats(r, names), st, width, room)
    return "\n".join(line.rstrip() for line in top + middle + bottom)


def _top(
    view: View, names: Sequence[str], st: Style, shown: Sequence[str], width: int = WIDTH
) -> list[str]:
    """Everything above the events: the school, the players, the hand, the news
    (without what the ``shown`` event lines say), at most ``width`` columns (the
    rooms in one column below 80)."""
    top = [st.bold(fit(_header(view), width)), "-" * width]
    top += [st.bold(line) for line in textwrap.wrap(_teacher_line(view), width)]
    top += ["", *room_lines(view, st, columns=2 if width >= WIDTH else 1)]
    top += textwrap.wrap(monitor_line(view), width, subsequent_indent="  ")
    statuses = [""] * view["seats"]
    players = _player_lines(
        view, names, range(view["seats"]), statuses, view["points"], st, short=width < WIDTH
    )
    top += ["", *players]
    parts = (
        _hand_lines(view, st, width),
        _shown_lines(view, names, width),
        _news_lines(view, names, st, shown, width),
    )
    for part in parts:
        if part:
            top += ["", *part]
    return top


def panes(view: View, names: Sequence[str], color: bool, width: int, large: bool) -> Panes:
    """The school in panes for the full-screen table (``ui/tui/``): the board
    (the Active Teacher, the rooms, the Monitor; as a map when ``large``), the
    players, your hand and what happens now, each at most ``width`` columns."""
    st = Style(color)
    board = [st.bold(line) for line in textwrap.wrap(_teacher_line(view), width)]
    if large:
        board += school_map(view, st, width)
    else:
        board += room_lines(view, st, columns=2 if width >= ROOMS_WIDTH else 1, legend=False)
    board += textwrap.wrap(monitor_line(view), width, subsequent_indent="  ")
    if large:
        board += _news_lines(view, names, st, width=width)
    players = _player_lines(
        view, names, range(view["seats"]), [""] * view["seats"], view["points"], st, short=True
    )
    hand = _hand_lines(view, st, width) + _shown_lines(view, names, width)
    return Panes(_header(view), board, players, hand, what_happens_now(view, names))


def render_final(view: View, names: Sequence[str], color: bool = False) -> str:
    """Final Pet Points, winners first, Detentions, and how the winner was decided."""
    st = Style(color)
    outcome = view["outcome"]
    scores = outcome["scores"] if outcome else view["points"]
    winners = outcome["winners"] if outcome else []
    order = sorted(
        range(view["seats"]),
        key=lambda s: (s not in winners, -scores[s], view["detentions"][s], s),
    )
    statuses = ["winner" if seat in winners else "" for seat in range(view["seats"])]
    lines = [st.bold("Teacher's Pet | final Pet Points"), "-" * WIDTH]
    lines += _player_lines(view, names, order, statuses, scores, st, final=True)
    lines.append("")
    if outcome:
        explanation = name_seats(outcome["explanation"], names)
        explanation = explanation[:1].upper() + explanation[1:].rstrip(".") + "."
        lines += [st.bold(line) for line in textwrap.wrap(explanation, WIDTH)]
    else:
        lines.append("The game is not over yet.")
    return "\n".join(line.rstrip() for line in lines)


HELP = """\
Teacher's Pet
  5 Days of 7 Periods: on your turn take one Action.  Study draws a card (2 in
  the Library); Work plays a card; Move goes to another room; in the right room
  you may Turn In Assignments (Classroom, Homeroom Teacher), Cheat (Teachers
  Lounge: an Assignment from the discard pile) or Tattle (Principal's Office).
  Pawns are expected in the Active Teacher's room.  Caught by the Hall Monitor
  or tattled on elsewhere, you get a Detention: back to that room, -5 Pet
  Points, a lost turn.  A Hall Pass shown keeps you safe for the Period;
  Goody Two-Shoes cancels a Bully.  After Day 5 cards play late for half.
The screen
  Rooms are numbered as the D10 rolls them: T is the Active Teacher's room, M
  the Hall Monitor (after a roll it overlaps the Hallway and a room), the
  numbers the players' pawns.  Nobody can be caught or targeted in the Nurse's
  Office (safe).  '>' marks who decides now; others' hands are only counts.
  In a narrow list of players: pts are Pet Points, pass a Hall Pass in
  front, lost the turns still to lose, det the Detentions."""
