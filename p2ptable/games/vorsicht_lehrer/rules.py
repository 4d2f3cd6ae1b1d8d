"""Vorsicht Lehrer!'s rules as pure transition functions.

Theory of operation
-------------------
The state (``state.py``) carries a ``phase``.  Each phase is decided either by chance
or by one seat (``state.decider``), never both; ``TABLE`` (after the handlers) lists
them all.  A game runs:

1. ``setup-first`` (chance): "The older player start the game" -- software cannot
   know ages, so a fair roll over the seats picks the first player (a rematch
   names it instead, the option ``first``: no roll).
2. ``setup-deal`` (chance, once per card): 4 cards to each seat, one at a time in seat
   order from the first player.  Every deal is ``ChanceStep("deal", "deal", (cards
   left,), seat=s)``.  In a one-process simulation its outcome indexes the *sorted*
   deck; between peers a sealed deck answers it instead (``deal_from_sealed``), and
   the deck becomes face-down cards (``None``) that no state can name.
3. A turn, for ``current``:

   ``turn``       the seat plays ``play <slot> <card>``: it names the card it plays
                  and where it sits in its hand.  The card goes face up to the
                  discards and the patience pawn advances by its patience points.
   ``choose``     ``take`` (the card's negative points) or ``risk``;
   ``risk``       (chance) 3 dice: a sum >= the risk number escapes, else 2 x negative;
   ``refill``     (chance) one card is dealt to the seat, back up to 4 (an empty deck
                  is first replaced by the shuffled discards);
   ``teacher``    (chance) only if the pawn reached or passed a black marker during the
                  turn: the top teacher card is drawn face up from the sorted teacher
                  deck (an empty one is first replaced by the teacher discards).  Its
                  patience points move the pawn; then, if it has negative points,
   ``teacher-together``: every seat chooses ``take`` or ``risk`` at once, in
                  secret (an ``engine.phases.TogetherPhase``: the log commits
                  every choice before any is revealed, replay/choices.py); then,
                  from the active player clockwise, each seat takes its negative
                  points or makes its throw (``teacher-risk``, chance), the game
                  ending at once if a token reaches the end field;
                  then a detention star moves everybody on a black field to the next.
                  (Option ``teacher-choices=in-turn``, the rule of replays made
                  before protocol 2: ``teacher-choose`` / ``teacher-risk``, every
                  seat in turn from the active player, seeing the earlier choices
                  and throws.)

   Then the next seat clockwise plays.  At most one teacher card per turn: the
   teacher card's own patience points never reveal a second one (no chain).
4. ``over``: as soon as the patience pawn or any token reaches the end field, "the
   game ends immediately", whatever step of the turn it was; ``_finish_if_over`` is
   called after every move of the pawn or a token.

Why the teacher card's choices are made at once (RULES.md, "Teacher cards"): the
rulebook gives negative points "to all ... unless each player attempt a risk
throw": every player decides for themselves on the same card.  Asked one after
another, a later player would see whether the earlier ones escaped before
choosing, which the table does not have when everyone decides at once, so the
choices are secret and simultaneous; the throws then follow in the order of play.

A played card is checked as a *claim*: ``play <slot> <card>`` is accepted when the
slot exists and the card at that slot, if this state knows it, is that card.  With
sealed decks other peers hold ``None`` for the cards they cannot see, and the sealed
deck's reveal proof checks the claim (``hand_card_played`` tells it what to check).

Nothing here draws a random number, prints or reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from p2ptable.engine.api import FIRST, FIRST_PLAYER, Action, ChanceStep
from p2ptable.engine.frozen import replace
from p2ptable.engine.phases import ChancePhase, Phase, PhaseTable, SeatPhase, TogetherPhase
from p2ptable.games.vorsicht_lehrer.cards import SCHOOL, TEACHER, SchoolCard, TeacherCard
from p2ptable.games.vorsicht_lehrer.state import (
    HAND_SIZE,
    MARKER_STEP,
    Throw,
    VorsichtLehrerState,
    full_school_deck,
    full_teacher_deck,
    markers,
    with_throw,
)

State = VorsichtLehrerState


# -- set-up -----------------------------------------------------------------------------


def initial(seats: int, options: Mapping[str, str]) -> State:
    """The classroom before set-up chance; ``options`` must already be normalized."""
    s = State(
        seats=seats,
        track=int(options["track"]),
        teacher_mode=options["teacher-choices"],
        phase="setup-first",
        deck=full_school_deck(),
        hands=((),) * seats,
        tokens=(0,) * seats,
        teacher_deck=full_teacher_deck(),
    )
    if FIRST not in options:
        return s
    # A rematch names the first player (RULES.md, "The first player"): no roll.
    return _resolve_first(s, (int(options[FIRST]),))


def _resolve_first(s: State, outcome: tuple[int, ...]) -> State:
    first = outcome[0]
    order = tuple((first + i) % s.seats for i in range(s.seats))
    return replace(s, phase="setup-deal", current=first, dealing=order * HAND_SIZE)


def _deal_step(s: State) -> ChanceStep:
    seat = s.dealing[0] if s.phase == "setup-deal" else s.current
    return ChanceStep("deal", "deal", (len(s.deck),), seat=seat)


def _deal(s: State, seat: int, index: int) -> State:
    """Deal deck[index] (of the sorted deck) face down to ``seat``."""
    card = s.deck[index]
    s = replace(s, deck=s.deck[:index] + s.deck[index + 1 :])
    return s.with_hand(seat, (*s.hands[seat], card))


def _deal_face_down(s: State, seat: int, card: int | None) -> State:
    """The top card of the sealed deck goes to ``seat``: this state learns it only if
    it may see it (``card``), and the deck is now cards nobody can name."""
    s = replace(s, deck=(None,) * (len(s.deck) - 1))
    return s.with_hand(seat, (*s.hands[seat], card))


def _after_setup_deal(s: State) -> State:
    s = replace(s, dealing=s.dealing[1:])
    return s if s.dealing else _start_turn(s, s.current)


def _resolve_setup_deal(s: State, outcome: tuple[int, ...]) -> State:
    return _after_setup_deal(_deal(s, s.dealing[0], outcome[0]))


def deal_from_sealed(s: State, card: int | None) -> State:
    """Resolve the pending deal with the sealed deck's card (None: not ours to see)."""
    if s.phase == "setup-deal":
        return _after_setup_deal(_deal_face_down(s, s.dealing[0], card))
    if s.phase == "refill":
        assert s.current is not None
        return _after_refill(_deal_face_down(s, s.current, card))
    raise ValueError(f"no deal is pending in phase {s.phase!r}")


