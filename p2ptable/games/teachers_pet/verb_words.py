"""Teacher's Pet's actions in words: one row per verb (:data:`VERBS`) holding both
what the log says of it ("moves to the Library", third person, from the state
before it is applied: ``view.describe``) and what the menu offers ("Move to the
Library (sneak roll: 4+ on the D10)", from the chooser's view: the UI's
``describe_action_for_menu``).  A new verb is one row here, and its two wordings
are read side by side.

Each wording returns None when the action's arguments do not fit it (only a
malformed action, never a legal one); the caller then shows the action's text.
The menu's words follow the rules of each action (``actions.py``): what a Move
risks, what a Bully takes, whom a Squeal finds, whether a Tattle can backfire.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from p2ptable.games.teachers_pet import scoring
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
from p2ptable.games.teachers_pet.sets import late_points
from p2ptable.games.teachers_pet.state import TeachersPetState
from p2ptable.games.words import plural, pronoun_name, short_name

View = dict[str, Any]
Names = Sequence[str]
Args = tuple[int, ...]
#: "you must Roll a 4 or higher on the Dice" (actions.py)
SNEAK_WORDS = "sneak roll: 4+ on the D10"


@dataclass(frozen=True)
class VerbWords:
    log: Callable[[TeachersPetState, Args], str | None]
    menu: Callable[[View, Args, Names], str | None]


def room_name(number: int) -> str:
    return ROOMS[number - 1]


def the_room(number: int) -> str:
    """A room as a sentence names it: "the Library", "the Principal's Office"."""
    return f"the {room_name(number)}"


def set_value(view: View, size: int) -> int:
    """What a set of ``size`` Assignments scores; late, what it adds once halved
    (the late total halved once, or the set on its own: the ``late`` option)."""
    points = set_points(size)
    if not view["late"]:
        return points
    return late_points(view["late_total"], points, view["rulings"]["late"])


def cafeteria_succeeds(view: View, seat: int | None) -> bool:
    """A Move from the Cafeteria is never caught (the ``cafeteria`` option)."""
    safe = view["rulings"]["cafeteria"] == "succeeds"
    return safe and seat is not None and view["rooms"][seat] == CAFETERIA


# -- the log's words (third person, from the state before the action) ----------------


def _log_work(state: TeachersPetState, args: Args) -> str | None:
    if len(args) < 2:
        return None
    card = PLAY[args[1]]
    if card.kind == "bully" and len(args) == 3:
        return f"plays Bully on seat {args[2]}"
    if card.kind == "squeal" and len(args) == 3:
        return f"plays Squeal: the Hall Monitor goes to the {ROOMS[args[2] - 1]}"
    return f"plays {card.name} for {scoring.pet_points(card.points)}"


def _log_done(state: TeachersPetState, args: Args) -> str:
    points = set_points(len(state.shown))
    if state.late:
        points = late_points(state.late_total, points, state.rulings.late)
    cards = "1 Assignment" if len(state.shown) == 1 else f"{len(state.shown)} Assignments"
    return f"turns in {cards} for {scoring.pet_points(points)}"


def _log_late(state: TeachersPetState, args: Args) -> str | None:
    if len(args) != 2:
        return None
    card = PLAY[args[1]]
    if card.kind == "assignment":
        return f"shows {card.name} late"
    points = late_points(state.late_total, card.points, state.rulings.late)
    return f"plays {card.name} late for {scoring.pet_points(points)}"


def _log_tattle(state: TeachersPetState, args: Args) -> str | None:
    if not args:
        return None
    if 0 <= args[0] < state.seats and state.rooms[args[0]] == state.expected:
        return f"tattles on seat {args[0]}, who is where expected: the Tattle fails"
    return f"tattles on seat {args[0]}"


def _log_free_move(verb: str) -> Callable[[TeachersPetState, Args], str | None]:
    def words(state: TeachersPetState, args: Args) -> str | None:
        if state.expected is None:
            return None
        there = ROOMS[state.expected - 1]
        return f"takes the free Move to the {there}" if verb == "go" else "stays"

    return words


def _shows(state: TeachersPetState, args: Args) -> str | None:
    return f"shows {PLAY[args[1]].name}" if len(args) == 2 else None


# -- the menu's words (an offer, from the chooser's view) ----------------------------


def _menu_study(view: View, args: Args, names: Names) -> str:
    seat = view["turn_of"]
    if not view["deck_left"] and not view["discard"]:
        return "Study: nothing left to draw (the Play Deck and its discard pile are empty)"
    if seat is not None and view["rooms"][seat] == LIBRARY:
        return "Study: draw 2 cards (Library)"
    return "Study: draw 1 card"


def _menu_move(view: View, args: Args, names: Names) -> str | None:
    """ "Move to the Library", and what the Move risks, by the rules of a Move
    (actions.py): the sneak roll is needed when the Monitor is in the Hallway,
    except into the expected room or the Monitor's own (that is a catch whatever
    the dice say) and from the Cafeteria."""
    if len(args) != 1:
        return None
    room = args[0]
    words = f"Move to {the_room(room)}"
    seat, expected, monitor = view["turn_of"], view["expected"], view["monitor"]
    if seat is None:
        return words
    caught = room == monitor and room not in (expected, NURSES_OFFICE, HALLWAY)
    caught = caught and not cafeteria_succeeds(view, seat)
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


def found_by_monitor(view: View, names: Names, room: int) -> list[str]:
    """Who the Hall Monitor would find in ``room``: pawns outside the expected room,
    never in the Hallway or the Nurse's Office."""
    if room in (HALLWAY, NURSES_OFFICE, view["expected"]):
        return []
    return [pronoun_name(view, names, s) for s, r in enumerate(view["rooms"]) if r == room]


