"""The kinds of log entry, by name, and the frozen body type of each.

How it works
------------
This is the one place the text of an entry kind is written (``Kind``, whose
values are the wire's and the disk's ``"t"``): every other module names a kind
as ``Kind.ACTION`` or through its row (``replay/rows.py``, the registry: for
each kind its body type, its ledger handler, its authoring function, how a live
table makes it and its words for people).  ``tests/replay/test_kinds.py`` walks
the package and fails if any other module compares an entry kind to a string.

Each kind's body is a frozen value with ``to_body()`` (the decoded map, exactly
as it is encoded) and ``parse(body)`` (from a decoded map, after the same shape
check every entry gets: ``check_body_shape``).  A body type's fields *are* the
kind's shape: the table every decoded body is checked against, and the quick
path of ``Entry.decode`` (``LAYOUTS``), are made from them, so a field added to a
body type is a field the decoder expects.  Optional fields (``X | None``) are
absent from the map rather than empty, so old logs stay byte-identical.

This module imports nothing of the log (``entries.py`` imports it), so the
entries, the ledger and the registry can all name kinds without a circle.
Abort reasons are a type too (:class:`Reason`), with the order in which two
honest peers' endings are ranked.
"""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from types import UnionType
from typing import Any, ClassVar, TypeVar, get_args, get_origin

from p2ptable.crypto.encoding import pack


class MalformedEntry(ValueError):
    """The bytes do not decode to an entry of a known kind and shape."""


class Kind(str, Enum):
    """An entry kind; its value is the body's ``"t"`` on the wire and on disk.

    ``PART`` is the body a seat signs for a bundle (it travels on the wire and
    inside ``open``, ``secrets``, ``commits`` and ``choices`` entries, never as
    an entry of its own); ``SHARE`` is the one a staying seat signs with its
    opened escrow share of a leaver's secret (inside a ``departure`` entry);
    ``NONE`` is what the ledger expects after the end."""

    GENESIS = "genesis"
    ACTION = "action"
    CHANCE = "chance"
    SHUFFLE = "shuffle"
    ESCROW = "escrow"
    OPEN = "open"
    SECRETS = "secrets"
    COMMITS = "commits"
    CHOICES = "choices"
    RESULT = "result"
    ABORT = "abort"
    DEPARTURE = "departure"
    PART = "part"
    SHARE = "share"
    NONE = "none"

    # Printed as its text, as the strings it replaces were ("expected a chance entry").
    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]


class Reason(str, Enum):
    """Why an ``abort`` stopped the game (protocol/wire.md 6.8, replay/evidence.py)."""

    EQUIVOCATION = "equivocation"  # two different messages signed for one position
    CHEATED = "cheated"  # a signed message that fails its check
    WITHHELD = "withheld"  # in contact, but did not contribute in time
    ABANDONED = "abandoned"  # out of contact for the abandonment timeout

    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]

    @property
    def proved(self) -> bool:
        """Whether an abort for this reason carries evidence every verifier checks."""
        return self in _PROVED

    @property
    def rank(self) -> int:
        """The order of endings among reasons (wire.md 6.8): a proof first."""
        return _RANK[self]

    @classmethod
    def of(cls, text: object) -> "Reason | None":
        """The reason ``text`` names (a decoded body's), or None for none known."""
        return _REASON_OF.get(text) if type(text) is str else None


_PROVED = frozenset({Reason.EQUIVOCATION, Reason.CHEATED})
_RANK = {reason: rank for rank, reason in enumerate(Reason)}
_REASON_OF: dict[object, Reason] = {reason.value: reason for reason in Reason}
KIND_OF: dict[str, Kind] = {kind.value: kind for kind in Kind}

# Entries that bundle one signed ``part`` per contributing seat.
BUNDLE_KINDS = frozenset({Kind.OPEN, Kind.SECRETS, Kind.COMMITS, Kind.CHOICES})
# Bodies one seat signs alone for a position: what equivocation and cheating prove.
SIGNED_KINDS = (Kind.ACTION, Kind.SHUFFLE, Kind.ESCROW, Kind.PART, Kind.SHARE)
# Entries one seat signs alone: what its ``entry`` message carries (wire.md).
AUTHORED_KINDS = (Kind.ACTION, Kind.SHUFFLE, Kind.ESCROW)


_new = object.__new__
_set = object.__setattr__
_B = TypeVar("_B", bound="Body")


