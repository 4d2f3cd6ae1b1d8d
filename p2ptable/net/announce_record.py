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
    opts=scoring=basic,variant=maestro   the options, sorted (empty: none), and
                              clock=60s at a table with a clock (host --clock),
                              spectators=talk at a table whose spectators may
                              talk (host --spectators-talk)
    host=Ana                  the host's name at the table
    seats=1/3                 seats taken / seats
    port=47001                the port the host listens on (the SRV record's too)
    watch=1                   the table admits spectators (host --spectators);
                              absent otherwise.  Such a table stays announced
                              when it is full, for `p2ptable watch`
    keep=1                    the table keeps going without a player who leaves
                              (host --keep-going: escrowed deck secrets); absent
                              otherwise

Never the join code: the listing is only a hint that a table is there.  Anyone
on the LAN can announce anything, so what this module reads is a stranger's
input, and the SPAKE2 handshake with the code (net/join_code.py) is what
authenticates a host.

Reading is bounded and never trusts a value: a record with more than
``MAX_KEYS`` keys, a value longer than ``MAX_VALUE`` bytes, or an id, game,
seats or port that does not have its form is refused (``RecordError``); the free
text (the host's name and the options) is decoded leniently, anything a terminal
would act on (escape codes, control and format characters, bidirectional
overrides) is replaced by ``?``, and it is cut to length.  Which of the records
heard are listed, and how a listener tells a forgery (who may withdraw or
replace what, conflicts, the bound under a flood) is net/listing.py's.
Nothing here touches the network: bytes in, values out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass

SERVICE_TYPE = "_p2ptable._tcp.local."
FORMAT = "1"
MAX_KEYS = 16  # keys in one TXT record we read (we write 7)
MAX_VALUE = 200  # bytes of one value (a TXT string holds 255 with its key)
MAX_NAME = 32  # characters of a host's name shown (the lobby's limit too)
MAX_OPTIONS = 120  # characters of the options shown
MAX_SEATS = 64  # a seat count beyond this is junk (games take 2 to 6)
MAX_TXT = 1024  # bytes of a TXT record a listener keeps (ours holds under 400)

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
    keep: bool = False  # goes on without a leaver (host --keep-going, issue 27)

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
            **({"keep": "1"} if self.keep else {}),
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
    port: int, watch: bool = False, keep: bool = False,
) -> Announcement:  # fmt: skip
    """The announcement of a table (``table``: the lobby's table id)."""
    return Announcement(
        table[:8].hex(), game, tuple(sorted(options.items())), host, taken, seats, port, watch,
        keep,
    )  # fmt: skip


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
    watch, keep = items.get("watch") == "1", items.get("keep") == "1"
    return Announcement(table_id, game, options, host, taken, seats, port, watch, keep)


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


def txt_items(text: bytes) -> dict[bytes, bytes | None]:
    """The items of a TXT record's wire form (length-prefixed strings, RFC 6763
    section 6): ``key=value``, or ``key`` alone (None).  A key said twice keeps
    its first value (section 6.4); empty strings are skipped; RecordError for a
    string that runs past the end or more strings than a table's record holds."""
    items: dict[bytes, bytes | None] = {}
    at, strings = 0, 0
    while at < len(text):
        length = text[at]
        if at + 1 + length > len(text):
            raise RecordError("a TXT string longer than its record")
        item = text[at + 1 : at + 1 + length]
        at += 1 + length
        if not item:
            continue
        strings += 1
        if strings > MAX_KEYS:
            raise RecordError(f"more than {MAX_KEYS} TXT strings")
        key, eq, value = item.partition(b"=")
        items.setdefault(key.lower(), value if eq else None)
    return items
