"""Log entries: small frozen values, their canonical bytes and their signatures.

How it works
------------
An entry is ``[body, sigs]`` encoded with canonical msgpack (protocol/replay.md):

* ``body`` is itself the canonical msgpack encoding of a map (kept as bytes, so a
  signature is checked over exactly the bytes that were signed);
* ``sigs`` is a list of ``[seat, signature]`` pairs.

The entry's hash is SHA-256 of its full encoding, and every entry after the genesis
carries the previous entry's hash in ``prev``, so the log is a hash chain.

Signatures are over ``SIG_DOMAIN || game_id || body`` (genesis, actions, shuffles,
results, aborts, and the ``part`` bodies that travel on the wire but are bundled
into ``open`` and ``secrets`` entries, see replay/sealed_book.py).  A chance entry
carries no signature: it holds every seat's next hash-chain value, and a value
that hashes to the seat's previous one could only have come from that seat (its
chain head is in the signed genesis), so the chain, not a signature,
authenticates it.  The game id is
``SHA-256(GAME_ID_DOMAIN || genesis body)``.

Every peer decodes every entry, so :meth:`Entry.decode` first tries a quick path
that only ever says "valid": it matches the body's keys against a table of the
exact key lists each kind may have, so the per-key work of the generic checks
is not repeated.  Anything it cannot prove valid goes through the full checks,
which give the same answer and the exact error.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from p2ptable.crypto.encoding import (
    EncodingError,
    check_decoded,
    encodes_to,
    pack,
    pack_as_is,
    unpack_canonical,
    unpack_plain,
)
from p2ptable.crypto.signing import SigningKey, sha256
from p2ptable.replay.kinds import BODIES, KIND_OF, LAYOUTS, OPTIONAL, SHAPES, Body, Kind

# Kept importable from here, where callers have always found them.
from p2ptable.replay.kinds import MalformedEntry as MalformedEntry
from p2ptable.replay.kinds import check_body_shape as check_body_shape

# The version a genesis names.  2 brought secret simultaneous choices (commits and
# choices entries); 3 keeps a choices entry's openings without their signatures
# (each opens a signed commit, so no one else could have made it: replay/choices.py).
# A replay of version 1 or 2 still verifies, version 1 read with the rules of then
# (engine.api.OptionSpec.legacy).
PROTOCOL = "p2ptable/3"
LEGACY = "p2ptable/1"
SIGNED_CHOICES = "p2ptable/2"  # the last version whose choices parts carry signatures
READABLE = (LEGACY, SIGNED_CHOICES, PROTOCOL)
SIG_DOMAIN = b"p2ptable/sig/v1\x00"
GAME_ID_DOMAIN = b"p2ptable/game-id/v1\x00"

# Every kind of entry a log may hold (replay/kinds.py names them; replay/rows.py
# is the registry of what each is and does).
KINDS = tuple(kind for kind in Kind if kind in BODIES and kind != Kind.PART)


_T = TypeVar("_T")


class _cached(Generic[_T]):
    """``functools.cached_property`` without its lock: on Python 3.11 that takes an
    RLock on each first access, about 1 us for an entry whose hash is read once."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> _T:
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@dataclass(frozen=True)
class Entry:
    """One signed log entry.  ``body`` is the decoded map, ``body_bytes`` its encoding."""

    body_bytes: bytes
    sigs: tuple[tuple[int, bytes], ...]

    @_cached
    def body(self) -> dict[str, Any]:
        """The decoded body; MalformedEntry if it is not a body of a known kind."""
        try:
            body: dict[str, Any] = unpack_canonical(self.body_bytes)  # shape checked below
        except EncodingError as exc:
            raise MalformedEntry(f"body: {exc}") from None
        check_body_shape(body)
        return body

    @property
    def kind(self) -> Kind:
        return KIND_OF[self.body["t"]]  # check_body_shape: "t" is the text of a known kind

    @_cached
    def typed(self) -> Body:
        """The body as its kind's frozen value (replay/kinds.py), made once."""
        return BODIES[self.kind].checked(self.body)

    def encode(self) -> bytes:
        return self.encoded

    @_cached
    def encoded(self) -> bytes:
        # Bytes and ints in lists, no map: canonical as it is (no canonical pass).
        return pack_as_is([self.body_bytes, [[seat, sig] for seat, sig in self.sigs]])

    @_cached
    def hash(self) -> bytes:
        return hashlib.sha256(self.encoded).digest()  # one part: no need for signing.sha256

    @classmethod
    def decode(cls, data: bytes) -> Entry:
        fast = _decode_fast(data)
        if fast is not None:
            body_bytes, sigs, body = fast
            entry = cls(body_bytes, sigs)
            entry.__dict__["body"] = body
            entry.__dict__["encoded"] = data
            return entry
        try:
            outer = unpack_canonical(data)
        except EncodingError as exc:
            raise MalformedEntry(str(exc)) from None
        if not (isinstance(outer, list) and len(outer) == 2 and isinstance(outer[0], bytes)):
            raise MalformedEntry("an entry is [body bytes, signatures]")
        body_bytes, sig_list = outer
        if not isinstance(sig_list, list):
            raise MalformedEntry("signatures must be a list")
        pairs: list[tuple[int, bytes]] = []
        for item in sig_list:
            if not (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and not isinstance(item[0], bool)
                and isinstance(item[1], bytes)
            ):
                raise MalformedEntry("a signature is [seat, bytes]")
            pairs.append((item[0], item[1]))
        entry = cls(body_bytes, tuple(pairs))
        entry.body  # noqa: B018 - decode and shape-check now, so decode() fails early
        entry.__dict__["encoded"] = data  # canonical, so identical to a re-encoding
        return entry


