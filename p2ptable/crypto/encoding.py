"""Canonical msgpack: one byte string per value, so signatures and hashes are stable.

How it works: maps are written with their keys sorted (keys must be str), byte
strings as msgpack ``bin``, text as ``str``, integers in their shortest form (what
msgpack-python does already).  Floats are not allowed anywhere in the protocol.
:func:`unpack_canonical` decodes and then re-encodes; if the bytes differ the input
was not canonical and is rejected, so no message has two valid encodings.
Callers that know their message's shape (log entries, see replay/entries.py) use
:func:`unpack_plain` and :func:`encodes_to` for a quicker path to the same answer.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgpack

# Generous for a game entry, tight enough that a hostile peer cannot make us
# allocate much: no entry of any game comes near these.
MAX_ITEMS = 4096
MAX_BYTES = 1 << 20


class EncodingError(ValueError):
    """The bytes are not a canonical msgpack value of the allowed shape."""


# One packer for every call: msgpack.packb builds (and allocates a buffer for) a new
# Packer each time, which costs more than packing a log entry.  Packing runs in C
# without calling back into Python (no ``default`` hook), so it is never re-entered,
# and it resets its buffer after every value, even one it could not pack.
class _Packer(Protocol):
    # The one method we use of msgpack's Packer (msgpack ships no type hints).
    def pack(self, obj: Any) -> bytes: ...


_PACKER: _Packer = msgpack.Packer(use_bin_type=True)


def _canonical(value: Any) -> Any:
    # Exact type checks first: this runs for every value of every message.
    kind = type(value)
    if kind is bytes or kind is int or kind is str or value is None or kind is bool:
        return value
    if kind is dict:
        if not all(type(k) is str for k in value):
            raise EncodingError("map keys must be text")
        return {k: _canonical(value[k]) for k in sorted(value)}
    if kind is list or kind is tuple:
        return [_canonical(v) for v in value]
    if isinstance(value, float):
        raise EncodingError("floats are not allowed")
    if isinstance(value, (int, str, bytes)):  # subclasses (IntEnum, ...) as their base
        return value
    raise EncodingError(f"cannot encode {kind.__name__}")


def pack(value: Any) -> bytes:
    """Encode ``value`` canonically (sorted map keys, bin for bytes)."""
    return _PACKER.pack(_canonical(value))


def pack_as_is(value: Any) -> bytes:
    """Encode ``value`` exactly as it is: canonical only if every map in it
    already has its text keys in sorted order and nothing is a float (a value
    built from decoded canonical parts, keys written in order)."""
    return _PACKER.pack(value)


def check_decoded(value: Any) -> None:
    """Maps have sorted text keys and nothing is a float (what packb can't see)."""
    kind = type(value)
    if kind is dict:
        keys = list(value)
        if not all(type(k) is str for k in keys):
            raise EncodingError("disallowed value: map keys must be text")
        if keys != sorted(keys):
            raise EncodingError("not in canonical form (keys unsorted or non-minimal encoding)")
        for item in value.values():
            if type(item) in _CONTAINERS:
                check_decoded(item)
    elif kind is list:
        for item in value:
            if type(item) in _CONTAINERS:
                check_decoded(item)
    elif kind is float:
        raise EncodingError("disallowed value: floats are not allowed")


_CONTAINERS = (dict, list, float)


def unpack_plain(data: bytes) -> Any:
    """Decode ``data`` within the size limits, without the canonical-form checks:
    the caller must prove them (unsorted keys, floats, :func:`encodes_to`)."""
    if len(data) > MAX_BYTES:
        raise EncodingError(f"{len(data)} bytes is over the {MAX_BYTES}-byte limit")
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_bin_len=MAX_BYTES,
            max_str_len=MAX_BYTES,
            max_array_len=MAX_ITEMS,
            max_map_len=MAX_ITEMS,
            max_ext_len=0,
        )
    except (msgpack.exceptions.ExtraData, ValueError, TypeError) as exc:
        raise EncodingError(f"malformed msgpack: {exc}") from None
    except Exception as exc:  # msgpack raises a few unrelated types on garbage
        raise EncodingError(f"malformed msgpack: {type(exc).__name__}: {exc}") from None


def encodes_to(value: Any, data: bytes) -> bool:
    """True when re-encoding a decoded ``value`` as-is gives exactly ``data``: that
    rules out non-minimal integers and lengths, str/bin confusion and float32."""
    return _PACKER.pack(value) == data


def unpack_canonical(data: bytes) -> Any:
    """Decode ``data`` and require that it is exactly the canonical encoding."""
    value = unpack_plain(data)
    check_decoded(value)
    if not encodes_to(value, data):
        raise EncodingError("not in canonical form (keys unsorted or non-minimal encoding)")
    return value
