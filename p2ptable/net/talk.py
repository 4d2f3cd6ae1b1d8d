"""Table talk: short signed lines between the seats, beside the game, never in its way.

How it works: a line is a small frozen value (:class:`TalkLine`: the seat, its
own counter ``n``, the log length ``at`` when it was said, the text) signed by
the seat's Ed25519 key under its own domain (``p2ptable/talk/v1``) and the game
id, so a line can never pass for an entry, a lobby frame or a line of another
game.  A record is ``pack([body, signature])`` (the replay's format,
replay/talk_record.py); the sender sends it to every
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

from p2ptable.crypto.signing import SigningKey

# The signed record is the replay's format (replay/talk_record.py), named here
# too, where the seats' talk is made and taken.
from p2ptable.replay.talk_record import MAX_LINES as MAX_LINES
from p2ptable.replay.talk_record import MAX_RECORD as MAX_RECORD
from p2ptable.replay.talk_record import MAX_TEXT as MAX_TEXT
from p2ptable.replay.talk_record import TALK_DOMAIN as TALK_DOMAIN
from p2ptable.replay.talk_record import TalkLine as TalkLine
from p2ptable.replay.talk_record import TalkRejected as TalkRejected
from p2ptable.replay.talk_record import clean_text as clean_text
from p2ptable.replay.talk_record import make_record as make_record
from p2ptable.replay.talk_record import open_record as open_record
from p2ptable.replay.talk_record import signed_message as signed_message

BURST = 5  # lines a seat may send at once ...
REFILL = 2.0  # ... then one more every this many seconds


class TalkRefused(Exception):
    """Our own line that we will not send: the reason is for the person."""


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
