"""The tables heard, kept apart by who said them (issue 22, part 4), sans-IO.

"A table heard from one address is never withdrawn or replaced by a record from
another; two records with one table id or one host name from different
addresses are both listed and marked as a conflict; Enter picks nothing when
the choice is ambiguous; the kept list prefers tables heard earlier and longer
over a burst of new ones."  Records go in as the adapter hands them, with the
address they came from and when; no network here.
"""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.net.announce_record import SERVICE_TYPE, Announcement, announcement
from p2ptable.net.listing import (
    MAX_NAMES,
    MAX_PER_SOURCE,
    MAX_SOURCES,
    MAX_TABLES,
    Address,
    Listing,
    Pointer,
    Record,
    Service,
    Text,
    ambiguous,
    picked_mismatch,
)
from p2ptable.ui.table_list import Invalid, describe, parse_pick, table_lines

HOST, STRANGER = "10.0.0.5", "10.0.0.66"
ANA = announcement(bytes(range(16)), "pet-quartet", {"variant": "duet"}, "Ana", 1, 3, 47001)


def wire(items: dict[str, str]) -> bytes:
    return b"".join(bytes([len(s)]) + s for s in (f"{k}={v}".encode() for k, v in items.items()))


def records(
    ad: Announcement, address: str, name: str | None = None, server: str | None = None,
    ttl: int = 120, port: int | None = None,
) -> list[Record]:  # fmt: skip
    """The PTR, SRV, TXT and A records a responder announces ``ad`` with."""
    name = f"{name or ad.instance_name()}.{SERVICE_TYPE}"
    server = server or f"p2ptable-{ad.table_id}.local."
    return [
        Pointer(SERVICE_TYPE, ttl, name),
        Address(server, ttl, address),  # before the SRV, as python-zeroconf sends them
        Service(name, ttl, server, ad.port if port is None else port),
        Text(name, ttl, wire(ad.to_txt())),
    ]


def heard(listing: Listing, ad: Announcement, source: str, now: float = 0.5, **kw) -> None:
    listing.heard(records(ad, kw.pop("address", source), **kw), source, now)


def fake(i: int, host: str | None = None) -> Announcement:
    return announcement(
        (i + 1).to_bytes(8, "big") * 2, "pet-quartet", {}, host or f"Fake{i}", 1, 3, 9
    )


def test_a_table_is_listed_where_it_speaks_from_when_first_heard():
    listing = Listing()
    heard(listing, ANA, HOST, now=0.2)
    heard(listing, ANA, HOST, now=1.3)  # answered again
    (table,) = listing.tables()
    assert table.where == "10.0.0.5:47001" and table.announcement == ANA
    assert table.heard_after == 0.2 and table.conflicts == ()


def test_a_goodbye_from_another_address_withdraws_nothing():
    listing = Listing()
    heard(listing, ANA, HOST)
    heard(listing, ANA, STRANGER, address=HOST, ttl=0)  # "withdrawn", says the stranger
    assert [t.where for t in listing.tables()] == ["10.0.0.5:47001"]
    heard(listing, ANA, HOST, ttl=0)  # the host's own goodbye
    assert listing.tables() == [] and listing.refused == 0


def test_a_record_from_another_address_never_replaces_the_host_s():
    listing = Listing()
    heard(listing, ANA, HOST)
    moved = announcement(bytes(range(16)), "pet-quartet", {}, "Ana", 2, 3, 1)
    # The host's own names, a new TXT and SRV, and its server said to be at the
    # stranger's address: filed under the stranger, never over the host's.
    heard(listing, moved, STRANGER, name=ANA.instance_name(), address=STRANGER)
    listing.heard([Address(f"p2ptable-{ANA.table_id}.local.", 120, STRANGER)], STRANGER, 0.6)
    tables = {t.address: t for t in listing.tables()}
    assert tables[HOST].announcement == ANA and tables[HOST].where == "10.0.0.5:47001"
    assert tables[STRANGER].announcement == moved


