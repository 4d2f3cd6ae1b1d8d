"""Filling a table, sans-IO: the join-code handshake, the roster and the genesis.

Theory of operation
-------------------
The host is only the first contact.  A joiner proves it knows the join code, and
the host proves it knows it too, without the code ever crossing the network:

    K = scrypt(code, salt = "p2ptable/join/v1" || table_id, n=2**14, r=8, p=1)

    joiner -> host   knock     {key, nonce_j}
    host   -> joiner challenge {table, nonce_h, game, options, seats,
                                proof_h = HMAC(K, "host"   || T)}
    joiner -> host   join      {name, chain, link, endpoint, deck,
                                proof_j = HMAC(K, "joiner" || T)}
    host   -> all    roster    {table, members, genesis (empty until full)}
    host   -> joiner denied    {reason}

with ``T = table || nonce_j || nonce_h || key_h || key_j``.  ``deck`` is the
joiner's sealed-deck key with its proof bound to the table id and the joiner's key
(replay/sealed_book.py); the genesis carries it for games with hidden hands.  Every lobby frame is
signed by its sender's key, so once admitted a key cannot be impersonated.  When
the roster is full, it carries the genesis body, which every member rebuilds from
the roster and checks (including that its own entry is exactly what it sent)
before signing it (``gsig`` over the game mesh).  A stranger without the code can
neither take a seat nor sign anything a seated peer accepts.

Anyone who records a handshake, or knocks and receives a challenge, can try codes
offline; scrypt makes each guess cost tens of milliseconds, and codes are fresh for
every table (30 bits for the generated ones).
"""

from __future__ import annotations

import hmac
import os
import secrets as pysecrets
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.links import is_usable_link
from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.registry import get_game
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.replay import authoring
from p2ptable.replay.sealed_book import parse_deck_key

LOBBY_DOMAIN = b"p2ptable/lobby/v1\x00"
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # generated codes avoid 0/O, 1/I/L
MAX_NAME = 32
MIN_CODE = 6  # characters: about 30 bits, each guess costing an scrypt


class LobbyError(Exception):
    """The lobby cannot go on (wrong code, table full, bad host)."""


class LobbyIgnored(LobbyError):
    """A lobby frame to drop and log; joining goes on."""


def new_code() -> str:
    raw = "".join(pysecrets.choice(CODE_ALPHABET) for _ in range(6))
    return f"{raw[:3]}-{raw[3:]}"


def normalize_code(code: str) -> str:
    cleaned = code.replace("-", "").replace(" ", "").upper()
    bad = sorted({c for c in cleaned if not (c.isascii() and c.isalnum())})
    if len(cleaned) < MIN_CODE or bad:
        why = f"it contains {', '.join(repr(c) for c in bad)}; " if bad else "too short; "
        raise LobbyError(
            f"not a join code: {code!r} ({why}"
            f"codes are {MIN_CODE} or more letters and digits, e.g. 7KQ-M2X)"
        )
    return cleaned


def code_key(code: str, table: bytes) -> bytes:
    kdf = Scrypt(salt=b"p2ptable/join/v1" + table, length=32, n=2**14, r=8, p=1)
    return kdf.derive(normalize_code(code).encode())


def _transcript(table: bytes, nonce_j: bytes, nonce_h: bytes, key_h: bytes, key_j: bytes) -> bytes:
    return table + nonce_j + nonce_h + key_h + key_j


def _proof(key: bytes, role: bytes, transcript: bytes) -> bytes:
    return hmac.new(key, role + transcript, "sha256").digest()


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

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "key": self.key,
            "chain": self.chain,
            "link": self.link,
            "endpoint": self.endpoint,
            "deck": self.deck,
        }


def _hidden_hands(game: str) -> bool:
    try:
        return getattr(get_game(game), "hidden_hands", False)
    except KeyError:
        return False


def genesis_for(
    game: str, options: dict, members: list[Member], chain_len: int, nonce: bytes
) -> bytes:
    decks = [m.deck or {} for m in members] if _hidden_hands(game) else None
    return authoring.genesis_body(
        game,
        options,
        [m.name for m in members],
        [m.key for m in members],
        [m.chain for m in members],
        [m.link for m in members],
        chain_len,
        nonce,
        decks,
    )


def _own_endpoint(endpoint: str) -> None:
    try:
        parse_endpoint(endpoint)
    except ValueError as exc:
        raise LobbyError(f"our own address cannot be announced: {exc}") from None


