"""The spectators' channel: lines spectators write at a table that lets them
(``host --spectators-talk``), kept apart from the seats' talk (sans-IO).

How it works: a line is a small frozen value (:class:`SpectatorLine`: the
spectator's name and public key, its own counter ``n``, the log length ``at``
when it was said, the text) signed by the spectator's own Ed25519 key (the key
its knock was signed with and its handshake proved, wire.md 3.5) under a domain
of its own (``p2ptable/spectator-talk/v1``) and the game id.  So a spectator's
line can never pass for a seat's line (another domain, another key, another
frame kind), an entry or a lobby frame, nor for a line at another table.

Who carries it: a spectator talks only to the host.  It sends its record in a
``say`` lobby frame bound to its handshake (lobby_binding.py), so only an
admitted spectator can post, and only as itself.  The host's :class:`Channel`
checks it (the record's key is the sender's, its name the one admitted, ``n``
rising), holds it to the spectator's rate and to the table's, and keeps it;
the host's peer relays it to every seat in a ``spectators`` game frame, and the
other spectators pull it with the log (gallery.py).  Every reader
(:class:`Heard`) checks the signature again with the key the record names, so
the host may drop a line or admit whom it likes, but never put words in an
admitted spectator's mouth.

Every bound is here.  A spectator: :data:`BURST` lines at once, then one every
:data:`REFILL` seconds (the host allows twice the burst: lines may arrive
bunched, and checks this before any signature); the whole gallery:
:data:`TABLE_BURST`, then one every :data:`TABLE_REFILL` seconds, so eight
spectators flooding cost the seats at most one small frame a second;
:data:`MAX_LINES` in a game.  A reader holds the host to twice the table's
burst at the same rate.  Text follows the seats' rules (net/talk.py's
``clean_text``): one printable line of at most 200 characters, refused, never
repaired, when it is not already clean.

The channel is ephemeral: no record of it is written beside the replay
(protocol/replay.md section 11 says why), so ``verify``, ``show`` and
``export`` never see it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.signing import SigningKey, verify_signature
from p2ptable.net.talk import MAX_TEXT, clean_text

DOMAIN = b"p2ptable/spectator-talk/v1\x00"
MAX_RECORD = 1280  # bytes: the text (800), a name (128), a key, the fields, a signature
MAX_NAME = 32  # characters: the lobby's limit for a name
BURST = 3  # lines one spectator may send at once ...
REFILL = 4.0  # ... then one more every this many seconds
TABLE_BURST = 5  # lines the whole gallery may send at once ...
TABLE_REFILL = 1.0  # ... then one more every this many seconds
MAX_LINES = 500  # lines one game's channel keeps; past it the channel is closed


class Refused(Exception):
    """Our own line that we will not send: the reason is for the person."""


class Rejected(Exception):
    """A record someone sent that we must not show (malformed, forged, not theirs)."""


@dataclass(frozen=True)
class SpectatorLine:
    """One line a spectator said."""

    name: str
    key: bytes  # the spectator's public signing key
    n: int  # its own counter: 1, 2, 3, ...
    at: int  # the log length it had read when it said it
    text: str

    def to_body(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "key": self.key,
            "n": self.n,
            "name": self.name,
            "t": "spectator",
            "text": self.text,
        }

    @classmethod
    def parse(cls, body: object) -> SpectatorLine:
        """The line in a decoded body; ValueError naming what is wrong."""
        if type(body) is not dict or set(body) != {"at", "key", "n", "name", "t", "text"}:
            raise ValueError("a spectator's line is a map of at, key, n, name, t and text")
        if body["t"] != "spectator":
            raise ValueError("not a spectator's line")
        for count in ("at", "n"):
            if type(body[count]) is not int or body[count] < 0:
                raise ValueError(f"its {count} is not a count")
        if body["n"] < 1:
            raise ValueError("its n starts at 1")
        if type(body["key"]) is not bytes or len(body["key"]) != 32:
            raise ValueError("its key is not 32 bytes")
        name = body["name"]
        if type(name) is not str or not 0 < len(name) <= MAX_NAME or not name.isprintable():
            raise ValueError(f"its name is not 1..{MAX_NAME} printable characters")
        text = body["text"]
        if type(text) is not str or not text or clean_text(text) != text:
            raise ValueError(f"its text is not one clean line of at most {MAX_TEXT} characters")
        return cls(name, body["key"], body["n"], body["at"], text)


def make_record(key: SigningKey, game_id: bytes, line: SpectatorLine) -> bytes:
    body = pack(line.to_body())
    return pack([body, key.sign(DOMAIN + game_id + body)])


def open_record(record: object, game_id: bytes) -> SpectatorLine:
    """The line in ``record`` after checking its shape and its signature by the
    key it names; :class:`Rejected` otherwise."""
    if type(record) is not bytes or len(record) > MAX_RECORD:
        raise Rejected(f"a spectator's record is at most {MAX_RECORD} bytes")
    try:
        outer = unpack_canonical(record)
        if type(outer) is not list or len(outer) != 2:
            raise ValueError("a record is [body, signature]")
        body_bytes, signature = outer
        if type(body_bytes) is not bytes or type(signature) is not bytes:
            raise ValueError("a record is [body, signature] of bytes")
        line = SpectatorLine.parse(unpack_canonical(body_bytes))
    except (EncodingError, ValueError) as exc:
        raise Rejected(f"malformed spectator's line: {exc}") from None
    if not verify_signature(line.key, signature, DOMAIN + game_id + body_bytes):
        raise Rejected(f"a line of {line.name}'s whose signature does not check")
    return line


@dataclass
class Bucket:
    """A token bucket: ``capacity`` at once, then one more every ``refill`` s."""

    capacity: float
    refill: float
    tokens: float = -1.0
    since: float | None = None

    def take(self, now: float) -> bool:
        if self.since is None:
            self.tokens, self.since = self.capacity, now
        gained = max(0.0, now - self.since) / self.refill
        self.tokens = min(self.capacity, self.tokens + gained)
        self.since = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass
class Mouth:
    """A spectator's own side: its lines, cleaned, counted and held to its rate."""

    key: SigningKey
    name: str
    game_id: bytes
    said: int = 0
    bucket: Bucket = field(default_factory=lambda: Bucket(BURST, REFILL))

    def say(self, text: str, at: int, now: float) -> tuple[SpectatorLine, bytes]:
        """Our line and its record, for the host; Refused with the reason."""
        cleaned = clean_text(text)
        if not cleaned:
            raise Refused("nothing to say: the line is empty")
        if self.said >= MAX_LINES:
            raise Refused(f"the spectators' channel is closed: at most {MAX_LINES} lines")
        if not self.bucket.take(now):
            raise Refused(f"slow down: at most {BURST} lines at once, then one every {REFILL:g} s")
        self.said += 1
        line = SpectatorLine(self.name, self.key.public, self.said, at, cleaned)
        return line, make_record(self.key, self.game_id, line)


