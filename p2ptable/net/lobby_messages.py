"""The lobby's messages as types: one frozen value per kind, read from a signed
frame's data by ``parse`` and written back by ``to_data`` (protocol/wire.md,
section 3: the bytes on the wire are exactly those of the dicts before).

``parse`` checks the shape a field must have to be used at all; a field whose
*value* the lobby judges (a name that is too long, a proof that does not match,
an older ``bind``) is kept as it came (``object``), so that the lobby refuses it
with the same words, in the same order, as it always did.  A frame bound to a
handshake carries ``n`` and ``tag`` too (net/lobby_binding.py): those are the
binding's, checked there, and not part of the message.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from p2ptable.net.gallery import MAX_WATCHERS
from p2ptable.net.lobby_frames import (
    MAX_NAME,
    LobbyError,
    LobbyIgnored,
    Member,
    parse_clock,
)
from p2ptable.net.rotation import parse_rotation

Data = dict[str, Any]  # a lobby frame's data, as msgpack decoded it


class LobbyKind(str, Enum):
    """The kinds of lobby frame (the envelope's ``k``)."""

    KNOCK = "knock"  # joiner -> host: a SPAKE2 message, where to answer
    CHALLENGE = "challenge"  # host -> joiner: the table, and proof it knows the code
    DENIED = "denied"  # host -> joiner: refused, and why (maybe: knock again later)
    JOIN = "join"  # joiner -> host: proof of the code, our name and keys
    WATCH = "watch"  # spectator -> host: proof of the code, a name
    HERE = "here"  # seated joiner -> host: still here, answering roster v
    ROSTER = "roster"  # host -> seated joiners: the members, then the genesis
    WATCHING = "watching"  # host -> spectator: admitted (net/gallery.py)
    FEED = "feed"  # spectator -> host: the log from an index (net/gallery.py)
    ENTRIES = "entries"  # host -> spectator: entries of the log (net/gallery.py)
    SAY = "say"  # spectator -> host: a line in the spectators' channel (net/spectator_talk.py)


def printable_name(name: object) -> bool:
    """A name a screen may show: 1..MAX_NAME printable characters."""
    return isinstance(name, str) and 0 < len(name) <= MAX_NAME and name.isprintable()


@dataclass(frozen=True)
class Knock:
    pake: object  # our SPAKE2 message (the host checks its length)
    endpoint: object  # where to answer (the host checks it names the knocking machine)
    watch: bool = False  # a spectator's knock
    again: int | None = None  # a rematch's knock: which game's code (net/rematch)

    kind = LobbyKind.KNOCK

    @classmethod
    def parse(cls, data: Data) -> Knock:
        again = data.get("again")
        return cls(
            data.get("pake"),
            data.get("endpoint"),
            data.get("watch") is True,
            again if type(again) is int else None,
        )

    def to_data(self) -> Data:
        data: Data = {"pake": self.pake, "endpoint": self.endpoint}
        if self.watch:
            data["watch"] = True
        if self.again is not None:
            data["again"] = self.again
        return data


@dataclass(frozen=True)
class Challenge:
    re: object  # the knock's SPAKE2 message this answers
    table: bytes
    game: str
    options: dict[str, Any]
    seats: int
    pake: object
    proof: object
    bind: object
    spectators: bool = False
    keep_going: bool = False
    clock: int | None = None
    # host --spectators-talk (wire.md 3.5): absent as before when not set
    spectators_talk: bool = False
    # a rematch: the order of its first player (net/rotation.py); absent otherwise
    rotation: tuple[str, ...] = ()

    kind = LobbyKind.CHALLENGE

    @classmethod
    def parse(cls, data: Data) -> Challenge:
        """LobbyError for a challenge whose table fields cannot be used."""
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
            rotation = parse_rotation(data.get("rotation"))
        except ValueError as exc:
            raise LobbyError(f"malformed challenge from the host: {exc}") from None
        return cls(
            data.get("re"),
            table,
            game,
            options,
            seats,
            data.get("pake"),
            data.get("proof"),
            data.get("bind"),
            data.get("spectators") is True,
            data.get("keep_going") is True,
            parse_clock(data.get("clock")),
            data.get("spectators_talk") is True,
            rotation,
        )

    def to_data(self) -> Data:
        data: Data = {
            "re": self.re,
            "table": self.table,
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "pake": self.pake,
            "proof": self.proof,
            "spectators": self.spectators,
            "bind": self.bind,
        }
        if self.keep_going:
            data["keep_going"] = True
        if self.clock is not None:  # absent: no clock (a host of before knows none)
            data["clock"] = self.clock
        if self.spectators_talk:
            data["spectators_talk"] = True
        if self.rotation:  # absent: not a rematch, the first player is drawn
            data["rotation"] = list(self.rotation)
        return data


@dataclass(frozen=True)
class Denied:
    re: object
    reason: str
    wait: int | None = None  # refused for the rate: knock again in so many seconds

    kind = LobbyKind.DENIED

    @classmethod
    def parse(cls, data: Data) -> Denied:
        wait = data.get("wait")
        return cls(data.get("re"), str(data.get("reason")), wait if type(wait) is int else None)

    def to_data(self) -> Data:
        data: Data = {"re": self.re, "reason": self.reason}
        if self.wait is not None:
            data["wait"] = self.wait
        return data


@dataclass(frozen=True)
class Join:
    proof: object
    bind: object
    name: object
    chain: object
    link: object
    deck: object

    kind = LobbyKind.JOIN

    @classmethod
    def parse(cls, data: Data) -> Join:
        fields = ("proof", "bind", "name", "chain", "link", "deck")
        return cls(*(data.get(f) for f in fields))

    def to_data(self) -> Data:
        return {
            "name": self.name,
            "chain": self.chain,
            "link": self.link,
            "deck": self.deck,
            "proof": self.proof,
            "bind": self.bind,
        }


@dataclass(frozen=True)
class Watch:
    proof: object
    bind: object
    name: object

    kind = LobbyKind.WATCH

    @classmethod
    def parse(cls, data: Data) -> Watch:
        return cls(data.get("proof"), data.get("bind"), data.get("name"))

    def to_data(self) -> Data:
        return {"name": self.name, "proof": self.proof, "bind": self.bind}


@dataclass(frozen=True)
class Here:
    v: object  # the roster number answered

    kind = LobbyKind.HERE

    @classmethod
    def parse(cls, data: Data) -> Here:
        return cls(data.get("v"))

    def to_data(self) -> Data:
        return {"v": self.v}


@dataclass(frozen=True)
class Roster:
    table: object
    members: tuple[Member, ...]
    genesis: bytes  # empty until every seat answered the full roster
    v: int
    watchers: tuple[str, ...] = ()  # for the screen only
    removed: tuple[str, ...] = ()  # who the host removed (absent: nobody)
    short: tuple[int, int] | None = None  # started with (seated, opened with)

    kind = LobbyKind.ROSTER

    @classmethod
    def parse(cls, data: Data) -> Roster:
        """LobbyIgnored for a roster whose members, genesis or number cannot be
        used (it may be a stale or damaged copy); the lists for the screen keep
        only the names a screen may show."""
        raw, genesis, version = data.get("members"), data.get("genesis"), data.get("v")
        if not (isinstance(raw, list) and isinstance(genesis, bytes) and type(version) is int):
            raise LobbyIgnored("malformed roster")
        try:
            members = tuple(Member.parse(m) for m in raw)
        except LobbyError as exc:
            raise LobbyIgnored(f"malformed roster: {exc}") from None
        return cls(
            data.get("table"),
            members,
            genesis,
            version,
            _names(data.get("watchers")),
            _names(data.get("removed")),
            _short(data.get("short")),
        )

    def to_data(self) -> Data:
        data: Data = {
            "table": self.table,
            "members": [m.as_dict() for m in self.members],
            "genesis": self.genesis,
            "v": self.v,
            "watchers": list(self.watchers),
        }
        # Said to everyone in the lobby only when so (absent otherwise, as before).
        if self.removed:
            data["removed"] = list(self.removed)
        if self.short is not None:
            data["short"] = list(self.short)
        return data


def _names(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(n for n in value[:MAX_WATCHERS] if printable_name(n))


def _short(value: object) -> tuple[int, int] | None:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(type(n) is int for n in value)
        and 0 < value[0] < value[1]
    ):
        return (value[0], value[1])
    return None
