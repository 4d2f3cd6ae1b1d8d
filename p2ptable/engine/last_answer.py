"""The last answer of a pure rules function, kept by the identity of its state.

A seat's legal actions are asked several times at one position: by its bot or
its screen to choose, then by the session to check the move before signing it
(net/session.py), and by the ledger for a forced move.  The rules' states are
immutable, so an answer for the very same state object and seat is the same
answer; keeping the last one turns the repeats into an identity test.  The state
is held with its answer, so its identity cannot be taken by another object while
the answer is kept.  One slot, replaced whole (a tuple), so threads sharing it
(peers of one process) read either the old answer or the new one, never a mix.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

R = TypeVar("R")


class LastAnswer(Generic[R]):
    """``rules(state, seat)``, remembered for the last state object and seat asked."""

    __slots__ = ("_last", "_rules")

    def __init__(self, rules: Callable[[Any, int], R]) -> None:
        self._rules = rules
        self._last: tuple[Any, int, R] | None = None

    def __call__(self, state: Any, seat: int) -> R:
        last = self._last
        if last is not None and last[0] is state and last[1] == seat:
            return last[2]
        answer = self._rules(state, seat)
        self._last = (state, seat, answer)
        return answer