class Body:
    """What every body type shares: the kind, the shape, ``to_body`` and ``parse``."""

    kind: ClassVar[Kind]
    _t: ClassVar[str]  # the kind's text, a plain str (what "t" holds)
    # Field -> python type, "t" first, as check_body_shape reports them (from the fields).
    SHAPE: ClassVar[dict[str, type]]
    OPTIONAL: ClassVar[dict[str, type]]

    def to_body(self) -> dict[str, Any]:
        """The decoded map this body is (its encoding is the entry's body bytes)."""
        out: dict[str, Any] = {"t": self._t}
        for name, value in self.__dict__.items():
            if value is not None or name not in self.OPTIONAL:
                out[name] = value
        return out

    def encode(self) -> bytes:
        """The body's canonical bytes; its shape checked, so we never write what
        we would reject."""
        body = self.to_body()
        check_body_shape(body)
        return pack(body)

    @classmethod
    def parse(cls: type[_B], body: Any) -> _B:
        """The body of this kind that ``body`` (a decoded map) is; MalformedEntry
        if it is not exactly that (``check_body_shape``)."""
        check_body_shape(body)
        if body["t"] != cls._t:
            raise MalformedEntry(f"a {body['t']} entry is not a {cls.kind} entry")
        return cls.checked(body)

    @classmethod
    def checked(cls: type[_B], body: Mapping[str, Any]) -> _B:
        """``parse`` for a map already shape-checked (``Entry.body`` is)."""
        value = _new(cls)
        fields = {name: body.get(name) for name in cls.OPTIONAL}
        fields.update((name, v) for name, v in body.items() if name != "t")
        _set(value, "__dict__", fields)
        return value


def _base(hint: Any) -> type:
    origin = get_origin(hint)
    return origin if isinstance(origin, type) else hint


def _body(kind: Kind) -> Any:
    """Register a frozen dataclass as the body type of ``kind``, its shape from its fields."""

    def make(cls: type[_B]) -> type[_B]:
        shape: dict[str, type] = {"t": str}
        optional: dict[str, type] = {}
        for field in dataclasses.fields(cls):  # type: ignore[arg-type]
            hint = field.type
            if isinstance(hint, UnionType):
                (inner,) = (a for a in get_args(hint) if a is not type(None))
                optional[field.name] = _base(inner)
            else:
                shape[field.name] = _base(hint)
        cls.kind, cls._t, cls.SHAPE, cls.OPTIONAL = kind, kind.value, shape, optional
        BODIES[kind] = cls
        return cls

    return make


BODIES: dict[Kind, type[Body]] = {}  # filled by the classes below, one per kind


@_body(Kind.GENESIS)
@dataclass(frozen=True)
class GenesisBody(Body):
    protocol: str
    game: str
    options: dict[str, Any]
    seats: list[Any]
    chain_len: int
    nonce: bytes
    # The table goes on without a seat that left (issue 27): written only as
    # True, at a table with hidden hands and 3 seats or more; absent as before.
    keep_going: bool | None = None
    # The table's clock: seconds a person has for each decision (host --clock);
    # absent at a table without one, so older genesis entries are unchanged.
    clock: int | None = None
    # Spectators may write in their own channel (host --spectators-talk, wire.md
    # 3.5): written only as True; absent as before.
    spectators_talk: bool | None = None


@_body(Kind.ACTION)
@dataclass(frozen=True)
class ActionBody(Body):
    i: int
    prev: bytes
    seat: int
    action: str
    # The proofs that a played hand card is the one claimed, or handed over.
    reveal: dict[str, Any] | None = None
    transfer: dict[str, Any] | None = None
    # True when the seat's own clock ran out and its peer made the default
    # bot's move (bots/clock.py); absent for a move its player chose.
    clock: bool | None = None


@_body(Kind.SHUFFLE)
@dataclass(frozen=True)
class ShuffleBody(Body):
    i: int
    prev: bytes
    seat: int
    msg: dict[str, Any]


@_body(Kind.ESCROW)
@dataclass(frozen=True)
class EscrowBody(Body):
    """A seat's escrow of its deck secret among the others (sealed/escrow.py)."""

    i: int
    prev: bytes
    seat: int
    msg: dict[str, Any]


