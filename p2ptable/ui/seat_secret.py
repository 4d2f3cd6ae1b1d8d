"""A seat's own deck secret, from the secrets file next to its replay.

A live seat keeps ``REPLAY.secrets`` (net/persistence.py: readable only by its
owner) to resume.  Until the game is over the log holds no seat's deck secret
(each publishes its own at the end), so that file is the only way to read, from
the replay, what the seat itself knew: its own hand, the cards it was dealt, gave
and was given.  ``show --seat`` and ``export --seat --format html`` read it with
:func:`own_deck_secret`, which checks it against the seat's deck key in the signed
genesis before anything is read with it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.sealed.errors import SealedUsageError


class NoOwnSecret(Exception):
    """The seat's secret cannot be read: the message says why, as a clause ("no
    secrets file of Ben's is at game.p2pt.secrets")."""


def own_deck_secret(replay: str | Path, genesis: bytes, names: Sequence[str], seat: int) -> int:
    """Seat ``seat``'s deck secret from ``REPLAY.secrets``; NoOwnSecret unless the file
    is there, is that seat's, and its secret is behind the seat's deck key in
    ``genesis`` (the log's first entry, which the caller has checked)."""
    name = names[seat]
    path = Path(f"{replay}.secrets")
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        deck = int(saved["deck"], 16) if saved["seat"] == seat else None
    except (OSError, ValueError, KeyError, TypeError):
        raise NoOwnSecret(f"no secrets file of {name}'s is at {path}") from None
    if deck is None:
        raise NoOwnSecret(f"{path.name} is another seat's")
    try:
        Ledger(Entry.decode(genesis), readers={seat: deck})
    except (InvalidEntry, SealedUsageError, ValueError):
        raise NoOwnSecret(f"{path.name} is not {name}'s for this game") from None
    return deck
