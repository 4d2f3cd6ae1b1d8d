"""Filling a table, sans-IO: the join-code handshake, the roster and the genesis.

Theory of operation
-------------------
The host is only the first contact.  A joiner and the host prove to each other
that they know the join code with SPAKE2 (net/join_code.py), without the code or
anything a guess could be tested against ever crossing the network:

    joiner -> host   knock     {pake: X, endpoint}
    host   -> joiner challenge {re: X, table, game, options, seats, pake: Y,
                                proof: HMAC(C, "host")}
    joiner -> host   join      {name, chain, link, deck, proof: HMAC(C, "joiner")}
    host   -> all    roster    {table, members, genesis (empty until full), v}
    joiner -> host   here      {v}   (seated, every second until the genesis)
    host   -> joiner denied    {re: X, reason}

``X`` and ``Y`` are the two SPAKE2 messages, ``C`` the SPAKE2 key bound to the
table id and both signing keys (``join_code.confirmation_key``).  The host
answers at the knock's ``endpoint``, which must be on the machine the knock came
from; ``re`` ties each answer to the knock it answers, so a joiner ignores what
was meant for another.  Every lobby frame is signed by its sender's key, so once
admitted a key cannot be impersonated, and the key a proof is bound to is the key
that signed the frame.  The host shows the table (game, options, seats) to anyone
who knocks, but names seats and endpoints only in the roster, after the joiner
proved the code; the joiner sends nothing about itself but its key and endpoint
until the host proved it.  When the roster is full it carries the genesis body,
which every member rebuilds from the roster and checks (including that its own
entry is exactly what it sent) before signing it (``gsig`` over the game mesh).

The roll call.  A joiner that died while seated saved nothing and can never
sign; the host frees a seat it has not heard from for ``SILENT_SEAT`` seconds.
A table that fills within those seconds of a death must not start with the dead
seat in it, so a full table first sends its roster without the genesis, and
proposes the genesis only once every joiner has answered that very roster: a
``here`` that names its number ``v``, which only a process that read it can
sign (an older ``here``, replayed by anyone, names an older number).

What a stranger without the code gets from knocking: the table's description
and one guess at the code per knock the host answers (its own check of the
host's proof tells it the guess was wrong), nothing to test further guesses
against.  The host answers at most ``KNOCKS_PER_ADDRESS`` knocks per address and
``KNOCKS_TOTAL`` in all per minute (net/knocks.py), keeps at most ``MAX_PENDING``
unfinished handshakes for ``PENDING_SECONDS``, and logs at most ``LOG_LINES``
rejections per minute, so knocking in a loop grows nothing.  protocol/wire.md
section 3 has the byte layouts, section 8 what an outsider can and cannot do.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.links import is_usable_link
from p2ptable.crypto.signing import verify_signature
from p2ptable.games import get_game
from p2ptable.net import join_code
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.net.gallery import MAX_WATCHERS, gallery_for
from p2ptable.net.join_code import CODE_ALPHABET, MIN_CODE, CodeError, PakeError
from p2ptable.net.knocks import KNOCK_WINDOW, KnockLimiter
from p2ptable.replay import authoring
from p2ptable.replay.sealed_book import parse_deck_key

__all__ = ["CODE_ALPHABET", "MIN_CODE", "HostLobby", "JoinerLobby", "LobbyError", "Member"]

LOBBY_DOMAIN = b"p2ptable/lobby/v2\x00"
MAX_NAME = 32
MAX_PENDING = 30  # unfinished handshakes the host remembers
PENDING_SECONDS = 60.0  # ... and for how long
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
class _Pending:
    """A knock the host answered: what the joiner's join must match."""

    message: bytes  # the joiner's SPAKE2 message X
    confirm: bytes  # the confirmation key C
    endpoint: str
    address: str
    since: float
    watch: bool = False  # a spectator's knock (gallery.py): answered by `watch`


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
    limiter: KnockLimiter = field(default_factory=KnockLimiter)
    spectators: bool = False  # host --spectators: watchers may follow the log

    def __post_init__(self) -> None:
        check_host_code(self.code)
        _own_endpoint(self.endpoint)
        self.gallery = gallery_for(self.me, self.table, seal_lobby) if self.spectators else None
        self._pending: dict[bytes, _Pending] = {}  # by the joiner's key
        self._log_window = (float("-inf"), 0, 0)  # (start, lines logged, lines dropped)
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
        self._heard: dict[bytes, float] = {}  # a seated joiner's key -> last frame
        self._answered: set[bytes] = set()  # joiners whose `here` names the full roster
        self._version = 0  # the roster's number: it grows with every change

    @property
    def full(self) -> bool:
        return len(self.members) == self.seats

    @property
    def pending(self) -> int:
        """Handshakes waiting for their join (bounded by MAX_PENDING)."""
        return len(self._pending)

    def receive(self, frame: bytes, address: str, now: float) -> None:
        """A lobby frame that came in from ``address`` (the sender's IP address, as
        its connection shows it) at ``now`` (seconds, any monotonic clock).  What
        to send goes to :attr:`outgoing`, what to tell the host's player to
        :attr:`log`; nothing a sender does raises."""
        try:
            kind, key, data = open_lobby(frame)
            if self.gallery is not None and self.gallery.receive(key, kind, data, now):
                return
            if key in self._heard:
                self._heard[key] = now  # a seated joiner is still there
                if kind == "here":
                    return self._here(key, data)
            if kind == "knock":
                self._knock(key, data, address, now)
            elif kind == "join":
                self._join(key, data, now)
            elif kind == "watch":
                self._watch(key, data, now)
            else:
                raise LobbyError(f"unexpected lobby message {kind!r}")
        except LobbyError as exc:
            self._note(
                f"rejected a lobby message from {address or 'an unknown address'}: {exc}", now
            )

    def _note(self, line: str, now: float) -> None:
        """Log ``line``, at most LOG_LINES a minute: a flood must not flood the screen."""
        start, logged, dropped = self._log_window
        if now - start >= KNOCK_WINDOW:
            if dropped:
                self.log.append(f"({dropped} more lobby messages rejected in the last minute)")
            start, logged, dropped = now, 0, 0
        if logged < LOG_LINES:
            self.log.append(line)
            logged += 1
        else:
            dropped += 1
        self._log_window = (start, logged, dropped)

    def _deny(self, endpoint: str, message: bytes, reason: str) -> None:
        denied = seal_lobby("denied", {"re": message, "reason": reason}, self.me)
        self.outgoing.append((endpoint, denied))
        self.log.append(f"denied a joiner: {reason}")

    def _knock(self, key: bytes, data: dict, address: str, now: float) -> None:
        endpoint, message = data.get("endpoint"), data.get("pake")
        try:
            ip, _ = parse_endpoint(endpoint)
        except ValueError as exc:
            raise LobbyError(f"knock with a bad endpoint: {exc}") from None
        if ip != address:
            # We answer at the endpoint: never point a socket at a machine other
            # than the one that knocked.
            raise LobbyError(f"knock from {address} names another machine ({endpoint})")
        if not (isinstance(message, bytes) and len(message) == join_code.ELEMENT):
            raise LobbyError(f"knock without a {join_code.ELEMENT}-byte SPAKE2 message")
        if any(m.key == key for m in self.members):
            raise LobbyError("knock from a key already at the table")
        held = self._pending.get(key)
        if held is not None and held.message == message:
            raise LobbyError("the same knock again")  # a replay: the first stands
        watch = data.get("watch") is True
        if watch and self.gallery is None:
            return self._deny(endpoint, message, "this table admits no spectators")
        if self.full and not watch:
            # No guess (no SPAKE2 is run), so it does not count against the
            # address: a player whose seat is about to be freed tries again.
            return self._deny(endpoint, message, "the table is full")
        refusal = self.limiter.check(address, now)
        if refusal is not None:
            if not refusal.notify:
                raise LobbyError(refusal.reason)  # told once already: now only counted
            return self._deny(endpoint, message, refusal.reason)
        self._forget(now)
        if key not in self._pending and len(self._pending) >= MAX_PENDING:
            return self._deny(endpoint, message, "the host is busy; try again in a minute")
        exchange = join_code.CodeExchange(self.code, host=True)
        try:
            spake_key = exchange.finish(message)
        except PakeError as exc:
            raise LobbyError(f"knock: {exc}") from None
        confirm = join_code.confirmation_key(spake_key, self.table, self.me.key.public, key)
        self._pending[key] = _Pending(message, confirm, endpoint, address, now, watch)
        reply = {
            "re": message,
            "table": self.table,
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "pake": exchange.message,
            "proof": join_code.proof(confirm, b"host"),
            "spectators": self.gallery is not None,
        }
        self.outgoing.append((endpoint, seal_lobby("challenge", reply, self.me)))

    def _forget(self, now: float) -> None:
        for key in [k for k, p in self._pending.items() if now - p.since >= PENDING_SECONDS]:
            del self._pending[key]

    def _join(self, key: bytes, data: dict, now: float) -> None:
        self._forget(now)
        pending = self._pending.pop(key, None)
        if pending is None:
            raise LobbyError("join without a knock")
        endpoint, message = pending.endpoint, pending.message
        if pending.watch:
            return self._deny(endpoint, message, "a spectator's knock takes no seat")

        def deny(reason: str) -> None:
            self._deny(endpoint, message, reason)

        if not join_code.proof_matches(data.get("proof"), pending.confirm, b"joiner"):
            return deny("wrong join code")
        # It proved the code: no guess, whatever comes next (a taken name, a full
        # table), so it does not count against its address's knocks.
        self.limiter.refund(pending.address, pending.since)
        if self.full:
            return deny("the table is full")
        name, chain, link = data.get("name"), data.get("chain"), data.get("link")
        if not (isinstance(name, str) and 0 < len(name) <= MAX_NAME and name.isprintable()):
            return deny(f"a name must be 1..{MAX_NAME} printable characters")
        if any(m.name.casefold() == name.casefold() for m in self.members):
            return deny(f"the name {name!r} is taken")
        if not (isinstance(chain, bytes) and len(chain) == 32):
            raise LobbyError("join without a chain head")
        if any(m.endpoint == endpoint for m in self.members):
            return deny(f"the endpoint {endpoint} is already at the table")
        if not is_usable_link(link):
            return deny("the link key is not a usable X25519 public key")
        if any(m.key == key or m.chain == chain or m.link == link for m in self.members):
            return deny("key, randomness chain or link key already at the table")
        deck = data.get("deck")
        try:
            deck_key = parse_deck_key(deck, self.table, key)
        except ValueError as exc:
            return deny(f"deck key: {exc}")
        # Members' keys were checked when they joined; a point has one encoding.
        if any(m.deck and m.deck["key"] == deck_key.to_bytes() for m in self.members):
            return deny("deck key already at the table")
        self.members.append(Member(name, key, chain, link, endpoint, deck))
        self._heard[key] = now
        self.log.append(f"{name} joined ({len(self.members)}/{self.seats})")
        if self.full:
            # Whoever is in the middle of a handshake would wait for ever for an
            # answer to its join: tell it now.
            for key_p, pending in list(self._pending.items()):
                if not pending.watch:  # a spectator's handshake goes on: it takes no seat
                    self._deny(pending.endpoint, pending.message, "the table is full")
                    del self._pending[key_p]
            self._answered.clear()  # the roll call (module docstring)
        self._send_roster()

    def _watch(self, key: bytes, data: dict, now: float) -> None:
        """A spectator that knocked with ``watch`` proves the code and is admitted
        to the gallery (gallery.py): it takes no seat and signs nothing."""
        self._forget(now)
        pending = self._pending.pop(key, None)
        if pending is None or self.gallery is None:
            raise LobbyError("watch without a spectator's knock")
        endpoint, message = pending.endpoint, pending.message
        if not pending.watch:
            return self._deny(endpoint, message, "a player's knock cannot watch")
        if not join_code.proof_matches(data.get("proof"), pending.confirm, b"joiner"):
            return self._deny(endpoint, message, "wrong join code")
        self.limiter.refund(pending.address, pending.since)
        name = data.get("name")
        refusal = self.gallery.refusal(name, endpoint, [m.name for m in self.members])
        if refusal is not None:
            return self._deny(endpoint, message, refusal)
        assert isinstance(name, str)
        self.gallery.admit(key, name, endpoint, [m.name for m in self.members], now)
        self.log.extend(self.gallery.log)
        self.gallery.log.clear()
        if self.genesis is None:
            self._send_roster()  # the seated see who watches

    def _here(self, key: bytes, data: dict) -> None:
        if not self.full or self.genesis is not None or data.get("v") != self._version:
            return
        self._answered.add(key)
        if len(self._answered) == self.seats - 1:
            self.genesis = genesis_for(
                self.game, self.options, self.members, self.me.chain.length, self.table
            )
            self._heard.clear()  # from here on the genesis round waits for every seat
            self._send_roster()

    def tick(self, now: float) -> None:
        """Free the seat of a joiner we have not heard from for SILENT_SEAT
        seconds, before the genesis (a dead process would hold it for good: the
        genesis needs every seat's signature)."""
        if self.gallery is not None:
            self.gallery.tick(now)
            self.log.extend(self.gallery.log)
            self.gallery.log.clear()
        if self.genesis is not None:
            return
        gone = [m for m in self.members[1:] if now - self._heard.get(m.key, now) > SILENT_SEAT]
        if not gone:
            return
        for member in gone:
            self.members.remove(member)
            del self._heard[member.key]
            self.log.append(
                f"{member.name} left the table (no answer for {SILENT_SEAT:.0f} s) "
                f"({len(self.members)}/{self.seats})"
            )
        # The freed too: if its process lives after all, it learns to join again.
        self._send_roster(also=tuple(m.endpoint for m in gone))

    def _send_roster(self, also: tuple[str, ...] = ()) -> None:
        self._version += 1
        roster = {
            "table": self.table,
            "members": [m.as_dict() for m in self.members],
            "genesis": self.genesis or b"",
            "v": self._version,
            "watchers": self.gallery.names() if self.gallery is not None else [],
        }
        frame = seal_lobby("roster", roster, self.me)
        for endpoint in (*(m.endpoint for m in self.members[1:]), *also):
            self.outgoing.append((endpoint, frame))


