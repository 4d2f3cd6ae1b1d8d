"""A tiny hidden-hand game of blind steals, for testing the blind pick before
Teacher's Pet's Bully depends on it.

2 to 6 seats, cards 0 .. 3n-1 dealt face down from a sealed deck, 3 to each.  On
a turn a seat plays a hand card face up (``play <slot> <card>``, scoring its
number) or, at most ``STEALS`` times in a game, steals from another seat that
holds a card (``steal <seat>``).  A steal is a blind pick: chance picks one of
the victim's hand positions (``ChanceStep("pick", ...)``, commit-reveal between
peers), never the victim; then the victim hands that card over face down
(``give <slot>``), a forced move with its transfer proof, and the card goes last
into the taker's hand.  A played card goes face up onto a discard pile; at most
``FISHES`` times in a game a seat may instead take the top discard into its hand
(``fish``): a known card into a hidden hand, which it can play again later with
the same proof as a dealt card (as Teacher's Pet's Cheat takes an Assignment).
The game ends when every hand is empty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from p2ptable.engine.api import Action, Chance, ChanceStep, GameOver, IllegalAction, Outcome, Turn

HAND = 3
STEALS = 4
FISHES = 3


@dataclass(frozen=True)
class StealState:
    seats: int
    deck: tuple[int | None, ...]
    hands: tuple[tuple[int | None, ...], ...]
    dealing: tuple[int, ...]
    current: int = 0
    scores: tuple[int, ...] = ()
    steals: int = 0
    stealing: tuple[int, int] | None = None  # (taker, victim) while a pick is pending
    picked: int | None = None  # the slot chance picked, to be handed over
    discard: tuple[int, ...] = ()  # played cards, face up, the top last
    fishes: int = 0

    def with_hand(self, seat: int, hand: tuple) -> StealState:
        return replace(self, hands=self.hands[:seat] + (hand,) + self.hands[seat + 1 :])


class StealGame:
    name = "toy-steal"
    title = "Toy Steal"
    hidden_hands = True
    min_seats, max_seats = 2, 6
    options = ()

    def initial(self, seats: int, options) -> StealState:  # noqa: ANN001
        deck = tuple(range(HAND * seats))
        return StealState(seats, deck, ((),) * seats, tuple(range(seats)) * HAND,
                          scores=(0,) * seats)  # fmt: skip

    def pending(self, s: StealState):  # noqa: ANN201
        if s.dealing:
            return Chance(ChanceStep("deal", "deal", (len(s.deck),), seat=s.dealing[0]))
        if s.picked is not None:
            return Turn(s.stealing[1], forced=True)  # type: ignore[index]
        if s.stealing is not None:
            victim = s.stealing[1]
            return Chance(ChanceStep("pick", "steal", (len(s.hands[victim]),), seat=victim))
        if not any(s.hands):
            return GameOver()
        return Turn(s.current)

    def legal_actions(self, s: StealState, seat: int) -> tuple[Action, ...]:
        decision = self.pending(s)
        if not isinstance(decision, Turn) or decision.seat != seat:
            return ()
        if s.picked is not None:
            return (Action("give", (s.picked,)),)
        plays = [Action("play", (k, c)) for k, c in enumerate(s.hands[seat]) if c is not None]
        steals = [
            Action("steal", (v,))
            for v in range(s.seats)
            if v != seat and s.hands[v] and s.steals < STEALS
        ]
        fish = [Action("fish")] if s.discard and s.fishes < FISHES else []
        return tuple(plays + steals + fish)

    def _next_turn(self, s: StealState) -> StealState:
        s = replace(s, stealing=None, picked=None)
        nxt = (s.current + 1) % s.seats
        for _ in range(s.seats):
            if s.hands[nxt]:
                break
            nxt = (nxt + 1) % s.seats
        return replace(s, current=nxt)

    def apply(self, s: StealState, seat: int, action: Action) -> StealState:
        decision = self.pending(s)
        if not isinstance(decision, Turn) or decision.seat != seat:
            raise IllegalAction(f"seat {seat} may not act now")
        hand = s.hands[seat]
        if s.picked is not None:
            if action != Action("give", (s.picked,)):
                raise IllegalAction(f"chance picked slot {s.picked}: give {s.picked}")
            taker = s.stealing[0]  # type: ignore[index]
            s = s.with_hand(seat, hand[: s.picked] + hand[s.picked + 1 :])
            s = s.with_hand(taker, (*s.hands[taker], hand[s.picked]))  # last, as sealed decks do
            return self._next_turn(s)
        if action.verb == "play" and len(action.args) == 2:
            slot, card = action.args
            if not 0 <= slot < len(hand) or (hand[slot] is not None and hand[slot] != card):
                raise IllegalAction(f"slot {slot} does not hold {card}")
            if not 0 <= card < HAND * s.seats:
                raise IllegalAction(f"no card {card}")
            scores = list(s.scores)
            scores[seat] += card
            s = s.with_hand(seat, hand[:slot] + hand[slot + 1 :])
            s = replace(s, scores=tuple(scores), discard=(*s.discard, card))
            return self._next_turn(s)
        if action == Action("fish") and action in self.legal_actions(s, seat):
            s = s.with_hand(seat, (*hand, s.discard[-1]))  # known to every state
            return self._next_turn(replace(s, discard=s.discard[:-1], fishes=s.fishes + 1))
        if action in self.legal_actions(s, seat) and action.verb == "steal":
            return replace(s, stealing=(seat, action.args[0]), steals=s.steals + 1)
        raise IllegalAction(f"no such action {action.text}")

    def resolve(self, s: StealState, outcome: tuple[int, ...]) -> StealState:
        if s.dealing:
            card = s.deck[outcome[0]]
            s = replace(s, deck=s.deck[: outcome[0]] + s.deck[outcome[0] + 1 :])
            return self._dealt(s, card)
        return replace(s, picked=outcome[0])  # the blind pick

    def _dealt(self, s: StealState, card: int | None) -> StealState:
        seat = s.dealing[0]
        return replace(s.with_hand(seat, (*s.hands[seat], card)), dealing=s.dealing[1:])

    # HiddenHands
    def face_down(self, s: StealState) -> tuple[int | None, ...]:
        return s.deck

    def deal_from_sealed(self, s: StealState, card: int | None) -> StealState:
        return self._dealt(replace(s, deck=(None,) * (len(s.deck) - 1)), card)

    def hand_card_played(self, s: StealState, seat: int, action: Action):  # noqa: ANN201
        return (action.args[0], action.args[1]) if action.verb == "play" else None

    def hand_card_given(self, s: StealState, seat: int, action: Action):  # noqa: ANN201
        if action.verb == "give" and s.stealing is not None:
            return action.args[0], s.stealing[0]
        return None

    def hand_card_taken(self, s: StealState, seat: int, action: Action) -> int | None:
        return s.discard[-1] if action == Action("fish") else None

    def given_card_seen(self, s: StealState, seat: int, card: int) -> StealState:
        return s.with_hand(seat, (*s.hands[seat][:-1], card))

    def hand_shuffled(self, s: StealState, seat: int, hand: tuple) -> StealState:
        return s.with_hand(seat, tuple(hand))

    def view(self, s: StealState, seat: int | None) -> dict[str, Any]:
        return {
            "hand": None if seat is None else list(s.hands[seat]),
            "hand_sizes": [len(h) for h in s.hands],
            "scores": list(s.scores),
            "stealing": s.stealing,
            "picked": s.picked,
            "discard": list(s.discard),
        }

    def outcome(self, s: StealState) -> Outcome | None:
        if not isinstance(self.pending(s), GameOver):
            return None
        best = max(s.scores)
        return Outcome(s.scores, tuple(i for i, x in enumerate(s.scores) if x == best), "most")

    def describe(self, s: StealState, seat: int, action: Action) -> str:
        return action.text

    def describe_chance(self, s: StealState, outcome: tuple[int, ...]) -> str:
        if s.dealing:
            return f"a card is dealt to seat {s.dealing[0]}"
        return f"chance picks position {outcome[0]} of seat {s.stealing[1]}'s hand"  # type: ignore[index]

    def rules_notes(self) -> str:
        return "Toy Steal (a test game)."


GAME = StealGame()
