"""A tiny game of secret bids, for testing what no registered game does yet end
to end: several seats choosing at once, none seeing another's choice.

2 to 6 seats.  Each of ``ROUNDS`` rounds, every seat bids 1, 2 or 3 at once (an
``engine.phases.TogetherPhase``); the highest bid that nobody else made scores
its bid for its seat.  Then a die is rolled for who bids alone next round: the
seat it names skips the next round's bid (so the asked seats change).  Pure rules
on the engine's phase table, as a real game is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from p2ptable.engine.api import Action, ChanceStep, Outcome
from p2ptable.engine.phases import ChancePhase, PhaseTable, TogetherPhase

ROUNDS = 3
BIDS = (1, 2, 3)


@dataclass(frozen=True)
class BidState:
    seats: int
    phase: str = "bid"
    round: int = 0
    skipping: int | None = None  # the seat that does not bid this round
    bids: tuple[tuple[int, int], ...] = ()  # (seat, bid) chosen so far this round
    scores: tuple[int, ...] = ()


def _asked(s: BidState) -> frozenset[int]:
    done = {seat for seat, _ in s.bids}
    return frozenset(x for x in range(s.seats) if x != s.skipping and x not in done)


def _choices(s: BidState, seat: int) -> list[Action]:
    return [Action("bid", (b,)) for b in BIDS]


def _bid(s: BidState, seat: int, action: Action) -> BidState:
    s = replace(s, bids=(*s.bids, (seat, action.args[0])))
    if _asked(s):
        return s  # the log applies every choice, in seat order, then goes on
    made = [b for _, b in s.bids]
    alone = [(b, seat) for seat, b in s.bids if made.count(b) == 1]
    scores = list(s.scores)
    if alone:
        bid, winner = max(alone)
        scores[winner] += bid
    if s.round + 1 == ROUNDS:
        return replace(s, phase="over", bids=(), scores=tuple(scores))
    return replace(s, phase="roll", bids=(), scores=tuple(scores))


def _roll_step(s: BidState) -> ChanceStep:
    return ChanceStep("roll", "skip", (s.seats,))


def _resolve_roll(s: BidState, outcome: tuple[int, ...]) -> BidState:
    return replace(s, phase="bid", round=s.round + 1, skipping=outcome[0])


RULES: PhaseTable[BidState] = PhaseTable(
    {
        "bid": TogetherPhase(_asked, _choices, {"bid": _bid}),
        "roll": ChancePhase(_roll_step, _resolve_roll),
        "over": None,
    },
    decider=lambda s: None,
)


class BidGame:
    name = "secret-bids"
    title = "Secret bids"
    min_seats, max_seats = 2, 6
    options = ()

    def initial(self, seats: int, options) -> BidState:  # noqa: ANN001
        return BidState(seats, scores=(0,) * seats)

    def pending(self, s: BidState):  # noqa: ANN201
        return RULES.pending(s)

    def legal_actions(self, s: BidState, seat: int) -> tuple[Action, ...]:
        return RULES.legal_actions(s, seat)

    def apply(self, s: BidState, seat: int, action: Action) -> BidState:
        return RULES.apply(s, seat, action)

    def resolve(self, s: BidState, outcome: tuple[int, ...]) -> BidState:
        return RULES.resolve(s, outcome)

    def view(self, s: BidState, seat: int | None) -> dict:
        # What anyone may see: the scores and who is asked; never a bid made this
        # round (the log applies them all at once, so the state holds none until
        # every bid is revealed, and then the round is over).
        return {"round": s.round, "scores": list(s.scores), "asked": sorted(_asked(s))}

    def outcome(self, s: BidState) -> Outcome | None:
        if s.phase != "over":
            return None
        best = max(s.scores)
        winners = tuple(i for i, x in enumerate(s.scores) if x == best)
        return Outcome(tuple(s.scores), winners, "the most points")

    def describe(self, s: BidState, seat: int, action: Action) -> str:
        return f"bids {action.args[0]}"

    def describe_chance(self, s: BidState, outcome: tuple[int, ...]) -> str:
        return f"seat {outcome[0]} sits out the next round"

    def rules_notes(self) -> str:
        return "Secret bids (a test game)."


GAME = BidGame()