def test_a_copied_table_id_is_listed_twice_and_both_are_marked():
    listing = Listing()
    heard(listing, ANA, HOST)
    copy = announcement(bytes(range(16)), "pet-quartet", {}, "Mallory", 1, 3, 47001)
    heard(listing, copy, STRANGER, name="Mallory's table")
    tables = {t.address: t for t in listing.tables()}
    assert tables[HOST].conflicts == ("the same table id from 10.0.0.66",)
    assert tables[STRANGER].conflicts == ("the same table id from 10.0.0.5",)
    assert ambiguous(tables.values())


def test_one_host_name_from_two_addresses_is_marked_but_not_from_one():
    listing = Listing()
    heard(listing, ANA, HOST)
    heard(listing, fake(1, host="ana"), STRANGER)  # the case aside, the same name
    assert all(t.conflicts == (f"the same host name from {o}",) for t, o in
               zip(listing.tables(), (STRANGER, HOST), strict=True))  # fmt: skip
    alone = Listing()
    heard(alone, ANA, HOST)
    heard(alone, fake(2, host="Ana"), HOST)  # one machine, two tables of Ana's
    assert len(alone.tables()) == 2 and not ambiguous(alone.tables())


def test_one_address_announcing_one_table_id_twice_is_listed_once():
    listing = Listing()
    heard(listing, ANA, HOST, now=0.1)
    heard(listing, ANA, HOST, now=0.2, name="Ana again")
    (table,) = listing.tables()
    assert table.service == f"{ANA.instance_name()}.{SERVICE_TYPE}".lower()


def test_a_table_that_says_it_is_elsewhere_or_on_another_port_is_not_listed():
    listing = Listing()
    heard(listing, ANA, STRANGER, address=HOST)  # its A record is not where it spoke from
    heard(listing, fake(1), STRANGER, port=1)  # SRV and TXT disagree
    assert listing.tables() == []
    assert listing.unlisted() == 2


def test_a_table_that_fills_leaves_and_one_for_spectators_stays():
    listing = Listing()
    heard(listing, ANA, HOST)
    heard(listing, announcement(bytes(range(16)), "pet-quartet", {}, "Ana", 3, 3, 47001), HOST)
    assert listing.tables() == []
    watched = announcement(bytes(range(16)), "pet-quartet", {}, "Ana", 3, 3, 47001, watch=True)
    heard(listing, watched, HOST)
    assert [t.announcement for t in listing.tables()] == [watched]


def test_junk_is_counted_never_raised():
    listing = Listing()
    listing.heard([Text(f"x.{SERVICE_TYPE}", 120, b"\xff\x01")], HOST, 0.1)
    listing.heard([Pointer("_printer._tcp.local.", 120, "p._printer._tcp.local.")], HOST, 0.1)
    listing.heard([Address("nobody.local.", 120, HOST)], STRANGER, 0.1)  # no table of ours
    listing.heard(records(ANA, "224.0.0.251"), "224.0.0.251", 0.1)  # not a source
    assert listing.tables() == [] and listing.refused >= 3


def test_six_hundred_fakes_from_one_address_do_not_push_the_real_table_out():
    for real_first in (True, False):
        listing = Listing()
        if real_first:
            heard(listing, ANA, HOST, now=0.1)
        for i in range(600):
            heard(listing, fake(i), STRANGER, now=0.05 + i / 1e4)
        heard(listing, ANA, HOST, now=0.2)
        tables = listing.tables()
        assert [t.where for t in tables if t.announcement.table_id == ANA.table_id] == [
            "10.0.0.5:47001"
        ]
        assert len(tables) == 1 + MAX_PER_SOURCE
        fakes = [t for t in tables if t.address == STRANGER]
        assert {t.announcement.host for t in fakes} == {f"Fake{i}" for i in range(MAX_PER_SOURCE)}


def test_a_burst_from_many_addresses_after_the_table_keeps_the_table():
    listing = Listing()
    heard(listing, ANA, HOST, now=0.1)
    for s in range(200):
        for i in range(MAX_PER_SOURCE + 4):
            heard(listing, fake(s * 100 + i), f"10.1.{s // 250}.{s % 250 + 1}", now=0.2 + s / 1e3)
    tables = listing.tables()
    assert len(tables) == MAX_TABLES
    assert any(t.address == HOST for t in tables)
    # Taken in turns, in the order the addresses were first heard: the first
    # MAX_TABLES - 1 strangers' first tables.
    assert len({t.address for t in tables}) == MAX_TABLES


