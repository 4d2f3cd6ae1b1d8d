"""What both ends of the lobby share: its signed frames, the roster's members,
the join code's checks and the genesis a full roster makes (net/lobby.py has the
theory of operation; net/host_lobby.py and net/joiner_lobby.py the two sides)."""

from __future__ import annotations

from dataclasses import dataclass

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.signing import verify_signature
from p2ptable.games import get_game
from p2ptable.net import join_code
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.net.join_code import CodeError
from p2ptable.net.rotation import with_first
from p2ptable.replay import authoring
from p2ptable.replay.genesis import MAX_CLOCK

LOBBY_DOMAIN = b"p2ptable/lobby/v2\x00"
MAX_NAME = 32
# Unfinished handshakes the host remembers, the oldest forgotten first (the knock
# rate keeps them under KNOCK_BURST + KNOCKS_PER_SECOND * PENDING_SECONDS = 120),
# each for PENDING_SECONDS: a joiner answers the challenge at once.
MAX_PENDING = 256
PENDING_SECONDS = 10.0
# A joiner whose knock has no answer for KNOCK_AGAIN seconds knocks again (the
# host may have dropped it in a flood), and one refused for the rate knocks again
# when the denial says.
KNOCK_AGAIN = 3.0
LOG_LINES = 20  # rejected lobby frames logged per minute; the rest are counted
# A seated joiner says "here" every HERE_EVERY seconds until the genesis; a seat
# the host has not heard from for SILENT_SEAT seconds before then is freed (its
# process died: its player joins again, as anyone may take a free seat).
HERE_EVERY = 1.0
SILENT_SEAT = 6.0


class LobbyError(Exception):
    """The lobby cannot go on (wrong code, table full, bad host)."""


class LobbyIgnored(LobbyError):
    """A lobby frame to drop and log; joining goes on."""


class WrongCode(LobbyError):
    """The host proved another join code than ours: a person who typed it may
    type it again (each try is a knock the host counts)."""


def normalize_code(code: str) -> str:
    """The code as both sides use it (net/join_code.py); LobbyError if it is none."""
    try:
        return join_code.normalize_code(code)
    except CodeError as exc:
        raise LobbyError(str(exc)) from None


def check_host_code(code: str) -> str:
    """The normalized code if a host may open a table with it: LobbyError if it is
    malformed or weak (too few different characters, a repeated pattern, a run)."""
    try:
        return join_code.check_host_code(code)
    except CodeError as exc:
        raise LobbyError(str(exc)) from None


new_code = join_code.new_code


def seal_lobby(kind: str, data: dict, secrets: authoring.SeatSecrets) -> bytes:
    envelope = pack({"k": kind, "key": secrets.key.public, "d": data})
    return pack([envelope, secrets.key.sign(LOBBY_DOMAIN + envelope)])


def open_lobby(frame: bytes) -> tuple[str, bytes, dict]:
    """(kind, sender key, data) of a signed lobby frame; LobbyError if it is not one."""
    try:
        envelope, sig = unpack_canonical(frame)
        env = unpack_canonical(envelope)
        kind, key, data = env["k"], env["key"], env["d"]
    except (EncodingError, ValueError, TypeError, KeyError) as exc:
        raise LobbyError(f"malformed lobby frame: {exc}") from None
    if not (
        isinstance(kind, str)
        and isinstance(key, bytes)
        and isinstance(data, dict)
        and isinstance(sig, bytes)
        and isinstance(envelope, bytes)
    ):
        raise LobbyError("malformed lobby frame")
    if not verify_signature(key, sig, LOBBY_DOMAIN + envelope):
        raise LobbyError("bad signature on lobby frame")
    return kind, key, data


@dataclass(frozen=True)
class Member:
    name: str
    key: bytes
    chain: bytes
    link: bytes
    endpoint: str
    deck: dict | None = None  # the deck key, with its proof (replay/sealed_book.py)

    @classmethod
    def own(cls, me: authoring.SeatSecrets, name: str, endpoint: str, table: bytes) -> Member:
        """Our own entry in a roster, as we sit down at ``table``."""
        return cls(name, me.key.public, me.chain.head, me.link_public, endpoint, me.deck_key(table))

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "key": self.key,
            "chain": self.chain,
            "link": self.link,
            "endpoint": self.endpoint,
            "deck": self.deck,
        }

    @classmethod
    def parse(cls, data: object) -> Member:
        """A roster member as the host sent it; LobbyError if a field is missing or
        of the wrong type (checking what the values mean is the caller's)."""
        fields = {"name": str, "key": bytes, "chain": bytes, "link": bytes, "endpoint": str}
        if not (isinstance(data, dict) and set(data) == {*fields, "deck"}):
            raise LobbyError("a roster member is not a map of the member fields")
        for name, kind in fields.items():
            if not isinstance(data[name], kind):
                raise LobbyError(f"a roster member's {name} is not a {kind.__name__}")
        if not isinstance(data["deck"], dict | None):
            raise LobbyError("a roster member's deck is not a map")
        return cls(**data)


def _printable_name(name: str) -> bool:
    return 0 < len(name) <= MAX_NAME and name.isprintable()


def _hidden_hands(game: str) -> bool:
    try:
        return getattr(get_game(game), "hidden_hands", False)
    except KeyError:
        return False


def genesis_for(
    game: str,
    options: dict,
    members: list[Member],
    chain_len: int,
    nonce: bytes,
    keep_going: bool = False,
    clock: int | None = None,
    spectators_talk: bool = False,
    rotation: tuple[str, ...] = (),
) -> bytes:
    """The genesis body of ``members`` at this table; a rematch's ``rotation``
    names its first player (net/rotation.py)."""
    decks = [m.deck or {} for m in members] if _hidden_hands(game) else None
    names = [m.name for m in members]
    return authoring.genesis_body(
        game,
        with_first(options, rotation, names),
        names,
        [m.key for m in members],
        [m.chain for m in members],
        [m.link for m in members],
        chain_len,
        nonce,
        decks,
        keep_going,
        clock,
        spectators_talk,
    )


# What a joiner is told, and the LAN's list shows, of a table with host
# --keep-going, before anyone sits down (the coalition bound of issue 27).
KEEP_GOING_WORDS = (
    "This table keeps going without a player who leaves: each deck secret is escrowed "
    "among the other seats, so all the other players together could read a hand"
)


NO_ESCROW = "--keep-going applies only to games with hidden hands and 3 seats or more"


def parse_clock(value: object) -> int | None:
    """The table's clock as a host's challenge gives it: seconds per decision,
    or None for none; LobbyError for anything else."""
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= MAX_CLOCK:
        raise LobbyError("malformed challenge from the host: a bad clock")
    return value


def _own_endpoint(endpoint: str) -> None:
    try:
        parse_endpoint(endpoint)
    except ValueError as exc:
        raise LobbyError(f"our own address cannot be announced: {exc}") from None
