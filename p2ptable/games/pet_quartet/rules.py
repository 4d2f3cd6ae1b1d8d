"""Pet Quartet's rules as pure transition functions.

Theory of operation
-------------------
The state (``state.py``) carries a ``phase``.  Each phase is decided either by chance
or by one seat (``state.current``, the seat whose turn it is), never both:

* chance phases (the driver supplies the outcome, see ``engine.api.ChanceStep``):

  ``setup-tiles``  Maestro only: one tile per Conductor, picked without replacement
                   from the six tiles in their canonical order (``TILES``).
  ``setup-first``  "Choose someone to be the first player": a fair roll over the seats.
                   (A rematch names it instead, the option ``first``: no roll.)
  ``draw``         the card just drawn, as an index into the *sorted* deck.
  ``bonus-draw``   the Maestro "draw a random card from the deck and keep it".

* seat phases, with the verbs each allows, are the rows of ``TABLE`` (after the handlers,
  before the public functions); ``legal_actions`` lists the concrete actions and ``apply`` refuses
  anything else with an ``IllegalAction`` naming the phase, the seat and the action.

A normal turn is ``turn`` → (``draw`` → chance ``draw`` → ``place``) or ``take``.
Taking a Conductor may pass through a tile's own phase (``return-from-pile``,
``return-collected``, ``bonus-draw``, ``pass-left``); placing under the
take-after-place tile leads to ``after-place``.  Every turn ends in ``_end_turn``, the
one place that decides what comes next:

1. if the round is over (every Conductor taken; Duet: both players took one), Duet
   leftovers are discarded face up and, unless the game end was triggered, a new round
   starts with the seat that took last;
2. once the last card has been drawn (``triggered_by``), the drawer's turn ends and each
   seat takes one ``final`` turn, from the drawer's left round to the drawer, whether
   out for the round or not; then the phase is ``over``;
3. otherwise the next seat clockwise that is not out for the round plays.

Nothing here draws a random number, prints or reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from operator import attrgetter

from p2ptable.engine.api import (
    FIRST,
    FIRST_PLAYER,
    Action,
    BadOptions,
    ChanceStep,
)
from p2ptable.engine.frozen import replace
from p2ptable.engine.phases import ChancePhase, Phase, PhaseTable, SeatPhase
from p2ptable.games.pet_quartet.state import (
    CONDUCTOR_LIMIT,
    HIGHEST_VALUE,
    TILES,
    Conductor,
    PetQuartetState,
    add_cards,
    remove_card,
    replaced,
    starting_conductors,
    starting_deck,
    with_draw,
)

State = PetQuartetState


# -- set-up -----------------------------------------------------------------------------


def initial(seats: int, options: Mapping[str, str]) -> State:
    """The table before set-up chance: deck prepared, empty Conductors.

    ``options`` must already be normalized (all names present, values checked).
    """
    variant, scoring = options["variant"], options["scoring"]
    if variant == "duet" and seats != 2:
        raise BadOptions(f"the duet variant is for 2 players, not {seats}")
    s = State(
        seats=seats,
        variant=variant,
        scoring=scoring,
        deck=starting_deck(seats, variant),
        conductors=starting_conductors(seats, variant),
        collections=((),) * seats,
        phase="setup-tiles" if variant == "maestro" else "setup-first",
    )
    if FIRST not in options:
        return s
    # A rematch names the first player (RULES.md, "The first player"): no roll.
    first = int(options[FIRST])
    if variant == "maestro":  # the tiles are still drawn, then the game begins
        return replace(s, current=first, round_starter=first)
    return _resolve_first(s, (first,))


def _tiles_step(s: State) -> ChanceStep:
    """One pick per Conductor among the tiles still unused: ranges (6, 5, 4, ...)."""
    return ChanceStep("shuffle", "maestro-tiles", tuple(len(TILES) - i for i in range(s.seats)))


def _resolve_tiles(s: State, outcome: tuple[int, ...]) -> State:
    unused, conductors = list(TILES), []
    for conductor, pick in zip(s.conductors, outcome, strict=True):
        tile = unused.pop(pick)
        limit = 2 if tile == "limit-2" else CONDUCTOR_LIMIT
        conductors.append(replace(conductor, tile=tile, limit=limit))
    # A first player already named (a rematch) plays now; else it is drawn.
    phase = "setup-first" if s.round_starter is None else "turn"
    return replace(s, conductors=tuple(conductors), phase=phase)


def _first_step(s: State) -> ChanceStep:
    # "Choose someone to be the first player": we choose fairly, by chance.
    return ChanceStep("roll", FIRST_PLAYER, (s.seats,))


def _resolve_first(s: State, outcome: tuple[int, ...]) -> State:
    return replace(s, phase="turn", current=outcome[0], round_starter=outcome[0])


# -- drawing and placing ------------------------------------------------------------------
#
# Every peer applies every move, and copying the state is most of what a move costs,
# so each handler gathers its changes and copies the state once (``_end_turn`` once
# more), rather than once per change.


def _take_from_deck(s: State, index: int) -> tuple[int, tuple[int, ...], int | None]:
    """deck[index], the deck without it, and ``triggered_by`` after the draw:
    drawing the last card triggers the end of the game."""
    deck = s.deck[:index] + s.deck[index + 1 :]
    triggered_by = s.current if not deck and s.triggered_by is None else s.triggered_by
    return s.deck[index], deck, triggered_by


def _draw(s: State, seat: int, action: Action) -> State:
    return replace(s, phase="draw")


@cache
def _draw_step(purpose: str, cards_left: int) -> ChanceStep:
    """The chance step drawing from a deck of ``cards_left`` (a value: built once)."""
    return ChanceStep("draw", purpose, (cards_left,))


def _resolve_draw(s: State, outcome: tuple[int, ...]) -> State:
    card, deck, triggered_by = _take_from_deck(s, outcome[0])
    assert s.current is not None
    draws = with_draw(s.draws, s.current, card)  # for the screens only
    return replace(
        s, deck=deck, triggered_by=triggered_by, phase="place", last_card=card, draws=draws
    )


def _place(s: State, seat: int, action: Action) -> State:
    (c,) = action.args
    assert s.last_card is not None
    conductor = s.conductors[c]
    placed = replace(conductor, cards=(*conductor.cards, s.last_card))
    conductors = replaced(s.conductors, c, placed)
    if conductor.tile == "take-after-place":
        return replace(s, conductors=conductors, last_card=None, phase="after-place", focus=c)
    return _end_turn(replace(s, conductors=conductors, last_card=None))


# -- taking a Conductor, with its tile --------------------------------------------------


def _take(s: State, seat: int, action: Action) -> State:
    """Take Conductor c: it is marked taken at once; its tile may ask a choice first."""
    (c,) = action.args
    conductor = s.conductors[c]
    if conductor.tile == "return-from-pile":
        phase = "return-from-pile"
    elif conductor.tile == "return-collected" and s.collections[seat]:
        phase = "return-collected"
    else:
        return _collect(s, seat, c, conductor)
    taken = replace(conductor, taken_by=seat)
    return replace(s, conductors=replaced(s.conductors, c, taken), focus=c, phase=phase)


def _return_from_pile(s: State, seat: int, action: Action) -> State:
    (value,) = action.args
    assert s.focus is not None
    conductor = s.conductors[s.focus]
    pile = replace(conductor, cards=remove_card(conductor.cards, value))
    return _collect(replace(s, returned=add_cards(s.returned, [value])), seat, s.focus, pile)


def _return_collected(s: State, seat: int, action: Action) -> State:
    (value,) = action.args
    assert s.focus is not None
    focus = s.focus  # the replace below keeps it
    collections = replaced(s.collections, seat, remove_card(s.collections[seat], value))
    s = replace(s, collections=collections, returned=add_cards(s.returned, [value]))
    return _collect(s, seat, focus, s.conductors[focus])


def _collect(s: State, seat: int, c: int, pile: Conductor) -> State:
    """Move Conductor c's ``pile`` into the seat's collection, the Conductor taken by
    the seat, then the tile's after-effect."""
    collection = add_cards(s.collections[seat], pile.cards)
    s = replace(
        s,
        conductors=replaced(s.conductors, c, replace(pile, cards=(), taken_by=seat)),
        collections=replaced(s.collections, seat, collection),
    )
    if pile.tile == "bonus-draw" and s.deck:
        return replace(s, phase="bonus-draw", focus=c)
    if pile.tile == "pass-left" and collection:
        return replace(s, phase="pass-left", focus=c)
    return _end_turn(s)


