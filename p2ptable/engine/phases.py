"""One phase table per game: the shared driver behind pending/legal_actions/apply/resolve.

How it works: a game's state has a ``phase`` name, and the game's table maps each
name to what happens there.  A :class:`SeatPhase` is decided by one seat: it lists
the legal actions and has a handler per verb (and, for games with hidden cards, an
optional ``check`` that accepts an action the state cannot list, such as playing a
card the state only knows as a claim).  A :class:`ChancePhase` describes its chance
step and how an outcome applies.  A :class:`TogetherPhase` is decided by several
seats at once (a secret simultaneous choice: the log commits every choice before
any is revealed).  ``None`` means the game is over.

:class:`PhaseTable` turns a table into the four functions of the rules API, with
errors that name the phase, the seat and the action, so every game refuses moves
the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from p2ptable.engine.api import (
    Action,
    Chance,
    ChanceStep,
    Decision,
    GameOver,
    IllegalAction,
    Simultaneous,
    Turn,
)


class Phased(Protocol):
    """A state a phase table can drive: it names its phase."""

    @property
    def phase(self) -> str: ...


S = TypeVar("S", bound=Phased)
Handler = Callable[[Any, int, Action], Any]


@dataclass(frozen=True)
class SeatPhase(Generic[S]):
    """A phase one seat decides: its legal actions and a handler per verb.

    ``check`` (optional) replaces "the action is in ``choices``": it returns why an
    action is refused, or None to accept it.  ``forced``: the rules, not the
    seat, decide (its one legal action, such as handing over the card a blind
    pick chose): ``pending`` says ``Turn(seat, forced=True)``.
    """

    choices: Callable[[S], list[Action]]
    verbs: Mapping[str, Callable[[S, int, Action], S]]
    check: Callable[[S, int, Action], str | None] | None = None
    forced: bool = False


@dataclass(frozen=True)
class ChancePhase(Generic[S]):
    """A phase chance decides: the step to resolve and how its outcome applies."""

    step: Callable[[S], ChanceStep]
    resolve: Callable[[S, tuple[int, ...]], S]


@dataclass(frozen=True)
class TogetherPhase(Generic[S]):
    """A phase several seats decide at once, none seeing another's choice.

    ``seats`` says who still has to choose; ``choices`` lists one seat's legal
    actions, which must not depend on what another seat chose (the state does
    not change until every choice is revealed: the log keeps them committed
    and hidden, replay/ledger.py); ``verbs`` apply one seat's choice.  The log
    applies the choices after the last one is revealed, in seat order, so a
    handler records its seat's choice and the last one moves the game on.
    """

    seats: Callable[[S], frozenset[int]]
    choices: Callable[[S, int], list[Action]]
    verbs: Mapping[str, Callable[[S, int, Action], S]]


Phase = SeatPhase[S] | ChancePhase[S] | TogetherPhase[S] | None


def _refusal(name: str, seat: int, action: Action, why: str) -> IllegalAction:
    return IllegalAction(f"phase {name}: seat {seat} may not {action.text!r}: {why}")


# ``Turn`` values are immutable, so ``pending`` hands out one per seat instead of
# building a new one every call (it is asked after every move, by every peer).  Only
# for a plain int: ``True == 1``, but ``Turn(True)`` does not print as ``Turn(1)``.
_TURNS: tuple[Turn, ...] = tuple(Turn(seat) for seat in range(16))


def _turn(seat: int) -> Turn:
    if type(seat) is int and 0 <= seat < len(_TURNS):
        return _TURNS[seat]
    return Turn(seat)


@dataclass(frozen=True)
class PhaseTable(Generic[S]):
    """The rules API for a state with a ``phase`` attribute and a table of phases."""

    phases: Mapping[str, Phase[S]]
    decider: Callable[[S], int | None]  # the seat that decides a seat phase

    def pending(self, s: S) -> Decision:
        """Whose decision it is: a seat, chance, or nobody (the game is over)."""
        phase = self.phases[s.phase]
        if phase is None:
            return GameOver()
        if isinstance(phase, ChancePhase):
            return Chance(phase.step(s))
        if isinstance(phase, TogetherPhase):
            return Simultaneous(phase.seats(s))
        seat = self.decider(s)
        assert seat is not None
        return Turn(seat, forced=True) if phase.forced else _turn(seat)

    def legal_actions(self, s: S, seat: int) -> tuple[Action, ...]:
        """The actions ``seat`` may take now (empty unless it is that seat's decision)."""
        phase = self.phases[s.phase]
        if isinstance(phase, TogetherPhase):
            return tuple(phase.choices(s, seat)) if seat in phase.seats(s) else ()
        if not isinstance(phase, SeatPhase) or seat != self.decider(s):
            return ()
        return tuple(phase.choices(s))

    def apply(self, s: S, seat: int, action: Action) -> S:
        """The state after ``seat`` takes ``action``; IllegalAction if it may not."""
        name = s.phase
        phase = self.phases[name]
        if isinstance(phase, TogetherPhase):
            if seat not in phase.seats(s):
                raise _refusal(name, seat, action, "this seat has chosen, or is not asked")
            legal = phase.choices(s, seat)
            if action not in legal or action.verb not in phase.verbs:
                legal_now = ", ".join(a.text for a in legal)
                raise _refusal(name, seat, action, f"legal now: {legal_now}")
            return phase.verbs[action.verb](s, seat, action)
        if not isinstance(phase, SeatPhase):
            why = "no seat decides now" if phase is None else "chance must be resolved first"
            raise _refusal(name, seat, action, why)
        decider = self.decider(s)
        if seat != decider:
            raise _refusal(name, seat, action, f"it is seat {decider}'s decision")
        verbs = phase.verbs
        if action.verb not in verbs:
            raise _refusal(name, seat, action, f"this phase allows only {', '.join(verbs)}")
        if phase.check is not None:
            refused = phase.check(s, seat, action)
            if refused is not None:
                raise _refusal(name, seat, action, refused)
        else:
            legal = phase.choices(s)
            if action not in legal:
                legal_now = ", ".join(a.text for a in legal)
                raise _refusal(name, seat, action, f"legal now: {legal_now}")
        return verbs[action.verb](s, seat, action)

    def resolve(self, s: S, outcome: tuple[int, ...]) -> S:
        """The state after the pending chance step came out as ``outcome``."""
        name = s.phase
        phase = self.phases[name]
        if not isinstance(phase, ChancePhase):
            raise IllegalAction(f"phase {name}: chance may not act: no chance step is pending")
        try:
            phase.step(s).check(outcome)
        except ValueError as error:
            raise IllegalAction(f"phase {name}: chance outcome rejected: {error}") from None
        return phase.resolve(s, outcome)
