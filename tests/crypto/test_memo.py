"""The stores of work already done (crypto/memo.py) under threads.

A process may hold several peers, each in its thread (the in-memory tables of
tests/net), and every one of them signs, checks signatures, parses points and
checks proofs through the process's one store of each.  Once a store is full, each
new item evicts the oldest: two threads evicting at once took the same oldest key
and the second ``pop`` raised KeyError, which stopped that peer's session as a bug
of ours and left the others waiting for it.  That was the hang of a table of
in-process peers (tests/net/test_keep_going_table.py) seen on four test workers,
only in a worker whose earlier tests had filled a store: reproduced with the stores
made small and the threads switched often (a peer ended with 70, the others waited,
17 of 40 tables), from the signature store and the parsed points alike.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from p2ptable.crypto import memo, signing
from p2ptable.crypto.signing import SigningKey, verify_signature
from p2ptable.sealed import group, proofs
from p2ptable.sealed.group import base_mul, decode_point

THREADS = 4
ROUNDS = 20_000  # each thread's insertions, each of them evicting: many tries at the race
LIMIT = 8


@contextmanager
def switching_often() -> Iterator[None]:
    """Threads switched as often as the interpreter can, so a race shows."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def at_once(work: Callable[[int], None]) -> None:
    """``work(thread)`` in THREADS threads started together; any error raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(thread: int) -> None:
        try:
            start.wait()
            work(thread)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    with switching_often():
        threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors[:3]


def test_threads_that_insert_at_once_into_a_full_store_never_fail_nor_overfill_it():
    store: dict[bytes, None] = {}

    def work(thread: int) -> None:
        for n in range(ROUNDS):
            memo.remember(store, bytes([thread]) + n.to_bytes(4, "big"), None, LIMIT)
            assert len(store) <= LIMIT

    at_once(work)
    assert len(store) == LIMIT


def test_the_oldest_goes_first():
    store: dict[int, str] = {}
    for n in range(5):
        memo.remember(store, n, str(n), 3)
    assert store == {2: "2", 3: "3", 4: "4"}


def test_signing_and_checking_in_threads_at_once(monkeypatch):
    monkeypatch.setattr(signing, "_KNOWN_GOOD", {})
    monkeypatch.setattr(signing, "_KNOWN_GOOD_MAX", LIMIT)
    keys = [SigningKey(bytes([i + 1]) * 32) for i in range(THREADS)]

    def work(thread: int) -> None:
        key = keys[thread]
        for n in range(300):
            message = n.to_bytes(4, "big")
            assert verify_signature(key.public, key.sign(message), message)
        for n in range(ROUNDS):  # what sign and verify note, alone: many tries
            signing._remember(bytes([thread]) + n.to_bytes(4, "big"))

    at_once(work)


@pytest.mark.parametrize("store", ["points", "proofs"])
def test_the_sealed_deck_s_stores_in_threads_at_once(monkeypatch, store):
    if store == "points":
        monkeypatch.setattr(group, "_PARSED", {})
        monkeypatch.setattr(group, "_PARSED_MAX", LIMIT)
        encoded = [base_mul(k + 1).to_bytes() for k in range(4 * LIMIT)]

        def add(thread: int, n: int) -> None:
            point = encoded[(n + thread) % len(encoded)]
            assert decode_point(point).to_bytes() == point
    else:
        seen = proofs.KnownGood(LIMIT)

        def add(thread: int, n: int) -> None:
            seen.add(bytes([thread]) + n.to_bytes(4, "big"))

    at_once(lambda thread: [add(thread, n) for n in range(ROUNDS)] and None)