# Kept importable from here: the shape of every kind is its body type's fields.
_SHAPES = SHAPES
_OPTIONAL = OPTIONAL
_LAYOUTS = LAYOUTS


def _decode_fast(data: bytes) -> tuple[bytes, tuple[tuple[int, bytes], ...], dict[str, Any]] | None:
    """``(body bytes, signatures, body)`` when ``data`` is an entry that the full
    checks (unpack_canonical on the entry and its body, check_body_shape) would
    accept with that result; None when it is not, or not quickly seen to be, so
    that the caller runs them for the verdict and the exact error.

    Why this proves the same thing: the entry is ``[bytes, [[int, bytes], ...]]``,
    which holds no map and no float, so only its re-encoding has to match; the
    body's keys, in their decoded order, equal a sorted list of text keys of one
    kind (so keys are text, sorted, and exactly that kind's fields); each field has
    exactly its type (never a float, never a bool for an int), nested maps and
    lists pass the generic check, and the body re-encodes to its bytes.
    """
    try:
        outer = unpack_plain(data)
        if type(outer) is not list or len(outer) != 2:
            return None
        body_bytes, sig_list = outer
        if type(body_bytes) is not bytes or type(sig_list) is not list:
            return None
        sigs = []
        for item in sig_list:
            if type(item) is not list or len(item) != 2:
                return None
            seat, sig = item
            if type(seat) is not int or type(sig) is not bytes:
                return None
            sigs.append((seat, sig))
        if not encodes_to(outer, data):
            return None
        body = unpack_plain(body_bytes)
        if type(body) is not dict:
            return None
        kind = body.get("t")
        if type(kind) is not str:
            return None
        layout = LAYOUTS.get((kind, tuple(body)))
        if layout is None or tuple(map(type, body.values())) != layout[0]:
            return None
        for name in layout[1]:
            check_decoded(body[name])
        if "prev" in body and len(body["prev"]) != 32:
            return None
        if not encodes_to(body, body_bytes):
            return None
    except Exception:  # whatever it is, the full checks report it exactly
        return None
    return body_bytes, tuple(sigs), body


def bundled_parts(bundle: dict[str, Any]) -> list[Entry]:
    """The ``part`` entries a bundle (BUNDLE_KINDS) holds, rebuilt from its
    ``parts`` (in seat order: every seat for an ``open`` or ``secrets``, the
    asked ``seats`` for ``commits`` and ``choices``): each ``[msg, signature]``,
    rebuilt signed by its seat (the signatures are not checked here), or, in a
    ``choices`` entry of protocol 3, each a bare ``msg`` (an opening of a signed
    commit), rebuilt with no signature.  A bundle is all one or all the other;
    the ledger checks which its protocol wants.  ``bundle`` is a decoded body
    (``Entry.body``), so each part's body bytes are :func:`part_body`'s."""
    parts = bundle["parts"]
    seats = bundle.get("seats", list(range(len(parts))))
    if len(seats) != len(parts) or not all(type(s) is int for s in seats):
        raise MalformedEntry("a bundle needs one part per contributing seat")
    index, prev = bundle["i"], bundle["prev"]
    if bundle["t"] == _CHOICES and parts and all(isinstance(p, dict) for p in parts):
        return [Entry(part_body(index, prev, s, m), ()) for s, m in zip(seats, parts, strict=True)]
    out = []
    for seat, item in zip(seats, parts, strict=True):
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], dict)
            and isinstance(item[1], bytes)
        ):
            raise MalformedEntry("a bundled part is [message map, signature]")
        out.append(Entry(part_body(index, prev, seat, item[0]), ((seat, item[1]),)))
    return out


def unsigned_bundle(bundle: dict[str, Any]) -> bool:
    """Whether ``bundle`` (a decoded body) holds its parts without signatures: a
    ``choices`` entry of protocol 3, whose openings prove themselves."""
    parts: Any = bundle.get("parts")  # a list for a bundle's kinds (check_body_shape)
    return bundle["t"] == _CHOICES and bool(parts) and isinstance(parts[0], dict)


def part_body(index: int, prev: bytes, seat: int, msg: dict[str, Any]) -> bytes:
    """``make_body(t="part", i=index, prev=prev, seat=seat, msg=msg)`` for values
    taken from a decoded bundle body, without its checks and its canonical pass:
    every peer rebuilds every bundled part's body to check its signature.

    Why the bytes are the same: the bundle's shape check made ``index`` an int,
    ``prev`` 32 bytes and ``msg`` a map, and its decoding proved every map in
    ``msg`` canonical (text keys, sorted, no floats), which packing keeps as it
    is; the part's own keys are written here in their sorted order."""
    return pack_as_is({"i": index, "msg": msg, "prev": prev, "seat": seat, "t": _PART})


_PART = Kind.PART.value  # a plain str: packed as it is
_CHOICES = Kind.CHOICES  # bound once: a member's lookup through its enum costs more


def game_id_of(genesis_body_bytes: bytes) -> bytes:
    return sha256(GAME_ID_DOMAIN, genesis_body_bytes)


def signed_message(game_id: bytes, body_bytes: bytes) -> bytes:
    return SIG_DOMAIN + game_id + body_bytes


def make_body(**fields: Any) -> bytes:
    """Encode a body map; checks its shape so we never write what we would reject."""
    check_body_shape(fields)
    return pack(fields)


def sign_body(game_id: bytes, body_bytes: bytes, signers: dict[int, SigningKey]) -> Entry:
    """An entry over ``body_bytes`` signed by every seat in ``signers`` (seat order)."""
    message = signed_message(game_id, body_bytes)
    sigs = tuple((seat, signers[seat].sign(message)) for seat in sorted(signers))
    return Entry(body_bytes, sigs)
