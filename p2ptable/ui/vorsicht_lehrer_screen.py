"""The Vorsicht Lehrer! classroom as text, built from one seat's view (never the state).

How it works
------------
:func:`render` turns a view (``games/vorsicht_lehrer/view.py``) into a screen of at
most :data:`WIDTH` columns, top to bottom: a header (end field, deck sizes), the score
track as one compact line, the players (token = negative points, hand size), the
viewer's own hand with each card's numbers, the school card being resolved, the
teacher card, the last throw, the recent events, a line saying what happens now,
and the caller's status lines.  :func:`render_final` is the end-of-game screen and
:func:`describe_action_for_menu` words an action for the numbered menu.

The track squeezes the whole board into :data:`TRACK_CELLS` characters: each cell
stands for ``track / TRACK_CELLS`` fields, ``|`` is a black marker field and ``]``
the end field.  It is drawn twice, under one scale: the ``Pawn`` line holds the
patience pawn ``P`` alone, so no token can hide it; the ``Tokens`` line the players'
tokens, each a digit (seat numbers from 1, as in the player table), ``*`` a cell
shared by several.  The exact numbers are in the lines below.

The last throw, who threw it and how it went come from the view's ``throws`` (each
seat's latest throw), never from the event lines, so they stay on screen however
many events follow; the viewer's own last throw gets a line of its own once someone
else has thrown after it.

Everything is laid out as plain text first and styled afterwards (``ui/style.py``),
so ``color=False`` output has no escape codes and columns line up either way.  Hands
of other seats are only counts in the view, so they can only be counts here.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from p2ptable.engine.api import Action
from p2ptable.games.vorsicht_lehrer.view import card_numbers
from p2ptable.ui.screens import Panes
from p2ptable.ui.style import Style, fit, recent_block, recent_room
from p2ptable.ui.text import name_seats, plural, possessive_name, pronoun_name, short_name

WIDTH = 80
TRACK_CELLS = 50
HAND_NAME = 30  # a card's name in the hand, at most
PAWN_LABEL = "  Pawn   "  # the labels of the two track lines; the scale above them is
TOKENS_LABEL = "  Tokens "  # indented as much
LABEL = PAWN_LABEL

View = dict[str, Any]


def _numbers(card: dict[str, Any]) -> str:
    """``patience 9, 11 negative, risk 12+`` (and the detention star of a teacher card);
    a card without any effect says so."""
    return card_numbers(
        card["patience"], card["negative"], card["risk"], bool(card.get("detention"))
    )


# -- the parts of the screen ---------------------------------------------------------------


def _header(view: View) -> str:
    parts = [
        "Vorsicht Lehrer!",
        f"end field {view['track']}",
        f"school deck {view['deck_left']}, {len(view['discard'])} played",
        f"teacher deck {view['teacher_deck_left']}",
    ]
    return " | ".join(parts)


def _scale(view: View, cells: int = TRACK_CELLS) -> int:
    return max(1, -(-view["track"] // cells))  # fields per cell, rounded up


def _track_lines(view: View, st: Style, cells: int = TRACK_CELLS) -> list[str]:
    """The scale (0, markers, end), then the compact track twice: with the patience
    pawn alone, so no token ever hides it, and with the players' tokens (in about
    ``cells`` characters)."""
    track, scale = view["track"], _scale(view, cells)
    cells = track // scale + (1 if track % scale else 0)  # the last cell is the end field
    board = ["."] * (cells + 1)
    for marker in view["markers"]:
        board[marker // scale] = "|"
    board[cells] = "]"

    def cell(field: int) -> int:
        return min(field, track) // scale

    pawn = list(board)
    pawn[cell(view["patience"])] = "P"
    tokens = list(board)
    here: dict[int, list[str]] = {}
    for seat, token in enumerate(view["tokens"]):
        here.setdefault(cell(token), []).append(str(seat + 1))
    for at, seats in here.items():
        tokens[at] = seats[0] if len(seats) == 1 else "*"
    scale_line = [" "] * (len(LABEL) + cells + 1)
    for field in (0, *view["markers"], track):
        label = str(field)
        end = len(LABEL) + (cells if field == track else field // scale) + 1
        start = end - len(label) if field else len(LABEL)
        scale_line[start : start + len(label)] = label

    def styled(ch: str) -> str:
        if ch == "P":
            return st.paint(ch, "bold", "red")
        if view["you"] is not None and ch == str(view["you"] + 1):
            return st.paint(ch, "bold", "cyan")
        if ch.isdigit() or ch == "*":
            return st.bold(ch)
        return st.dim(ch) if ch == "." else ch

    return [
        "".join(scale_line).rstrip(),
        PAWN_LABEL + "".join(styled(ch) for ch in pawn),
        TOKENS_LABEL + "".join(styled(ch) for ch in tokens),
    ]


def _pawn_line(view: View) -> str:
    patience = view["patience"]
    ahead = [m for m in view["markers"] if m > patience]
    upcoming = f"next black field {ahead[0]}" if ahead else f"end field {view['track']}"
    return f"Patience pawn (P): {patience}, {upcoming}."


def _status(view: View, seat: int) -> str:
    phase = view["phase"]
    if phase == "over":
        return ""
    if seat == view["to_act"]:
        return "to choose" if phase in ("choose", "teacher-choose") else "to play"
    if seat in view["choosing"]:
        return "chooses"  # in secret: what, nobody sees until everyone has chosen
    if phase in ("teacher-choose", "teacher-risk") and seat in view["deciding"]:
        return "throwing" if phase == "teacher-risk" and seat == view["deciding"][0] else "waits"
    if phase == "risk" and seat == view["turn_of"]:
        return "throwing"
    return ""


def _player_lines(
    view: View,
    names: Sequence[str],
    order: Sequence[int],
    statuses: Sequence[str],
    scores: Sequence[int],
    st: Style,
    hands: bool = True,
) -> list[str]:
    """One row per seat in ``order``: marker, number, name, status, points, hand."""
    labels = [
        f"{seat + 1} {short_name(n)}" + (" (you)" if seat == view["you"] else "")
        for seat, n in enumerate(names)
    ]
    name_w = max([len("Players"), *(len(label) for label in labels)])
    status_w = max([len(s) for s in statuses] + [0])
    head = "  " + "Players".ljust(name_w) + "  " + (" " * (status_w + 2) if status_w else "")
    lines = [st.bold(head + "negative" + ("  hand" if hands else ""))]
    black = set(view["markers"])
    for seat in order:
        acting = seat == view["to_act"] and view["phase"] != "over"
        label = labels[seat]
        row = (st.yellow("> ") if acting else "  ") + (
            st.paint(label, "bold", "cyan") if seat == view["you"] else label
        )
        row += " " * (name_w - len(label) + 2)
        if status_w:
            status = statuses[seat]
            paint = ("yellow", "bold") if status in ("to play", "to choose", "winner") else ("dim",)
            row += st.paint(status, *paint) + " " * (status_w - len(status) + 2)
        row += f"{scores[seat]:>8}"
        if hands:
            row += f"  {plural(view['hand_sizes'][seat], 'card')}"
            if scores[seat] in black:
                row += st.red("  on a black field")
        lines.append(row)
    return lines


def _hand_lines(view: View, st: Style, width: int = WIDTH) -> list[str]:
    hand = view["hand"]
    if hand is None:
        return []
    name_w = max(12, min(HAND_NAME, width - 16))  # the numbers take 14, the indent 2
    what = (
        "  (patience, negative points, risk throw)" if width >= 52 else "  (patience, points, risk)"
    )
    lines = [st.bold("Your hand") + st.dim(what)]
    if not hand:
        lines.append("  (empty)")
    for card in hand:
        if card is None:
            lines.append("  (a card not known here)")
            continue
        name = fit(card["name"], name_w)
        numbers = f"{card['patience']:>2}  {card['negative']:>2}  {card['risk']:>2}+"
        lines.append(f"  {name:<{name_w}}  {numbers}")
    return lines


def _throw_words(throw: dict[str, Any]) -> str:
    """``3+4+2 = 9 and missed 12+: 22 negative points`` (or ``... and escaped``)."""
    faces = "+".join(str(d) for d in throw["dice"])
    how = (
        "escaped"
        if not throw["points"]
        else (f"missed {throw['risk']}+: {throw['points']} negative points")
    )
    return f"{faces} = {throw['total']} and {how}"


def _throw_lines(view: View, names: Sequence[str]) -> list[str]:
    """The last throw, by whom and how it went; and the viewer's own last throw when
    someone threw after it (so it stays on screen, not only among the events)."""
    throws = view["throws"]
    if not throws:
        return []
    last = throws[-1]
    lines = [f"Last throw: {pronoun_name(view, names, last['seat'])} threw {_throw_words(last)}."]
    own = [t for t in throws[:-1] if t["seat"] == view["you"]]
    if own:
        lines.append(f"Your last throw: {_throw_words(own[0])}.")
    return lines


def _table_lines(view: View, names: Sequence[str], width: int = WIDTH) -> list[str]:
    lines = []
    played, teacher = view["played"], view["teacher"]
    if played is not None and view["turn_of"] is not None:
        by = pronoun_name(view, names, view["turn_of"])
        lines.append(f"School card: {played['name']} by {by} ({_numbers(played)}).")
    if teacher is not None:
        lines.append(f"Teacher card: {teacher['name']} ({_numbers(teacher)}).")
    elif view["teacher_discard"]:
        last = view["teacher_discard"][-1]
        lines.append(f"Last teacher card: {last['name']} ({_numbers(last)}).")
    if view["chosen"]:  # shown once every choice is revealed, never before
        said = []
        for chooser, verb in view["chosen"]:
            who = pronoun_name(view, names, chooser)
            said.append(f"{who} {verb}" if who == "you" else f"{who} {verb}s")
        lines.append(f"Chosen: {', '.join(said)}.")
    lines += _throw_lines(view, names)
    wrapped = []
    for line in lines:
        wrapped += textwrap.wrap(line, width, subsequent_indent="  ")
    return wrapped


def _choice(card: dict[str, Any]) -> str:
    n = card["negative"]
    return f"take {n} negative points, or risk a throw ({card['risk']}+ escapes, else {2 * n})"


def _now(view: View, names: Sequence[str]) -> str:
    """What happens next, in words."""
    phase, seat, actor = view["phase"], view["turn_of"], view["to_act"]
    if phase == "setup-first":
        return "Setting up: choosing who starts."
    if phase == "setup-deal":
        return "Setting up: dealing 4 school cards to everyone."
    if phase == "over" or seat is None:
        return "The game is over."
    if phase == "turn":
        return f"{possessive_name(view, names, seat)} turn: play a school card."
    if phase == "choose":
        return f"{possessive_name(view, names, seat)} turn: {_choice(view['played'])}."
    if phase == "risk":
        return f"{possessive_name(view, names, seat)} turn: the dice are thrown."
    if phase == "refill":
        return f"{possessive_name(view, names, seat)} turn: the hand is refilled to 4 cards."
    if phase == "teacher":
        return "The teacher's patience snapped: a teacher card is drawn."
    if phase == "teacher-together":
        return (
            f"Teacher card: everyone chooses at once, in secret: {_choice(view['teacher'])}. "
            "Nobody sees a choice until all are made."
        )
    if phase == "teacher-choose" and actor is not None:
        whose = possessive_name(view, names, actor)
        return f"{whose} choice on the teacher card: {_choice(view['teacher'])}."
    if phase == "teacher-risk" and view["deciding"]:
        thrower = view["deciding"][0]
        return f"Teacher card: {possessive_name(view, names, thrower)} dice are thrown."
    return phase


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
    """The live classroom as ``view``'s seat sees it (no trailing newline), at
    most ``width`` columns wide.

    ``recent`` is the event lines, oldest first; ``rows`` the terminal lines the
    screen may use: the classroom first, then as many of the latest events as fit (at
    least :data:`~p2ptable.ui.style.MIN_RECENT_LINES`; without ``rows``, the last
    :data:`~p2ptable.ui.style.RECENT_LINES`).
    """
    st = Style(color)
    top = [st.bold(fit(_header(view), width)), "-" * width]
    top += _track_lines(view, st, _cells(width))
    top += [_pawn_line(view), ""]
    statuses = [_status(view, seat) for seat in range(view["seats"])]
    top += _player_lines(view, names, range(view["seats"]), statuses, view["tokens"], st)
    hand = _hand_lines(view, st, width)
    if hand:
        top += ["", *hand]
    table = _table_lines(view, names, width)
    if table:
        top += ["", *table]
    bottom = ["", *(st.bold(line) for line in textwrap.wrap(_now(view, names), width))]
    bottom += [st.yellow(fit(line, width)) for line in status]
    room = recent_room(rows, top, bottom)
    middle = recent_block(recent, lambda r: name_seats(r, names), st, width, room)
    return "\n".join(line.rstrip() for line in top + middle + bottom)


def _cells(width: int) -> int:
    """The track's characters for a screen ``width`` wide: TRACK_CELLS from 61 to
    100 columns (the track and its labels take 60), fewer when narrower, more (up
    to one a field) when wider."""
    if width < len(LABEL) + TRACK_CELLS + 2:
        return max(20, width - len(LABEL) - 2)
    return TRACK_CELLS if width < 100 else min(200, width - 20)


def panes(view: View, names: Sequence[str], color: bool, width: int, large: bool) -> Panes:
    """The classroom in panes for the full-screen table (``ui/tui/``): the board
    (the track with the pawn and the tokens, the cards on the table and the last
    throws), the players, your hand and what happens now."""
    st = Style(color)
    cells = _cells(width) if large or width < WIDTH - 19 else TRACK_CELLS
    board = [*_track_lines(view, st, cells), _pawn_line(view), *_table_lines(view, names, width)]
    statuses = [_status(view, seat) for seat in range(view["seats"])]
    players = _player_lines(view, names, range(view["seats"]), statuses, view["tokens"], st)
    hand = _hand_lines(view, st, width)
    return Panes(_header(view), board, players, hand, _now(view, names))


def render_final(view: View, names: Sequence[str], color: bool = False) -> str:
    """Final negative points, fewest first (winners first), and who won."""
    st = Style(color)
    outcome = view["outcome"]
    scores = outcome["scores"] if outcome else view["tokens"]
    winners = outcome["winners"] if outcome else []
    order = sorted(range(view["seats"]), key=lambda s: (s not in winners, scores[s], s))
    statuses = ["winner" if seat in winners else "" for seat in range(view["seats"])]
    title = f"Vorsicht Lehrer! | final negative points | end field {view['track']}"
    lines = [st.bold(title), "-" * WIDTH]
    lines += _player_lines(view, names, order, statuses, scores, st, hands=False)
    lines.append("")
    if outcome:
        explanation = name_seats(outcome["explanation"], names)
        explanation = explanation[:1].upper() + explanation[1:].rstrip(".") + "."
        lines += [st.bold(line) for line in textwrap.wrap(explanation, WIDTH)]
    else:
        lines.append("The game is not over yet.")
    return "\n".join(line.rstrip() for line in lines)


def _card_at_stake(view: View) -> dict[str, Any] | None:
    return view["teacher"] if view["phase"].startswith("teacher") else view["played"]


def describe_action_for_menu(view: View, action: Action, names: Sequence[str] | None = None) -> str:
    """``action`` in words: "play Cheating (patience 9, 11 points or risk 12+)"."""
    verb, args = action.verb, action.args
    if verb == "play" and len(args) == 2:
        hand = view["hand"] or []
        card = hand[args[0]] if 0 <= args[0] < len(hand) else None
        if card is None or card["id"] != args[1]:
            return f"play the card in slot {args[0] + 1}"
        return (
            f"play {card['name']} (patience {card['patience']}, "
            f"{card['negative']} points or risk {card['risk']}+)"
        )
    card = _card_at_stake(view)
    if card is not None and verb == "take":
        return f"take {card['negative']} negative points"
    if card is not None and verb == "risk":
        return f"risk a throw: 3 dice, need {card['risk']}+ (else {2 * card['negative']} points)"
    return action.text


HELP = """\
Vorsicht Lehrer!
  Play a school card each turn: the teacher's patience pawn moves by its
  patience points.  Then take its negative points, or risk a throw of 3 dice:
  reach the risk number and you take nothing, miss it and you take twice the
  negative points.  Your hand is refilled to 4 cards.
  When the pawn reaches or passes a black field (every 20), a teacher card is
  revealed: more patience, negative points everyone takes or risks, and with
  detention everyone standing on a black field moves on to the next one.
  The game ends at once when the pawn or a token reaches the end field; the
  fewest negative points wins, ties share the victory.
The screen
  The track shrinks the board, a few fields to a character: '|' is a black
  field, ']' the end field.  The Pawn line shows the patience pawn P; the
  Tokens line each player's token (numbers as in the player list, '*' several
  in one place).  Your hand shows each card's patience, negative points and
  risk number; others' hands are only counts."""