def hand_card_played(s: State, seat: int, action: Action) -> tuple[int, int] | None:
    """``(slot, card)`` for ``play <slot> <card>``: the claim the sealed deck proves."""
    if action.verb == "play" and len(action.args) == 2:
        return action.args[0], action.args[1]
    return None


# -- a turn -----------------------------------------------------------------------------


def _start_turn(s: State, seat: int | None) -> State:
    return replace(s, phase="turn", current=seat, turn_start=s.patience, played=None)


def _finish_if_over(s: State) -> State | None:
    """ "The game ends immediately, as soon as the patience thread or a colored token
    has moved on or over the field" at the end of the track."""
    if s.patience >= s.track or any(t >= s.track for t in s.tokens):
        return replace(s, phase="over", current=None, deciding=(), dealing=(), chosen=())
    return None


def _check_play(s: State, seat: int, action: Action) -> str | None:
    """Why ``play <slot> <card>`` is refused, or None: the claim must fit the hand."""
    if len(action.args) != 2:
        return "play takes a slot and a card"
    slot, card = action.args
    hand = s.hands[seat]
    if not 0 <= slot < len(hand):
        return f"there is no slot {slot} in a hand of {len(hand)}"
    if not 0 <= card < len(SCHOOL):
        return f"there is no school card {card}"
    known = hand[slot]
    if known is not None and known != card:  # unknown (None): a proof will check it
        return f"slot {slot} does not hold card {card}"
    return None


def _play(s: State, seat: int, action: Action) -> State:
    slot, card = action.args
    hand = s.hands[seat]
    s = s.with_hand(seat, hand[:slot] + hand[slot + 1 :])
    s = replace(
        s,
        discard=tuple(sorted((*s.discard, card))),
        played=card,
        patience=s.patience + SCHOOL[card].patience,
    )
    return _finish_if_over(s) or replace(s, phase="choose")


