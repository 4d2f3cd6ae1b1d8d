"""A sensible Teacher's Pet bot that decides from its own seat's view only.

How it works
------------
The bot reads ``game.view(state, seat)`` (its own hand, everything public) and
``game.legal_actions(state, seat)``; it never looks at another hand or the deck.

* **Stay where it is expected.**  A pawn in the Active Teacher's room can be
  neither caught nor tattled on, and every scoring play (Art, Music, Gift, Turn
  In) happens there; so the bot always takes the free Move (``go``), and a pawn
  that finds itself elsewhere walks back (no roll: the Active Teacher's room never
  needs one).  It never sneaks out on purpose: a Detention costs 5 Pet Points and
  a turn, and the roll alone is caught 3 times in 10.
* **One action a Period: the most Pet Points now.**  ``TURN`` holds a scorer for
  each verb; the best-scoring legal action is played.  Art, Music and Gift score
  their points, a set Turned In scores what the set table gives for every
  Assignment of that subject in hand (so with the Homeroom Teacher the bot turns
  in its largest set, and shows all of it, ``add`` until ``done``).  A Squeal
  scores the Detentions it would hand out: rivals in the room it names, outside
  the expected one and without a Hall Pass in front (less the bot's own, were it
  there).  A Bully scores the cards it takes (two in the
  Gymnasium), a Study the cards it draws (two in the Library), both at
  ``CARD_VALUE``; a Tattle (should the bot stand in the Principal's Office) the
  Detention it hands out, less the backfire when the bot holds no Hall Pass; a
  Cheat the growth of a set.  Harm to a rival counts fully against the leading
  rival, half against the others.
* **Reactions: always.**  A Hall Pass is shown whenever the bot is caught, tattled
  on or its Tattle backfires (a Detention is worth more than any card), and
  Goody Two-Shoes whenever it is bullied (it has no other use).
* **After Day 5** everything that scores is played late, Assignments as whole
  sets, then ``finish``.

Ties are broken with the policy's own ``rng`` so games against it vary.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from p2ptable.engine.api import Action, Game
from p2ptable.engine.playout import Policy
from p2ptable.games.teachers_pet.cards import (
    CAFETERIA,
    GYMNASIUM,
    HALLWAY,
    LIBRARY,
    NURSES_OFFICE,
    PLAY,
    set_points,
)
from p2ptable.games.teachers_pet.state import DETENTION_POINTS

View = dict[str, Any]

#: a card in hand, for a Study or a Bully: what it may score before the game ends
CARD_VALUE = 1.0
#: a Detention: 5 Pet Points and a lost turn (about one more card's worth)
DETENTION = DETENTION_POINTS + CARD_VALUE
#: how likely a rival shows a card it may hold (a Hall Pass, Goody Two-Shoes)
REACTION_CHANCE = 0.3
#: "Roll a 4 or higher" on the D10: caught 3 times in 10
CAUGHT = 0.3
#: back in the expected room: safe from the Monitor's roll and from Tattles
RETURN_VALUE = 2.0


def _hand(view: View) -> list[dict[str, Any]]:
    return view["hand"]


def _subjects(view: View) -> Counter[str]:
    return Counter(c["subject"] for c in _hand(view) if c["kind"] == "assignment")


def _holds(view: View, kind: str) -> bool:
    return any(c["kind"] == kind for c in _hand(view))


def _harm(view: View, rival: int) -> float:
    """What a Detention of ``rival`` is worth to the bot: all of it against the
    leading rival, half against the others."""
    me = view["you"]
    best = max(p for s, p in enumerate(view["points"]) if s != me)
    return DETENTION if view["points"][rival] == best else DETENTION / 2


def _has_pass_in_front(view: View, seat: int) -> bool:
    return any(owner == seat for owner, _ in view["passes"])


# -- what each verb of a turn is worth ----------------------------------------------------


def _study(view: View, action: Action) -> float:
    return CARD_VALUE * (2 if view["rooms"][view["you"]] == LIBRARY else 1)


def _move(view: View, action: Action) -> float:
    """Back to the expected room is worth its safety; anywhere else, the risk of
    being caught on the way (certain into the Monitor's room, 3 in 10 on a sneak
    roll) and of staying there (the Nurse's Office has none: nobody is caught or
    tattled on there)."""
    room, here = action.args[0], view["rooms"][view["you"]]
    if room == view["expected"]:
        return RETURN_VALUE
    if room == view["monitor"] and room != NURSES_OFFICE:
        risk = DETENTION
    elif view["monitor_hallway"] and here != CAFETERIA:
        risk = CAUGHT * DETENTION
    else:
        risk = 0.0
    return -risk - (0.0 if room == NURSES_OFFICE else CARD_VALUE)


def _work(view: View, action: Action) -> float:
    card = PLAY[action.args[1]]
    if card.kind in ("art", "music", "gift"):
        return float(card.points)
    if card.kind == "bully":
        victim = action.args[2]
        take = min(2 if view["rooms"][view["you"]] == GYMNASIUM else 1, view["hand_sizes"][victim])
        # each card taken is one for the bot and one the victim no longer holds
        gain = CARD_VALUE + CARD_VALUE * _harm(view, victim) / DETENTION
        return (1 - REACTION_CHANCE) * take * gain
    assert card.kind == "squeal"
    return _squeal(view, action.args[2])


def _squeal(view: View, room: int) -> float:
    """The Detentions a Squeal into ``room`` hands out (minus the bot's own)."""
    if room in (HALLWAY, NURSES_OFFICE, view["expected"]):
        return 0.0  # nobody is caught there
    total = 0.0
    for seat, where in enumerate(view["rooms"]):
        if where != room or _has_pass_in_front(view, seat):
            continue
        if seat == view["you"]:
            total -= DETENTION
        else:
            total += (1 - REACTION_CHANCE) * _harm(view, seat)
    return total


def _turn_in(view: View, action: Action) -> float:
    """The whole set of that subject in hand, shown one by one."""
    return float(set_points(_subjects(view)[PLAY[action.args[1]].subject]))


def _cheat(view: View, action: Action) -> float:
    """One more Assignment of a subject: the growth of that set, still to turn in."""
    n = _subjects(view)[PLAY[action.args[0]].subject]
    grown = set_points(n + 1) - (set_points(n) if n else 0)
    return grown / 2


def _tattle(view: View, action: Action) -> float:
    """A Detention for the target unless it shows a Hall Pass; then the bot's own,
    unless it holds one."""
    target = action.args[0]
    if view["rooms"][target] == view["expected"]:
        return -CARD_VALUE  # nobody is "wrongly leaving" the expected room: it fails
    if _has_pass_in_front(view, target):
        return -DETENTION if not _holds(view, "hall-pass") else -CARD_VALUE
    backfire = CARD_VALUE if _holds(view, "hall-pass") else DETENTION
    return (1 - REACTION_CHANCE) * _harm(view, target) - REACTION_CHANCE * backfire


TURN: dict[str, Callable[[View, Action], float]] = {
    "study": _study,
    "move": _move,
    "work": _work,
    "turn-in": _turn_in,
    "cheat": _cheat,
    "tattle": _tattle,
}


# -- the other phases -------------------------------------------------------------------


def _always_react(view: View, action: Action) -> float:
    """Show the Hall Pass or Goody Two-Shoes whenever the window allows it."""
    return 1.0 if action.verb == "react" else 0.0


def _whole_set(view: View, action: Action) -> float:
    """Show every Assignment of the subject before ``done``: sets score more."""
    return 1.0 if action.verb == "add" else 0.0


def _late(view: View, action: Action) -> float:
    """After Day 5, play everything that scores, then ``finish``."""
    return 1.0 if action.verb == "late" else 0.0


def _free_move(view: View, action: Action) -> float:
    """Go where the new Active Teacher expects the pawn."""
    return 1.0 if action.verb == "go" else 0.0


PHASES: dict[str, Callable[[View, Action], float]] = {
    "catch-window": _always_react,
    "tattle-window": _always_react,
    "tattler-window": _always_react,
    "bully-window": _always_react,
    "turn-in": _whole_set,
    "late": _late,
    "free-move": _free_move,
}


def score(view: View, action: Action) -> float:
    """What ``action`` is worth to the seat whose view this is (higher is better)."""
    if view["phase"] == "turn":
        return TURN[action.verb](view, action)
    return PHASES[view["phase"]](view, action)


def greedy_policy(rng: random.Random) -> Policy:
    """A policy for ``engine.playout.play``, on the seat's own view."""

    def policy(game: Game, state: Any, seat: int) -> Action:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]  # the victim's ``give`` and other forced moves
        view = game.view(state, seat)
        scored = [(score(view, action), action) for action in legal]
        best = max(value for value, _ in scored)
        return rng.choice([action for value, action in scored if value >= best - 1e-9])

    return policy
