"""Teacher's Pet's rooms and cards, the cards loaded from the data files here.

How it works
------------
The ten School Rooms are numbered 1-10 in the order the rulebook lists them
(``ROOMS``); the D10 picks the Hall Monitor's room by that number.

``play-cards.txt`` (the Play Deck), ``teacher-cards.txt`` (the Teacher Deck) and
``assignment-sets.txt`` (what a matching set of Assignments scores) hold
comma-separated rows, comment lines starting with ``#``; a ``copies`` column
expands a row into that many cards, numbered in file order, so a card *is* its
id (``PLAY[id]``, ``TEACHER[id]``) and the rules only ever store ids.

Counts, values, subjects, the teacher split and the set table are a
reconstruction (the rulebook gives none of them; see RULES.md): replace the
files and everything else follows, provided the Teacher Deck stays at 35 cards
and the set table covers every size up to the copies of a subject.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib.resources import files

PLAY_FILE = "play-cards.txt"
TEACHER_FILE = "teacher-cards.txt"
SETS_FILE = "assignment-sets.txt"

#: "The 10 different School Rooms", numbered in the rulebook's order.
ROOMS: tuple[str, ...] = (
    "Classroom",
    "Art Room",
    "Music Room",
    "Library",
    "Gymnasium",
    "Cafeteria",
    "Principal's Office",
    "Nurse's Office",
    "Teachers Lounge",
    "Hallway",
)
CLASSROOM, ART_ROOM, MUSIC_ROOM, LIBRARY, GYMNASIUM = 1, 2, 3, 4, 5
CAFETERIA, PRINCIPALS_OFFICE, NURSES_OFFICE, TEACHERS_LOUNGE, HALLWAY = 6, 7, 8, 9, 10
#: Where a pawn can stand: every room but the Hallway, which "connects all of
#: the School Rooms" (a pawn moves *through* it).
PAWN_ROOMS: tuple[int, ...] = tuple(range(1, 10))

KINDS = ("art", "assignment", "bully", "gift", "goody", "hall-pass", "squeal", "music")
#: the card kinds names as players read them
KIND_NAMES = {
    "art": "Art",
    "assignment": "Assignment",
    "bully": "Bully",
    "gift": "Gift",
    "goody": "Goody Two-Shoes",
    "hall-pass": "Hall Pass",
    "squeal": "Squeal",
    "music": "Music",
}
TEACHER_COUNT = 35  # "The Teacher Deck is made up of 35 Teacher Cards."


@dataclass(frozen=True)
class PlayCard:
    """A Play Deck card: its kind, its Assignment subject ("" for other kinds) and
    its Pet Point value (0 for a card that scores nothing by itself)."""

    id: int
    kind: str
    subject: str
    points: int

    @property
    def name(self) -> str:
        base = KIND_NAMES[self.kind]
        if self.kind == "assignment":
            return f"{base} ({self.subject})"
        return f"{base} {self.points}" if self.points else base


@dataclass(frozen=True)
class TeacherCard:
    """A Teacher card: the teacher and the School Room they expect pawns in."""

    id: int
    teacher: str
    room: int


def _rows(filename: str) -> list[dict[str, str]]:
    text = files(__package__).joinpath(filename).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines))


def load_play(filename: str = PLAY_FILE) -> tuple[PlayCard, ...]:
    """Every Play Deck card, its id being its position."""
    cards: list[PlayCard] = []
    for row in _rows(filename):
        kind, subject, points = row["kind"], row["subject"], int(row["points"])
        if kind not in KINDS:
            raise ValueError(f"{filename}: unknown card kind {kind!r}")
        if (kind == "assignment") != bool(subject):
            raise ValueError(f"{filename}: a subject is for assignments only ({kind!r})")
        if points < 0:
            raise ValueError(f"{filename}: negative Pet Points for {kind!r}")
        for _ in range(int(row["copies"])):
            cards.append(PlayCard(len(cards), kind, subject, points))
    return tuple(cards)


def load_teachers(filename: str = TEACHER_FILE) -> tuple[TeacherCard, ...]:
    """Every Teacher card, its id being its position."""
    cards: list[TeacherCard] = []
    for row in _rows(filename):
        room = int(row["room"])
        if not 1 <= room <= len(ROOMS):
            raise ValueError(f"{filename}: no School Room {room}")
        for _ in range(int(row["copies"])):
            cards.append(TeacherCard(len(cards), row["teacher"], room))
    if len(cards) != TEACHER_COUNT:
        raise ValueError(f"{filename}: {len(cards)} Teacher cards, the game needs 35")
    return tuple(cards)


def load_sets(filename: str = SETS_FILE) -> dict[int, int]:
    """Set size -> Pet Points for a matching set of Assignments Turned In at once."""
    table = {int(row["size"]): int(row["points"]) for row in _rows(filename)}
    if sorted(table) != list(range(1, len(table) + 1)):
        raise ValueError(f"{filename}: the sizes must run 1, 2, 3, ... without a gap")
    return table


PLAY: tuple[PlayCard, ...] = load_play()
TEACHER: tuple[TeacherCard, ...] = load_teachers()
SET_POINTS: dict[int, int] = load_sets()
_LARGEST_SUBJECT = max(
    sum(1 for c in PLAY if c.subject == s) for s in {c.subject for c in PLAY} if s
)
if _LARGEST_SUBJECT > len(SET_POINTS):
    raise ValueError(f"{SETS_FILE}: no value for a set of {_LARGEST_SUBJECT} Assignments")


def kind(card: int) -> str:
    """The kind of Play card ``card``."""
    return PLAY[card].kind


def set_points(size: int) -> int:
    """What a matching set of ``size`` Assignments scores."""
    return SET_POINTS[size]
