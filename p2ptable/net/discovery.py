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

:func:`announce_lobby` is the glue for a host: the lobby's ``on_roster``
(net/arrival.py) publishes the seats taken, and withdraws the table once it is
full; `play` does not announce (its bots are on loopback).

:func:`listen` hears the tables announced on the LAN for a few seconds: a
service browser collects names (at most ``MAX_NAMES``) and asks for each one's
records as soon as it appears; at the end, what each name holds goes through
``HeardTables`` (net/announce_record.py), which reads it as a stranger's input.
Nothing here connects anywhere: the person picks a table, then `join` does.
"""

from __future__ import annotations

import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2ptable.net.announce_record import (
    MAX_NAMES,
    SERVICE_TYPE,
    Announcement,
    HeardTable,
    HeardTables,
    announcement,
)

if TYPE_CHECKING:
    from p2ptable.net.lobby import HostLobby
    from p2ptable.net.peer import Peer

TTL = 120  # seconds others may cache our records
MAX_NOTES = 20
RESOLVE_MS = 1500  # how long one name's records are asked for


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
        registered = None  # the ServiceInfo others hear now, if any
        closing = False
        while not closing:
            self._wake.wait(1.0)
            with self._lock:
                self._wake.clear()
                want, closing = self._want, self._closing
            try:
                registered = self._carry_out(want, registered)
            except Exception as exc:  # noqa: BLE001 - announcing must never stop a table
                self._note(f"announcing the table failed: {type(exc).__name__}: {exc}")
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
    """What listening found: the open tables, how many answers were refused, and
    why nothing could be heard at all (no interface, no multicast), if so."""

    tables: list[HeardTable]
    refused: int = 0
    problem: str | None = None


class _Names:
    """The service names the browser reported, bounded, with when each came."""

    def __init__(self, start: float) -> None:
        self.start = start
        self.lock = threading.Lock()
        self.first: dict[str, float] = {}  # name -> seconds after the start
        self.ignored = 0

    def saw(self, name: str) -> bool:
        """True if ``name`` is new and kept (so its records are asked for)."""
        with self.lock:
            if name in self.first:
                return False
            if len(self.first) >= MAX_NAMES:
                self.ignored += 1
                return False
            self.first[name] = time.monotonic() - self.start
            return True

    def gone(self, name: str) -> None:
        with self.lock:
            self.first.pop(name, None)

    def snapshot(self) -> list[tuple[str, float]]:
        with self.lock:
            return list(self.first.items())


def listen(wait: float, interfaces: Sequence[str] = ()) -> Heard:
    """The open tables heard within ``wait`` seconds (on every IPv4 interface,
    or only on those with the given addresses)."""
    import asyncio

    _zeroconf()
    from zeroconf import (
        InterfaceChoice,
        IPVersion,
        ServiceBrowser,
        ServiceInfo,
        ServiceStateChange,
        Zeroconf,
    )
    from zeroconf.asyncio import AsyncServiceInfo

    start = time.monotonic()
    try:
        zc = Zeroconf(
            interfaces=list(interfaces) or InterfaceChoice.All, ip_version=IPVersion.V4Only
        )
    except (OSError, RuntimeError) as exc:
        return Heard([], problem=f"cannot listen for tables on this network ({exc})")
    names = _Names(start)

    def changed(zeroconf, service_type: str, name: str, state_change) -> None:  # noqa: ANN001
        if state_change is ServiceStateChange.Removed:
            names.gone(name)
        elif names.saw(name) and zc.loop is not None:
            try:
                info = AsyncServiceInfo(SERVICE_TYPE, name)
            except Exception:  # noqa: BLE001 - a name zeroconf itself refuses
                return
            asyncio.run_coroutine_threadsafe(info.async_request(zc, RESOLVE_MS), zc.loop)

    heard = HeardTables()
    browser = None
    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[changed])
        time.sleep(max(0.0, start + wait - time.monotonic()))
        for name, after in names.snapshot():
            try:
                info = ServiceInfo(SERVICE_TYPE, name)
                complete = info.load_from_cache(zc)
                found = (info.properties, info.parsed_addresses(IPVersion.V4Only), info.port)
            except Exception:  # noqa: BLE001 - whatever a stranger's records make zeroconf do
                heard.refused += 1
                continue
            if complete:
                heard.heard(name, *found, after=after)
            else:
                heard.refused += 1  # it never said where it is
    finally:
        if browser is not None:
            browser.cancel()
        zc.close()
    return Heard(heard.listing(), heard.refused + names.ignored)


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
                    lobby.table, lobby.game, lobby.options, lobby.name, taken,
                    lobby.seats, port, watch,
                )
            )  # fmt: skip
        for line in announcer.take_notes():
            peer.note(line)

    peer.arrival.on_roster = follow
    say("  or pick it from the list that `p2ptable join --name <their name>` shows")
    return announcer