@dataclass
class HostLobby:
    """The host's side: admits joiners who know the code, until the table is full."""

    game: str
    options: dict
    seats: int
    code: str
    me: authoring.SeatSecrets
    name: str
    endpoint: str
    table: bytes = field(default_factory=lambda: os.urandom(16))
    outgoing: list[tuple[str, bytes]] = field(default_factory=list)  # (endpoint, frame)
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        _own_endpoint(self.endpoint)
        self._key = code_key(self.code, self.table)
        # joiner's key -> (nonce_j, nonce_h, endpoint) of its latest knock
        self._pending: dict[bytes, tuple[bytes, bytes, str]] = {}
        me = self.me
        self.members = [
            Member(
                self.name,
                me.key.public,
                me.chain.head,
                me.link_public,
                self.endpoint,
                me.deck_key(self.table),
            )
        ]
        self.genesis: bytes | None = None

    @property
    def full(self) -> bool:
        return len(self.members) == self.seats

    def receive(self, frame: bytes, address: str, now: float) -> None:
        """A lobby frame that came in from ``address`` (the sender's IP address,
        as its connection shows it) at ``now`` (seconds, any monotonic clock)."""
        try:
            kind, key, data = open_lobby(frame)
            if kind == "knock":
                self._knock(key, data, address)
            elif kind == "join":
                self._join(key, data)
            else:
                raise LobbyError(f"unexpected lobby message {kind!r}")
        except LobbyError as exc:
            self.log.append(f"rejected a lobby message: {exc}")

    def _deny(self, endpoint: str, reason: str) -> None:
        self.outgoing.append((endpoint, seal_lobby("denied", {"reason": reason}, self.me)))
        self.log.append(f"denied a joiner: {reason}")

    def _knock(self, key: bytes, data: dict, address: str) -> None:
        endpoint = data.get("endpoint")
        try:
            ip, _ = parse_endpoint(endpoint)
        except ValueError as exc:
            raise LobbyError(f"knock with a bad endpoint: {exc}") from None
        if ip != address:
            # We answer at the endpoint: never point a socket at a machine other
            # than the one that knocked.
            raise LobbyError(f"knock from {address} names another machine ({endpoint})")
        if self.full:
            return self._deny(endpoint, "the table is full")
        nonce_j = data.get("nonce")
        if not (isinstance(nonce_j, bytes) and len(nonce_j) == 16):
            raise LobbyError("knock without a 16-byte nonce")
        nonce_h = os.urandom(16)
        self._pending[key] = (nonce_j, nonce_h, endpoint)
        t = _transcript(self.table, nonce_j, nonce_h, self.me.key.public, key)
        reply = {
            "table": self.table,
            "nonce": nonce_h,
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "proof": _proof(self._key, b"host", t),
        }
        self.outgoing.append((endpoint, seal_lobby("challenge", reply, self.me)))

    def _join(self, key: bytes, data: dict) -> None:
        if key not in self._pending:
            raise LobbyError("join without a knock")
        nonce_j, nonce_h, endpoint = self._pending.pop(key)
        t = _transcript(self.table, nonce_j, nonce_h, self.me.key.public, key)
        proof = data.get("proof")
        if not (
            isinstance(proof, bytes) and hmac.compare_digest(proof, _proof(self._key, b"joiner", t))
        ):
            return self._deny(endpoint, "wrong join code")
        if self.full:
            return self._deny(endpoint, "the table is full")
        name, chain, link = data.get("name"), data.get("chain"), data.get("link")
        if not (isinstance(name, str) and 0 < len(name) <= MAX_NAME and name.isprintable()):
            return self._deny(endpoint, f"a name must be 1..{MAX_NAME} printable characters")
        if any(m.name == name for m in self.members):
            return self._deny(endpoint, f"the name {name!r} is taken")
        if not (isinstance(chain, bytes) and len(chain) == 32):
            raise LobbyError("join without a chain head")
        if any(m.endpoint == endpoint for m in self.members):
            return self._deny(endpoint, f"the endpoint {endpoint} is already at the table")
        if not is_usable_link(link):
            return self._deny(endpoint, "the link key is not a usable X25519 public key")
        if any(m.key == key or m.chain == chain or m.link == link for m in self.members):
            return self._deny(endpoint, "key, randomness chain or link key already at the table")
        deck = data.get("deck")
        try:
            deck_key = parse_deck_key(deck, self.table, key)
        except ValueError as exc:
            return self._deny(endpoint, f"deck key: {exc}")
        # Members' keys were checked when they joined; a point has one encoding.
        if any(m.deck and m.deck["key"] == deck_key.to_bytes() for m in self.members):
            return self._deny(endpoint, "deck key already at the table")
        self.members.append(Member(name, key, chain, link, endpoint, deck))
        self.log.append(f"{name} joined ({len(self.members)}/{self.seats})")
        if self.full:
            self.genesis = genesis_for(
                self.game, self.options, self.members, self.me.chain.length, self.table
            )
        roster = {
            "table": self.table,
            "members": [m.as_dict() for m in self.members],
            "genesis": self.genesis or b"",
        }
        frame = seal_lobby("roster", roster, self.me)
        for member in self.members[1:]:
            self.outgoing.append((member.endpoint, frame))


