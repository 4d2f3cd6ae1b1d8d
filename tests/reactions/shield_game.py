"""A tiny hidden-hand game of attacks and shields, for testing the reaction window
(engine/reactions.py) before Teacher's Pet depends on it.

2 to 6 seats, cards 0 .. 3n-1 dealt face down from a sealed deck, 3 to each.
Cards 0, 1 and 2 are shields, the others attacks worth their number.  On a turn the active seat
plays any hand card face up (``play <slot> <card>``); a shield played so is simply
discarded.  An attack opens a reaction window for each other seat in turn, from
the next one clockwise, whether or not it holds a shield (public state only), and
skipping a seat whose shield is already up: that seat passes or plays a shield
(``react <slot> <card>``), which blocks the attack, closes the remaining windows
and stays up in front of it, face up, until the attacker's next turn (public
state, as Teacher's Pet's Hall Pass).  An attack that no shield blocks scores its
number for the attacker.  The game ends when every hand is empty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from p2ptable.engine.api import Action, ChanceStep, Outcome
from p2ptable.engine.phases import ChancePhase, PhaseTable, SeatPhase
from p2ptable.engine.reactions import reaction_phase, reaction_played

SHIELDS = frozenset({0, 1, 2})
HAND = 3


@dataclass(frozen=True)
class ShieldState:
    seats: int
    phase: str
    deck: tuple[int | None, ...]
    hands: tuple[tuple[int | None, ...], ...]
    dealing: tuple[int, ...] = ()
    current: int = 0
    attack: tuple[int, int] | None = None  # (attacker, value) while windows are open
    windows: tuple[int, ...] = ()  # seats still to be asked, the next first
    # (seat, shield, attacker): a shield face up in front of a seat, until the
    # attacker's next turn
    up: tuple[tuple[int, int, int], ...] = ()
    scores: tuple[int, ...] = ()
    blocked: int = 0  # attacks blocked so far (public)

    @property
    def decider(self) -> int:
        return self.windows[0] if self.phase == "window" else self.current

    def with_hand(self, seat: int, hand: tuple) -> ShieldState:
        return replace(self, hands=self.hands[:seat] + (hand,) + self.hands[seat + 1 :])


def _deal_step(s: ShieldState) -> ChanceStep:
    return ChanceStep("deal", "deal", (len(s.deck),), seat=s.dealing[0])


def _dealt(s: ShieldState, card: int | None) -> ShieldState:
    seat = s.dealing[0]
    s = replace(s.with_hand(seat, (*s.hands[seat], card)), dealing=s.dealing[1:])
    return s if s.dealing else replace(s, phase="turn")


def _resolve_deal(s: ShieldState, outcome: tuple[int, ...]) -> ShieldState:
    card = s.deck[outcome[0]]
    return _dealt(replace(s, deck=s.deck[: outcome[0]] + s.deck[outcome[0] + 1 :]), card)


def _plays(s: ShieldState) -> list[Action]:
    hand = s.hands[s.current]
    return [Action("play", (slot, c)) for slot, c in enumerate(hand) if c is not None]


def _check_play(s: ShieldState, seat: int, action: Action) -> str | None:
    if len(action.args) != 2:
        return "play takes a slot and a card"
    slot, card = action.args
    hand = s.hands[seat]
    if not 0 <= slot < len(hand) or not 0 <= card < HAND * s.seats:
        return "no such slot or card"
    if hand[slot] is not None and hand[slot] != card:
        return f"slot {slot} does not hold card {card}"
    return None


def _next_turn(s: ShieldState) -> ShieldState:
    s = replace(s, attack=None, windows=())
    if not any(s.hands):
        return replace(s, phase="over")
    nxt = (s.current + 1) % s.seats
    while not s.hands[nxt]:
        nxt = (nxt + 1) % s.seats
    # A shield stays up until the turn of the seat whose attack it blocked comes again.
    return replace(s, phase="turn", current=nxt, up=tuple(u for u in s.up if u[2] != nxt))


def _play(s: ShieldState, seat: int, action: Action) -> ShieldState:
    slot, card = action.args
    s = s.with_hand(seat, s.hands[seat][:slot] + s.hands[seat][slot + 1 :])
    if card in SHIELDS:
        return _next_turn(s)
    guarded = {u[0] for u in s.up}
    order = [(seat + k) % s.seats for k in range(1, s.seats)]
    windows = tuple(x for x in order if x not in guarded)  # public: who is asked
    if len(windows) < len(order):  # a shield already up blocks it
        return _next_turn(replace(s, blocked=s.blocked + 1))
    return replace(s, phase="window", attack=(seat, card), windows=windows)


def _pass(s: ShieldState, seat: int) -> ShieldState:
    s = replace(s, windows=s.windows[1:])
    if s.windows:
        return s
    attacker, value = s.attack  # type: ignore[misc]
    scores = list(s.scores)
    scores[attacker] += value
    return _next_turn(replace(s, scores=tuple(scores)))


def _react(s: ShieldState, seat: int, slot: int, card: int) -> ShieldState:
    s = s.with_hand(seat, s.hands[seat][:slot] + s.hands[seat][slot + 1 :])
    attacker = s.attack[0]  # type: ignore[index]
    return _next_turn(replace(s, up=(*s.up, (seat, card, attacker)), blocked=s.blocked + 1))


RULES: PhaseTable[ShieldState] = PhaseTable(
    {
        "deal": ChancePhase(_deal_step, _resolve_deal),
        "turn": SeatPhase(_plays, {"play": _play}, _check_play),
        "window": reaction_phase(
            lambda s: s.windows[0],
            lambda s, seat: s.hands[seat],
            SHIELDS.__contains__,
            _pass,
            _react,
        ),  # fmt: skip
        "over": None,
    },
    decider=lambda s: s.decider,
)


class ShieldGame:
    name = "toy-shields"
    title = "Toy Shields"
    hidden_hands = True
    min_seats, max_seats = 2, 6
    options = ()

    def initial(self, seats: int, options) -> ShieldState:  # noqa: ANN001
        deck = tuple(range(HAND * seats))
        return ShieldState(
            seats, "deal", deck, ((),) * seats, tuple(range(seats)) * HAND, scores=(0,) * seats
        )

    pending = staticmethod(RULES.pending)
    legal_actions = staticmethod(RULES.legal_actions)
    apply = staticmethod(RULES.apply)
    resolve = staticmethod(RULES.resolve)

    # HiddenHands
    def face_down(self, s: ShieldState) -> tuple[int | None, ...]:
        return s.deck

    def deal_from_sealed(self, s: ShieldState, card: int | None) -> ShieldState:
        return _dealt(replace(s, deck=(None,) * (len(s.deck) - 1)), card)

    def hand_card_played(self, s: ShieldState, seat: int, action: Action):  # noqa: ANN201
        if action.verb == "play" and len(action.args) == 2:
            return action.args[0], action.args[1]
        return reaction_played(action)

    def hand_card_given(self, s, seat, action):  # noqa: ANN001, ANN201
        return None

    def given_card_seen(self, s, seat, card):  # noqa: ANN001, ANN201
        return s

    def view(self, s: ShieldState, seat: int | None) -> dict[str, Any]:
        return {
            "phase": s.phase,
            "hand": None if seat is None else list(s.hands[seat]),
            "hand_sizes": [len(h) for h in s.hands],
            "attack": s.attack,
            "windows": list(s.windows),
            "up": [[seat, card] for seat, card, _ in s.up],
            "scores": list(s.scores),
        }

    def outcome(self, s: ShieldState) -> Outcome | None:
        if s.phase != "over":
            return None
        best = max(s.scores)
        return Outcome(s.scores, tuple(i for i, x in enumerate(s.scores) if x == best), "most")

    def describe(self, s: ShieldState, seat: int, action: Action) -> str:
        return action.text

    def describe_chance(self, s: ShieldState, outcome: tuple[int, ...]) -> str:
        return f"a card is dealt to seat {s.dealing[0]}"

    def rules_notes(self) -> str:
        return "Toy Shields (a test game)."


GAME = ShieldGame()
