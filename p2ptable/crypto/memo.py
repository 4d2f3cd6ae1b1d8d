"""Bounded stores of work already done, shared by every thread of the process.

Checking a signature, parsing a point or checking a proof costs curve arithmetic;
the same ones come again and again (our own move going into our ledger, a share in
its part and in the open that bundles it, a whole log in ``verify``'s second
pass), so each module keeps what it found good in a dict of bounded size, the
oldest evicted first.  A process may hold several peers, each in its thread (a
table of in-process peers, tests/net), all using the one store: two threads
evicting at once took the same oldest key and the second failed, which stopped
that peer as a bug of ours (tests/crypto/test_memo.py).  So every insertion is made
here, under one lock; a lookup (``key in store``, ``store.get(key)``) needs none.
"""

from __future__ import annotations

import threading
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

_LOCK = threading.Lock()


def remember(store: dict[K, V], key: K, value: V, limit: int) -> None:
    """``store[key] = value``, the oldest entries evicted first so that the store
    never holds more than ``limit``; safe while other threads do the same."""
    with _LOCK:
        while len(store) >= limit:
            del store[next(iter(store))]
        store[key] = value