@dataclass
class Channel:
    """The host's side: the lines its admitted spectators post, checked and
    bounded, kept in the order heard (what seats and spectators are sent)."""

    game_id: bytes
    records: list[bytes] = field(default_factory=list)
    dropped: int = 0  # lines over a rate or the cap: not kept, not relayed
    _last: dict[bytes, int] = field(default_factory=dict)  # key -> highest n kept
    _buckets: dict[bytes, Bucket] = field(default_factory=dict)
    _table: Bucket = field(default_factory=lambda: Bucket(TABLE_BURST, TABLE_REFILL))

    def post(self, key: bytes, name: str, record: object, now: float) -> SpectatorLine | None:
        """A line the admitted spectator ``key`` (called ``name``) sent: the line
        to relay (its record is kept), None for a copy or a line over a bound,
        Rejected for a record that is not this spectator's well-formed line."""
        # The spectator's own rate first: a flood costs one token check per
        # frame, not a signature check.  Its lines may arrive bunched by the
        # network: twice the burst it holds itself to, at the same rate.
        bucket = self._buckets.setdefault(key, Bucket(2 * BURST, REFILL))
        if len(self.records) >= MAX_LINES or not bucket.take(now):
            self.dropped += 1
            return None
        line = open_record(record, self.game_id)
        if line.key != key or line.name != name:
            raise Rejected(f"{name} sent a line signed as {line.name}")
        if line.n <= self._last.get(key, 0):
            return None  # a copy: its frame was sent again
        if not self._table.take(now):
            self.dropped += 1
            return None
        assert isinstance(record, bytes)  # open_record takes nothing else
        self._last[key] = line.n
        self.records.append(record)
        return line


@dataclass
class Heard:
    """A reader's side (a seat, or another spectator): records the host passes
    on, each checked, a copy dropped, the host held to a rate and a cap."""

    game_id: bytes
    own: bytes | None = None  # a spectator's own key: its lines it shows as it says them
    # A seat holds the host to a rate; a spectator pulls (gallery.py), FEED_TALK
    # records an answer at most, and may be catching up: no rate, the cap only.
    rate: bool = True
    kept: int = 0
    dropped: int = 0
    _last: dict[bytes, int] = field(default_factory=dict)
    _bucket: Bucket = field(default_factory=lambda: Bucket(2 * TABLE_BURST, TABLE_REFILL))

    def receive(self, record: object, now: float) -> SpectatorLine | None:
        """The line to show, None for a copy, our own, or one over a bound;
        Rejected for a record that does not check (the host passed it on)."""
        line = open_record(record, self.game_id)
        if line.key == self.own or line.n <= self._last.get(line.key, 0):
            return None
        if self.kept >= MAX_LINES or (self.rate and not self._bucket.take(now)):
            self.dropped += 1
            return None
        self._last[line.key] = line.n
        self.kept += 1
        return line
