"""The stand-in: what a seat that left a ``keep_going`` table does from then on
(issue 27; replay/departure.py, protocol/replay.md 9.7).

How it works
------------
After a ``departure`` the leaver's deck secret is in the log and its Ed25519
key is not, so nobody can sign for it, and nobody needs to: everything the
gone seat still does is a function of the log, which every peer computes and
every ledger checks byte for byte.

============  ===================================================================
the ledger    what the gone seat contributes
expects
============  ===================================================================
its action    the move of the table's default bot (its package's ``opponent``), its
              randomness seeded from the game id and the entry's ``prev``, over
              the *stand-in state*: the log read with the gone seats' secrets
              alone (never the computing peer's own), so every peer, and a
              verifier, makes the same move; its ``reveal`` and ``transfer``
              proofs made with the rebuilt secret and ``sealed_rand``.  The
              entry carries no signature.
its shuffle   the shuffle its secret's ``sealed_rand`` makes (unsigned)
its part of   its decryption shares (or its secret), made with the rebuilt
an open or    secret and ``sealed_rand``: in the bundle with an empty signature
the secrets
a chance step nothing: its item of ``pre`` is nil and its chain tip stays; the
              outcome comes from the staying seats' values
a secret      nothing is asked of it: its choice is the stand-in's over the
choice        state as it stood at the commits, applied with the others'
the result    nothing: the staying seats sign it
============  ===================================================================

When every seat but one has left, nobody is left to play against: there is no
stand-in, and the game ends at once (after the ``secrets`` entry, for the
audit) with the result its rules give the last player at the table
(:func:`alone_outcome`: the game's ``outcome_alone``, its RULES.md says how).

Each is the one entry a stand-in makes there, so :func:`gone_entry` is both how a
live peer makes it and how a ledger checks it (the ledger compares the bytes).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from p2ptable.engine.api import Action, Game, Outcome
from p2ptable.engine.playout import Policy, random_policy
from p2ptable.games import get_package
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, part_body
from p2ptable.replay.kinds import Kind
from p2ptable.replay.position import Expected
from p2ptable.replay.sealed_book import SealedBook, sealed_rand

SEED_DOMAIN = b"p2ptable/stand-in/v1\x00"


def stand_in_move(game: Game[Any], state: Any, seat: int, game_id: bytes, prev: bytes) -> Action:
    """The default bot's move for gone ``seat`` over the stand-in ``state``, its
    randomness from the game id and the position (the same on every peer)."""
    seed = hashlib.sha256(SEED_DOMAIN + game_id + prev + bytes([seat])).digest()
    bot = default_bot(game, random.Random(seed))
    return bot(game, state, seat)


def default_bot(game: Game[Any], rng: random.Random) -> Policy:
    """The table's default bot for ``game``: its package's ``opponent`` (what
    ``bots.opponent_for`` names and ``bots.make_bot`` makes; taken from the
    package here, as the log imports no people's layer), else random."""
    try:
        package = get_package(game.name)
    except KeyError:
        return random_policy(rng)  # a game that is not registered (a test's)
    factory = package.bots.get(package.opponent) or package.bots.get("greedy")
    return factory(rng) if factory is not None else random_policy(rng)


def gone_entry(ledger: authoring.Log, stand_in_state: Any, expected: Expected) -> Entry | None:
    """The entry gone seat ``expected.seat`` makes here (an action or a
    shuffle), unsigned; None when the entry expected is not a gone seat's own."""
    book = ledger.book
    seat = expected.seat
    if book is None or seat is None or seat not in book.gone:
        return None
    secret = book.readers[seat]
    if expected.kind == Kind.ACTION:
        move = stand_in_move(ledger.game, stand_in_state, seat, ledger.game_id, ledger.head)
        return Entry(authoring.action_body(ledger, seat, secret, move).encode(), ())
    if expected.kind == Kind.SHUFFLE:
        return Entry(authoring.shuffle_body(ledger, seat, secret, expected.hand).encode(), ())
    return None


def gone_part(
    book: SealedBook, game_id: bytes, prev: bytes, expected: Expected, seat: int
) -> dict[str, Any]:
    """Gone ``seat``'s part of the pending open (its decryption shares) or
    secrets (its secret), made with its rebuilt secret as it would have made it."""
    secret = book.readers[seat]
    rand = sealed_rand(secret, game_id, prev, expected.kind.value)
    return book.make_part(expected.kind, expected.targets, seat, secret, rand)


def stand_in_choices(
    game: Game[Any], state: Any, seats: tuple[int, ...], game_id: bytes, prev: bytes
) -> tuple[tuple[int, str], ...]:
    """The secret choices of the gone ``seats`` asked to choose together: each the
    stand-in's move over the stand-in ``state`` (seat, action text)."""
    return tuple((s, stand_in_move(game, state, s, game_id, prev).text) for s in seats)


def stand_in_part(ledger: authoring.Log, expected: Expected, seat: int) -> Entry:
    """Gone ``seat``'s part of the pending open or secrets entry, as a bundle
    holds it: its message with an empty signature (nobody signs for it)."""
    assert ledger.book is not None
    msg = gone_part(ledger.book, ledger.game_id, ledger.head, expected, seat)
    return Entry(part_body(ledger.next_index, ledger.head, seat, msg), ((seat, b""),))


def alone_outcome(game: Game[Any], state: Any, seat: int, seats: int) -> Outcome:
    """The result when ``seat`` is the last player at the table: the game's own
    ``outcome_alone(state, seat)`` (each game's RULES.md, "The end"), or, for a
    game without one, ``seat`` wins with no score counted."""
    rule = getattr(game, "outcome_alone", None)
    if rule is not None:
        return rule(state, seat)  # type: ignore[no-any-return]
    text = f"seat {seat} wins: the only player left at the table"
    return Outcome((0,) * seats, (seat,), text)
