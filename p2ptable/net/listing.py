"""The tables heard on the LAN, kept apart by who said them: the rules, no I/O.

How it works
------------
net/discovery.py hears multicast DNS answers and hands each packet's records of
ours to :meth:`Listing.heard` with the address the packet came from and when:
(records, source, time).  Anyone on the LAN can send any record, so the source
is what a listener holds on to: a packet cannot say it came from elsewhere
without sending from there (the host's own address is taken by the host), and
python-zeroconf's browser, which files records by name whoever sent them, is
not used to listen.  The rules, one line each:

1. **A source speaks for itself.** Records are filed under (source, name).  A
   goodbye (TTL 0) withdraws only what its own source said, and a record
   replaces only its own source's record of that name: a stranger's goodbye or
   cache flush never reaches the host's table.
2. **A table is where it speaks from.** Its SRV record names a host whose A
   records, from the same source, must include the source; the table is listed
   at source:port.  A table that says it is elsewhere is not listed.
3. **One source, one table id.** A second name announcing an id its source has
   already announced is not listed (the first heard is).
4. **Two sources, one claim: both, marked.** Two tables from different sources
   with one table id, one host's name (case aside) or one service name are both
   listed, each marked as a conflict naming the other's address; Enter then
   picks nothing (ui/table_list.py) and the person picks by the address the
   host printed.  A listing is a hint; the join code proves the host.
5. **Bounded, and the early before the many.** At most ``MAX_SOURCES``
   sources, ``MAX_NAMES`` names and ``MAX_SERVERS`` host names a source, are
   held; what comes past a bound is dropped and counted, never raised.  The
   list holds at most ``MAX_TABLES`` tables, at most ``MAX_PER_SOURCE`` from one
   source, taken in turns: each source's first table, in the order the sources
   were first heard, then each one's second, and so on, each source's tables in
   the order they were first heard.  So a burst of new tables from one address
   cannot push out a table heard from another, nor one it sent earlier.

:func:`picked_mismatch` says what `join` and `watch` tell the person when the
table picked from the list is not the table the handshake found at that address.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from p2ptable.net.announce_record import (
    MAX_TXT,
    SERVICE_TYPE,
    Announcement,
    RecordError,
    parse_txt,
    printable,
    txt_items,
    usable_address,
)

MAX_TABLES = 64  # tables listed
MAX_PER_SOURCE = 16  # tables listed from one address (a laptop hosts one or two)
MAX_SOURCES = 64  # addresses whose records are held
MAX_NAMES = 32  # service names held from one address
MAX_SERVERS = 32  # host names (A records) held from one address
MAX_ADDRESSES = 4  # addresses held for one host name

_SUFFIX = "." + SERVICE_TYPE.lower()


# -- the records, as the adapter hands them -------------------------------------------


@dataclass(frozen=True)
class Pointer:
    """PTR: the service type names an instance (a table's service name)."""

    name: str
    ttl: int
    instance: str


@dataclass(frozen=True)
class Service:
    """SRV: an instance listens on ``port`` of host ``server``."""

    name: str
    ttl: int
    server: str
    port: int


@dataclass(frozen=True)
class Text:
    """TXT: what the instance says it is (the record's wire form)."""

    name: str
    ttl: int
    text: bytes


@dataclass(frozen=True)
class Address:
    """A: host ``name`` is at IPv4 ``address``."""

    name: str
    ttl: int
    address: str


Record = Pointer | Service | Text | Address


# -- what is listed ---------------------------------------------------------------------


@dataclass(frozen=True)
class HeardTable:
    """A table as a listener heard it: where, what it says it is, and with whom
    it conflicts (rule 4: e.g. ``"the same table id from 10.0.0.9"``)."""

    address: str  # the source of its records, and an address of its A record
    announcement: Announcement
    heard_after: float  # seconds from the start of listening
    conflicts: tuple[str, ...] = ()
    service: str = ""  # its service name, as heard (lower case)

    @property
    def where(self) -> str:
        """``HOST:PORT``, as `p2ptable join` takes it."""
        return f"{self.address}:{self.announcement.port}"


@dataclass
class _Name:
    """What one source said of one service name."""

    first: float
    srv: tuple[str, int] | None = None
    txt: bytes | None = None


@dataclass
class _Source:
    first: float
    names: dict[str, _Name] = field(default_factory=dict)
    servers: dict[str, set[str]] = field(default_factory=dict)


# Rule 4: what two tables from different sources may not share, and its words.
CLAIMS = (
    ("table id", lambda t: t.announcement.table_id),
    ("host name", lambda t: t.announcement.host.casefold()),
    ("service name", lambda t: t.service),
)


@dataclass
class Listing:
    """The records heard, by source (rules 1, 2 and 5), and the tables they make."""

    refused: int = 0  # records dropped: junk, past a bound, or no source
    _sources: dict[str, _Source] = field(default_factory=dict)

    def heard(self, records: Iterable[Record], source: str, now: float) -> None:
        """One packet's records, from ``source`` at ``now`` (seconds)."""
        if usable_address(source) != source:
            self.refused += 1
            return
        records = list(records)
        # A records last: one packet often holds them before the SRV naming them.
        for record in sorted(records, key=lambda r: isinstance(r, Address)):
            if not self._take(record, source, now):
                self.refused += 1

    def _take(self, record: Record, source: str, now: float) -> bool:
        if isinstance(record, Address):
            return self._address(record, source)
        if isinstance(record, Pointer):
            if record.name.lower() != SERVICE_TYPE.lower():
                return False
            name = record.instance.lower()
        else:
            name = record.name.lower()
        if not name.endswith(_SUFFIX) or len(name) > 255:
            return False
        if record.ttl <= 0:  # a goodbye: of this source's name only (rule 1)
            held = self._sources.get(source)
            if held is not None:
                held.names.pop(name, None)
                if not held.names:
                    del self._sources[source]
            return True
        entry = self._name(source, name, now)
        if entry is None:
            return False
        if isinstance(record, Service):
            entry.srv = (record.server.lower(), record.port)
        elif isinstance(record, Text):
            if len(record.text) > MAX_TXT:
                return False
            entry.txt = record.text
        return True

    def _name(self, source: str, name: str, now: float) -> _Name | None:
        held = self._sources.get(source)
        if held is None:
            if len(self._sources) >= MAX_SOURCES:
                return None
            held = self._sources[source] = _Source(now)
        entry = held.names.get(name)
        if entry is None:
            if len(held.names) >= MAX_NAMES:
                return None
            entry = held.names[name] = _Name(now)
        return entry

    def _address(self, record: Address, source: str) -> bool:
        held = self._sources.get(source)
        if held is None:  # only a source that announced a table of ours is heard
            return record.ttl <= 0  # (a goodbye after its tables' own is no junk)
        server = record.name.lower()
        addresses = held.servers.get(server)
        if record.ttl <= 0:
            if addresses is not None:
                addresses.discard(record.address)
            return True
        if addresses is None:
            if len(held.servers) >= MAX_SERVERS:
                return False
            addresses = held.servers[server] = set()
        if record.address not in addresses and len(addresses) >= MAX_ADDRESSES:
            return False
        addresses.add(record.address)
        return True

    # -- the tables -------------------------------------------------------------------

    def _tables_of(self, source: str, held: _Source) -> list[HeardTable]:
        """The open tables one source announces, first heard first (rules 2, 3)."""
        found: list[HeardTable] = []
        ids: set[str] = set()
        for name, entry in sorted(held.names.items(), key=lambda item: item[1].first):
            if entry.srv is None or entry.txt is None:
                continue
            server, port = entry.srv
            try:
                ad = parse_txt(txt_items(entry.txt))
            except RecordError:
                continue
            if (
                port != ad.port
                or source not in held.servers.get(server, ())
                or not (ad.open or ad.watch)
                or ad.table_id in ids
            ):
                continue
            ids.add(ad.table_id)
            found.append(HeardTable(source, ad, entry.first, service=name))
        return found

    def unlisted(self) -> int:
        """Service names held that make no listed table (incomplete, junk, past
        a bound)."""
        held = sum(len(s.names) for s in self._sources.values())
        return held - len(self.tables())

    def tables(self) -> list[HeardTable]:
        """The tables listed (rules 4 and 5), by host name, then address."""
        by_source = [
            self._tables_of(source, held)[:MAX_PER_SOURCE]
            for source, held in sorted(self._sources.items(), key=lambda item: item[1].first)
        ]
        kept: list[HeardTable] = []
        for turn in range(MAX_PER_SOURCE):
            for tables in by_source:
                if turn < len(tables) and len(kept) < MAX_TABLES:
                    kept.append(tables[turn])
        marked = [_marked(t, kept) for t in kept]
        return sorted(marked, key=lambda t: (t.announcement.host.casefold(), t.where))


def _marked(table: HeardTable, kept: list[HeardTable]) -> HeardTable:
    """``table`` with its conflicts: one for each table from another source that
    shares a claim with it (``"the same table id and host name from 10.0.0.9"``)."""
    conflicts: list[str] = []
    for other in kept:
        shared = [what for what, claim in CLAIMS if claim(other) == claim(table)]
        if other.address == table.address or not shared:
            continue
        what = shared[0] if len(shared) == 1 else ", ".join(shared[:-1]) + " and " + shared[-1]
        words = f"the same {what} from {other.address}"
        if words not in conflicts:
            conflicts.append(words)
    return HeardTable(table.address, table.announcement, table.heard_after, tuple(conflicts),
                      table.service)  # fmt: skip


def ambiguous(tables: Iterable[HeardTable]) -> bool:
    """Whether a choice among ``tables`` is ambiguous: one of them is in conflict."""
    return any(t.conflicts for t in tables)


def picked_mismatch(picked: str, where: str, table: bytes, watching: bool = False) -> str | None:
    """What to tell the person when the table picked from the list (its id,
    ``picked``) is not the table the handshake found at ``where`` (the host's
    ``table`` id, proved with the code): None when they agree."""
    actual = table[:8].hex()
    if not picked or picked == actual:
        return None
    going_on = "you watch it" if watching else "you join it"
    return (
        f"The table you picked announced id {printable(picked, 16)}, but the host at {where} "
        f"is table {actual}: the listing was forged, or the table reopened. The code proves "
        f"this host, so {going_on} (Ctrl-C leaves, if it is not the table you meant)."
    )
