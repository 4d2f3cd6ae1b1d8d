"""The genesis entry: who sits at the table, which game, and everything fixed before
the first move (see protocol/replay.md section 4, genesis).

:func:`read_genesis` checks the body and returns a :class:`GenesisInfo`;
:func:`sealed_book_for` builds the sealed deck of a game with hidden hands from the
seats' deck keys; :func:`check_genesis_signatures` requires every seat's signature.
Every refusal is an :class:`InvalidEntry` at index 0 with no culprit: nothing has
been played yet, so nobody can be blamed.

Every later entry is signed by the seats the genesis names, over its game id:
:meth:`GenesisInfo.signed_by` answers whether a body carries a seat's signature,
and :func:`check_signed_by` is the check of an entry that one seat alone signs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from p2ptable.crypto.links import is_usable_link
from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.api import Game, HiddenHands, RulesError, normalize_options
from p2ptable.games import get_game
from p2ptable.replay.entries import (
    LEGACY,
    PROTOCOL,
    READABLE,
    SIGNED_CHOICES,
    Entry,
    MalformedEntry,
    game_id_of,
    signed_message,
)
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.sealed_book import SealedBook, parse_deck_key
from p2ptable.sealed.escrow import MIN_SEATS as ESCROW_SEATS

MAX_SEAT_NAME = 32
MAX_CHAIN_LEN = 1 << 16
MAX_CLOCK = 24 * 3600  # a table's clock, seconds per decision: at most a day


@dataclass(frozen=True)
class SeatInfo:
    name: str
    key: bytes
    chain_head: bytes
    link: bytes  # X25519 public key for authenticating wire frames (crypto/links.py)
    deck: Any = None  # the genesis deck key field, for games with hidden hands


@dataclass(frozen=True)
class GenesisInfo:
    """A checked genesis: the game, its seats and options, the state it starts
    from, and what every later entry is bound to."""

    game: Game[Any]
    seats: list[SeatInfo]
    options: dict[str, str]
    state: Any
    chain_len: int
    nonce: bytes
    game_id: bytes
    protocol: str = PROTOCOL
    # Every seat escrows its deck secret among the others, so the table can go
    # on without a seat that left (issue 27; sealed-decks.md section 15).
    keep_going: bool = False
    clock: int | None = None  # seconds per decision (host --clock), or no clock
    # Spectators may write in a channel of their own (host --spectators-talk).
    spectators_talk: bool = False

    @property
    def signed_choices(self) -> bool:
        """Whether a ``choices`` entry's parts carry signatures (protocol 2), or
        only the openings, each proved by its signed commit (3 on)."""
        return self.protocol == SIGNED_CHOICES

    def signed_by(self, seat: int, signature: bytes, body_bytes: bytes) -> bool:
        """True when ``signature`` is seat's signature of ``body_bytes`` in this game."""
        message = signed_message(self.game_id, body_bytes)
        return verify_signature(self.seats[seat].key, signature, message)


def check_signed_by(info: GenesisInfo, index: int, entry: Entry, seat: int) -> None:
    """Entry ``index`` carries exactly one signature, a valid one by ``seat``."""
    if len(entry.sigs) != 1 or entry.sigs[0][0] != seat:
        raise InvalidEntry(index, f"must carry exactly one signature, by seat {seat}")
    message = signed_message(info.game_id, entry.body_bytes)  # signed_by, one call less
    if not verify_signature(info.seats[seat].key, entry.sigs[0][1], message):
        raise InvalidEntry(index, f"bad signature (claimed by seat {seat})")


def check_author(
    info: GenesisInfo, index: int, entry: Entry, seat: int, gone: tuple[int, ...]
) -> None:
    """``check_signed_by``, except for a seat that left (replay/departure.py):
    its stand-in's entry carries no signature, and the ledger has compared it
    byte for byte with the one entry the stand-in makes there (replay/stand_in.py)."""
    if seat in gone:
        if entry.sigs:
            raise InvalidEntry(index, f"seat {seat} left: its stand-in's entries are unsigned")
        return
    check_signed_by(info, index, entry, seat)