# -- property: whatever strangers send, the host's table stays as the host said --------

stranger = st.sampled_from(["10.0.0.66", "10.0.0.67", "192.168.7.1"])
ttl = st.sampled_from([0, 120])
claims = st.sampled_from([ANA, fake(1), fake(2, host="Ana"), fake(3), ANA])


@st.composite
def forgeries(draw) -> tuple[str, list[Record]]:  # noqa: ANN001
    ad = draw(claims)
    source = draw(stranger)
    name = draw(st.sampled_from([None, "Mallory", ad.instance_name()]))
    address = draw(st.sampled_from([source, HOST]))
    server = draw(st.sampled_from([None, f"p2ptable-{ANA.table_id}.local.", "m.local."]))
    picked = draw(st.lists(st.sampled_from(range(4)), min_size=1, max_size=4))
    made = records(ad, address, name=name, server=server, ttl=draw(ttl))
    return source, [made[i] for i in picked]


@settings(max_examples=150, deadline=None)
@given(st.lists(forgeries(), max_size=40), st.integers(0, 40))
def test_no_stranger_withdraws_replaces_or_moves_the_host_s_table(forged, at):
    listing = Listing()
    for n, (source, recs) in enumerate(forged):
        if n == at:
            heard(listing, ANA, HOST, now=n)
        listing.heard(recs, source, n + 0.5)
    if at >= len(forged):
        heard(listing, ANA, HOST, now=at)
    tables = listing.tables()
    ours = [t for t in tables if t.address == HOST]
    assert [(t.announcement, t.where) for t in ours] == [(ANA, "10.0.0.5:47001")]
    others = [t for t in tables if t.address != HOST]
    for t in others:  # a stranger's claim on Ana's id or name is marked, on both sides
        if t.announcement.table_id == ANA.table_id or t.announcement.host.casefold() == "ana":
            assert t.conflicts and ours[0].conflicts
    assert ambiguous(tables) == any(t.conflicts for t in tables)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 90), st.integers(0, 80), ttl, st.integers(0, 3)), max_size=400
    )
)
def test_whatever_is_heard_the_list_and_what_is_held_stay_bounded(heard_):
    listing = Listing()
    for s, i, t, kind in heard_:
        recs = records(fake(i), f"10.2.0.{s + 1}", ttl=t)
        listing.heard([recs[kind], recs[1]], f"10.2.0.{s + 1}", 0.1)
    tables = listing.tables()
    assert len(tables) <= MAX_TABLES
    by_source: dict[str, int] = {}
    for t in tables:
        by_source[t.address] = by_source.get(t.address, 0) + 1
    assert all(n <= MAX_PER_SOURCE for n in by_source.values())
    held = listing._sources
    assert len(held) <= MAX_SOURCES and all(len(s.names) <= MAX_NAMES for s in held.values())


# -- what the person sees, and Enter --------------------------------------------------


def test_a_conflict_is_shown_on_both_rows_and_enter_then_picks_nothing():
    listing = Listing()
    heard(listing, ANA, HOST)
    heard(listing, fake(1, host="Ana"), STRANGER)
    tables = listing.tables()
    lines = table_lines(tables, 2.0, numbered=True)
    assert lines[1].endswith("at 10.0.0.5:47001 [conflict: the same host name from 10.0.0.66]")
    assert lines[2].endswith("at 10.0.0.66:9 [conflict: the same host name from 10.0.0.5]")
    assert lines[3].startswith("Two addresses announce one table id or host name")
    assert lines[3].endswith("Enter picks nothing.")
    picked = parse_pick("", len(tables), ambiguous(tables))
    assert isinstance(picked, Invalid) and "Enter picks nothing" in picked.message
    assert parse_pick("2", len(tables), ambiguous(tables)) == 1
    assert parse_pick("", 1) == 0  # no conflict: Enter takes the first, as before


