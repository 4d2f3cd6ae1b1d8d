"""A table announced and heard over multicast DNS on loopback only.

Issue 16: "Also a unit test with the responder bound to loopback only."  The
announcer and the listener are both on loopback (zeroconf
``interfaces=["127.0.0.5"]``, the listener on 127.0.0.1's interface), so nothing
leaves this machine.  Other tests' hosts may be announcing on loopback at the
same time, most from 127.0.0.1: each check looks for its own table id, and
speaks from an address of its own (a listener keeps at most MAX_PER_SOURCE
tables from one address).  And the lobby's side: the arrival tells the announcer of every
change to the seats, sans-IO.
"""

from __future__ import annotations

import os
import time

import pytest

from p2ptable.net import discovery
from p2ptable.net.announce_record import announcement
from p2ptable.net.arrival import Arrival
from p2ptable.net.listing import MAX_PER_SOURCE, MAX_TABLES
from p2ptable.net.lobby import SILENT_SEAT

from .lobby_table import address, host_lobby, joiner

LOOPBACK = ["127.0.0.1"]
OURS = "127.0.0.5"  # the announcer's address
STRANGER = "127.0.0.4"  # the flood's
WAIT = 2.0  # the listener's second query goes out after about a second
ROUND = 0.5  # a short listen: on loopback a table is heard in about 0.1 s


@pytest.fixture
def announcer():
    try:
        made = discovery.Announcer(OURS)
    except discovery.AnnounceError as exc:
        pytest.skip(f"no multicast on loopback here: {exc}")
    yield made
    made.close(wait=2.0)


def ours(table_id: str, wait: float = WAIT) -> list:
    return [
        t for t in discovery.listen(wait, LOOPBACK).tables if t.announcement.table_id == table_id
    ]


def heard_once(table_id: str, check, rounds: int = 12) -> list:  # noqa: ANN001
    """What is heard of ``table_id`` once ``check`` holds of it, listening in
    short rounds (at most ``rounds``; then what the last one heard, for the
    caller's assert to show).  Only what must be heard is waited for so: a table
    that must not be heard is listened for the whole WAIT."""
    for _ in range(rounds):
        found = ours(table_id, ROUND)
        if check(found):
            break
    return found


def test_a_table_is_heard_updated_and_withdrawn(announcer):
    table = os.urandom(16)
    ad = announcement(table, "pet-quartet", {"variant": "duet"}, "Ana", 1, 2, 47123)
    started = time.monotonic()
    announcer.publish(ad)
    assert time.monotonic() - started < 0.05  # never blocks the lobby
    (heard,) = heard_once(ad.table_id, lambda found: found)
    assert heard.announcement == ad
    assert heard.where == f"{OURS}:47123"
    three = announcement(table, "pet-quartet", {"variant": "duet"}, "Ana", 2, 3, 47123)
    announcer.publish(three)
    updated = heard_once(ad.table_id, lambda found: [t.announcement for t in found] == [three])
    assert [t.announcement for t in updated] == [three]
    announcer.withdraw()
    time.sleep(0.5)  # the goodbye
    assert ours(ad.table_id) == []
    assert announcer.take_notes() == []


def test_close_withdraws_and_ends_the_thread(announcer):
    ad = announcement(os.urandom(16), "teachers-pet", {}, "Ben", 1, 4, 47124)
    announcer.publish(ad)
    assert len(heard_once(ad.table_id, lambda found: found)) == 1
    announcer.close(wait=3.0)
    assert announcer.closed
    announcer.publish(ad)  # after close: nothing, and no error
    assert ours(ad.table_id) == []


def test_an_interface_without_multicast_is_an_error_said_at_once():
    started = time.monotonic()
    with pytest.raises(discovery.AnnounceError, match="no multicast on 198.51.100.77"):
        discovery.Announcer("198.51.100.77")  # not an address of this machine
    heard = discovery.listen(0.5, ["198.51.100.77"])
    assert heard.tables == [] and heard.problem and "cannot listen" in heard.problem
    assert time.monotonic() - started < 2.0


