"""Tables on the LAN: the thin adapter over python-zeroconf (DNS-SD over mDNS).

How it works
------------
:class:`Announcer` announces one table.  Its Zeroconf instance is opened at
once, on the one interface the table advertises (so a failure that is known
at once, no such interface or no multicast socket, is an ``AnnounceError`` the
host can report); everything after that runs in a thread of its own, because
registering blocks for about half a second (three announcements) and must
never slow the lobby.  The peer loop only says what it wants (``publish`` the
latest announcement, ``withdraw`` it, ``close``): it keeps the latest wish,
the thread carries it out, so ten changes in a row cost one update.  What goes
wrong in the thread is noted (``take_notes``) and ignored: the table is always
reachable at the address its host prints.  Names are not probed for
uniqueness (each holds the table id), and the records live two minutes in
others' caches, so a host that crashed without its goodbye drops out soon.

:func:`announce_lobby` is the glue for a host: the peer's ``on_roster``
(net/peer.py, told by net/arrival.py) publishes the seats taken, and withdraws the table once it is
full; `play` does not announce (its bots are on loopback).

:func:`listen` hears the tables announced on the LAN for a few seconds.  It
does not use python-zeroconf's browser or cache: those file records by name,
whoever sent them, so a stranger's goodbye or cache flush would withdraw or
replace the host's table.  It opens a socket of its own on the mDNS port, asks
"which tables?" a few times (``ASK_AT``), and hands every answer's records, with
the address the packet came from and when, to ``Listing`` (net/listing.py, the
rules: who may withdraw or replace what, conflicts, the bound under a flood);
python-zeroconf only reads and writes the packets (``DNSIncoming``,
``DNSOutgoing``).  It reads at most ``MAX_PACKETS`` packets of ``MAX_PACKET``
bytes, for ``wait`` seconds.  Nothing here connects anywhere: the person picks
a table, then `join` does.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2ptable.net.announce_record import SERVICE_TYPE, Announcement, announcement, usable_address
from p2ptable.net.listing import (
    Address,
    HeardTable,
    Listing,
    Pointer,
    Record,
    Service,
    Text,
)

if TYPE_CHECKING:
    from p2ptable.net.lobby import HostLobby
    from p2ptable.net.peer import Peer

TTL = 120  # seconds others may cache our records
MAX_NOTES = 20
RETRY = 1.0  # seconds before the announcer tries again what failed (it sleeps until a wish else)
MDNS_GROUP, MDNS_PORT = "224.0.0.251", 5353
ASK_AT = (0.0, 1.0, 3.0, 7.0, 15.0, 31.0)  # seconds after the start: "which tables?"
MAX_PACKET = 9000  # bytes of one mDNS packet read (RFC 6762 section 17)
MAX_PACKETS = 50_000  # packets read in one listen (a flood costs bounded time)


def _zeroconf():  # noqa: ANN202 - the zeroconf module
    """python-zeroconf, imported when first needed (`join ADDRESS` never pays
    for it), with its log kept off the person's screen: it warns when a packet
    cannot be sent (a network without a multicast route), and Python's
    last-resort handler would write that to the terminal."""
    import logging

    import zeroconf

    logging.getLogger("zeroconf").addHandler(logging.NullHandler())
    return zeroconf


class AnnounceError(Exception):
    """The table cannot be announced on this interface (said to the host)."""


class Announcer:
    """Announces one table from its own thread; no call blocks its caller."""

    def __init__(self, address: str) -> None:
        zc = _zeroconf()
        self.address = address
        try:
            self._zc = zc.Zeroconf(interfaces=[address], ip_version=zc.IPVersion.V4Only)
        except (OSError, RuntimeError) as exc:
            raise AnnounceError(f"no multicast on {address} ({exc})") from None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._want: Announcement | None = None
        self._closing = False
        self._notes: deque[str] = deque(maxlen=MAX_NOTES)
        self._thread = threading.Thread(target=self._run, name="p2ptable-announce", daemon=True)
        self._thread.start()

    # -- what the peer loop calls (never blocks) -------------------------------------

    def publish(self, announcement: Announcement) -> None:
        self._wish(announcement)

    def withdraw(self) -> None:
        self._wish(None)

    def close(self, wait: float = 0.0) -> None:
        """Withdraw and stop; wait up to ``wait`` seconds for the goodbye to leave."""
        with self._lock:
            self._want, self._closing = None, True
        self._wake.set()
        if wait > 0:
            self._thread.join(wait)

    def take_notes(self) -> list[str]:
        """What went wrong in the thread since the last call (for the peer's log)."""
        with self._lock:
            notes = list(self._notes)
            self._notes.clear()
        return notes

    @property
    def closed(self) -> bool:
        return not self._thread.is_alive()

    def _wish(self, announcement: Announcement | None) -> None:
        with self._lock:
            if self._closing:
                return
            self._want = announcement
        self._wake.set()

    # -- the thread --------------------------------------------------------------------

    def _run(self) -> None:
        """Carry out each wish as it comes; sleep until the next one (or, after a
        failure, until it is time to try again)."""
        registered = None  # the ServiceInfo others hear now, if any
        closing = failed = False
        while not closing:
            self._wake.wait(RETRY if failed else None)
            with self._lock:
                self._wake.clear()
                want, closing = self._want, self._closing
            try:
                registered = self._carry_out(want, registered)
                failed = False
            except Exception as exc:  # noqa: BLE001 - announcing must never stop a table
                self._note(f"announcing the table failed: {type(exc).__name__}: {exc}")
                failed = True
        try:
            self._zc.close()
        except Exception as exc:  # noqa: BLE001
            self._note(f"closing the announcement failed: {type(exc).__name__}: {exc}")

    def _carry_out(self, want: Announcement | None, registered):  # noqa: ANN001, ANN202 - ServiceInfo
        if want is None:
            if registered is not None:
                self._zc.unregister_service(registered)
            return None
        info = self._service_info(want)
        if registered is None:
            self._zc.register_service(info, cooperating_responders=True)
        elif registered.properties != info.properties:
            self._zc.update_service(info)
        else:
            return registered
        return info

    def _service_info(self, ad: Announcement):  # noqa: ANN202 - a zeroconf ServiceInfo
        from zeroconf import ServiceInfo

        return ServiceInfo(
            SERVICE_TYPE,
            f"{ad.instance_name()}.{SERVICE_TYPE}",
            port=ad.port,
            properties=ad.to_txt(),
            server=f"p2ptable-{ad.table_id}.local.",
            addresses=[socket.inet_aton(self.address)],
            host_ttl=TTL,
            other_ttl=TTL,
        )

    def _note(self, line: str) -> None:
        with self._lock:
            self._notes.append(line)


@dataclass(frozen=True)
class Heard:
    """What listening found: the tables listed, how many records were refused,
    and why nothing could be heard at all (no interface, no multicast), if so."""

    tables: list[HeardTable]
    refused: int = 0
    problem: str | None = None


def _interfaces(given: Sequence[str]) -> list[str]:
    """The IPv4 addresses to listen on: those given, or every one this machine has."""
    if given:
        return list(given)
    import ifaddr

    return [
        ip.ip
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str) and usable_address(ip.ip)
    ]


