"""An in-memory link joining SealedSeat machines: whole tables, no sockets, no sleeps.

``run()`` delivers frames and steps the seats until all are quiet.  With ``rng`` it
delivers frames in a random order and interleaves work at random, which is every
order a real network with per-link delays could produce and more.  ``filter`` sees
every (sender, target, frame) and returns the frames to deliver instead (none to
drop it, two to duplicate it, changed bytes to tamper with it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import p2ptable.sealed as sd
from p2ptable.sealed.table_protocol import Phase, SealedSeat

GAME_ID = bytes(range(32))

Filter = Callable[[int, int, bytes], list[bytes]]


def make_seats(
    seats: int = 3, cards: int = 12, hand: int = 3, turns=None, seed: bytes = b"t", **kw
) -> list[SealedSeat]:
    if turns is None:
        turns = tuple(range(seats))  # one reveal each, in seat order
    return [
        SealedSeat(
            GAME_ID, s, seats, range(cards), hand, sd.SeededRandom(seed + bytes([s])),
            turns=turns, **kw,
        )
        for s in range(seats)
    ]  # fmt: skip


class Link:
    def __init__(self, seats: list[SealedSeat], filter: Filter | None = None) -> None:
        self.seats = seats
        self.queue: list[tuple[int, int, bytes]] = []
        self.filter = filter
        self.events: dict[int, list] = {m.seat: [] for m in seats}
        self.sent: list[tuple[int, bytes]] = []  # every frame made, before the filter

    def collect(self) -> None:
        for m in self.seats:
            for dest, frame in m.take_outgoing():
                self.sent.append((m.seat, frame))
                targets = (
                    [t.seat for t in self.seats if t.seat != m.seat] if dest is None else [dest]
                )
                for target in targets:
                    for data in self.filter(m.seat, target, frame) if self.filter else [frame]:
                        self.queue.append((m.seat, target, data))
            self.events[m.seat].extend(m.take_events())

    def deliver(self, index: int = 0) -> None:
        sender, target, data = self.queue.pop(index)
        self.seats[target].receive(sender, data)

    def work(self, m: SealedSeat, reveal: Callable[[SealedSeat], int]) -> bool:
        if m.step():
            return True
        if m.my_turn:
            m.reveal(reveal(m))
            return True
        return False

    def run(
        self,
        rng: random.Random | None = None,
        reveal: Callable[[SealedSeat], int] = lambda m: 0,
        limit: int = 100_000,
    ) -> dict[int, list]:
        for _ in range(limit):
            self.collect()
            if rng is not None and rng.random() < 0.5:
                m = rng.choice(self.seats)
                if self.work(m, reveal):
                    continue
            if self.queue:
                self.deliver(rng.randrange(len(self.queue)) if rng else 0)
                continue
            if not any([self.work(m, reveal) for m in self.seats]):
                break
        else:
            raise AssertionError("the table did not settle")
        self.collect()
        return self.events


def of_type(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def settled(seats: list[SealedSeat]) -> set[Phase]:
    return {m.phase for m in seats}