def _genesis_error(reason: str) -> InvalidEntry:
    return InvalidEntry(0, f"genesis: {reason}")


def read_genesis(genesis: Entry) -> GenesisInfo:
    """Check a genesis entry's body (not yet its signatures)."""
    try:
        body = genesis.body
    except MalformedEntry as exc:
        raise _genesis_error(f"malformed: {exc}") from None
    if body["t"] != Kind.GENESIS:
        raise _genesis_error(f"the first entry must be a genesis, not {body['t']}")
    if body["protocol"] not in READABLE:
        known = ", ".join(READABLE)
        raise _genesis_error(
            f"protocol {body['protocol']!r} is not one this version reads ({known})"
        )
    try:
        game: Game[Any] = get_game(body["game"])
    except KeyError as exc:
        raise _genesis_error(str(exc.args[0])) from None
    seats = _parse_seats(body["seats"])
    n = len(seats)
    given = body["options"]
    if isinstance(given, dict):
        # Written before some options existed: they had the value of their rule then
        # (``before``, whatever the protocol; ``legacy``, for a protocol-1 genesis).
        old = {o.name: o.before for o in game.options if o.before is not None}
        if body["protocol"] == LEGACY:
            old.update({o.name: o.legacy for o in game.options if o.legacy is not None})
        given = {**{k: v for k, v in old.items() if k not in given}, **given}
    try:
        options = normalize_options(game, n, given)
        # Some combinations are only refused when the table is set up (Duet is
        # for 2 players): set it up here so they are genesis errors too.
        state = game.initial(n, options)
    except RulesError as exc:
        raise _genesis_error(str(exc)) from None
    if options != given:
        raise _genesis_error("options must list every option explicitly")
    if not 1 <= body["chain_len"] <= MAX_CHAIN_LEN:
        raise _genesis_error(f"chain_len must be 1..{MAX_CHAIN_LEN}")
    if len(body["nonce"]) != 16:
        raise _genesis_error("nonce must be 16 bytes")
    clock = body.get("clock")
    if clock is not None and not 1 <= clock <= MAX_CLOCK:
        raise _genesis_error(f"clock must be 1..{MAX_CLOCK} seconds")
    keep_going = body.get("keep_going")
    if keep_going is not None and not (keep_going is True and escrows_at(game, n)):
        raise _genesis_error(
            "keep_going is written only as true, at a table with hidden hands and "
            f"{ESCROW_SEATS} seats or more"
        )
    spectators_talk = body.get("spectators_talk")
    if spectators_talk is not None and spectators_talk is not True:
        raise _genesis_error("spectators_talk is written only as true")
    game_id = game_id_of(genesis.body_bytes)
    return GenesisInfo(
        game,
        seats,
        options,
        state,
        body["chain_len"],
        body["nonce"],
        game_id,
        body["protocol"],
        keep_going is True,
        clock,
        spectators_talk is True,
    )


def escrows_at(game: Game[Any], seats: int) -> bool:
    """Whether a table of ``game`` with ``seats`` seats may go on without a seat
    (escrow its deck secrets): hidden hands, and at least one seat besides the
    leaver and the holder (with two, the one holder would hold the secret)."""
    return bool(getattr(game, "hidden_hands", False)) and seats >= ESCROW_SEATS


class ShufflesHands(Protocol):
    """What a game with ``"pick"`` chance steps adds to :class:`HiddenHands`."""

    def hand_shuffled(self, state: Any, seat: int, hand: tuple[int | None, ...]) -> Any: ...


def sealed_rules(game: Game[Any]) -> HiddenHands[Any]:
    """``game`` as the hidden-hands rules that a sealed deck plays with.

    Only for the game of a ledger with a sealed book: :func:`sealed_book_for` makes
    one for a game with ``hidden_hands`` alone, and such a game implements
    :class:`HiddenHands` (engine/api.py).  A book that is not None proves the type;
    a type checker cannot follow that link, so it is a cast (no check at run time:
    this is on the path of every move)."""
    return cast("HiddenHands[Any]", game)