def _negatives(s: State, seat: int, points: int) -> State:
    return s.with_token(seat, s.tokens[seat] + points)


def _take(s: State, seat: int, action: Action) -> State:
    assert s.played is not None
    s = _negatives(s, seat, SCHOOL[s.played].negative)
    return _finish_if_over(s) or _to_refill(s)


def _risk(s: State, seat: int, action: Action) -> State:
    return replace(s, phase="risk")


def _throw_step(s: State) -> ChanceStep:
    return ChanceStep("roll", "risk", (6, 6, 6), seat=s.decider)


def throw_result(risk: int, negative: int, outcome: tuple[int, ...]) -> tuple[int, int]:
    """(sum of the dice, negative points) for a risk throw: "If the sum of the numbers
    shown by dices is at least as high as the risk throw number, it has escaped";
    otherwise "twice the number of the negative points"."""
    total = sum(outcome) + len(outcome)  # each outcome value 0..5 is a die showing 1..6
    return total, (0 if total >= risk else 2 * negative)


def _thrown(s: State, seat: int, card: SchoolCard | TeacherCard, outcome: tuple[int, ...]) -> State:
    """``seat``'s risk throw against ``card``: its negative points, and the throw kept
    for the screens (``state.throws``)."""
    _, points = throw_result(card.risk, card.negative, outcome)
    throw = Throw(seat, tuple(v + 1 for v in outcome), card.risk, points)
    return _negatives(replace(s, throws=with_throw(s.throws, throw)), seat, points)


def _resolve_risk(s: State, outcome: tuple[int, ...]) -> State:
    assert s.played is not None and s.current is not None
    s = _thrown(s, s.current, SCHOOL[s.played], outcome)
    return _finish_if_over(s) or _to_refill(s)


def _to_refill(s: State) -> State:
    """Refill the hand to 4; an empty deck is first replaced by the discards."""
    assert s.current is not None
    if len(s.hands[s.current]) >= HAND_SIZE:
        return _after_refill(s)
    if not s.deck:  # the discards, face up and known, become the new deck
        s = replace(s, deck=s.discard, discard=())
    return replace(s, phase="refill")


def _resolve_refill(s: State, outcome: tuple[int, ...]) -> State:
    assert s.current is not None
    return _after_refill(_deal(s, s.current, outcome[0]))


def reached_marker(s: State) -> bool:
    """The pawn "has exactly reached or exceeded one of the black markers" this turn."""
    return any(s.turn_start < m <= s.patience for m in markers(s.track))


def _after_refill(s: State) -> State:
    if reached_marker(s):
        if not s.teacher_deck:
            s = replace(s, teacher_deck=tuple(sorted(s.teacher_discard)), teacher_discard=())
        return replace(s, phase="teacher")
    return _next_turn(s)


def _next_turn(s: State) -> State:
    assert s.current is not None
    return _start_turn(replace(s, teacher=None), (s.current + 1) % s.seats)


# -- the teacher card -------------------------------------------------------------------


def _resolve_teacher(s: State, outcome: tuple[int, ...]) -> State:
    index = outcome[0]
    card = TEACHER[s.teacher_deck[index]]
    s = replace(
        s,
        teacher_deck=s.teacher_deck[:index] + s.teacher_deck[index + 1 :],
        teacher_discard=(*s.teacher_discard, card.id),
        teacher=card.id,
        patience=s.patience + card.patience,  # no chain: markers are not checked again
    )
    over = _finish_if_over(s)
    if over is not None:
        return over
    if card.negative:
        assert s.current is not None
        order = tuple((s.current + i) % s.seats for i in range(s.seats))
        phase = "teacher-together" if s.teacher_mode == "together" else "teacher-choose"
        return replace(s, phase=phase, deciding=order)
    return _detention(s)


def _still_choosing(s: State) -> frozenset[int]:
    """The seats whose secret choice on the teacher card is not in yet."""
    return frozenset(s.deciding) - {seat for seat, _ in s.chosen}


