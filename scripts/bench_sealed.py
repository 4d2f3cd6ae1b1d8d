#!/usr/bin/env python3
"""Cost of a hidden-hand game's sealed deck, on the path games use, in one process.

Measures, for 6 seats and the largest deck a game deals (Vorsicht Lehrer!'s 58-card
school deck), the calls a peer makes in play: the ledger (replay/ledger.py) with its
sealed book (replay/sealed_book.py), entries written as a seat writes them
(replay/authoring.py), every message drawing its randomness from ``sealed_rand``:

  * shuffle: one seat's ``shuffle`` entry made (the proof and the signature,
    ``authoring.shuffle_entry``), and checked from its bytes (decoding, the
    signature, every point, the proof: ``Ledger.append``), for each of the 6 seats
    in turn;
  * set-up deal: Vorsicht Lehrer!'s own (4 cards to each seat, one ``open``):
    every seat's signed part made, each other seat's part checked as it arrives
    (``evidence.part_problem``), then the bundle appended (every part's signature
    and proofs again, the peer's own hand read), as seat 0's peer does live;
  * deal of 42: 7 cards to each of the 6 seats as one open, on the same shuffled
    deck, through the sealed book: every seat's part (shares with proofs) made,
    each other part checked as it arrives, then the whole open checked and
    applied (one reader's hand read);
  * reveal: the proof of one hand card made, and checked (``SealedBook``).

Every figure is the median over ``--repeat`` rounds (the shuffle figures over 6
shuffles a round).  The *speed check*, the fixed pure-Python loop of
scripts/bench_latency.py (best of 5), is timed before every round and after the
last; each figure is also printed as a multiple of its median, so figures taken on
different days or machines compare as ratios.  The live figures between 6 peer
processes come from ``scripts/bench_latency.py --game vorsicht-lehrer``.

Usage: scripts/bench_sealed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.engine.api import normalize_options  # noqa: E402
from p2ptable.games import get_game  # noqa: E402
from p2ptable.games.vorsicht_lehrer.state import full_school_deck  # noqa: E402
from p2ptable.replay import authoring  # noqa: E402
from p2ptable.replay.entries import Entry  # noqa: E402
from p2ptable.replay.evidence import part_problem  # noqa: E402
from p2ptable.replay.ledger import Ledger  # noqa: E402
from p2ptable.replay.sealed_book import SealedBook, sealed_rand  # noqa: E402
from p2ptable.sealed.deck import SealedState  # noqa: E402
from p2ptable.sealed.group import Rand  # noqa: E402

GAME = "vorsicht-lehrer"
SEATS, HAND = 6, 7
NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
T = TypeVar("T")


def speed_check() -> float:
    """Seconds for a fixed pure-Python loop (best of 5): the loop of
    scripts/bench_latency.py, so the figures of both scripts compare as ratios."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.perf_counter() - start)
    return best


def timed(fn: Callable[..., T], into: list[float], *args: object) -> T:
    start = time.perf_counter()
    result = fn(*args)
    into.append(time.perf_counter() - start)
    return result


