"""Authenticated wire messages between seated peers (protocol/wire.md).

A frame on the wire is ``pack([envelope, tag])`` where ``envelope`` is the
canonical msgpack of::

    {"k": kind, "table": game_id, "from": seat, "boot": 8 bytes, "seq": n, "d": {...}}

and ``tag`` is the 16-byte HMAC-SHA256 of ``WIRE_DOMAIN || envelope`` under the
link key the sender shares with the receiver (crypto/links.py).  ``boot`` is random
per process start and ``seq`` counts frames within a boot, so a replayed frame is
recognised; the game id ties every frame to one table.  What a frame carries that
must convince third parties (moves, results, aborts) is signed inside the entries
themselves.  :func:`open_frame` checks all of it and raises
:class:`RemoteProtocolError` with a specific reason: the peer, not us, was wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgpack

from p2ptable.crypto.encoding import pack
from p2ptable.crypto.links import TAG_LEN, check_tag, tag

WIRE_DOMAIN = b"p2ptable/wire/v1\x00"
MAX_FRAME = 256 * 1024

# kind -> required data fields and their types
KINDS: dict[str, dict[str, type]] = {
    "hello": {"len": int},
    "ping": {"len": int, "head": bytes},
    "entry": {"entry": bytes},
    "reveal": {"i": int, "prev": bytes, "step": int, "pre": bytes},
    "rsig": {"i": int, "sig": bytes},
    "part": {"entry": bytes},
    "get": {"from": int},
    "entries": {"from": int, "entries": list},
    "stop": {"entry": bytes},
    "gsig": {"sig": bytes},
}


class RemoteProtocolError(Exception):
    """A peer sent something we must reject.  ``seat`` is the sender when known."""

    def __init__(self, reason: str, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


@dataclass(frozen=True)
class Message:
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
    only the tags differ (a broadcast costs one encoding and N HMACs)."""
    envelope = pack(
        {
            "k": message.kind,
            "table": message.table,
            "from": message.sender,
            "boot": message.boot,
            "seq": message.seq,
            "d": message.data,
        }
    )
    signed = WIRE_DOMAIN + envelope
    return [pack([envelope, tag(key, signed)]) for key in link_keys]


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


def open_frame(frame: bytes, table: bytes, link_keys: Sequence[bytes | None]) -> Message:
    """Decode and authenticate ``frame``; RemoteProtocolError says what is wrong.

    ``link_keys[seat]`` is the key shared with that seat (None for our own seat).
    """
    if len(frame) > MAX_FRAME:
        raise RemoteProtocolError(f"oversized frame ({len(frame)} bytes > {MAX_FRAME})")
    outer = _decode(frame)
    if not (
        isinstance(outer, list)
        and len(outer) == 2
        and isinstance(outer[0], bytes)
        and isinstance(outer[1], bytes)
    ):
        raise RemoteProtocolError("malformed frame: expected [envelope, tag]")
    envelope_bytes, received_tag = outer
    env = _decode(envelope_bytes)
    fields = {"k": str, "table": bytes, "from": int, "boot": bytes, "seq": int, "d": dict}
    if not isinstance(env, dict) or set(env) != set(fields):
        raise RemoteProtocolError("malformed envelope: wrong fields")
    for name, typ in fields.items():
        if not isinstance(env[name], typ) or (typ is int and isinstance(env[name], bool)):
            raise RemoteProtocolError(f"malformed envelope: {name} must be {typ.__name__}")
    sender = env["from"]
    if env["table"] != table:
        raise RemoteProtocolError("message for another table", None)
    if not 0 <= sender < len(link_keys) or link_keys[sender] is None:
        raise RemoteProtocolError(f"unknown sender seat {sender}")
    key = link_keys[sender]
    assert key is not None
    if len(received_tag) != TAG_LEN or not check_tag(
        key, WIRE_DOMAIN + envelope_bytes, received_tag
    ):
        raise RemoteProtocolError(f"bad authentication tag (claimed seat {sender})")
    kind = env["k"]
    if kind not in KINDS:
        raise RemoteProtocolError(f"unknown message type {kind!r}", sender)
    data = env["d"]
    spec = KINDS[kind]
    if set(data) != set(spec) or not all(
        isinstance(data[k], t) and not (t is int and isinstance(data[k], bool))
        for k, t in spec.items()
    ):
        raise RemoteProtocolError(f"malformed {kind} message", sender)
    if len(env["boot"]) != 8 or env["seq"] < 0:
        raise RemoteProtocolError("malformed envelope: boot/seq", sender)
    return Message(kind, env["table"], sender, env["boot"], env["seq"], data)