def _menu_work(view: View, args: Args, names: Names) -> str | None:
    if len(args) < 2 or not 0 <= args[1] < len(PLAY):
        return None
    c, targets = PLAY[args[1]], args[2:]
    seat = view["turn_of"]
    if c.kind == "bully" and targets:
        victim = targets[0]
        take = 2 if seat is not None and view["rooms"][seat] == GYMNASIUM else 1
        take = min(take, view["hand_sizes"][victim]) or take
        where = " (Gymnasium)" if take == 2 else ""
        return (
            f"Bully {pronoun_name(view, names, victim)}: take {plural(take, 'card')} blindly{where}"
        )
    if c.kind == "squeal" and targets:
        found = found_by_monitor(view, names, targets[0])
        if len(found) == 1:
            there = f" (finds {short_name(found[0])})"
        elif found:
            there = f" (finds {len(found)} pawns)"
        else:
            there = ""
        return f"Squeal: send the Hall Monitor to {the_room(targets[0])}{there}"
    return f"Play {c.name}: +{plural(c.points, 'Pet Point')}"


def _menu_add(view: View, args: Args, names: Names) -> str | None:
    if len(args) != 2:
        return None
    size = len(view["shown"]) + 1
    value = set_value(view, size)
    return f"Show {PLAY[args[1]].name} too (a set of {size}: {plural(value, 'Pet Point')})"


def _menu_done(view: View, args: Args, names: Names) -> str:
    size = len(view["shown"])
    value = set_value(view, size)
    return f"Turn in the set shown: {plural(size, 'Assignment')}, {plural(value, 'Pet Point')}"


def _menu_tattle(view: View, args: Args, names: Names) -> str | None:
    if len(args) != 1:
        return None
    target = args[0]
    if view["rooms"][target] == view["expected"]:
        return f"Tattle on {pronoun_name(view, names, target)} (where expected: it fails)"
    words = f"Tattle on {pronoun_name(view, names, target)} (in {the_room(view['rooms'][target])})"
    if any(owner == target for owner, _ in view["passes"]):
        words += f": {names[target]} has a Hall Pass in front, it will backfire"
    return words


def _menu_pass(view: View, args: Args, names: Names) -> str:
    window = view["window"]
    if window is not None and window["kind"] == "bully":
        return "Show nothing: let the Bully happen"
    return "Show nothing: take the Detention"


def _menu_give(view: View, args: Args, names: Names) -> str:
    bully = view["bully"]
    taker = "the bully" if bully is None else pronoun_name(view, names, bully[0])
    return f"Hand the card chance picked to {taker}"


def _menu_late(view: View, args: Args, names: Names) -> str | None:
    if len(args) != 2:
        return None
    c = PLAY[args[1]]
    if c.kind == "assignment":
        return f"Show {c.name} late: start a set (half points)"
    points = late_points(view["late_total"], c.points, view["rulings"]["late"])
    return f"Play {c.name} late: +{plural(points, 'Pet Point')}"


#: every verb of actions.py: (what the log says, what the menu offers)
VERBS: dict[str, VerbWords] = {
    "study": VerbWords(lambda state, args: "studies", _menu_study),
    "move": VerbWords(
        lambda state, args: f"moves to the {ROOMS[args[0] - 1]}" if args else None, _menu_move
    ),
    "work": VerbWords(_log_work, _menu_work),
    "turn-in": VerbWords(
        _shows,
        lambda view, args, names: (
            f"Turn in {PLAY[args[1]].name}: start a set of {PLAY[args[1]].subject} Assignments"
            if len(args) == 2
            else None
        ),
    ),
    "add": VerbWords(_shows, _menu_add),
    "done": VerbWords(_log_done, _menu_done),
    "late": VerbWords(_log_late, _menu_late),
    "finish": VerbWords(
        lambda state, args: "has no more cards to play late",
        lambda view, args, names: "Finish: play no more cards late",
    ),
    "cheat": VerbWords(
        lambda state, args: (
            f"cheats: takes {PLAY[args[0]].name} from the discard pile" if args else None
        ),
        lambda view, args, names: (
            f"Cheat: take {PLAY[args[0]].name} from the discard pile" if len(args) == 1 else None
        ),
    ),
    "tattle": VerbWords(_log_tattle, _menu_tattle),
    "react": VerbWords(
        _shows,
        lambda view, args, names: f"Show {PLAY[args[1]].name}" if len(args) == 2 else None,
    ),
    "pass": VerbWords(lambda state, args: "shows nothing", _menu_pass),
    "give": VerbWords(
        lambda state, args: f"hands a card to seat {state.bully[0] if state.bully else '?'}",
        _menu_give,
    ),
    "go": VerbWords(
        _log_free_move("go"),
        lambda view, args, names: (
            f"Take the free Move to {the_room(view['expected'])}"
            if view["expected"] is not None
            else None
        ),
    ),
    "stay": VerbWords(
        _log_free_move("stay"),
        lambda view, args, names: (
            f"Stay in {the_room(view['rooms'][view['you']])}" if view["you"] is not None else None
        ),
    ),
}
