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

from p2ptable.engine.api import Action
from p2ptable.games.teachers_pet.actions import late_points
from p2ptable.games.teachers_pet.cards import (
    CAFETERIA,
    GYMNASIUM,
    HALLWAY,
    LIBRARY,
    NURSES_OFFICE,
    PLAY,
    ROOMS,
    set_points,
)
from p2ptable.games.teachers_pet.state import DAYS, PERIODS
from p2ptable.games.teachers_pet.view import window_question
from p2ptable.ui import menu
from p2ptable.ui.screens import Panes
from p2ptable.ui.style import Style, fit, recent_block, recent_count, recent_room, wrap_tokens
from p2ptable.ui.text import name_seats, plural, possessive_name, pronoun_name, short_name

WIDTH = 80
ROOM_CELL = 39  # one School Room's cell; two side by side, a space before each
ROOMS_WIDTH = 76  # the two columns of rooms need this many columns
NEWS_LINES = 3  # the latest of the rules' own happenings shown
#: "you must Roll a 4 or higher on the Dice" (games/teachers_pet/actions.py)
SNEAK_WORDS = "sneak roll: 4+ on the D10"
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


def _room(number: int) -> str:
    return ROOMS[number - 1]


def _the(number: int) -> str:
    """A room as a sentence names it: "the Library", "the Principal's Office"."""
    return f"the {_room(number)}"


def _listed(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _set_value(view: View, size: int) -> int:
    """What a set of ``size`` Assignments scores; late, what it adds once halved
    (the late total halved once, or the set on its own: the ``late`` option)."""
    points = set_points(size)
    if not view["late"]:
        return points
    return late_points(view["late_total"], points, view["rulings"]["late"])


def _cafeteria_succeeds(view: View, seat: int | None) -> bool:
    """A Move from the Cafeteria is never caught (the ``cafeteria`` option)."""
    safe = view["rulings"]["cafeteria"] == "succeeds"
    return safe and seat is not None and view["rooms"][seat] == CAFETERIA


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
        f"{_the(teacher['room'])} ({teacher['room']})."
    )


def _monitor_rooms(view: View) -> set[int]:
    """Where the Hall Monitor is: the Hallway and the rolled room after a D10
    roll, only the chosen room after a Squeal."""
    return {view["monitor"], HALLWAY} if view["monitor_hallway"] else {view["monitor"]}


def _room_lines(view: View, st: Style, columns: int = 2, legend: bool = True) -> list[str]:
    """The ten School Rooms, 1-5 on the left and 6-10 on the right (or 1-10 in
    one column)."""
    monitor = _monitor_rooms(view)
    here: dict[int, list[int]] = {}
    for seat, room in enumerate(view["rooms"]):
        here.setdefault(room, []).append(seat)
    if view["teacher"] is None:
        here = {}  # before the first teacher no pawn is on the board

    def cell(number: int) -> tuple[str, str]:
        name = _room(number) + (" (safe)" if number == NURSES_OFFICE else "")
        marks = ("T" if number == view["expected"] else "") + ("M" if number in monitor else "")
        pawns = [str(seat + 1) for seat in here.get(number, [])]
        plain = f"{number:>2} {name:<21} {marks:<2} {' '.join(pawns)}".rstrip()
        styled_marks = "".join(
            st.paint(m, "bold", "red") if m == "M" else st.paint(m, "bold", "green") for m in marks
        )
        styled_pawns = " ".join(
            st.paint(p, "bold", "cyan") if view["you"] == int(p) - 1 else st.bold(p) for p in pawns
        )
        styled = f"{number:>2} {name:<21} {styled_marks}{' ' * (2 - len(marks))} {styled_pawns}"
        return plain, styled.rstrip()

    words = "School Rooms  (T: the Active Teacher's, M: the Hall Monitor, pawns by number)"
    if columns == 1:
        words = "School Rooms  (T: Active Teacher, M: Hall Monitor, pawns)"
    lines = [st.bold(words)] if legend else []
    if columns == 1:
        return lines + [" " + cell(number)[1] for number in range(1, len(ROOMS) + 1)]
    half = len(ROOMS) // 2
    for left_number in range(1, half + 1):
        left_plain, left = cell(left_number)
        _, right = cell(left_number + half)
        lines.append(" " + left + " " * (ROOM_CELL - len(left_plain)) + " " + right)
    return lines


