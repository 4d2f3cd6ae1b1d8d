"""Authenticated wire messages between seated peers (protocol/wire.md).

A frame on the wire is ``tag || envelope`` where ``envelope`` is the canonical
msgpack of::

    {"k": kind, "table": game_id, "from": seat, "boot": 8 bytes, "seq": n, "d": {...}}

and ``tag`` is the 16-byte keyed BLAKE2b of ``envelope`` under the link key the
sender shares with the receiver, personalised with the wire version
(crypto/links.py).  ``boot`` is random per process start and ``seq`` counts frames
within a boot, so a replayed frame is recognised; the game id ties every frame to
one table.  What a frame carries that must convince third parties (moves, results,
aborts) is signed inside the entries themselves.  :func:`open_frame` checks all of
it and raises :class:`RemoteProtocolError` with a specific reason: the peer, not
us, was wrong.  Every peer opens every frame sent to it, so this is kept to one
decode and one tag.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import msgpack

from p2ptable.crypto.links import TAG_LEN, check_tag, tag

MAX_FRAME = 256 * 1024

# kind -> required data fields and their types
KINDS: dict[str, dict[str, type]] = {
    "hello": {"len": int, "ep": str},
    "ping": {"len": int, "head": bytes, "ep": str},
    # The answer to a hello: a ping, and the parts of the hello's sender that we
    # hold (a seat that resumed takes its own commit back: wire.md 6.10).
    "welcome": {"len": int, "head": bytes, "ep": str, "yours": list},
    "entry": {"entry": bytes},
    "reveal": {"i": int, "prev": bytes, "step": int, "pre": bytes},
    "rsig": {"i": int, "sig": bytes},
    "part": {"entry": bytes},
    # A staying seat's signed share of a leaver's deck secret (net/departure_round.py).
    "share": {"entry": bytes},
    "get": {"from": int},
    "entries": {"from": int, "entries": list},
    "stop": {"entry": bytes},
    "gsig": {"sig": bytes},
    "bye": {"why": str},
    # Beside the game (net/sideline.py): a signed line of talk, and one seat's
    # signature on a break (its own, or relayed: ``seat`` says whose).
    "talk": {"line": bytes},
    # A spectator's line, relayed by the host (seat 0) at a table whose genesis
    # lets spectators talk (net/spectator_talk.py).
    "spectators": {"line": bytes},
    "break": {"at": int, "head": bytes, "sig": bytes, "seat": int},
}


class RemoteProtocolError(Exception):
    """A peer sent something we must reject.  ``seat`` is the sender when known."""

    def __init__(self, reason: str, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


class Message(NamedTuple):
    """An opened frame.  (A named tuple: every peer builds one per frame it
    receives, and a frozen dataclass costs several times more to make.)"""

    kind: str
    table: bytes
    sender: int
    boot: bytes
    seq: int
    data: dict[str, Any]


def seal(message: Message, link_key: bytes) -> bytes:
    """The frame for ``message``, authenticated for the one peer sharing ``link_key``."""
    return seal_many(message, [link_key])[0]


def seal_many(message: Message, link_keys: Sequence[bytes]) -> list[bytes]:
    """One frame per key for the same message: the envelope is encoded once and
    only the tags differ (a broadcast costs one encoding and N tags)."""
    data = message.data
    # The canonical encoding (sorted keys), built directly: every field of every
    # kind is an int, str, bytes or list of bytes, so sorting the two maps' keys
    # is all canonical form asks here, and this runs for every frame we send.
    envelope = msgpack.packb(
        {
            "boot": message.boot,
            "d": {k: data[k] for k in sorted(data)},
            "from": message.sender,
            "k": message.kind,
            "seq": message.seq,
            "table": message.table,
        },
        use_bin_type=True,
    )
    return [tag(key, envelope) + envelope for key in link_keys]


def _decode(data: bytes) -> object:
    """Decode with size limits.  Frames need not be canonical: the tag covers the
    exact envelope bytes, and what is kept (entries) is checked canonically later."""
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_bin_len=MAX_FRAME,
            max_str_len=MAX_FRAME,
            max_array_len=4096,
            max_map_len=64,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises several types on garbage
        raise RemoteProtocolError(f"malformed frame: {type(exc).__name__}: {exc}") from None


_FIELDS = {"k": str, "table": bytes, "from": int, "boot": bytes, "seq": int, "d": dict}


def envelope_of(frame: bytes) -> dict[str, Any]:
    """The envelope of ``frame``, decoded but NOT authenticated (for tools and tests)."""
    if len(frame) <= TAG_LEN:
        raise RemoteProtocolError("malformed frame: no envelope after the tag")
    env = _decode(frame[TAG_LEN:])
    if type(env) is not dict or env.keys() != _FIELDS.keys():
        raise RemoteProtocolError("malformed envelope: wrong fields")
    for name, typ in _FIELDS.items():
        value = env[name]
        if type(value) is not typ:  # exact: no bool for int
            raise RemoteProtocolError(f"malformed envelope: {name} must be {typ.__name__}")
    return env


def open_frame(frame: bytes, table: bytes, link_keys: Sequence[bytes | None]) -> Message:
    """Decode and authenticate ``frame``; RemoteProtocolError says what is wrong.

    ``link_keys[seat]`` is the key shared with that seat (None for our own seat).
    """
    if len(frame) > MAX_FRAME:
        raise RemoteProtocolError(f"oversized frame ({len(frame)} bytes > {MAX_FRAME})")
    env = envelope_of(frame)
    sender = env["from"]
    if env["table"] != table:
        raise RemoteProtocolError("message for another table", None)
    if not 0 <= sender < len(link_keys) or link_keys[sender] is None:
        raise RemoteProtocolError(f"unknown sender seat {sender}")
    key = link_keys[sender]
    assert key is not None
    if not check_tag(key, frame[TAG_LEN:], frame[:TAG_LEN]):
        raise RemoteProtocolError(f"bad authentication tag (claimed seat {sender})")
    kind = env["k"]
    spec = KINDS.get(kind)
    if spec is None:
        raise RemoteProtocolError(f"unknown message type {kind!r}", sender)
    data = env["d"]
    if data.keys() != spec.keys() or not all(
        type(data[k]) is t or (t is not int and isinstance(data[k], t)) for k, t in spec.items()
    ):
        raise RemoteProtocolError(f"malformed {kind} message", sender)
    if len(env["boot"]) != 8 or env["seq"] < 0:
        raise RemoteProtocolError("malformed envelope: boot/seq", sender)
    return Message(kind, env["table"], sender, env["boot"], env["seq"], data)
