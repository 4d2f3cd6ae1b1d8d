"""A tiny hidden-hand game for testing what no registered game does yet: a hand card
given face down from one seat to another (Teacher's Pet's Bully will need it).

3 seats, cards 0..8, two dealt to each.  On a turn a seat plays a hand card face up
(``play <slot> <card>``) or, at most ``GIVES`` times in a game, gives one face down
to the next seat (``give <slot>``).  After each play one card is drawn face up from
the deck onto the table (a face-up draw from a sealed deck), while the deck lasts.
The game ends after ``PLAYS`` plays; a seat scores the sum of the cards it played.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from p2ptable.engine.api import (
    Action,
    Chance,
    ChanceStep,
    GameOver,
    IllegalAction,
    Outcome,
    Turn,
)

CARDS = tuple(range(9))
HAND = 2
PLAYS = 4
GIVES = 3


@dataclass(frozen=True)
class ToyState:
    seats: int
    deck: tuple[int | None, ...]
    hands: tuple[tuple[int | None, ...], ...]
    dealing: tuple[int, ...]
    current: int = 0
    played: tuple[tuple[int, int], ...] = ()  # (seat, card)
    gives: int = 0
    table: tuple[int, ...] = ()  # cards drawn face up
    drawing: bool = False

    def with_hand(self, seat: int, hand: tuple) -> ToyState:
        return replace(self, hands=self.hands[:seat] + (hand,) + self.hands[seat + 1 :])


class ToyPass:
    name = "toy-pass"
    title = "Toy Pass"
    hidden_hands = True
    min_seats = 3
    max_seats = 3
    options = ()

    def initial(self, seats, options):
        return ToyState(seats, CARDS, ((),) * seats, tuple(range(seats)) * HAND)

    def pending(self, s):
        if s.dealing:
            return Chance(ChanceStep("deal", "deal", (len(s.deck),), seat=s.dealing[0]))
        if s.drawing:
            return Chance(ChanceStep("deal", "table", (len(s.deck),), seat=None))
        if len(s.played) >= PLAYS or not any(s.hands):
            return GameOver()
        return Turn(s.current)

    def legal_actions(self, s, seat):
        if self.pending(s) != Turn(seat):
            return ()
        hand = s.hands[seat]
        plays = [Action("play", (i, c)) for i, c in enumerate(hand) if c is not None]
        gives = [Action("give", (i,)) for i in range(len(hand))] if s.gives < GIVES else []
        return tuple(plays + gives)

    def _after_turn(self, s: ToyState) -> ToyState:
        nxt = (s.current + 1) % s.seats
        for _ in range(s.seats):  # skip empty hands
            if s.hands[nxt]:
                break
            nxt = (nxt + 1) % s.seats
        return replace(s, current=nxt)

    def apply(self, s, seat, action):
        if self.pending(s) != Turn(seat):
            raise IllegalAction("not your turn")
        hand = s.hands[seat]
        slot = action.args[0] if action.args else -1
        if not 0 <= slot < len(hand):
            raise IllegalAction(f"no slot {slot}")
        if action.verb == "play" and len(action.args) == 2:
            card = action.args[1]
            if hand[slot] is not None and hand[slot] != card:
                raise IllegalAction(f"slot {slot} does not hold {card}")
            s = s.with_hand(seat, hand[:slot] + hand[slot + 1 :])
            s = replace(s, played=(*s.played, (seat, card)), drawing=bool(s.deck))
            return self._after_turn(s)
        if action.verb == "give" and len(action.args) == 1 and s.gives < GIVES:
            to = (seat + 1) % s.seats
            s = s.with_hand(seat, hand[:slot] + hand[slot + 1 :])
            s = s.with_hand(to, (*s.hands[to], hand[slot]))  # last, as sealed decks do
            return self._after_turn(replace(s, gives=s.gives + 1))
        raise IllegalAction(f"no such action {action.text}")

    def resolve(self, s, outcome):
        card = s.deck[outcome[0]]
        s = replace(s, deck=s.deck[: outcome[0]] + s.deck[outcome[0] + 1 :])
        return self._dealt(s, card)

    def _dealt(self, s, card):
        if s.drawing:
            return replace(s, table=(*s.table, card), drawing=False)
        seat = s.dealing[0]
        return replace(s.with_hand(seat, (*s.hands[seat], card)), dealing=s.dealing[1:])

    # HiddenHands
    def face_down(self, s):
        return s.deck

    def deal_from_sealed(self, s, card):
        return self._dealt(replace(s, deck=(None,) * (len(s.deck) - 1)), card)

    def hand_card_played(self, s, seat, action):
        return (action.args[0], action.args[1]) if action.verb == "play" else None

    def hand_card_given(self, s, seat, action):
        return (action.args[0], (seat + 1) % s.seats) if action.verb == "give" else None

    def given_card_seen(self, s, seat, card):
        return s.with_hand(seat, (*s.hands[seat][:-1], card))

    def view(self, s, seat) -> dict[str, Any]:
        hands = [list(h) if i == seat else len(h) for i, h in enumerate(s.hands)]
        return {
            "hands": hands,
            "played": list(s.played),
            "table": list(s.table),
            "deck_left": len(s.deck),
        }

    def outcome(self, s):
        if not isinstance(self.pending(s), GameOver):
            return None
        scores = tuple(sum(c for p, c in s.played if p == seat) for seat in range(s.seats))
        best = max(scores)
        return Outcome(scores, tuple(i for i, v in enumerate(scores) if v == best))

    def describe(self, s, seat, action):
        return action.text

    def describe_chance(self, s, outcome):
        return "a card is dealt"

    def rules_notes(self):
        return __doc__ or ""


GAME = ToyPass()