def _monitor_line(view: View) -> str:
    """Where the Hall Monitor is and what it means for a Move."""
    monitor, expected = view["monitor"], view["expected"]
    catches = monitor not in (expected, HALLWAY, NURSES_OFFICE)
    caught = f"; entering {_the(monitor)} is a catch, no roll" if catches else ""
    if catches and view["rulings"]["cafeteria"] == "succeeds":
        caught += " (not from the Cafeteria)"
    if not view["monitor_hallway"]:
        return (
            f"Hall Monitor: in {_the(monitor)} only (a Squeal sent it): no sneak rolls "
            f"until it is back in the Hallway{caught}."
        )
    where = "in the Hallway" if monitor == HALLWAY else f"overlaps the Hallway and {_the(monitor)}"
    if expected is None:
        return f"Hall Monitor: {where}."
    return (
        f"Hall Monitor: {where}. Moves need a sneak roll (4+ on the D10), except to "
        f"{_the(expected)} or from the Cafeteria{caught}."
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
    value = _set_value(view, len(shown))
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


def _now(view: View, names: Sequence[str]) -> str:
    """What happens next, in words."""
    phase, seat = view["phase"], view["turn_of"]
    if view["window"] is not None:
        return window_question(view, lambda s: names[s])
    if phase == "setup-first":
        return "Setting up: choosing who goes first."
    if phase == "over":
        return "The game is over."
    if phase == "teacher":
        if view["teacher"] is None:
            return "Setting up: the first Active Teacher is turned over."
        return "A new Active Teacher is turned over."
    if phase == "monitor":
        return f"Before Period {view['period']}: the Hall Monitor rolls the D10."
    if phase == "deal":
        return "Cards are dealt from the Play Deck."
    if phase == "free-move":
        room = _the(view["expected"])
        asked = _listed([pronoun_name(view, names, s) for s in view["choosing"]])
        return (
            f"Everyone not in {room} decides at once, in secret, whether to take the "
            f"free Move there: {asked}. Nobody sees a choice until all are made."
        )
    bully = view["bully"]
    if phase in ("pick", "give") and bully is not None:
        taker, victim, left = bully
        if phase == "pick":
            bullies = "You bully" if taker == view["you"] else f"{names[taker]} bullies"
            hand = "your hand" if victim == view["you"] else f"{names[victim]}'s hand"
            return (
                f"{bullies} {pronoun_name(view, names, victim)}: chance picks a card blindly "
                f"from {hand} ({left} still to take)."
            )
        giver = "You hand" if victim == view["you"] else f"{names[victim]} hands"
        return f"{giver} the card chance picked to {pronoun_name(view, names, taker)}."
    if seat is None:
        return phase
    whose = possessive_name(view, names, seat)
    if phase == "turn":
        return f"{whose} turn, in {_the(view['rooms'][seat])}: take one Action."
    if phase == "sneak" and view["moving"] is not None:
        return (
            f"{whose} Move to {_the(view['moving'])}: the D10 is rolled, "
            "4 or higher sneaks past the Hall Monitor."
        )
    if phase == "turn-in":
        subject = view["shown"][0]["subject"] if view["shown"] else "?"
        return f"{whose} turn: show more {subject} Assignments, or turn in the set."
    if phase == "late":
        return f"Day {DAYS} is over. {whose} late plays: Art, Music, Gift and Assignment " + (
            "cards score half their Pet Points, rounded down."
            if view["rulings"]["late"] == "per-card"
            else "cards score half of their total Pet Points, rounded down once "
            f"(played late so far: {view['late_total']})."
        )
    return f"{whose} turn ({phase})."


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
    bottom = ["", *(st.bold(line) for line in textwrap.wrap(_now(view, names), width))]
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
    top += ["", *_room_lines(view, st, columns=2 if width >= WIDTH else 1)]
    top += textwrap.wrap(_monitor_line(view), width, subsequent_indent="  ")
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
        board += _room_lines(view, st, columns=2 if width >= ROOMS_WIDTH else 1, legend=False)
    board += textwrap.wrap(_monitor_line(view), width, subsequent_indent="  ")
    if large:
        board += _news_lines(view, names, st, width=width)
    players = _player_lines(
        view, names, range(view["seats"]), [""] * view["seats"], view["points"], st, short=True
    )
    hand = _hand_lines(view, st, width) + _shown_lines(view, names, width)
    return Panes(_header(view), board, players, hand, _now(view, names))


def school_map(view: View, st: Style, width: int) -> list[str]:
    """The ten rooms as a map, two rows of five boxes: each box holds the room's
    number and name, ``T`` and ``M``, and the pawns in it by player number."""
    monitor = _monitor_rooms(view)
    here: dict[int, list[int]] = {}
    if view["teacher"] is not None:  # before the first teacher no pawn is on the board
        for seat, room in enumerate(view["rooms"]):
            here.setdefault(room, []).append(seat)
    box = max(16, min(30, width // 5))
    inner = box - 2

    def rows_of(number: int) -> list[str]:
        name = _room(number)
        marks = [st.dim("safe")] if number == NURSES_OFFICE else []
        if number == view["expected"]:
            marks.append(st.paint("T expected", "bold", "green"))
        if number in monitor:
            marks.append(st.paint("M Monitor", "bold", "red"))
        plain_marks = " ".join(
            word
            for word, shown in (
                ("safe", number == NURSES_OFFICE),
                ("T expected", number == view["expected"]),
                ("M Monitor", number in monitor),
            )
            if shown
        )
        pawns = [str(seat + 1) for seat in here.get(number, [])]
        styled_pawns = " ".join(
            st.paint(p, "bold", "cyan") if view["you"] == int(p) - 1 else st.bold(p) for p in pawns
        )
        title = fit(f" {number} {name} ", inner)
        lines = [
            "┌" + title + "─" * (inner - len(title)) + "┐",
            "│" + " ".join(marks) + " " * (inner - len(plain_marks)) + "│",
            "│" + styled_pawns + " " * (inner - len(" ".join(pawns))) + "│",
            "└" + "─" * inner + "┘",
        ]
        return lines

    half = len(ROOMS) // 2
    out: list[str] = []
    for first in (1, half + 1):
        boxes = [rows_of(n) for n in range(first, first + half)]
        out += ["".join(parts) for parts in zip(*boxes, strict=True)]
    return out


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


def _move_words(view: View, room: int) -> str:
    """ "Move to the Library", and what the Move risks, by the rules of a Move
    (``games/teachers_pet/actions.py``): the sneak roll is needed when the Monitor
    is in the Hallway, except into the expected room or the Monitor's own (that is
    a catch whatever the dice say) and from the Cafeteria."""
    words = f"Move to {_the(room)}"
    seat, expected, monitor = view["turn_of"], view["expected"], view["monitor"]
    if seat is None:
        return words
    caught = room == monitor and room not in (expected, NURSES_OFFICE, HALLWAY)
    caught = caught and not _cafeteria_succeeds(view, seat)
    roll = (
        room not in (expected, monitor)
        and view["monitor_hallway"]
        and view["rooms"][seat] != CAFETERIA
    )
    if roll and room == NURSES_OFFICE and view["rulings"]["nurse-catch"] == "free":
        words += f" ({SNEAK_WORDS}; caught: no penalty)"
    elif roll:
        words += f" ({SNEAK_WORDS})"
    if caught:
        words += " (the Hall Monitor is there!)"
    return words


def _found(view: View, names: Sequence[str], room: int) -> list[str]:
    """Who the Hall Monitor would find in ``room``: pawns outside the expected room,
    never in the Hallway or the Nurse's Office."""
    if room in (HALLWAY, NURSES_OFFICE, view["expected"]):
        return []
    return [pronoun_name(view, names, s) for s, r in enumerate(view["rooms"]) if r == room]


def _work_words(view: View, card: int, args: Sequence[int], names: Sequence[str]) -> str:
    c = PLAY[card]
    seat = view["turn_of"]
    if c.kind == "bully" and args:
        victim = args[0]
        take = 2 if seat is not None and view["rooms"][seat] == GYMNASIUM else 1
        take = min(take, view["hand_sizes"][victim]) or take
        where = " (Gymnasium)" if take == 2 else ""
        return (
            f"Bully {pronoun_name(view, names, victim)}: take {plural(take, 'card')} blindly{where}"
        )
    if c.kind == "squeal" and args:
        found = _found(view, names, args[0])
        if len(found) == 1:
            there = f" (finds {short_name(found[0])})"
        elif found:
            there = f" (finds {len(found)} pawns)"
        else:
            there = ""
        return f"Squeal: send the Hall Monitor to {_the(args[0])}{there}"
    return f"Play {c.name}: +{plural(c.points, 'Pet Point')}"


def describe_action_for_menu(view: View, action: Action, names: Sequence[str] | None = None) -> str:
    """``action`` in words for the menu: "Move to the Library (sneak roll: 4+ on the D10)"."""
    verb, args = action.verb, action.args
    names = list(names) if names is not None else [f"player {n + 1}" for n in range(view["seats"])]
    seat = view["turn_of"]
    if verb == "study":
        if not view["deck_left"] and not view["discard"]:
            return "Study: nothing left to draw (the Play Deck and its discard pile are empty)"
        if seat is not None and view["rooms"][seat] == LIBRARY:
            return "Study: draw 2 cards (Library)"
        return "Study: draw 1 card"
    if verb == "move" and len(args) == 1:
        return _move_words(view, args[0])
    if verb == "work" and len(args) >= 2 and 0 <= args[1] < len(PLAY):
        return _work_words(view, args[1], args[2:], names)
    if verb == "turn-in" and len(args) == 2:
        return f"Turn in {PLAY[args[1]].name}: start a set of {PLAY[args[1]].subject} Assignments"
    if verb == "add" and len(args) == 2:
        size = len(view["shown"]) + 1
        value = _set_value(view, size)
        return f"Show {PLAY[args[1]].name} too (a set of {size}: {plural(value, 'Pet Point')})"
    if verb == "done":
        size = len(view["shown"])
        value = _set_value(view, size)
        shown = plural(size, "Assignment")
        return f"Turn in the set shown: {shown}, {plural(value, 'Pet Point')}"
    if verb == "cheat" and len(args) == 1:
        return f"Cheat: take {PLAY[args[0]].name} from the discard pile"
    if verb == "tattle" and len(args) == 1:
        target = args[0]
        if view["rooms"][target] == view["expected"]:
            return f"Tattle on {pronoun_name(view, names, target)} (where expected: it fails)"
        words = f"Tattle on {pronoun_name(view, names, target)} (in {_the(view['rooms'][target])})"
        if any(owner == target for owner, _ in view["passes"]):
            words += f": {names[target]} has a Hall Pass in front, it will backfire"
        return words
    if verb == "pass":
        window = view["window"]
        if window is not None and window["kind"] == "bully":
            return "Show nothing: let the Bully happen"
        return "Show nothing: take the Detention"
    if verb == "react" and len(args) == 2:
        return f"Show {PLAY[args[1]].name}"
    if verb == "give":
        bully = view["bully"]
        taker = "the bully" if bully is None else pronoun_name(view, names, bully[0])
        return f"Hand the card chance picked to {taker}"
    if verb == "go" and view["expected"] is not None:
        return f"Take the free Move to {_the(view['expected'])}"
    if verb == "stay" and view["you"] is not None:
        return f"Stay in {_the(view['rooms'][view['you']])}"
    if verb == "late" and len(args) == 2:
        c = PLAY[args[1]]
        if c.kind == "assignment":
            return f"Show {c.name} late: start a set (half points)"
        points = late_points(view["late_total"], c.points, view["rulings"]["late"])
        return f"Play {c.name} late: +{plural(points, 'Pet Point')}"
    if verb == "finish":
        return "Finish: play no more cards late"
    return action.text


#: how likely a sneak roll (4+ on the D10, SNEAK_WORDS) succeeds: 4 to 10 of 10
SNEAK_CHANCE = "sneak 70 %"


def squeal_changes_nothing(view: View, room: int) -> bool:
    """Whether a Squeal into ``room`` leaves everything but the played card as it
    was, by the rules of a Squeal (``games/teachers_pet/actions.py``: the Monitor
    goes to ``room``, in the Hallway too only if ``room`` is the Hallway, and
    catches the pawns found there, ``flow.found_in``): the Monitor already stands
    there just so, and would find nobody."""
    same = view["monitor"] == room and view["monitor_hallway"] == (room == HALLWAY)
    found = room not in (HALLWAY, NURSES_OFFICE, view["expected"]) and room in view["rooms"]
    return same and not found


def arrange_for_menu(
    view: View, action: Action, words: str, names: Sequence[str]
) -> menu.Placed | None:
    """Where ``action`` goes on the menu (``ui/menu.py``): the rooms under "Move
    to", each with its sneak chance; a Bully, Squeal, Tattle and Cheat under their
    card, one line per target; the Assignments that can start a set under "Turn
    in"; a Squeal that changes nothing left off."""
    verb, args = action.verb, action.args
    if verb == "move" and len(args) == 1:
        where = words.removeprefix("Move to ").replace(SNEAK_WORDS, SNEAK_CHANCE)
        return menu.Placed("Move to", where)
    if verb == "work" and len(args) == 3 and 0 <= args[1] < len(PLAY):
        kind = PLAY[args[1]].kind
        if kind == "squeal":
            if squeal_changes_nothing(view, args[2]):
                return None
            return menu.Placed(
                "Squeal: send the Hall Monitor to",
                words.removeprefix("Squeal: send the Hall Monitor to "),
            )
        if kind == "bully":
            return menu.Placed("Bully", words.removeprefix("Bully "))
    if verb == "tattle":
        return menu.Placed("Tattle on", words.removeprefix("Tattle on "))
    if verb == "turn-in":  # "Turn in Assignment (Math): start a set of Math Assignments"
        return menu.Placed("Turn in, to start a set", words.removeprefix("Turn in ").split(":")[0])
    if verb == "cheat":
        return menu.Placed(
            "Cheat: take from the discard pile",
            words.removeprefix("Cheat: take ").removesuffix(" from the discard pile"),
        )
    return menu.Placed("", words)


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
