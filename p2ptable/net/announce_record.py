"""What a table says about itself on the LAN, and what a listener keeps of it.

How it works
------------
A hosting peer announces its table with DNS-SD over multicast DNS: a service of
type ``_p2ptable._tcp.local.`` (net/discovery.py does the I/O, with
python-zeroconf).  The SRV and A records say where the table listens; the TXT
record says what it is, one ``key=value`` string per item:

    v=1                       the format
    id=5f0c9e21a47b3d18       the table (the first 8 bytes of the lobby's table id)
    game=pet-quartet          the game, by name
    opts=scoring=basic,variant=maestro   the options, sorted (empty: none)
    host=Ana                  the host's name at the table
    seats=1/3                 seats taken / seats
    port=47001                the port the host listens on (the SRV record's too)
    watch=1                   the table admits spectators (host --spectators);
                              absent otherwise.  Such a table stays announced
                              when it is full, for `p2ptable watch`

Never the join code: the listing is only a hint that a table is there.  Anyone
on the LAN can announce anything, so what this module reads is a stranger's
input, and the SPAKE2 handshake with the code (net/join_code.py) is what
authenticates a host.

Reading is bounded and never trusts a value: a record with more than
``MAX_KEYS`` keys, a value longer than ``MAX_VALUE`` bytes, or an id, game,
seats or port that does not have its form is refused (``RecordError``); the free
text (the host's name and the options) is decoded leniently, anything a terminal
would act on (escape codes, control and format characters, bidirectional
overrides) is replaced by ``?``, and it is cut to length.  ``HeardTables`` keeps
at most ``MAX_TABLES`` open tables, one per table id, and counts what it refused,
so a flood of fake tables costs a bounded list, never a crash or a hang.
Nothing here touches the network: bytes in, values out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SERVICE_TYPE = "_p2ptable._tcp.local."
FORMAT = "1"
MAX_KEYS = 16  # keys in one TXT record we read (we write 7)
MAX_VALUE = 200  # bytes of one value (a TXT string holds 255 with its key)
MAX_NAME = 32  # characters of a host's name shown (the lobby's limit too)
MAX_OPTIONS = 120  # characters of the options shown
MAX_SEATS = 64  # a seat count beyond this is junk (games take 2 to 6)
MAX_TABLES = 64  # open tables a listener keeps
MAX_NAMES = 512  # service names a listener looks up (net/discovery.py)

_ID = re.compile(r"[0-9a-f]{16}")
_GAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
_SEATS = re.compile(r"(\d{1,2})/(\d{1,2})")
_PORT = re.compile(r"\d{1,5}")


class RecordError(ValueError):
    """A TXT record that is not a table's announcement (a stranger's junk, or
    another program's service of the same type)."""


def printable(text: str, limit: int) -> str:
    """``text`` safe to print: every character a terminal could act on (escape,
    control, format and bidi characters, line breaks) becomes ``?``, runs of
    spaces one space, and at most ``limit`` characters are kept."""
    cleaned = "".join(c if c.isprintable() else "?" for c in text[: limit * 4])
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


@dataclass(frozen=True)
class Announcement:
    """One table, as its host announces it."""

    table_id: str  # 16 hex digits
    game: str
    options: tuple[tuple[str, str], ...]  # sorted (name, value) pairs
    host: str
    taken: int
    seats: int
    port: int
    watch: bool = False  # spectators admitted (host --spectators)

    @property
    def open(self) -> bool:
        return self.taken < self.seats

    def options_text(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.options)

    def to_txt(self) -> dict[str, str]:
        """The TXT record's items, as python-zeroconf takes them."""
        return {
            "v": FORMAT,
            "id": self.table_id,
            "game": self.game,
            "opts": self.options_text(),
            "host": self.host,
            "seats": f"{self.taken}/{self.seats}",
            "port": str(self.port),
            **({"watch": "1"} if self.watch else {}),
        }

    def instance_name(self) -> str:
        """The DNS-SD instance name (what ``avahi-browse`` shows): readable, at
        most 63 bytes, without dots (a dot would end the label)."""
        tag = f" [{self.table_id[:8]}]"
        words = printable(f"{self.host}'s {self.game} table", MAX_NAME + 24).replace(".", " ")
        while len((words + tag).encode()) > 63:
            words = words[:-1]
        return words + tag


def announcement(
    table: bytes, game: str, options: Mapping[str, str], host: str, taken: int, seats: int,
    port: int, watch: bool = False,
) -> Announcement:  # fmt: skip
    """The announcement of a table (``table``: the lobby's table id)."""
    return Announcement(
        table[:8].hex(), game, tuple(sorted(options.items())), host, taken, seats, port, watch
    )


