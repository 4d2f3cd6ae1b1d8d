"""The ``departure`` entry: a seat left a ``keep_going`` table, and the log
holds what rebuilds its deck secret (issue 27; protocol/sealed-decks.md
section 15, protocol/replay.md section 9.7).

How it works
------------
At a table whose genesis says ``keep_going``, every seat escrowed its deck
secret ``x_i`` among the others (replay/escrow_entries.py).  When a seat is
named as having abandoned the game, each seat still at the table opens its
share of the leaver's escrow and signs it alone, for the log position where
the game waits (a ``share`` body: ``{"of", "seat", "share"}`` with the index
and the previous hash).  Each share is checked against the escrow's Feldman
commitments (``share_is_right``): a false one is signed evidence against its
seat (``cheated``, replay/evidence.py).  When every staying seat's share is
in, every peer bundles the same ``departure`` entry:

========  =================================================================
field     what it holds
========  =================================================================
``of``    the seat that left
``seats`` the seats that signed a share, in seat order: every seat but the
          leaver and the seats already gone
``parts`` ``[share, signature]`` for each of ``seats`` (the signature over
          the ``share`` body rebuilt from the entry: :func:`share_body`)
========  =================================================================

A seat may also leave on purpose (``leave``, at its turn): then ``seats`` is
the leaver alone and its part is its own deck secret, signed by it and checked
against its deck key; nothing needs rebuilding (:func:`own_departure`).

A seat that left before holds a share too, and its own secret is public
(rebuilt by its own departure): its share of the new leaver's secret is
``unmask``-ed by anyone from ``x_j·E``, so it is not sent.  The entry carries
no signature of its own (its parts prove it), and may come at any position of
the game, as an abort may: the ledger checks it before what it expects next.

What the ledger checks (:func:`departure`): the table keeps going and every
escrow is in; the leaver is a seat not yet gone, and at least one seat stays (with
one left the game ends: replay/stand_in.py, ``outcome_alone``); ``seats`` is exactly the staying
seats; each part is signed by its seat and right against the commitments;
then the secret rebuilt (Lagrange at 0 over every holder's share) is checked
against the leaver's deck key of the genesis (``x_i·G = K_i``).  The book then
holds the leaver as gone, and reads its cards from then on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from p2ptable.engine.frozen import replace
from p2ptable.replay.entries import Entry, sign_body
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.escrow_entries import escrow_context
from p2ptable.replay.genesis import GenesisInfo
from p2ptable.replay.kinds import DepartureBody, Kind, ShareBody
from p2ptable.replay.position import Applied, Expected, Position
from p2ptable.replay.sealed_book import SealedBook
from p2ptable.replay.seat_secrets import SeatSecrets
from p2ptable.sealed import escrow as vss
from p2ptable.sealed.group import GroupError, base_mul, decode_scalar, scalar_bytes

# A seat may leave as long as one stays: with one left, its game ends at once with
# the result its rules give the last player at the table (replay/stand_in.py).
MIN_STAYING = 1


def staying(book: SealedBook, leaver: int) -> tuple[int, ...]:
    """The seats that sign a share of ``leaver``'s secret: every seat not gone
    but the leaver, in seat order."""
    return tuple(s for s in range(book.seats) if s != leaver and s not in book.gone)


def can_depart(book: SealedBook | None, leaver: int) -> bool:
    """Whether ``leaver`` can leave here with its secret rebuilt: a table that
    keeps going, every escrow in, the leaver not gone yet, and at least
    MIN_STAYING seat staying (each gone seat's share is public already)."""
    if book is None or book.escrows is None or len(book.escrows) < book.seats:
        return False
    if leaver in book.gone or not 0 <= leaver < book.seats:
        return False
    return len(staying(book, leaver)) >= MIN_STAYING


def share_body(index: int, prev: bytes, seat: int, leaver: int, share: bytes) -> bytes:
    """The bytes a staying seat signs for its share (and every verifier rebuilds)."""
    return ShareBody(index, prev, seat, leaver, share).encode()


def share_problem(
    game_id: bytes, book: SealedBook, seat: int, leaver: int, raw: bytes
) -> str | None:
    """What is wrong with ``seat``'s share ``raw`` of ``leaver``'s secret (or, from
    the leaver itself, with its own secret), or None."""
    if not can_depart(book, leaver):
        return f"seat {leaver} cannot leave here (no escrow to rebuild it, or too few stay)"
    if seat == leaver:  # leaving on purpose: its own secret
        try:
            secret = decode_scalar(raw)
        except GroupError as exc:
            return f"its deck secret is malformed: {exc}"
        if base_mul(secret) != book.table.keys[leaver]:
            return "published a deck secret that does not match its key"
        return None
    if seat not in staying(book, leaver):
        return f"seat {seat} holds no share to send for seat {leaver}"
    try:
        share = decode_scalar(raw)
    except GroupError as exc:
        return f"its share of seat {leaver}'s secret is malformed: {exc}"
    assert book.escrows is not None  # can_depart
    msg = book.escrows[leaver]
    if not vss.share_is_right(book.table.keys[leaver], msg, seat, share):
        return f"its share of seat {leaver}'s secret is false (off the escrow's commitments)"
    return None


def make_share(
    game_id: bytes,
    book: SealedBook,
    at: tuple[int, bytes],
    seat: int,
    secrets: SeatSecrets,
    leaver: int,
) -> Entry:
    """Our signed share of ``leaver``'s secret for the position ``at`` (index,
    previous hash): the same bytes whenever it is made there (no randomness)."""
    assert book.escrows is not None
    msg = book.escrows[leaver]
    share = vss.open_share(escrow_context(game_id, leaver), msg, seat, secrets.deck)
    body = share_body(at[0], at[1], seat, leaver, scalar_bytes(share))
    return sign_body(game_id, body, {seat: secrets.key})


def bundle(index: int, prev: bytes, leaver: int, shares: Mapping[int, Entry]) -> Entry:
    """The departure entry from every staying seat's signed share (checked)."""
    seats = sorted(shares)
    parts = [[shares[s].body["share"], shares[s].sigs[0][1]] for s in seats]
    return Entry(DepartureBody(index, prev, leaver, seats, parts).encode(), ())


def rebuilt_secret(game_id: bytes, book: SealedBook, leaver: int, shares: Mapping[int, int]) -> int:
    """``leaver``'s secret from the staying seats' ``shares`` and the public
    secrets of the seats gone before it (their shares unmasked by anyone)."""
    assert book.escrows is not None
    msg = book.escrows[leaver]
    ctx = escrow_context(game_id, leaver)
    every = dict(shares)
    for holder in book.gone:
        secret = book.readers[holder]
        every[holder] = vss.open_share(ctx, msg, holder, secret)
    return vss.rebuild(book.table.keys[leaver], msg, every)


def departure(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    """The ledger's check of a departure entry (see the module docstring); it
    comes at any position, before what ``expected`` says."""
    if entry.sigs:
        raise InvalidEntry(index, "a departure carries no signatures (its shares prove it)")
    book = position.book
    leaver = body["of"]
    if type(leaver) is not int or not can_depart(book, leaver):
        raise InvalidEntry(index, f"seat {leaver} cannot leave here (no escrow, or too few stay)")
    assert book is not None
    seats, parts = body["seats"], body["parts"]
    on_purpose = seats == [leaver]  # its own signed secret: it left on purpose
    if (not on_purpose and seats != list(staying(book, leaver))) or len(parts) != len(seats):
        raise InvalidEntry(
            index, f"a departure holds one share from each staying seat {staying(book, leaver)}"
        )
    shares: dict[int, int] = {}
    for seat, part in zip(seats, parts, strict=True):
        if type(part) is not list or len(part) != 2 or not all(type(p) is bytes for p in part):
            raise InvalidEntry(index, f"the part of seat {seat} is not [share, signature]")
        raw, sig = part
        if not info.signed_by(seat, sig, share_body(index, body["prev"], seat, leaver, raw)):
            raise InvalidEntry(index, f"the share of seat {seat} is not signed by it")
        problem = share_problem(info.game_id, book, seat, leaver, raw)
        if problem is not None:
            raise InvalidEntry(index, problem, seat)
        shares[seat] = decode_scalar(raw)
    if on_purpose:
        text = "leaves the table and shows its deck secret: a bot plays for it from now on"
        after = replace(position, book=book.departed(leaver, shares[leaver]))
        return Applied(index, Kind.DEPARTURE, leaver, text), after
    secret = rebuilt_secret(info.game_id, book, leaver, shares)
    if base_mul(secret) != book.table.keys[leaver]:  # unreachable with every share right
        raise InvalidEntry(index, f"the shares do not rebuild seat {leaver}'s deck key")
    text = (
        f"left the table: its deck secret is rebuilt from {len(seats)} shares, "
        "and a bot plays for it from now on, its cards face up"
    )
    return Applied(index, Kind.DEPARTURE, leaver, text), replace(
        position, book=book.departed(leaver, secret)
    )


def own_departure(
    game_id: bytes, book: SealedBook, at: tuple[int, bytes], secrets: SeatSecrets, seat: int
) -> Entry:
    """Our departure on purpose at the position ``at``: our own deck secret,
    signed, so the others go on at once (no shares to gather, no wait)."""
    body = share_body(at[0], at[1], seat, seat, scalar_bytes(secrets.deck))
    mine = sign_body(game_id, body, {seat: secrets.key})
    return bundle(at[0], at[1], seat, {seat: mine})
