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
    HALLWAY,
    NURSES_OFFICE,
    PLAY,
)
from p2ptable.games.teachers_pet.verb_words import (
    SNEAK_WORDS as SNEAK_WORDS,
)
from p2ptable.games.teachers_pet.verb_words import (
    VERBS,
)
from p2ptable.games.teachers_pet.verb_words import cafeteria_succeeds as cafeteria_succeeds
from p2ptable.games.teachers_pet.verb_words import room_name as room_name
from p2ptable.games.teachers_pet.verb_words import set_value as set_value
from p2ptable.games.teachers_pet.verb_words import the_room as the_room
from p2ptable.ui import menu

View = dict[str, Any]


def describe_action_for_menu(view: View, action: Action, names: Sequence[str] | None = None) -> str:
    """``action`` in words for the menu: "Move to the Library (sneak roll: 4+ on the
    D10)": the verb's row in games/teachers_pet/verb_words.py, beside its log words."""
    names = list(names) if names is not None else [f"player {n + 1}" for n in range(view["seats"])]
    words = VERBS.get(action.verb)
    offer = None if words is None else words.menu(view, action.args, names)
    return action.text if offer is None else offer


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