def hand_shuffling_rules(game: Game[Any]) -> ShufflesHands:
    """``game`` as rules whose hands are shuffled before a blind pick: only for a
    ledger that expects a hand shuffle, which only a ``"pick"`` chance step of such a
    game asks for (replay/ledger.py, ``expected``).  A cast for the same reason as
    :func:`sealed_rules`."""
    return cast(ShufflesHands, game)


def sealed_book_for(info: GenesisInfo, readers: Mapping[int, int] | None) -> SealedBook | None:
    """The sealed deck of a game with hidden hands (None for other games)."""
    hidden = getattr(info.game, "hidden_hands", False)
    if not hidden:
        if any(seat.deck is not None for seat in info.seats):
            raise _genesis_error(f"{info.game.name} has no hidden hands: no deck keys")
        return None
    keys = []
    for number, seat in enumerate(info.seats):
        if seat.deck is None:
            raise _genesis_error(
                f"seat {number} has no deck key ({info.game.name} deals hidden hands)"
            )
        try:
            keys.append(parse_deck_key(seat.deck, info.nonce, seat.key))
        except ValueError as exc:
            raise _genesis_error(f"seat {number} deck key: {exc}") from None
    try:
        book = SealedBook.new(info.game_id, keys, readers)
    except ValueError as exc:
        raise _genesis_error(str(exc)) from None
    return replace(book, escrows=()) if info.keep_going else book


def check_genesis_signatures(genesis: Entry, info: GenesisInfo) -> None:
    """Every seat, in order, signed the genesis."""
    message = signed_message(info.game_id, genesis.body_bytes)
    if [seat for seat, _ in genesis.sigs] != list(range(len(info.seats))):
        raise _genesis_error("needs exactly one signature from each seat, in seat order")
    for seat, sig in genesis.sigs:
        if not verify_signature(info.seats[seat].key, sig, message):
            raise _genesis_error(f"bad signature from seat {seat} ({info.seats[seat].name})")


_SEAT_FIELDS = {"name", "key", "chain", "link"}


def _parse_seats(raw: list[Any]) -> list[SeatInfo]:
    seats = []
    for number, item in enumerate(raw):
        if not (isinstance(item, dict) and set(item) - {"deck"} == _SEAT_FIELDS):
            raise _genesis_error(
                f"seat {number} must have exactly name, key, chain and link (and deck)"
            )
        if "deck" in item and not isinstance(item["deck"], dict):
            raise _genesis_error(f"seat {number} deck key must be a map (or absent)")
        name, key, chain, link = item["name"], item["key"], item["chain"], item["link"]
        if not (isinstance(name, str) and 0 < len(name) <= MAX_SEAT_NAME and name.isprintable()):
            raise _genesis_error(f"seat {number} name must be 1..{MAX_SEAT_NAME} printable chars")
        if not (isinstance(key, bytes) and len(key) == 32):
            raise _genesis_error(f"seat {number} key must be 32 bytes")
        if not (isinstance(chain, bytes) and len(chain) == 32):
            raise _genesis_error(f"seat {number} chain head must be 32 bytes")
        if not (isinstance(link, bytes) and len(link) == 32):
            raise _genesis_error(f"seat {number} link key must be 32 bytes")
        if not is_usable_link(link):
            raise _genesis_error(f"seat {number} link key is a low-order point (unusable)")
        seats.append(SeatInfo(name, key, chain, link, item.get("deck")))
    if len({s.key for s in seats}) != len(seats):
        raise _genesis_error("two seats share a public key")
    if len({s.link for s in seats}) != len(seats):
        raise _genesis_error("two seats share a link key")
    if len({s.chain_head for s in seats}) != len(seats):
        raise _genesis_error("two seats share a randomness chain head")
    if len({s.name for s in seats}) != len(seats):
        raise _genesis_error("two seats share a name")
    return seats