@_body(Kind.OPEN)
@dataclass(frozen=True)
class OpenBody(Body):
    i: int
    prev: bytes
    parts: list[Any]


@_body(Kind.SECRETS)
@dataclass(frozen=True)
class SecretsBody(Body):
    i: int
    prev: bytes
    parts: list[Any]


@_body(Kind.PART)
@dataclass(frozen=True)
class PartBody(Body):
    i: int
    prev: bytes
    seat: int
    msg: dict[str, Any]


@_body(Kind.COMMITS)
@dataclass(frozen=True)
class CommitsBody(Body):
    i: int
    prev: bytes
    seats: list[Any]
    parts: list[Any]


@_body(Kind.CHOICES)
@dataclass(frozen=True)
class ChoicesBody(Body):
    i: int
    prev: bytes
    seats: list[Any]
    parts: list[Any]


@_body(Kind.CHANCE)
@dataclass(frozen=True)
class ChanceBody(Body):
    i: int
    prev: bytes
    step: int
    purpose: str
    pre: list[Any]
    outcome: list[Any]


@_body(Kind.RESULT)
@dataclass(frozen=True)
class ResultBody(Body):
    i: int
    prev: bytes
    scores: list[Any]
    winners: list[Any]


@_body(Kind.ABORT)
@dataclass(frozen=True)
class AbortBody(Body):
    i: int
    prev: bytes
    reason: str
    culprit: int
    detail: str
    evidence: list[Any]


@_body(Kind.DEPARTURE)
@dataclass(frozen=True)
class DepartureBody(Body):
    """A seat left a ``keep_going`` table (replay/departure.py): every staying
    seat's signed share of its escrowed deck secret, ``[share, signature]`` in
    the order of ``seats``, so the log holds what rebuilds it."""

    i: int
    prev: bytes
    of: int
    seats: list[Any]
    parts: list[Any]


@_body(Kind.SHARE)
@dataclass(frozen=True)
class ShareBody(Body):
    """What a staying seat signs for a ``departure``: its opened escrow share
    of seat ``of``'s deck secret (32 bytes), for one log position."""

    i: int
    prev: bytes
    seat: int
    of: int
    share: bytes


# Field name -> python type, per kind (the body types' fields): what a body must hold.
SHAPES: dict[str, dict[str, type]] = {kind.value: cls.SHAPE for kind, cls in BODIES.items()}
# Fields a kind may carry or leave out.
OPTIONAL: dict[str, dict[str, type]] = {
    kind.value: cls.OPTIONAL for kind, cls in BODIES.items() if cls.OPTIONAL
}


def check_body_shape(body: Any) -> None:
    """Raise MalformedEntry unless ``body`` has exactly the fields of its kind."""
    kind = body.get("t") if isinstance(body, dict) else body
    if type(kind) is not str or kind not in SHAPES:  # a list or map is not a kind either
        raise MalformedEntry(f"unknown entry kind {kind!r}")
    optional = {k: v for k, v in OPTIONAL.get(body["t"], {}).items() if k in body}
    shape = {**SHAPES[body["t"]], **optional}
    if set(body) != set(shape):
        missing = sorted(set(shape) - set(body))
        extra = sorted(set(body) - set(shape))
        raise MalformedEntry(f"{body['t']} entry fields: missing {missing}, unexpected {extra}")
    for name, typ in shape.items():
        value = body[name]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise MalformedEntry(f"{body['t']}.{name} must be {typ.__name__}")
    if "prev" in body and len(body["prev"]) != 32:
        raise MalformedEntry("prev must be a 32-byte hash")


def _layouts() -> dict[tuple[str, tuple[str, ...]], tuple[tuple[type, ...], tuple[str, ...]]]:
    """(kind, its keys in sorted order) -> (the type of each field in that order, the
    fields that hold a map or a list): one row per kind and choice of optional fields."""
    out = {}
    for kind, shape in SHAPES.items():
        optional = OPTIONAL.get(kind, {})
        for count in range(len(optional) + 1):
            for chosen in combinations(optional, count):
                fields = {**shape, **{name: optional[name] for name in chosen}}
                keys = tuple(sorted(fields))
                nested = tuple(key for key in keys if fields[key] in (dict, list))
                out[(kind, keys)] = (tuple(fields[key] for key in keys), nested)
    return out


# The quick path of Entry.decode: the exact key lists (sorted) each kind may have.
LAYOUTS = _layouts()
