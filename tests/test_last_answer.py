"""The last answer of a rules function kept by its state's identity (engine/last_answer.py).

A seat's legal actions are asked by its bot, then by the session before it signs
the move: the second ask must not compute them again, and an ask about any other
state or seat must."""

from __future__ import annotations

import random
from dataclasses import dataclass

from p2ptable.engine.last_answer import LastAnswer
from p2ptable.engine.playout import random_policy
from p2ptable.games.pet_quartet import GAME, rules
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger


@dataclass(frozen=True)
class State:
    n: int


def test_the_same_state_and_seat_are_answered_without_asking_the_rules_again() -> None:
    asked: list[tuple[int, int]] = []

    def legal(state: State, seat: int) -> tuple[int, ...]:
        asked.append((state.n, seat))
        return (state.n, seat)

    memo = LastAnswer(legal)
    state = State(1)
    assert memo(state, 0) == memo(state, 0) == (1, 0)
    assert asked == [(1, 0)]
    assert memo(state, 1) == (1, 1)  # another seat
    assert memo(State(1), 1) == (1, 1)  # an equal state, but another object
    assert memo(state, 1) == (1, 1)
    assert asked == [(1, 0), (1, 1), (1, 1), (1, 1)]


def test_a_move_made_by_a_bot_computes_its_legal_actions_once(monkeypatch) -> None:
    """The bot asks, the session checks the move against the same answer."""
    calls = []
    real = rules.legal_actions

    def counted(state: object, seat: int) -> object:
        calls.append(seat)
        return real(state, seat)

    monkeypatch.setattr("p2ptable.games.pet_quartet._LEGAL_ACTIONS", LastAnswer(counted))
    seats = [authoring.SeatSecrets.from_seed(b"last", i, 64) for i in range(3)]
    genesis = authoring.local_genesis("pet-quartet", {}, ["A", "B", "C"], seats, 64, bytes(16))
    sessions = {i: Session(Ledger(genesis), i, seats[i], 0.0) for i in range(3)}
    net = MemoryNet(sessions)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    ledger = mover.ledger
    action = random_policy(random.Random(1))(GAME, ledger.state, mover.seat)
    mover.submit(action, net.now, advance=False)
    assert calls == [mover.seat]