def _resolve_bonus(s: State, outcome: tuple[int, ...]) -> State:
    card, deck, triggered_by = _take_from_deck(s, outcome[0])
    assert s.current is not None
    collections = replaced(s.collections, s.current, add_cards(s.collections[s.current], [card]))
    draws = with_draw(s.draws, s.current, card)  # for the screens only
    return _end_turn(
        replace(s, deck=deck, triggered_by=triggered_by, collections=collections, draws=draws)
    )


def _give(s: State, seat: int, action: Action) -> State:
    (value,) = action.args
    left = (seat + 1) % s.seats
    collections = replaced(s.collections, seat, remove_card(s.collections[seat], value))
    collections = replaced(collections, left, add_cards(collections[left], [value]))
    return _end_turn(replace(s, collections=collections))


def _done(s: State, seat: int, action: Action) -> State:
    """``decline`` and ``pass``: nothing happens but the end of the turn."""
    return _end_turn(s)


# -- the end of a turn, a round, the game -----------------------------------------------


def _round_over(s: State, takers: set[int | None]) -> bool:
    """``takers`` is every Conductor's ``taken_by`` (``None`` while one is free)."""
    if s.variant == "duet":
        return len(takers - {None}) == s.seats
    return None not in takers


def _end_turn(s: State) -> State:
    """Decide what follows a finished turn (see the theory of operation).

    ``s`` holds the turn's own changes; what follows is one more copy of it.
    """
    takers = {c.taken_by for c in s.conductors}  # the seats out, and None if one is free
    if _round_over(s, takers):  # only untaken (Duet) Conductors can still hold cards
        discarded = add_cards(s.discarded, [card for c in s.conductors for card in c.cards])
        if s.triggered_by is None:
            fresh = tuple(replace(c, cards=(), taken_by=None) for c in s.conductors)
            return replace(
                s,
                phase="turn",
                focus=None,
                conductors=fresh,
                discarded=discarded,
                round=s.round + 1,
                round_starter=s.current,
            )
        cleared = tuple(replace(c, cards=()) for c in s.conductors)
        s = replace(s, conductors=cleared, discarded=discarded)
    if s.triggered_by is not None:
        if s.final_turns is None:  # the drawer's own turn just ended
            remaining = tuple((s.triggered_by + 1 + i) % s.seats for i in range(s.seats))
        else:
            remaining = s.final_turns[1:]
        if not remaining:
            return replace(s, phase="over", focus=None, current=None, final_turns=())
        return replace(s, phase="final", focus=None, current=remaining[0], final_turns=remaining)
    return replace(s, phase="turn", focus=None, current=_next_seat(s, takers))