def _socket(addresses: Sequence[str]) -> tuple[socket.socket, list[str]]:
    """A socket on the mDNS port, in the group on each of ``addresses`` it can
    join (OSError if none), and the addresses joined."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("", MDNS_PORT))
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        joined, why = [], "no IPv4 interface"
        for address in addresses:
            member = socket.inet_aton(MDNS_GROUP) + socket.inet_aton(address)
            try:
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, member)
            except OSError as exc:
                why = f"no multicast on {address}: {exc}"
                continue
            joined.append(address)
        if not joined:
            raise OSError(why)
    except BaseException:
        sock.close()
        raise
    return sock, joined


def _records(packet: bytes, source: tuple[str, int]) -> list[Record]:
    """The records of an mDNS answer, as net/listing.py takes them (none for a
    query or a packet python-zeroconf cannot read)."""
    zc = _zeroconf()
    message = zc.DNSIncoming(packet, source)
    if not message.valid or message.is_query():
        return []
    records: list[Record] = []
    for r in message.answers():
        if isinstance(r, zc.DNSPointer):
            records.append(Pointer(r.name, r.ttl, r.alias))
        elif isinstance(r, zc.DNSService):
            records.append(Service(r.name, r.ttl, r.server, r.port))
        elif isinstance(r, zc.DNSText):
            records.append(Text(r.name, r.ttl, r.text))
        elif isinstance(r, zc.DNSAddress) and len(r.address) == 4:
            records.append(Address(r.name, r.ttl, socket.inet_ntoa(r.address)))
    return records


def _query() -> list[bytes]:
    """The question "which tables are there?" (PTR, answers asked by multicast)."""
    zc = _zeroconf()
    from zeroconf import const

    out = zc.DNSOutgoing(const._FLAGS_QR_QUERY)
    out.add_question(zc.DNSQuestion(SERVICE_TYPE, const._TYPE_PTR, const._CLASS_IN))
    return out.packets()


def listen(wait: float, interfaces: Sequence[str] = ()) -> Heard:
    """The tables heard within ``wait`` seconds (on every IPv4 interface, or
    only on those with the given addresses)."""
    _zeroconf()  # imported before the clock starts: the first question goes out at once
    start = time.monotonic()
    try:
        sock, joined = _socket(_interfaces(interfaces))
    except OSError as exc:
        return Heard([], problem=f"cannot listen for tables on this network ({exc})")
    listing = Listing()
    end = start + wait
    asks = iter(ASK_AT)
    ask = start + next(asks)
    packets = 0
    try:
        while (now := time.monotonic()) < end and packets < MAX_PACKETS:
            if now >= ask:
                for address in joined:
                    try:
                        sock.setsockopt(
                            socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(address)
                        )
                        for packet in _query():
                            sock.sendto(packet, (MDNS_GROUP, MDNS_PORT))
                    except OSError:
                        pass  # that interface cannot send: the others may
                ask = start + next(asks, wait)
            ready, _, _ = select.select([sock], [], [], max(0.0, min(ask, end) - now))
            if not ready:
                continue
            try:
                packet, source = sock.recvfrom(MAX_PACKET)
            except OSError:
                continue
            packets += 1
            try:
                records = _records(packet, source[:2])
            except Exception:  # noqa: BLE001 - whatever a stranger's packet makes zeroconf do
                listing.refused += 1
                continue
            listing.heard(records, source[0], time.monotonic() - start)
    finally:
        sock.close()
    return Heard(listing.tables(), listing.refused + listing.unlisted())


def listed_options(lobby: HostLobby) -> dict[str, str]:
    """The options a table's announcement lists: the game's, and what else a
    person should know before sitting down, the table's clock (``clock=60s``)
    and whether spectators may talk (``spectators=talk``)."""
    shown = dict(lobby.options)
    if lobby.clock is not None:
        shown["clock"] = f"{lobby.clock}s"
    if lobby.spectators_talk:
        shown["spectators"] = "talk"
    return shown


def announce_lobby(peer: Peer, address: str, say: Callable[[str], None]) -> Announcer | None:
    """Announce a host's table on the interface of ``address`` and keep the
    announcement in step with its lobby: seats taken as they fill, withdrawn
    when the table is full (``Announcer.close`` when the host is done).  None,
    said in one line, if this interface cannot announce."""
    try:
        announcer = Announcer(address)
    except AnnounceError as exc:
        say(f"  (Not announced on this network: {exc}.)")
        peer.note(f"not announced on the LAN: {exc}")
        return None
    port = peer.transport.port

    def follow(lobby: HostLobby) -> None:
        watch = lobby.gallery is not None
        if (lobby.full or lobby.genesis is not None) and not watch:
            announcer.withdraw()  # a full table is of no use to anyone on the list
        else:  # open, or full and still of use to spectators until it closes
            taken = lobby.seats if lobby.genesis is not None else len(lobby.members)
            announcer.publish(
                announcement(
                    lobby.table, lobby.game, listed_options(lobby), lobby.name, taken,
                    lobby.seats, port, watch, lobby.keep_going,
                )
            )  # fmt: skip
        for line in announcer.take_notes():
            peer.note(line)

    peer.on_roster = follow
    say("  or pick it from the list that `p2ptable join --name <their name>` shows")
    return announcer