def test_junk_and_a_flood_of_fake_tables_are_dropped_or_bounded(announcer):
    """A stranger's responder on loopback (its own address): junk records,
    escape codes and more fake tables than the list keeps.  The listener does
    not crash, keeps at most MAX_PER_SOURCE from that one address and the real
    table beside them, and shows only printable text.  (Forged packets, and
    `p2ptable tables` beside a real host: tests/integration/test_forged_listings.py.)"""
    import asyncio
    import socket

    from zeroconf import IPVersion
    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

    real = announcement(os.urandom(16), "pet-quartet", {}, "Real", 1, 2, 47125)
    announcer.publish(real)
    T = discovery.SERVICE_TYPE
    junk = [
        {"v": "1"},
        {"id": "zz", "game": "pet-quartet", "seats": "1/2", "port": "1"},
        {**real.to_txt(), "host": "\x1b[2J\x1b]0;pwned\x07Eve\u202e", "id": "e" * 16},
        {**real.to_txt(), "host": "A" * 250, "id": "f" * 16},
        b"\xff\x01",  # a TXT string longer than the record
    ]
    fakes = [
        announcement(i.to_bytes(8, "big") * 2, "pet-quartet", {}, f"Fake{i:03}", 1, 3, 1000 + i)
        for i in range(MAX_TABLES + 40)
    ]

    async def flood(stop: asyncio.Event) -> None:
        zc = AsyncZeroconf(interfaces=[STRANGER], ip_version=IPVersion.V4Only)
        infos = [
            AsyncServiceInfo(T, f"junk{i}.{T}", port=1, properties=props,
                             server=f"junk{i}.local.", addresses=[socket.inet_aton(STRANGER)])
            for i, props in enumerate(junk)
        ] + [
            AsyncServiceInfo(T, f"{ad.instance_name()}.{T}", port=ad.port, properties=ad.to_txt(),
                             server=f"f{ad.table_id}.local.",
                             addresses=[socket.inet_aton(STRANGER)])
            for ad in fakes
        ]  # fmt: skip
        for info in infos:
            await zc.async_register_service(info, cooperating_responders=True)
        stop.set()
        for _ in range(round((WAIT + 1) / 0.05)):  # until the listener is done, at most
            if listened.is_set():
                break
            await asyncio.sleep(0.05)
        await zc.async_close()

    import threading

    listened = threading.Event()
    ready = asyncio.Event()
    runner = threading.Thread(target=lambda: asyncio.run(flood(ready)), daemon=True)
    runner.start()
    for _ in range(100):
        if ready.is_set():
            break
        time.sleep(0.05)
    heard = discovery.listen(WAIT, LOOPBACK)
    listened.set()
    runner.join(10)
    assert len(heard.tables) <= MAX_TABLES
    # loopback loses nothing: the bound of one address is reached
    assert len([t for t in heard.tables if t.address == STRANGER]) == MAX_PER_SOURCE
    assert [t.where for t in heard.tables if t.announcement == real] == [f"{OURS}:47125"]
    assert heard.refused >= len(fakes) + 2 - MAX_PER_SOURCE  # junk, and fakes past the bound
    for table in heard.tables:
        shown = table.announcement.host + table.announcement.options_text()
        assert shown.isprintable()
    eve = [t for t in heard.tables if t.announcement.table_id == "e" * 16]
    assert [t.announcement.host[:16] for t in eve] in ([], ["?[2J?]0;pwned?Eve"])
    assert not any(t.announcement.table_id == "f" * 16 for t in heard.tables)


# -- the lobby's side, sans-IO -------------------------------------------------------


class Wire:
    """The transport the arrival is handed: what it replies is kept for the joiner."""

    def __init__(self) -> None:
        self.replies: list[tuple[str, bytes]] = []

    def reply(self, endpoint: str, channel: bytes, frame: bytes) -> None:
        self.replies.append((endpoint, frame))

    feed = reply

    def send(self, endpoint: str, channel: bytes, frame: bytes) -> None:
        pass

    def connect(self, endpoint: str) -> None:
        pass


def test_the_arrival_tells_of_every_change_to_the_seats_once():
    wire = Wire()
    lobby = host_lobby(seats=3)
    arrival = Arrival(wire, lobby.me, say=lambda line: None, note=lambda line: None)  # type: ignore[arg-type]
    told: list[tuple[int, bool]] = []
    arrival.on_roster = lambda lob: told.append((len(lob.members), lob.genesis is not None))
    arrival.host(lobby)
    arrival.step(0.0)
    arrival.step(0.1)
    assert told == [(1, False)]  # the first step, then nothing changed
    ben = joiner(1, "Ben")
    for _ in range(6):  # the handshake through the arrival, as the peer drives it
        ben.tick(0.2)
        for frame in ben.outgoing:
            arrival.lobby_frame(frame, address(ben), 0.2)
        ben.outgoing.clear()
        arrival.step(0.2)
        for endpoint, frame in wire.replies:
            if endpoint == ben.endpoint:
                ben.receive(frame)
        wire.replies.clear()
    assert ben.seated and told == [(1, False), (2, False)]
    arrival.lobby_frame(b"junk", "10.9.9.9", 0.3)  # a stranger's frame changes nothing
    arrival.step(SILENT_SEAT + 1)  # Ben fell silent: his seat is freed
    assert told == [(1, False), (2, False), (1, False)]


def test_announce_lobby_publishes_the_seats_and_withdraws_a_full_table(monkeypatch):
    wishes: list[object] = []

    class Recorder:
        def __init__(self, address: str) -> None:
            self.address = address

        def publish(self, ad):  # noqa: ANN001, ANN202
            wishes.append(ad)

        def withdraw(self) -> None:
            wishes.append(None)

        def take_notes(self) -> list[str]:
            return ["announcing the table failed: OSError: boom"]

    class FakePeer:
        class transport:
            port = 47009

        arrival = Arrival(Wire(), host_lobby().me, say=print, note=print)  # type: ignore[arg-type]
        notes: list[str] = []

        def note(self, line: str) -> None:
            self.notes.append(line)

    monkeypatch.setattr(discovery, "Announcer", Recorder)
    said: list[str] = []
    peer = FakePeer()
    made = discovery.announce_lobby(peer, "10.0.0.1", said.append)  # type: ignore[arg-type]
    assert made is not None and made.address == "10.0.0.1"
    assert said == ["  or pick it from the list that `p2ptable join --name <their name>` shows"]
    lobby = host_lobby(seats=2)
    peer.arrival.on_roster(lobby)
    lobby.members.append(lobby.members[0])  # as if a second seat were taken
    peer.arrival.on_roster(lobby)
    assert wishes == [
        announcement(lobby.table, "pet-quartet", lobby.options, "Ana", 1, 2, 47009),
        None,
    ]
    assert peer.notes == ["announcing the table failed: OSError: boom"] * 2


def test_announce_lobby_says_when_the_interface_cannot_announce():
    said: list[str] = []

    class FakePeer:
        notes: list[str] = []

        def note(self, line: str) -> None:
            self.notes.append(line)

    assert discovery.announce_lobby(FakePeer(), "198.51.100.77", said.append) is None  # type: ignore[arg-type]
    assert said[0].startswith("  (Not announced on this network: no multicast on 198.51.100.77")