class Round:
    """One table from its genesis to a dealt 42-card open, every step timed."""

    def __init__(self, seed: bytes) -> None:
        self.seats = [authoring.SeatSecrets.from_seed(seed, i) for i in range(SEATS)]
        opts = normalize_options(get_game(GAME), SEATS, {})
        genesis = authoring.local_genesis(GAME, opts, NAMES, self.seats, 64, seed[:16])
        # The peer of seat 0: it reads its own cards only.
        self.ledger = Ledger(genesis, readers={0: self.seats[0].deck})
        assert self.ledger.book is not None
        assert len(self.ledger.book.state.deck) == len(full_school_deck())

    def chance(self) -> None:
        """Resolve the chance steps due now (who starts), as every peer does."""
        ledger = self.ledger
        while ledger.expected().kind == "chance":
            pre = {s: authoring.reveal(ledger, s, self.seats[s]) for s in range(SEATS)}
            ledger.append(authoring.chance_entry(ledger, pre))

    def shuffles(self, prove: list[float], verify: list[float]) -> int:
        size = 0
        for seat in range(SEATS):
            self.chance()
            mine = self.seats[seat]
            entry = timed(authoring.shuffle_entry, prove, self.ledger, seat, mine)
            data = entry.encode()
            size = len(data)
            timed(lambda d: self.ledger.append(Entry.decode(d)), verify, data)
        return size

    def setup_deal(self, make: list[float], check: list[float], append: list[float]) -> int:
        ledger = self.ledger
        self.chance()
        expected = ledger.expected()
        assert expected.kind == "open", expected
        parts = timed(
            lambda: {s: authoring.part_entry(ledger, s, self.seats[s]) for s in range(SEATS)},
            make,
        )
        for seat in range(1, SEATS):  # as seat 0's peer: every other part on arrival
            problem = timed(lambda s=seat: part_problem(ledger, s, parts[s].body["msg"]), check)
            assert problem is None, problem
        bundle = authoring.bundle_entry(ledger, parts).encode()
        timed(lambda: ledger.append(Entry.decode(bundle)), append)
        return len(expected.targets)

    def big_deal(
        self, state: SealedState, make: list[float], check: list[float], apply: list[float]
    ) -> SealedBook:
        """42 cards, 7 to each seat, as one open on the shuffled deck ``state``."""
        ledger = self.ledger
        book = SealedBook.new(ledger.game_id, ledger.book.table.keys, {0: self.seats[0].deck})
        book = replace(book, state=state)
        to = tuple(s for _ in range(HAND) for s in range(SEATS))

        def rand(seat: int) -> Rand:
            return sealed_rand(self.seats[seat].deck, ledger.game_id, ledger.head, "open")

        parts = timed(
            lambda: [
                book.make_part("open", to, s, self.seats[s].deck, rand(s)) for s in range(SEATS)
            ],
            make,
        )
        for seat in range(1, SEATS):  # as seat 0's peer: every other part on arrival
            timed(lambda s=seat: book.check_part("open", to, s, parts[s]), check)
        book, _ = timed(lambda: book.apply_open(to, parts), apply)
        assert len(book.hand(0)) == HAND
        return book

    def reveal(self, book: SealedBook, make: list[float], check: list[float]) -> None:
        secret = self.seats[0].deck
        card = book.hand(0)[0]
        rand = sealed_rand(secret, book.table.game_id, b"", "reveal bench")
        value = timed(lambda: book.make_reveal(0, secret, 0, rand), make)
        timed(lambda: book.apply_reveal(0, 0, card, value), check)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = max(1, parser.parse_args().repeat)
    names = [
        "check",
        "shuffle-prove",
        "shuffle-verify",
        "setup-make",
        "setup-check",
        "setup-append",
        "deal-make",
        "deal-check",
        "deal-apply",
        "reveal-make",
        "reveal-check",
    ]
    t: dict[str, list[float]] = {name: [] for name in names}
    size = setup_cards = 0
    for r in range(repeat):
        t["check"].append(speed_check())
        game = Round(b"bench-sealed/%d" % r + bytes(16))
        size = game.shuffles(t["shuffle-prove"], t["shuffle-verify"])
        shuffled = game.ledger.book.state
        setup_cards = game.setup_deal(t["setup-make"], t["setup-check"], t["setup-append"])
        book = game.big_deal(shuffled, t["deal-make"], t["deal-check"], t["deal-apply"])
        game.reveal(book, t["reveal-make"], t["reveal-check"])
    t["check"].append(speed_check())
    med = {name: statistics.median(values) for name, values in t.items()}
    base = med["check"]
    cards = len(full_school_deck())

    def row(label: str, name: str, note: str = "") -> None:
        ms = med[name] * 1000
        print(f"  {label:<44} {ms:8.2f} ms  {med[name] / base:7.2f} x check  {note}".rstrip())

    print(f"sealed deck on the game path: {SEATS} seats, {cards}-card school deck ({GAME})")
    print(f"  {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"  medians of {repeat} rounds; speed check {base * 1e3:.1f} ms")
    row(f"shuffle {cards}: make the entry (prove, sign)", "shuffle-prove", f"({size} bytes)")
    row(f"shuffle {cards}: check the entry (append)", "shuffle-verify")
    per = setup_cards // SEATS
    row(f"set-up deal {setup_cards} ({per} each): make every part", "setup-make")
    row(f"set-up deal {setup_cards}: check one arriving part", "setup-check")
    row(f"set-up deal {setup_cards}: append the bundle", "setup-append")
    row(f"deal {SEATS * HAND} ({HAND} each): make every part", "deal-make")
    row(f"deal {SEATS * HAND}: check one part", "deal-check")
    row(f"deal {SEATS * HAND}: check and apply the open", "deal-apply")
    row("reveal: make the proof", "reveal-make")
    row("reveal: check it", "reveal-check")
    shuffle_cpu = SEATS * (med["shuffle-prove"] + SEATS * med["shuffle-verify"])
    deal_cpu = SEATS * (
        med["deal-make"] / SEATS + (SEATS - 1) * med["deal-check"] + med["deal-apply"]
    )
    setup_cpu = SEATS * (
        med["setup-make"] / SEATS + (SEATS - 1) * med["setup-check"] + med["setup-append"]
    )
    print("CPU of a 6-peer table (every peer checks every entry and every part):")
    for label, cpu in (
        ("shuffle phase: 6 proofs, 36 checks", shuffle_cpu),
        (f"set-up deal {setup_cards}: 6 parts, 30 checks, 6 opens", setup_cpu),
        ("ready for the first move: the two above", shuffle_cpu + setup_cpu),
        (f"deal {SEATS * HAND}: 6 parts, 30 checks, 6 opens", deal_cpu),
    ):
        print(f"  {label:<44} {cpu * 1000:8.1f} ms  {cpu / base:7.1f} x check")


if __name__ == "__main__":
    main()
