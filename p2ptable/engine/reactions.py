"""Reactions out of turn that reveal nothing: the reaction window.

The pattern
-----------
After an event (an attack, a catch), named seats may each play a *reaction card*
from their hidden hand, or pass, one after another in a fixed order; the rules go
on when every window is closed.  A window is an ordinary :class:`SeatPhase`
decided by the seat whose window is open, made by :func:`reaction_phase`:

* **Who is asked depends on public state only.**  The game lists the seats whose
  window opens (in its state, as public as the event itself) whether or not they
  hold a reaction card: a window that opened only for holders would tell the
  table who holds one.  The game's ``decider`` returns the seat whose window is
  open, so the log expects an ``action`` by that seat.
* **``pass`` is always legal**, and is the same entry for every seat that passes
  (``pass``, no argument): its bytes, its size and its signature's shape say
  nothing about the hand.
* **A reaction is played with its reveal proof**: ``react <slot> <card>`` names
  the card and its slot, as any played hand card does; the game's
  ``hand_card_played`` returns ``(slot, card)`` for it (:func:`reaction_played`),
  so the ledger demands the sealed deck's proof that the slot holds that card.
  Other peers hold ``None`` for the card and accept the claim; the proof checks it.
* **The legal list differs only on the seat's own peer**: there it offers the
  reaction cards it holds; everywhere else only the claim is checked.  So only
  the holder's own screen can differ, and p2ptable's terminal asks the same
  question either way (it never answers a window for a person), and a bot waits
  its think time before every answer (bots/seat.py), holding the card or not.

What remains, and every game that uses the pattern says so in its rules notes: a
person's own reaction time (someone who holds the card may hesitate).

A reaction that stays in effect for a while (Teacher's Pet's Hall Pass, shown in
front of its player until the end of the Period) is public state of the rules:
the card was revealed when it was played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from p2ptable.engine.api import Action
from p2ptable.engine.phases import Phased, SeatPhase

S = TypeVar("S", bound=Phased)

PASS = Action("pass")
REACT = "react"


def reaction_phase(
    window_seat: Callable[[S], int],
    hand: Callable[[S, int], Sequence[int | None]],
    is_reaction: Callable[[int], bool],
    on_pass: Callable[[S, int], S],
    on_react: Callable[[S, int, int, int], S],
) -> SeatPhase[S]:
    """The phase of one open reaction window.

    ``window_seat(s)``: the seat whose window is open (public state; the game's
    decider returns it too); ``hand(s, seat)``: that seat's hand as this state
    knows it (``None`` for a card it cannot see); ``is_reaction(card)``: whether a
    card may be played in this window; ``on_pass(s, seat)`` and
    ``on_react(s, seat, slot, card)``: the state after the seat passed or played
    its card (closing its window, opening the next or going on).
    """

    def choices(s: S) -> list[Action]:
        seat = window_seat(s)
        known = [
            Action(REACT, (slot, card))
            for slot, card in enumerate(hand(s, seat))
            if card is not None and is_reaction(card)
        ]
        return [PASS, *known]

    def check(s: S, seat: int, action: Action) -> str | None:
        if action == PASS:
            return None
        if action.verb != REACT or len(action.args) != 2:
            return "a reaction window takes `pass` or `react <slot> <card>`"
        slot, card = action.args
        cards = hand(s, seat)
        if not 0 <= slot < len(cards):
            return f"there is no slot {slot} in a hand of {len(cards)}"
        if not is_reaction(card):
            return f"card {card} cannot be played in this window"
        known = cards[slot]
        if known is not None and known != card:  # unknown (None): its proof checks it
            return f"slot {slot} does not hold card {card}"
        return None

    return SeatPhase(
        choices,
        {
            "pass": lambda s, seat, action: on_pass(s, seat),
            REACT: lambda s, seat, action: on_react(s, seat, *action.args),
        },
        check,
    )


def reaction_played(action: Action) -> tuple[int, int] | None:
    """``(slot, card)`` of a reaction card played (for ``hand_card_played``)."""
    if action.verb == REACT and len(action.args) == 2:
        return action.args[0], action.args[1]
    return None