def _next_seat(s: State, out: set[int | None]) -> int:
    """The next seat clockwise after the current one that is not ``out``."""
    assert s.current is not None
    for k in range(1, s.seats + 1):  # a loop: on every turn, a generator costs more
        seat = (s.current + k) % s.seats
        if seat not in out:
            return seat
    raise AssertionError("every seat is out, yet the round is not over")


# -- which actions exist ----------------------------------------------------------------

# Actions are frozen values: the ones every turn offers are built once, here.  There
# is one Conductor per seat at most (Duet: 3 for 2 seats).
_MOST_CONDUCTORS = max(HIGHEST_VALUE)  # the most seats a game can have
_DRAW, _PASS, _DECLINE = Action("draw"), Action("pass"), Action("decline")
_TAKE = tuple(Action("take", (i,)) for i in range(_MOST_CONDUCTORS))
_PLACE = tuple(Action("place", (i,)) for i in range(_MOST_CONDUCTORS))

# The choices below are asked for on every turn by every peer, so they test inline,
# in one pass, whether a Conductor can be taken (free, with cards: "You may not take
# a Conductor without any cards beneath it.") and accepts a card (free, below its
# limit).


def _takes(s: State) -> list[Action]:
    return [_TAKE[i] for i, c in enumerate(s.conductors) if c.taken_by is None and c.cards]


def _turn_choices(s: State) -> list[Action]:
    # "If there is nowhere to place a card, you must instead take a Conductor."
    takes, can_place = [], False
    for i, c in enumerate(s.conductors):
        if c.taken_by is None:
            if c.cards:
                takes.append(_TAKE[i])
            if len(c.cards) < c.limit:
                can_place = True
    return [_DRAW, *takes] if can_place and s.deck else takes


def _place_choices(s: State) -> list[Action]:
    return [
        _PLACE[i]
        for i, c in enumerate(s.conductors)
        if c.taken_by is None and len(c.cards) < c.limit
    ]


def _after_place_choices(s: State) -> list[Action]:
    return [Action("take", (s.focus,)), _DECLINE] if s.focus is not None else []


def _pile_choices(s: State) -> list[Action]:
    cards = s.conductors[s.focus].cards if s.focus is not None else ()
    return [Action("return", (v,)) for v in sorted(set(cards))]


def _collection_choices(verb: str) -> Callable[[State], list[Action]]:
    def choices(s: State) -> list[Action]:
        cards = s.collections[s.current] if s.current is not None else ()
        return [Action(verb, (v,)) for v in sorted(set(cards))]

    return choices


def _final_choices(s: State) -> list[Action]:
    # "You are not required to take a pile on your last turn. You may choose to pass."
    return [*_takes(s), _PASS]


# -- THE TABLE: every phase, who decides it, and what may happen in it -------------------

Handler = Callable[[State, int, Action], State]


TABLE: dict[str, Phase] = {
    "setup-tiles": ChancePhase(_tiles_step, _resolve_tiles),
    "setup-first": ChancePhase(_first_step, _resolve_first),
    "turn": SeatPhase(_turn_choices, {"draw": _draw, "take": _take}),
    "draw": ChancePhase(lambda s: _draw_step("draw", len(s.deck)), _resolve_draw),
    "place": SeatPhase(_place_choices, {"place": _place}),
    "after-place": SeatPhase(_after_place_choices, {"take": _take, "decline": _done}),
    "return-from-pile": SeatPhase(_pile_choices, {"return": _return_from_pile}),
    "return-collected": SeatPhase(_collection_choices("return"), {"return": _return_collected}),
    "bonus-draw": ChancePhase(lambda s: _draw_step("maestro-draw", len(s.deck)), _resolve_bonus),
    "pass-left": SeatPhase(_collection_choices("give"), {"give": _give}),
    "final": SeatPhase(_final_choices, {"take": _take, "pass": _done}),
    "over": None,
}


# -- the public functions ---------------------------------------------------------------

RULES: PhaseTable[State] = PhaseTable(TABLE, decider=attrgetter("current"))
pending = RULES.pending
legal_actions = RULES.legal_actions
apply = RULES.apply
resolve = RULES.resolve
