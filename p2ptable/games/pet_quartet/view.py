"""What a seat sees of a Pet Quartet table, and log phrases for actions and chance.

How it works
------------
Every card in Pet Quartet is face up: the piles, the collections, the discards and the
cards returned to the box.  The only secret is the order of the deck, and the state
has none (the deck is a sorted multiset until a card is drawn).  So a seat's view is
the public view plus ``"you"``.  Views are plain JSON data: dicts with str keys, lists,
ints, strs, bools and None.  Collections and deck contents are ``{"<value>": count}``
in ascending order of value.

Log phrases name Conductors by letter, as the screen does ("conductor A" is index 0;
the action text stays ``take 0``), and seats as "seat N" from 0, which every text a
person reads replaces by the seat's name (``ui/text.py``).  ``moment`` says which
round a log entry falls in ("Round 3").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from p2ptable.engine.api import Action, Turn
from p2ptable.games.pet_quartet import rules, scoring
from p2ptable.games.pet_quartet.state import PetQuartetState
from p2ptable.games.words import a


def letter(index: int) -> str:
    """A Conductor's name for people: index 0 is A."""
    return chr(ord("A") + index)


def _counts(cards: Iterable[int]) -> dict[str, int]:
    return {str(value): n for value, n in sorted(Counter(cards).items())}


def view(state: PetQuartetState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may see (``None``: the public view, ``"you": None``)."""
    decision = rules.pending(state)
    if state.final_turns is not None:
        remaining = list(state.final_turns)
    elif state.triggered_by is not None:  # the drawer is finishing the triggering turn
        remaining = [(state.triggered_by + 1 + i) % state.seats for i in range(state.seats)]
    else:
        remaining = []
    result = scoring.outcome(state.collections, state.scoring) if state.phase == "over" else None
    return {
        "game": "pet-quartet",
        "variant": state.variant,
        "scoring": state.scoring,
        "seats": state.seats,
        "you": seat,
        "phase": state.phase,
        "round": state.round,
        "round_starter": state.round_starter,
        "turn_of": state.current,
        "to_act": decision.seat if isinstance(decision, Turn) else None,
        "deck_left": len(state.deck),
        "deck": _counts(state.deck),
        "last_card": state.last_card,
        # The card each seat drew last (None: none yet); every draw is face up.
        "last_draws": [dict(state.draws).get(s) for s in range(state.seats)],
        "focus": state.focus,
        "conductors": [
            {"cards": list(c.cards), "limit": c.limit, "tile": c.tile, "taken_by": c.taken_by}
            for c in state.conductors
        ],
        "collections": [_counts(cards) for cards in state.collections],
        "scores": [scoring.points(cards, state.scoring) for cards in state.collections],
        "out": [state.is_out(s) for s in range(state.seats)],
        "final_turns": {
            "triggered": state.triggered_by is not None,
            "triggered_by": state.triggered_by,
            "remaining": remaining,
        },
        "discarded": list(state.discarded),
        "returned": len(state.returned),
        "returned_cards": list(state.returned),
        "outcome": None if result is None else result.to_view(),
    }


def describe(state: PetQuartetState, seat: int, action: Action) -> str:
    """A log phrase for ``action`` taken in ``state`` (before it is applied)."""
    verb, args = action.verb, action.args
    if verb == "draw":
        return "draws a card"
    if verb == "place":
        return f"places the {state.last_card} under conductor {letter(args[0])}"
    if verb == "take":
        cards = ", ".join(map(str, state.conductors[args[0]].cards))
        return f"takes conductor {letter(args[0])} ({cards})"
    if verb == "decline":
        focus = "it" if state.focus is None else f"conductor {letter(state.focus)}"
        return f"leaves {focus} where it is"
    if verb == "return":
        return f"returns {a(args[0])} to the box"
    if verb == "give":
        return f"gives {a(args[0])} to seat {(seat + 1) % state.seats}"
    if verb == "pass":
        return "passes"
    return action.text


def describe_chance(state: PetQuartetState, outcome: tuple[int, ...]) -> str:
    """A log phrase for the chance step pending in ``state`` coming out as ``outcome``."""
    if state.phase == "setup-tiles":
        tiles = rules.resolve(state, outcome).conductors
        return "Maestro tiles: " + ", ".join(f"{letter(i)} {c.tile}" for i, c in enumerate(tiles))
    if state.phase == "setup-first":
        return f"seat {outcome[0]} goes first"
    if state.phase == "draw":
        return f"seat {state.current} draws {a(state.deck[outcome[0]])}"
    if state.phase == "bonus-draw":
        card = a(state.deck[outcome[0]])
        return f"seat {state.current} draws {card} from the deck and keeps it"
    return f"chance: {outcome}"


def moment(state: PetQuartetState) -> str:
    """Which round ``state`` is in, for a log line: "Round 3" (a round ends when
    every Conductor is taken), then "Round 5, final turns" for the last turn each
    seat takes once the last card was drawn and its drawer's turn is over."""
    if state.final_turns is not None:
        return f"Round {state.round}, final turns"
    return f"Round {state.round}"
