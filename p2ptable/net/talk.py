"""Table talk: short signed lines between the seats, beside the game, never in its way.

How it works: a line is a small frozen value (:class:`TalkLine`: the seat, its
own counter ``n``, the log length ``at`` when it was said, the text) signed by
the seat's Ed25519 key under its own domain (``p2ptable/talk/v1``) and the game
id, so a line can never pass for an entry, a lobby frame or a line of another
game.  A record is ``pack([body, signature])``; the sender sends it to every
seat in a ``talk`` frame, and every peer keeps what it heard in a side record
beside its replay (``REPLAY.talk``, replay/talk_file.py).

Why not entries in the log: an entry needs its place agreed by every seat (the
hash chain), so a line in the log would wait for, and hold up, the move next to
it.  Talk must never delay a move, so it is kept beside the log: each line is
signed and checked, but its order is only per sender (``n`` rises), and
``show``/``export`` place it at the position ``at`` it names.

:class:`TalkBook` is sans-IO: :meth:`say` makes our record (or refuses, with the
reason to show the person), :meth:`receive` checks a peer's (or raises
:class:`TalkRejected` naming the sender) and returns the line to show, or None
for a line already heard.  Every bound is here: the length of a line, a rate per
seat (a token bucket: a burst of ``BURST``, then one line per ``REFILL``
seconds), and a cap on the lines a game keeps, so a peer flooding talk costs the
others one signature check per frame and nothing else.  Text is one printable
line (``str.isprintable``: no escape sequences, no bidi overrides, no newlines);
a record whose text is not exactly its cleaned form is refused, not repaired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.signing import SigningKey, verify_signature

TALK_DOMAIN = b"p2ptable/talk/v1\x00"
MAX_TEXT = 200  # characters: a line a person reads at a glance
MAX_RECORD = 1024  # bytes: 200 characters of up to 4 bytes, the fields and a signature
BURST = 5  # lines a seat may send at once ...
REFILL = 2.0  # ... then one more every this many seconds
MAX_LINES = 2000  # lines one game keeps; past it, talk is closed for the game


class TalkRejected(Exception):
    """A record a peer sent that we must not show; ``seat`` sent it."""

    def __init__(self, reason: str, seat: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


class TalkRefused(Exception):
    """Our own line that we will not send: the reason is for the person."""


def clean_text(raw: str) -> str:
    """``raw`` as one line of talk: printable characters only, runs of white space
    as one space, at most ``MAX_TEXT`` characters.  Empty when nothing is left."""
    kept = "".join(c if c.isprintable() else " " for c in raw)
    return " ".join(kept.split())[:MAX_TEXT]


@dataclass(frozen=True)
class TalkLine:
    """One line said at the table."""

    seat: int
    n: int  # the sender's own counter: 1, 2, 3, ... (per game)
    at: int  # the log length when it was said
    text: str

    def to_body(self) -> dict[str, Any]:
        return {"at": self.at, "n": self.n, "seat": self.seat, "t": "talk", "text": self.text}

    @classmethod
    def parse(cls, body: object) -> TalkLine:
        """The line in a decoded body; ValueError naming what is wrong."""
        if type(body) is not dict or set(body) != {"at", "n", "seat", "t", "text"}:
            raise ValueError("a talk line is a map of at, n, seat, t and text")
        if body["t"] != "talk":
            raise ValueError("not a talk line")
        for field in ("at", "n", "seat"):
            if type(body[field]) is not int or body[field] < 0:
                raise ValueError(f"its {field} is not a count")
        if body["n"] < 1:
            raise ValueError("its n starts at 1")
        text = body["text"]
        if type(text) is not str or not text or clean_text(text) != text:
            raise ValueError("its text is not one clean line of at most 200 characters")
        return cls(body["seat"], body["n"], body["at"], text)


def signed_message(game_id: bytes, body_bytes: bytes) -> bytes:
    return TALK_DOMAIN + game_id + body_bytes


def make_record(key: SigningKey, game_id: bytes, line: TalkLine) -> bytes:
    body = pack(line.to_body())
    return pack([body, key.sign(signed_message(game_id, body))])


def open_record(record: object, game_id: bytes, keys: Sequence[bytes]) -> TalkLine:
    """The line in ``record`` after checking its shape and its seat's signature;
    :class:`TalkRejected` otherwise (naming the seat when the body says one)."""
    if type(record) is not bytes or len(record) > MAX_RECORD:
        raise TalkRejected(f"a talk record is at most {MAX_RECORD} bytes", None)
    try:
        outer = unpack_canonical(record)
        if type(outer) is not list or len(outer) != 2:
            raise ValueError("a talk record is [body, signature]")
        body_bytes, signature = outer
        if type(body_bytes) is not bytes or type(signature) is not bytes:
            raise ValueError("a talk record is [body, signature] of bytes")
        line = TalkLine.parse(unpack_canonical(body_bytes))
    except (EncodingError, ValueError) as exc:
        raise TalkRejected(f"malformed talk: {exc}", None) from None
    if line.seat >= len(keys):
        raise TalkRejected(f"talk from seat {line.seat}, which is not at the table", None)
    if not verify_signature(keys[line.seat], signature, signed_message(game_id, body_bytes)):
        raise TalkRejected("talk whose signature does not check", line.seat)
    return line


@dataclass
class _Bucket:
    capacity: float
    tokens: float
    since: float

    def take(self, now: float) -> bool:
        self.tokens = min(self.capacity, self.tokens + max(0.0, now - self.since) / REFILL)
        self.since = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class TalkBook:
    """The talk of one game as one seat hears it; bounded in every way."""

    def __init__(self, game_id: bytes, keys: Sequence[bytes], seat: int) -> None:
        self.game_id = game_id
        self.keys = tuple(keys)
        self.seat = seat
        self.lines: list[TalkLine] = []
        self.last: dict[int, int] = {}  # seat -> the highest n heard from it
        self.dropped = 0  # lines over a seat's rate or the game's cap, not kept
        self._buckets: dict[int, _Bucket] = {}

    def resume(self, lines: Sequence[TalkLine]) -> None:
        """Take back the lines kept on disk (after a restart)."""
        for line in lines:
            self.lines.append(line)
            self.last[line.seat] = max(self.last.get(line.seat, 0), line.n)

    def say(self, key: SigningKey, text: str, at: int, now: float) -> tuple[TalkLine, bytes]:
        """Our line and its record to send and keep; TalkRefused with the reason."""
        cleaned = clean_text(text)
        if not cleaned:
            raise TalkRefused("nothing to say: the line is empty")
        if len(self.lines) >= MAX_LINES:
            raise TalkRefused(f"talk is closed: this game keeps at most {MAX_LINES} lines")
        if not self._bucket(self.seat, now).take(now):
            raise TalkRefused(
                f"slow down: at most {BURST} lines at once, then one every {REFILL:g} s"
            )
        line = TalkLine(self.seat, self.last.get(self.seat, 0) + 1, at, cleaned)
        self._keep(line)
        return line, make_record(key, self.game_id, line)

    def receive(self, record: object, sender: int, now: float) -> TalkLine | None:
        """A line a seat sent us: the line to show and keep, None when it was
        heard before or is over a bound (counted in ``dropped``), TalkRejected
        when it is forged or malformed (the sender is at fault)."""
        line = open_record(record, self.game_id, self.keys)
        if line.seat != sender:
            raise TalkRejected(f"seat {sender} sent a line of seat {line.seat}", sender)
        if line.seat == self.seat:
            raise TalkRejected("a line of ours that we did not say", sender)
        if line.n <= self.last.get(line.seat, 0):
            return None  # a copy, or a replay of an old frame
        if len(self.lines) >= MAX_LINES or not self._bucket(line.seat, now).take(now):
            self.dropped += 1
            return None
        self._keep(line)
        return line

    def _keep(self, line: TalkLine) -> None:
        self.lines.append(line)
        self.last[line.seat] = line.n

    def _bucket(self, seat: int, now: float) -> _Bucket:
        bucket = self._buckets.get(seat)
        if bucket is None:
            # A peer's lines may arrive bunched by the network: we hold others
            # to twice the burst we hold ourselves to, at the same rate.
            capacity = float(BURST if seat == self.seat else 2 * BURST)
            bucket = self._buckets[seat] = _Bucket(capacity, capacity, now)
        return bucket