def _teacher_chose(s: State, seat: int, action: Action) -> State:
    """One seat's secret choice; the log applies them all at once, in seat order,
    and the last one carries them out."""
    s = replace(s, chosen=tuple(sorted((*s.chosen, (seat, action.verb)))))
    return _carry_out_choices(s) if not _still_choosing(s) else s


def _carry_out_choices(s: State) -> State:
    """From the active player clockwise: negative points for a seat that took
    them, or its risk throw (a chance step; this walk goes on after it)."""
    assert s.teacher is not None
    chosen = dict(s.chosen)
    while s.deciding:
        seat = s.deciding[0]
        if chosen[seat] == "risk":
            return replace(s, phase="teacher-risk")
        s = _negatives(s, seat, TEACHER[s.teacher].negative)
        over = _finish_if_over(s)
        if over is not None:
            return over
        s = replace(s, deciding=s.deciding[1:])
    return _detention(s)


def _teacher_take(s: State, seat: int, action: Action) -> State:
    assert s.teacher is not None
    s = _negatives(s, seat, TEACHER[s.teacher].negative)
    return _finish_if_over(s) or _next_decider(s)


def _teacher_risk(s: State, seat: int, action: Action) -> State:
    return replace(s, phase="teacher-risk")


def _resolve_teacher_risk(s: State, outcome: tuple[int, ...]) -> State:
    assert s.teacher is not None
    s = _thrown(s, s.deciding[0], TEACHER[s.teacher], outcome)
    over = _finish_if_over(s)
    if over is not None:
        return over
    if s.chosen:  # chosen together: on to the next seat's negatives or throw
        return _carry_out_choices(replace(s, deciding=s.deciding[1:]))
    return _next_decider(s)


def _next_decider(s: State) -> State:
    s = replace(s, deciding=s.deciding[1:])
    return replace(s, phase="teacher-choose") if s.deciding else _detention(s)


def _detention(s: State) -> State:
    """The star: "Anyone who is on a black field at this time ... has to go to the next
    black field"; from the last marker that is the end field."""
    assert s.teacher is not None
    if TEACHER[s.teacher].detention:
        black = set(markers(s.track))
        s = replace(s, tokens=tuple(t + MARKER_STEP if t in black else t for t in s.tokens))
        over = _finish_if_over(s)
        if over is not None:
            return over
    return _next_turn(replace(s, deciding=(), chosen=()))


# -- which actions exist ----------------------------------------------------------------


def _play_choices(s: State) -> list[Action]:
    assert s.current is not None
    return [
        Action("play", (slot, card))
        for slot, card in enumerate(s.hands[s.current])
        if card is not None
    ]


def _take_or_risk(s: State) -> list[Action]:
    return [Action("take"), Action("risk")]


def _take_or_risk_for(s: State, seat: int) -> list[Action]:
    return _take_or_risk(s)


# -- THE TABLE: every phase, who decides it, and what may happen in it -------------------

Handler = Callable[[State, int, Action], State]


TABLE: dict[str, Phase] = {
    "setup-first": ChancePhase(
        lambda s: ChanceStep("roll", FIRST_PLAYER, (s.seats,)), _resolve_first
    ),
    "setup-deal": ChancePhase(_deal_step, _resolve_setup_deal),
    "turn": SeatPhase(_play_choices, {"play": _play}, _check_play),
    "choose": SeatPhase(_take_or_risk, {"take": _take, "risk": _risk}),
    "risk": ChancePhase(_throw_step, _resolve_risk),
    "refill": ChancePhase(_deal_step, _resolve_refill),
    "teacher": ChancePhase(
        lambda s: ChanceStep("draw", "teacher-card", (len(s.teacher_deck),)), _resolve_teacher
    ),
    "teacher-together": TogetherPhase(
        _still_choosing, _take_or_risk_for, {"take": _teacher_chose, "risk": _teacher_chose}
    ),
    "teacher-choose": SeatPhase(_take_or_risk, {"take": _teacher_take, "risk": _teacher_risk}),
    "teacher-risk": ChancePhase(_throw_step, _resolve_teacher_risk),
    "over": None,
}


# -- the public functions ---------------------------------------------------------------

RULES: PhaseTable[State] = PhaseTable(TABLE, decider=lambda s: s.decider)
pending = RULES.pending
legal_actions = RULES.legal_actions
apply = RULES.apply
resolve = RULES.resolve
