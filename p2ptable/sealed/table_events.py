"""What a :class:`~p2ptable.sealed.table_protocol.SealedSeat` tells its driver.

How it works: the machine's phase is a :class:`Phase`; everything that happens is
an event, a small frozen value, taken with ``take_events()``.  Progress events
(``KeysReady``, ``Shuffled``, ``HandDealt``, ``Revealed``, ``Done``) come out in
the same order at every honest seat.  ``Rejected`` is input that was refused and
changed nothing (the table goes on); ``Cheated`` is a seat caught, after which the
machine stays in ``Phase.ERROR``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Phase(enum.Enum):
    KEYS = "keys"
    SHUFFLE = "shuffle"
    DEAL = "deal"
    PLAY = "play"
    END = "end"
    DONE = "done"
    ERROR = "error"


@dataclass(frozen=True)
class KeysReady:
    pass


@dataclass(frozen=True)
class Shuffled:
    seat: int


@dataclass(frozen=True)
class HandDealt:
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Revealed:
    seat: int
    card: int


@dataclass(frozen=True)
class Cheated:
    seat: int | None  # None: the seats' histories differ, and nobody can be named yet
    reason: str


@dataclass(frozen=True)
class Rejected:
    seat: int
    reason: str


@dataclass(frozen=True)
class Done:
    hands: tuple[tuple[int, ...], ...]  # every seat's hand as dealt, read with its secret


Event = KeysReady | Shuffled | HandDealt | Revealed | Cheated | Rejected | Done
