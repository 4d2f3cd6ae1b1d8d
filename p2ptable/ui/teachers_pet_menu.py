"""Teacher's Pet's choices in words, and where each goes on the grouped menu.

How it works: :func:`describe_action_for_menu` words one legal action for a seat's
view ("Move to the Library (sneak roll: 4+ on the D10)"), as the rules of that
action have it (``games/teachers_pet/actions.py``), and :func:`arrange_for_menu`
places it under its heading on the grouped menu (``ui/menu.py``: the rooms under
"Move to", one line per target of a Bully, Squeal, Tattle or Cheat, a Squeal that
changes nothing left off).  The screen (``ui/teachers_pet_screen.py``) draws the
rest and names these for ``ui/screens.py``; the few room and set helpers both use
live here, so neither imports the other's internals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2ptable.engine.api import Action
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
from p2ptable.ui import menu
from p2ptable.ui.text import plural, pronoun_name, short_name

View = dict[str, Any]
#: "you must Roll a 4 or higher on the Dice" (games/teachers_pet/actions.py)
SNEAK_WORDS = "sneak roll: 4+ on the D10"


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


def _move_words(view: View, room: int) -> str:
    """ "Move to the Library", and what the Move risks, by the rules of a Move
    (``games/teachers_pet/actions.py``): the sneak roll is needed when the Monitor
    is in the Hallway, except into the expected room or the Monitor's own (that is
    a catch whatever the dice say) and from the Cafeteria."""
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
        return f"Squeal: send the Hall Monitor to {the_room(args[0])}{there}"
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
        value = set_value(view, size)
        return f"Show {PLAY[args[1]].name} too (a set of {size}: {plural(value, 'Pet Point')})"
    if verb == "done":
        size = len(view["shown"])
        value = set_value(view, size)
        shown = plural(size, "Assignment")
        return f"Turn in the set shown: {shown}, {plural(value, 'Pet Point')}"
    if verb == "cheat" and len(args) == 1:
        return f"Cheat: take {PLAY[args[0]].name} from the discard pile"
    if verb == "tattle" and len(args) == 1:
        target = args[0]
        if view["rooms"][target] == view["expected"]:
            return f"Tattle on {pronoun_name(view, names, target)} (where expected: it fails)"
        words = (
            f"Tattle on {pronoun_name(view, names, target)} (in {the_room(view['rooms'][target])})"
        )
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
        return f"Take the free Move to {the_room(view['expected'])}"
    if verb == "stay" and view["you"] is not None:
        return f"Stay in {the_room(view['rooms'][view['you']])}"
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
