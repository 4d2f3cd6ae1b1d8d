"""Teacher's Pet's ten School Rooms as text: the two columns of the line mode's
screen (:func:`room_lines`), the map of boxes on a large full-screen table
(:func:`school_map`), and where the Hall Monitor stands (:func:`monitor_line`).

Rooms are numbered 1-10 as the D10 rolls them; ``T`` marks the Active
Teacher's room, ``M`` the Hall Monitor, and the pawns are the players' numbers
(the viewer's own in cyan).  Before the first Active Teacher no pawn is on the
board.  Each cell is laid out as plain text first and styled afterwards, so the
columns line up with or without colour (ui/style.py).
"""

from __future__ import annotations

from typing import Any

from p2ptable.games.teachers_pet.cards import HALLWAY, NURSES_OFFICE, ROOMS
from p2ptable.ui.style import Style, fit
from p2ptable.ui.teachers_pet_menu import room_name, the_room

View = dict[str, Any]
ROOM_CELL = 39  # one School Room's cell; two side by side, a space before each


def monitor_rooms(view: View) -> set[int]:
    """Where the Hall Monitor is: the Hallway and the rolled room after a D10
    roll, only the chosen room after a Squeal."""
    return {view["monitor"], HALLWAY} if view["monitor_hallway"] else {view["monitor"]}


def room_lines(view: View, st: Style, columns: int = 2, legend: bool = True) -> list[str]:
    """The ten School Rooms, 1-5 on the left and 6-10 on the right (or 1-10 in
    one column)."""
    monitor = monitor_rooms(view)
    here: dict[int, list[int]] = {}
    for seat, room in enumerate(view["rooms"]):
        here.setdefault(room, []).append(seat)
    if view["teacher"] is None:
        here = {}  # before the first teacher no pawn is on the board

    def cell(number: int) -> tuple[str, str]:
        name = room_name(number) + (" (safe)" if number == NURSES_OFFICE else "")
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


def monitor_line(view: View) -> str:
    """Where the Hall Monitor is and what it means for a Move."""
    monitor, expected = view["monitor"], view["expected"]
    catches = monitor not in (expected, HALLWAY, NURSES_OFFICE)
    caught = f"; entering {the_room(monitor)} is a catch, no roll" if catches else ""
    if catches and view["rulings"]["cafeteria"] == "succeeds":
        caught += " (not from the Cafeteria)"
    if not view["monitor_hallway"]:
        return (
            f"Hall Monitor: in {the_room(monitor)} only (a Squeal sent it): no sneak rolls "
            f"until it is back in the Hallway{caught}."
        )
    where = (
        "in the Hallway" if monitor == HALLWAY else f"overlaps the Hallway and {the_room(monitor)}"
    )
    if expected is None:
        return f"Hall Monitor: {where}."
    return (
        f"Hall Monitor: {where}. Moves need a sneak roll (4+ on the D10), except to "
        f"{the_room(expected)} or from the Cafeteria{caught}."
    )


def school_map(view: View, st: Style, width: int) -> list[str]:
    """The ten rooms as a map, two rows of five boxes: each box holds the room's
    number and name, ``T`` and ``M``, and the pawns in it by player number."""
    monitor = monitor_rooms(view)
    here: dict[int, list[int]] = {}
    if view["teacher"] is not None:  # before the first teacher no pawn is on the board
        for seat, room in enumerate(view["rooms"]):
            here.setdefault(room, []).append(seat)
    box = max(16, min(30, width // 5))
    inner = box - 2

    def rows_of(number: int) -> list[str]:
        name = room_name(number)
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
