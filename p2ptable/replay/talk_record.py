"""A line of table talk as a signed record: what a seat sends in a ``talk``
frame, and what a replay keeps beside itself in ``REPLAY.talk``
(replay/talk_file.py).  The format is the replay's (protocol/replay.md section
11); the network's part, who may say how much and when, is net/talk.py.

A line is a small frozen value (:class:`TalkLine`: the seat, its own counter
``n``, the log length ``at`` when it was said, the text) signed by the seat's
Ed25519 key under its own domain (``p2ptable/talk/v1``) and the game id, so a
line can never pass for an entry, a lobby frame or a line of another game.  A
record is ``pack([body, signature])``.  Text is one printable line
(``str.isprintable``: no escape sequences, no bidi overrides, no newlines); a
record whose text is not exactly its cleaned form is refused, not repaired.
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
MAX_LINES = 2000  # lines one game keeps; past it, talk is closed for the game


class TalkRejected(Exception):
    """A record a peer sent that we must not show; ``seat`` sent it."""

    def __init__(self, reason: str, seat: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


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
