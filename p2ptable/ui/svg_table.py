"""The table as SVG, drawn from a seat's view: the replay page's pictures.

How it works
------------
:func:`draw` turns one view (``games/*/view.py``, the data the terminal screens are
drawn from, never the state) into a few SVG fragments, in drawing order: the board
(what every view shares), the players (scores, whose turn; the viewer's own row
marked), and the hands the view holds.  The page puts them in one ``<svg>`` of
:data:`WIDTH` by :data:`HEIGHT` and stores each distinct fragment once, so keeping a
piece that does not change from one entry to the next separate keeps the file small.

Every text from the log (a seat's name, a card's name) goes through :func:`_t`, which
escapes it: a seat named ``<script>`` is drawn as those eight characters.  Colours
and fonts are classes the page's stylesheet defines (``ui/replay_page.css``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from p2ptable.games.teachers_pet.view import window_question

WIDTH = 720
HEIGHT = 460
View = dict[str, Any]


def _t(x: float, y: float, text: object, cls: str = "", anchor: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    middle = f' text-anchor="{anchor}"' if anchor else ""
    return f'<text x="{x:g}" y="{y:g}"{klass}{middle}>{escape(str(text), quote=False)}</text>'


def _r(x: float, y: float, w: float, h: float, cls: str) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4" class="{cls}"/>'


def _pawn(x: float, y: float, seat: int) -> str:
    return f'<circle cx="{x:g}" cy="{y:g}" r="9" class="pawn s{seat % 6}"/>' + _t(
        x, y + 4, seat + 1, "pawn-n", "middle"
    )


def _g(parts: Sequence[str]) -> str:
    return "<g>" + "".join(parts) + "</g>"


def _players(view: View, names: Sequence[str], cols: Sequence[tuple[str, Callable]]) -> list[str]:
    """The players' table at the bottom left, a row a seat, as three fragments: the
    names (the same all game), the viewer's own row marked (the same all game for a
    view), and the figures and whose turn (the same in every view)."""
    top, you = 300, view.get("you")
    acting = view.get("to_act")
    choosing = set(view.get("choosing") or ())
    names_part = [_t(10, top, "Player", "head")]
    figures = []
    for c, (label, _) in enumerate(cols):
        names_part.append(_t(190 + 70 * c, top, label, "head", "end"))
    for s, name in enumerate(names):
        y = top + 20 + 20 * s
        names_part.append(_pawn(32, y - 4, s) + _t(46, y, name[:18]))
        mark = "▶" if s == acting else ("…" if s in choosing else "")
        if mark:
            figures.append(_t(10, y, mark, "turn"))
        for c, (_, value) in enumerate(cols):
            figures.append(_t(190 + 70 * c, y, value(s), "", "end"))
    mine = "" if you is None else _r(4, top + 6 + 20 * you, 400, 19, "you-row")
    return [_g([mine]), _g(names_part), _g(figures)]


def _hands(view: View, names: Sequence[str], label: Callable[[dict], str]) -> str:
    """The hands this view may read: the viewer's own, to the right of the players;
    every seat's (``hands``, the audit), below them across the page; or none."""
    hands = view.get("hands")
    you = view.get("you")
    if hands is None and (you is None or view.get("hand") is None):
        return _g([_t(420, 300, "Hands are hidden in this view", "note")])
    shown: list[tuple[int, Any]]
    if hands is None:
        assert you is not None  # else returned above
        x, y, across, step, shown = 420, 300, 2, 148, [(you, view["hand"])]
    else:
        x, y, across, step = 10, _below_players(len(names)), 4, 175
        shown = list(enumerate(hands))
    out = []
    for s, hand in shown:
        out.append(_t(x, y, f"{names[s][:18]}'s hand ({len(hand)})", "head"))
        for k, card in enumerate(hand):
            text = "a card" if card is None else label(card)
            out.append(
                _t(x + step * (k % across), y + 17 + 15 * (k // across), text[:24], "card-t")
            )
        y += HAND_ROW + 15 * ((len(hand) - 1) // across)
    return _g(out)


HAND_ROW = 38  # a hand's title and its first row of cards


def _below_players(seats: int) -> int:
    return 300 + 20 * seats + 30


def height(view_id: str, seats: int, most_cards: int = 12) -> int:
    """How tall a view's picture is: the audit's holds every hand below the players."""
    if view_id != "all":
        return HEIGHT
    return _below_players(seats) + seats * (HAND_ROW + 15 * ((most_cards - 1) // 4))


def _status(view: View, names: Sequence[str], window: str | None = None) -> str:
    """What the table waits for, between the board and the players: a reaction
    window's question (the same words whatever the asked seat holds), or who is
    choosing in secret (who, never what)."""
    choosing = view.get("choosing") or ()
    if window:
        text = window
    elif choosing:
        text = ", ".join(names[s] for s in choosing) + " choose in secret"
    else:
        return ""
    return _g([_t(10, 290, text[:110], "turn")])


# -- Teacher's Pet --------------------------------------------------------------


def teachers_pet(view: View, names: Sequence[str]) -> list[str]:
    rooms, expected = view["room_names"], view["expected"]
    teacher = view["teacher"]
    board = [
        _t(10, 20, f"Day {view['day']}, Period {view['period']}", "title"),
        _t(
            710,
            20,
            f"Play Deck {view['deck_left']} · Teacher cards {view['teacher_deck_left']}",
            "note",
            "end",
        ),
        _t(
            10,
            40,
            "Active Teacher: "
            + (f"{teacher['teacher']} ({teacher['room_name']})" if teacher else "none yet")
            + (f" · pawns are expected in the {rooms[expected - 1]}" if expected else ""),
        ),
    ]
    school = []  # the rooms themselves: one fragment for the whole game
    for n, room in enumerate(rooms, start=1):
        x, y = 10 + 140 * ((n - 1) % 5), 55 + 110 * ((n - 1) // 5)
        school.append(_r(x, y, 134, 100, "room") + _t(x + 6, y + 16, f"{n} {room}", "room-t"))
        if n == expected:
            board.append(_r(x, y, 134, 100, "room expected"))
        if teacher and teacher["room"] == n:
            board.append(_t(x + 128, y + 16, "T", "teacher", "end"))
        if view["monitor"] == n or (n == 10 and view["monitor_hallway"]):
            board.append(_t(x + 128, y + 34, "M", "monitor", "end"))
        here = [s for s, r in enumerate(view["rooms"]) if r == n]
        for k, s in enumerate(here):
            board.append(_pawn(x + 18 + 22 * (k % 5), y + 50 + 22 * (k // 5), s))
    passes = {s for s, _ in view["passes"]}
    players = _players(
        view,
        names,
        [
            ("Points", lambda s: view["points"][s]),
            ("Cards", lambda s: view["hand_sizes"][s]),
            ("Detent.", lambda s: view["detentions"][s]),
            # turns owed, and a Hall Pass lying in front of the seat
            ("Lost", lambda s: f"{view['lost'][s] or ''}{' +pass' if s in passes else ''}"),
        ],
    )
    window = None
    if view["window"]:
        window = window_question(view, lambda s: names[s])
    status = _status(view, names, window)
    return [_g(school), _g(board), status, *players, _hands(view, names, lambda c: c["name"])]


# -- Vorsicht Lehrer! -----------------------------------------------------------


def vorsicht_lehrer(view: View, names: Sequence[str]) -> list[str]:
    track = view["track"]
    left, right, y = 20, 700, 110

    def at(points: int) -> float:
        return left + (right - left) * min(max(points, 0), track) / track

    board = [
        _t(10, 20, "Vorsicht Lehrer!", "title"),
        _t(
            710,
            20,
            f"School deck {view['deck_left']} · Teacher cards {view['teacher_deck_left']}",
            "note",
            "end",
        ),
        f'<line x1="{left}" y1="{y}" x2="{right}" y2="{y}" class="track"/>',
        _t(left, y + 36, 0, "note", "middle"),
        _t(right, y + 36, track, "note", "middle"),
    ]
    for mark in view["markers"]:
        board.append(f'<rect x="{at(mark) - 3:g}" y="{y - 8}" width="6" height="16" class="mark"/>')
        board.append(_t(at(mark), y + 36, mark, "note", "middle"))
    board.append(_t(at(view["patience"]), y - 40, "Teacher", "teacher", "middle"))
    board.append(
        f'<path d="M{at(view["patience"]):g} {y - 30} l-8 -0 l8 22 l8 -22 z" class="patience"/>'
    )
    for s, tokens in enumerate(view["tokens"]):
        board.append(_pawn(at(tokens), y + 22 + 16 * s, s))  # a row each: they may share a field
    lines = []
    if view["played"]:
        lines.append(f"Played: {_school(view['played'])}")
    if view["teacher"]:
        lines.append(f"Teacher card: {_school(view['teacher'])}")
    if view["last_throw"]:
        lines.append("Last throw: " + " ".join(map(str, view["last_throw"])))
    if view["chosen"]:
        lines.append("Chosen: " + ", ".join(f"{names[s]} {v}" for s, v in view["chosen"]))
    lines.append("Cards read: name (patience / negative points / risk)")
    for k, line in enumerate(lines):
        board.append(_t(10, 228 + 18 * k, line[:100], "note" if k == len(lines) - 1 else ""))
    players = _players(
        view,
        names,
        [
            ("Negative", lambda s: view["tokens"][s]),
            ("Cards", lambda s: view["hand_sizes"][s]),
        ],
    )
    return [_g(board), _status(view, names), *players, _hands(view, names, _school)]


def _school(card: dict) -> str:
    """A school or teacher card: its name, then patience/negative/risk."""
    name = card["name"] if len(card["name"]) <= 14 else card["name"][:13] + "…"
    return f"{name} ({card['patience']}/{card['negative']}/{card['risk']})"


# -- Pet Quartet ----------------------------------------------------------------


def pet_quartet(view: View, names: Sequence[str]) -> list[str]:
    board = [
        _t(10, 20, f"Round {view['round']}", "title"),
        _t(
            710,
            20,
            f"Deck {view['deck_left']} · returned to the box {view['returned']}",
            "note",
            "end",
        ),
    ]
    if view["last_card"] is not None:
        board.append(_t(10, 40, f"Card drawn: {view['last_card']}"))
    for k, conductor in enumerate(view["conductors"]):
        x = 10 + 118 * k
        focus = " expected" if view["focus"] == k else ""
        board.append(_r(x, 55, 112, 170, "room" + focus))
        board.append(_t(x + 6, 72, f"Conductor {chr(65 + k)}", "room-t"))
        board.append(_t(x + 6, 88, f"limit {conductor['limit']}", "note"))
        if conductor["tile"]:
            board.append(_t(x + 6, 102, str(conductor["tile"])[:18], "note"))
        for n, card in enumerate(conductor["cards"]):
            board.append(_r(x + 8 + 34 * (n % 3), 110 + 38 * (n // 3), 30, 34, "card"))
            board.append(_t(x + 23 + 34 * (n % 3), 133 + 38 * (n // 3), card, "card-n", "middle"))
        if conductor["taken_by"] is not None:
            board.append(_t(x + 6, 218, f"taken by {names[conductor['taken_by']][:12]}", "note"))
    players = _players(
        view,
        names,
        [
            ("Score", lambda s: view["scores"][s]),
            ("Cards", lambda s: sum(view["collections"][s].values())),
        ],
    )
    sets = [_t(420, 300, "Collections", "head")]
    for s, cards in enumerate(view["collections"]):
        row = " ".join(f"{v}×{n}" if n > 1 else v for v, n in cards.items()) or "none"
        sets.append(_t(420, 320 + 20 * s, row[:40], "card-t"))
    return [_g(board), *players, _g(sets)]


GAMES: dict[str, Callable[[View, Sequence[str]], list[str]]] = {
    "teachers-pet": teachers_pet,
    "vorsicht-lehrer": vorsicht_lehrer,
    "pet-quartet": pet_quartet,
}


def draw(view: View, names: Sequence[str], finished: bool = False) -> list[str]:
    """The fragments of one view's picture (joined, they are the ``<svg>``'s content)."""
    parts = GAMES[view["game"]](view, names)
    if finished or view.get("outcome"):
        parts.append(_g([_t(710, 40, "Game over", "title", "end")]))
    return parts


def svg(fragments: Sequence[str], tall: int = HEIGHT) -> str:
    """A whole picture, as the page assembles it."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {tall}">'
        + "".join(fragments)
        + "</svg>"
    )