@dataclass
class JoinerLobby:
    """A joiner's side: knock, check the host knows the code, join, follow the roster."""

    code: str
    me: authoring.SeatSecrets
    name: str
    endpoint: str
    outgoing: list[bytes] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        normalize_code(self.code)
        _own_endpoint(self.endpoint)
        self._nonce = os.urandom(16)
        self.host_key: bytes | None = None
        self.table: bytes | None = None
        self.game: str | None = None
        self.options: dict = {}
        self.members: list[Member] = []
        self.genesis: bytes | None = None
        knock = {"nonce": self._nonce, "endpoint": self.endpoint}
        self.outgoing.append(seal_lobby("knock", knock, self.me))

    def receive(self, frame: bytes) -> None:
        """Handle a frame from the host; LobbyError when joining cannot succeed."""
        kind, key, data = open_lobby(frame)
        if self.host_key is not None and key != self.host_key:
            raise LobbyIgnored("a lobby message not signed by the host")
        if kind == "denied":
            if any(m.key == self.me.key.public for m in self.members):
                raise LobbyIgnored("a denial after we were seated")
            raise LobbyError(f"the host refused: {data.get('reason')}")
        if kind == "challenge":
            return self._challenge(key, data)
        if kind == "roster":
            if key != self.host_key:
                raise LobbyError("roster not signed by the host")
            return self._roster(data)
        raise LobbyError(f"unexpected lobby message {kind!r}")

    def _challenge(self, key: bytes, data: dict) -> None:
        table, nonce, proof = data.get("table"), data.get("nonce"), data.get("proof")
        if not (
            isinstance(table, bytes)
            and len(table) == 16
            and isinstance(nonce, bytes)
            and isinstance(proof, bytes)
            and isinstance(data.get("game"), str)
            and isinstance(data.get("options"), dict)
        ):
            raise LobbyError("malformed challenge from the host")
        if self.host_key is not None:
            raise LobbyIgnored("a second challenge")
        shared = code_key(self.code, table)
        t = _transcript(table, self._nonce, nonce, key, self.me.key.public)
        if not hmac.compare_digest(proof, _proof(shared, b"host", t)):
            raise LobbyError(
                "wrong join code: it does not match the table's (check what the host printed)"
            )
        self.host_key, self.table = key, table
        self.game, self.options = data["game"], data["options"]
        reply = {
            "name": self.name,
            "chain": self.me.chain.head,
            "link": self.me.link_public,
            "deck": self.me.deck_key(table),
            "proof": _proof(shared, b"joiner", t),
        }
        self.outgoing.append(seal_lobby("join", reply, self.me))

    def _roster(self, data: dict) -> None:
        if self.genesis is not None:
            raise LobbyIgnored("a roster after the genesis")
        try:
            members = [Member(**m) for m in data["members"]]
        except (TypeError, KeyError) as exc:
            raise LobbyIgnored(f"malformed roster: {exc}") from None
        if len(members) < len(self.members):
            # Rosters only grow; one that went by another link may come late.
            raise LobbyIgnored("an older roster")
        ours = [m for m in members if m.key == self.me.key.public]
        me = Member(
            self.name,
            self.me.key.public,
            self.me.chain.head,
            self.me.link_public,
            self.endpoint,
            self.me.deck_key(self.table or b""),
        )
        if ours != [me]:
            # A host that swaps our chain head or link key for its own would know
            # our random contributions: never sign a roster that changed our entry.
            raise LobbyError("the host's roster does not list us as we joined")
        for m in members:
            try:
                parse_endpoint(m.endpoint)
            except ValueError as exc:
                # Every seat connects to every endpoint in the roster.
                why = f"the host's roster has a bad endpoint for {m.name}: {exc}"
                raise LobbyError(why) from None
        if len({m.endpoint for m in members}) != len(members):
            raise LobbyError("the host's roster lists one endpoint for two seats")
        if _hidden_hands(self.game or ""):
            for m in members:
                try:
                    parse_deck_key(m.deck, self.table or b"", m.key)
                except ValueError as exc:
                    # Never sign a genesis our own ledger would refuse.
                    why = f"the host's roster has a bad deck key for {m.name}: {exc}"
                    raise LobbyError(why) from None
        self.members = members
        if data["genesis"]:
            expected = genesis_for(
                self.game or "", self.options, members, self.me.chain.length, self.table or b""
            )
            if data["genesis"] != expected:
                raise LobbyError("the host's genesis does not match the roster")
            self.genesis = expected