@dataclass
class JoinerLobby:
    """A joiner's side: knock, check the host knows the code, join, follow the roster."""

    code: str
    me: authoring.SeatSecrets
    name: str
    endpoint: str
    outgoing: list[bytes] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    watch: bool = False  # a spectator (gallery.py): proves the code, takes no seat

    def __post_init__(self) -> None:
        normalize_code(self.code)
        _own_endpoint(self.endpoint)
        self._exchange = join_code.CodeExchange(self.code, host=False)
        self.spectators = False  # the host admits spectators (its challenge says)
        self.watchers: list[str] = []  # who watches, as the host's roster says
        self.watching: dict | None = None  # a spectator admitted: the host's welcome
        self.host_key: bytes | None = None
        self.table: bytes | None = None
        self.game: str | None = None
        self.options: dict = {}
        self.members: list[Member] = []
        self.genesis: bytes | None = None
        self._version = 0  # the number of the last roster taken
        self._next_here = 0.0
        knock = {"pake": self._exchange.message, "endpoint": self.endpoint}
        if self.watch:
            knock["watch"] = True
        self.outgoing.append(seal_lobby("knock", knock, self.me))

    @property
    def seated(self) -> bool:
        return any(m.key == self.me.key.public for m in self.members)

    def tick(self, now: float) -> None:
        """Seated and waiting for the table to fill: tell the host we are here."""
        if self.seated and self.genesis is None and now >= self._next_here:
            self._next_here = now + HERE_EVERY
            self.outgoing.append(seal_lobby("here", {"v": self._version}, self.me))

    def receive(self, frame: bytes) -> None:
        """Handle a frame that came to our inbox on the lobby channel: LobbyError
        when joining cannot succeed, LobbyIgnored for a frame to drop and log.

        Anyone can reach our inbox, so only the host can stop us: a frame that
        does not open, is not signed by the host, or answers another knock is
        ignored."""
        try:
            kind, key, data = open_lobby(frame)
        except LobbyError as exc:
            raise LobbyIgnored(str(exc)) from None
        if self.host_key is not None and key != self.host_key:
            raise LobbyIgnored("a lobby message not signed by the host")
        if kind in ("challenge", "denied") and data.get("re") != self._exchange.message:
            raise LobbyIgnored(f"a {kind} for another knock")
        if kind == "denied":
            if self.seated:
                raise LobbyIgnored("a denial after we were seated")
            raise LobbyError(f"the host refused: {data.get('reason')}")
        if kind == "challenge":
            return self._challenge(key, data)
        if kind == "roster":
            if key != self.host_key:
                raise LobbyIgnored("a roster before the host proved the code")
            return self._roster(data)
        if kind == "watching" and self.watch:
            if key != self.host_key or data.get("table") != self.table:
                raise LobbyIgnored("a welcome before the host proved the code")
            self.watching = data
            return None
        raise LobbyIgnored(f"unexpected lobby message {kind!r}")

    def _challenge(self, key: bytes, data: dict) -> None:
        if self.host_key is not None:
            raise LobbyIgnored("a second challenge")
        table, game, options, seats = (data.get(f) for f in ("table", "game", "options", "seats"))
        if not (
            isinstance(table, bytes)
            and len(table) == 16
            and isinstance(game, str)
            and isinstance(options, dict)
            and isinstance(seats, int)
            and not isinstance(seats, bool)
        ):
            raise LobbyError("malformed challenge from the host")
        try:
            spake_key = self._exchange.finish(data.get("pake"))
        except PakeError as exc:
            raise LobbyError(f"malformed challenge from the host: {exc}") from None
        confirm = join_code.confirmation_key(spake_key, table, key, self.me.key.public)
        if not join_code.proof_matches(data.get("proof"), confirm, b"host"):
            raise LobbyError(
                "wrong join code: it does not match the table's (check what the host printed)"
            )
        # From here on the host has proved the code: what it says is the table's.
        self.host_key, self.table, self.game, self.options = key, table, game, options
        self.spectators = data.get("spectators") is True
        if self.watch:
            answer = {"name": self.name, "proof": join_code.proof(confirm, b"joiner")}
            self.outgoing.append(seal_lobby("watch", answer, self.me))
            return
        reply = {
            "name": self.name,
            "chain": self.me.chain.head,
            "link": self.me.link_public,
            "deck": self.me.deck_key(table),
            "proof": join_code.proof(confirm, b"joiner"),
        }
        self.outgoing.append(seal_lobby("join", reply, self.me))

    def _roster(self, data: dict) -> None:
        if self.genesis is not None:
            raise LobbyIgnored("a roster after the genesis")
        raw, genesis, version = data.get("members"), data.get("genesis"), data.get("v")
        if not (isinstance(raw, list) and isinstance(genesis, bytes) and type(version) is int):
            raise LobbyIgnored("malformed roster")
        if data.get("table") != self.table:
            raise LobbyIgnored("a roster for another table")
        try:
            members = [Member.parse(m) for m in raw]
        except LobbyError as exc:
            raise LobbyIgnored(f"malformed roster: {exc}") from None
        if version <= self._version:
            # Each roster has a number; one that went by another link may come late.
            raise LobbyIgnored("an older roster")
        if not members or members[0].key != self.host_key:
            raise LobbyError("the host's roster does not seat the host first")
        ours = [m for m in members if m.key == self.me.key.public]
        if not ours and self.seated:
            raise LobbyError("the host freed our seat (it did not hear from us): join again")
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
        self._version = version
        self._next_here = 0.0  # answer this roster at once (the host's roll call)
        watchers = data.get("watchers")
        if isinstance(watchers, list):  # who watches, for the screen only
            self.watchers = [
                w for w in watchers[:MAX_WATCHERS] if isinstance(w, str) and _printable_name(w)
            ]
        if genesis:
            expected = genesis_for(
                self.game or "", self.options, members, self.me.chain.length, self.table or b""
            )
            if genesis != expected:
                raise LobbyError("the host's genesis does not match the roster")
            self.genesis = expected