def test_many_conflicts_are_shown_in_short():
    listing = Listing()
    for s in range(4):
        heard(listing, ANA, f"10.0.0.{s + 1}")
    words = describe(listing.tables()[0])
    assert words.count("from 10.0.0.") == 2 and words.endswith("; 1 more]")
    assert "[conflict: the same table id, host name and service name from 10.0.0.2;" in words


def test_the_picked_table_is_checked_against_the_handshake():
    table = bytes.fromhex("5f0c9e21a47b3d18") + os.urandom(8)
    assert picked_mismatch("5f0c9e21a47b3d18", "10.0.0.5:47001", table) is None
    assert picked_mismatch("", "10.0.0.5:47001", table) is None  # typed, not picked
    words = picked_mismatch("0123456789abcdef", "10.0.0.5:47001", table)
    assert words is not None and words.startswith(
        "The table you picked announced id 0123456789abcdef, but the host at 10.0.0.5:47001 "
        "is table 5f0c9e21a47b3d18: the listing was forged, or the table reopened."
    )
    assert "so you join it" in words
    watching = picked_mismatch("0123456789abcdef", "10.0.0.5:47001", table, watching=True)
    assert watching is not None and "so you watch it" in watching


class _Wire:
    def connect(self, endpoint: str) -> None:
        pass


def test_a_joiner_says_once_that_the_host_is_not_the_table_it_picked():
    from p2ptable.net.arrival import Arrival, Said

    from .lobby_table import HOST_ENDPOINT, deliver, host_lobby, joiner

    for listed, says in (("0123456789abcdef", True), (None, False)):
        host = host_lobby()
        ben = joiner(1, "Ben")
        said: list[str] = []
        arrival = Arrival(_Wire(), ben.me)  # type: ignore[arg-type]
        arrival.join(ben, HOST_ENDPOINT, listed or host.table[:8].hex())
        for frame in ben.outgoing:  # the knock
            deliver(host, ben, frame)
        ben.outgoing.clear()
        for endpoint, frame in host.outgoing:  # the challenge, with the host's table id
            if endpoint == ben.endpoint:
                arrival.lobby_frame(frame, "10.0.0.1", 0.1)
                arrival.lobby_frame(frame, "10.0.0.1", 0.2)  # a second copy: said once
        said += [e.text for e in arrival.take_events() if isinstance(e, Said)]
        mismatches = [line for line in said if line.startswith("The table you picked")]
        assert len(mismatches) == (1 if says else 0)
        if says:
            assert mismatches[0].startswith(
                "The table you picked announced id 0123456789abcdef, but the host at "
                f"10.0.0.1:4000 is table {host.table[:8].hex()}: the listing was forged"
            )
        assert ben.outgoing  # and the joiner goes on: its join is on its way


def test_tables_prints_both_rows_marked_and_json_says_the_conflict(monkeypatch):
    import json

    from click.testing import CliRunner

    from p2ptable.cli import main
    from p2ptable.net import discovery

    listing = Listing()
    heard(listing, ANA, HOST)
    heard(listing, fake(1, host="Ana"), STRANGER)
    monkeypatch.setattr(discovery, "listen", lambda wait, interfaces: discovery.Heard(
        listing.tables()))  # fmt: skip
    out = CliRunner().invoke(main, ["tables", "--wait", "1"]).output.splitlines()
    assert out == [
        "Open tables heard in 1 s (a listing is a hint: the code proves the host):",
        "  Ana: Pet Quartet (variant=duet), 1 of 3 seats taken, at 10.0.0.5:47001 "
        "[conflict: the same host name from 10.0.0.66]",
        "  Ana: Pet Quartet, 1 of 3 seats taken, at 10.0.0.66:9 "
        "[conflict: the same host name from 10.0.0.5]",
        "Two addresses announce one table id or host name (marked conflict): one of them is "
        "not the host. Pick the table at the address the host printed.",
        "Join one with: p2ptable join (and pick it from the list)",
    ]
    rows = json.loads(CliRunner().invoke(main, ["tables", "--json"]).output)
    assert [row["conflict"] for row in rows] == [
        ["the same host name from 10.0.0.66"],
        ["the same host name from 10.0.0.5"],
    ]