def parse_txt(properties: Mapping[bytes, bytes | None]) -> Announcement:
    """The announcement a TXT record holds (python-zeroconf's ``properties``);
    RecordError if it holds none, whatever the bytes."""
    if len(properties) > MAX_KEYS:
        raise RecordError(f"{len(properties)} keys (at most {MAX_KEYS})")
    items: dict[str, str] = {}
    for key, value in properties.items():
        if not isinstance(key, bytes) or not isinstance(value, (bytes, type(None))):
            raise RecordError("a key or value that is not bytes")
        if len(value or b"") > MAX_VALUE:
            raise RecordError(f"a value of {len(value or b'')} bytes (at most {MAX_VALUE})")
        items[key.decode("ascii", "replace").lower()] = (value or b"").decode("utf-8", "replace")

    def need(key: str, form: re.Pattern[str]) -> str:
        value = items.get(key)
        if value is None:
            raise RecordError(f"no {key}")
        if not form.fullmatch(value):
            raise RecordError(f"{key} is not of the form {form.pattern}")
        return value

    table_id, game = need("id", _ID), need("game", _GAME)
    seats_text, port_text = need("seats", _SEATS), need("port", _PORT)
    taken, seats = (int(n) for n in seats_text.split("/"))
    if not 1 <= taken <= seats <= MAX_SEATS:
        raise RecordError(f"seats {taken}/{seats}")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise RecordError(f"port {port}")
    host = printable(items.get("host", ""), MAX_NAME) or "?"
    options = _options(items.get("opts", ""))
    watch = items.get("watch") == "1"
    return Announcement(table_id, game, options, host, taken, seats, port, watch)


def _options(text: str) -> tuple[tuple[str, str], ...]:
    """The options as shown: at most MAX_OPTIONS characters in all, printable."""
    pairs: list[tuple[str, str]] = []
    used = 0
    for item in text.split(",")[:8]:
        name, _, value = item.partition("=")
        name, value = printable(name, 24), printable(value, 24)
        used += len(name) + len(value) + 2
        if not name or used > MAX_OPTIONS:
            continue
        pairs.append((name, value))
    return tuple(sorted(pairs))


def usable_address(text: str) -> str | None:
    """``text`` if it is an IPv4 address a table can listen at, else None."""
    try:
        address = ipaddress.IPv4Address(text)
    except ValueError:
        return None
    if address.is_multicast or address.is_unspecified or address.is_reserved:
        return None
    if str(address) == "255.255.255.255":
        return None
    return str(address)


@dataclass(frozen=True)
class HeardTable:
    """An open table as a listener heard it: where, and what it says it is."""

    address: str  # an IPv4 address from the table's A record
    announcement: Announcement
    heard_after: float  # seconds from the start of listening

    @property
    def where(self) -> str:
        """``HOST:PORT``, as `p2ptable join` takes it."""
        return f"{self.address}:{self.announcement.port}"


@dataclass
class HeardTables:
    """The open tables heard, bounded: at most ``MAX_TABLES``, one per table id.

    ``heard`` takes what a responder answered for one service name; what does
    not read as an open table is counted in ``refused`` (junk, a full table, a
    second name for a table id already kept, one past the bound), never raised.
    """

    limit: int = MAX_TABLES
    refused: int = 0
    _tables: dict[str, HeardTable] = field(default_factory=dict)  # by service name

    def heard(
        self,
        name: str,
        properties: Mapping[bytes, bytes | None],
        addresses: Iterable[str],
        srv_port: int | None,
        after: float,
    ) -> HeardTable | None:
        """Keep the table a service name announces; None if it is refused."""
        try:
            ad = parse_txt(properties)
        except RecordError:
            self.refused += 1
            return None
        address = next((a for a in map(usable_address, addresses) if a), None)
        known = self._tables.get(name)
        duplicate = any(
            t.announcement.table_id == ad.table_id for n, t in self._tables.items() if n != name
        )
        if (
            address is None
            or srv_port != ad.port
            or not (ad.open or ad.watch)
            or duplicate
            or (known is None and len(self._tables) >= self.limit)
        ):
            self.refused += 1
            if known is not None and not (ad.open or ad.watch):
                del self._tables[name]  # the table filled: no longer open
            return None
        table = HeardTable(address, ad, known.heard_after if known else after)
        self._tables[name] = table
        return table

    def gone(self, name: str) -> None:
        """The service was withdrawn (a goodbye): the table is no longer open."""
        self._tables.pop(name, None)

    def listing(self) -> list[HeardTable]:
        """The open tables, by host name, then address."""
        return sorted(
            self._tables.values(), key=lambda t: (t.announcement.host.casefold(), t.where)
        )
