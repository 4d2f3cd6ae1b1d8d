"""The TXT record of a table's announcement, read as a stranger's input.

Issue 16: "The announcement carries the game, the variant, the host's name, seats
taken/total, the port and a table id; never the join code."  And: "Treat
everything heard as untrusted input: a stranger can announce junk or thousands of
fake tables: bound the list, TXT values length-limited and sanitized for the
terminal, never crash on malformed records."  No network here: bytes in, values out.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2ptable.net.announce_record import (
    MAX_KEYS,
    MAX_NAME,
    MAX_VALUE,
    Announcement,
    RecordError,
    announcement,
    parse_txt,
    printable,
    txt_items,
    usable_address,
)
from p2ptable.net.listing import HeardTable
from p2ptable.ui.table_list import Invalid, Quit, describe, parse_pick, table_lines

TABLE = bytes(range(16))
AD = announcement(TABLE, "pet-quartet", {"variant": "maestro", "scoring": "basic"}, "Ana", 1, 3,
                  47001)  # fmt: skip


def txt(ad: Announcement = AD, **change: str | None) -> dict[bytes, bytes | None]:
    """The record as python-zeroconf hands it to us (bytes), with ``change``."""
    items: dict[str, str | None] = {**ad.to_txt(), **change}
    return {k.encode(): None if v is None else v.encode() for k, v in items.items()}


def test_a_record_reads_back_as_the_announcement_it_was_built_from():
    assert parse_txt(txt()) == AD
    assert AD.table_id == TABLE[:8].hex()
    assert AD.to_txt() == {
        "v": "1", "id": "0001020304050607", "game": "pet-quartet",
        "opts": "scoring=basic,variant=maestro", "host": "Ana", "seats": "1/3", "port": "47001",
    }  # fmt: skip


def test_the_record_never_holds_the_join_code():
    # The lobby's code is not even an input of the record: nothing to leak.
    import inspect

    assert "code" not in inspect.signature(announcement).parameters
    assert "code" not in " ".join(AD.to_txt())


@given(
    host=st.text(min_size=1, max_size=MAX_NAME).filter(lambda s: printable(s, MAX_NAME) == s),
    taken=st.integers(1, 6),
    extra=st.integers(0, 6),
    port=st.integers(1, 65535),
    table=st.binary(min_size=16, max_size=16),
)
def test_round_trip_of_any_table(host, taken, extra, port, table):
    ad = announcement(table, "vorsicht-lehrer", {"track": "100"}, host, taken, taken + extra, port)
    assert parse_txt(txt(ad)) == ad


@pytest.mark.parametrize("missing", ["id", "game", "seats", "port"])
def test_a_record_without_a_field_that_says_where_or_what_is_refused(missing):
    record = txt()
    del record[missing.encode()]
    with pytest.raises(RecordError, match=f"no {missing}"):
        parse_txt(record)


def test_the_free_text_may_be_missing():
    record = txt()
    del record[b"host"], record[b"opts"], record[b"v"]
    ad = parse_txt(record)
    assert ad.host == "?" and ad.options == ()


@pytest.mark.parametrize(
    "change",
    [
        {"id": "zz" * 8},
        {"id": "0001"},
        {"id": "00" * 9},
        {"game": "Pet Quartet"},
        {"game": "\x1b[2J"},
        {"game": ""},
        {"seats": "4/3"},
        {"seats": "0/3"},
        {"seats": "1/65"},
        {"seats": "1/"},
        {"seats": "one/three"},
        {"seats": "1/3/5"},
        {"port": "0"},
        {"port": "65536"},
        {"port": "-1"},
        {"port": "47001 "},
        {"seats": None},
    ],
)
def test_a_field_out_of_its_form_is_refused(change):
    with pytest.raises(RecordError):
        parse_txt(txt(**change))


def test_oversize_records_are_refused():
    with pytest.raises(RecordError, match="bytes"):
        parse_txt(txt(host="A" * (MAX_VALUE + 1)))
    many = {**txt(), **{f"x{i}".encode(): b"" for i in range(MAX_KEYS)}}
    with pytest.raises(RecordError, match="keys"):
        parse_txt(many)


def test_escape_codes_and_invisible_characters_never_reach_the_terminal():
    evil = "\x1b[2J\x1b]0;pwned\x07Eve\u202e\u200b\r\nroot\x9b31m"
    ad = parse_txt(txt(host=evil, opts="variant=\x1b[31mred,\x00=x"))
    shown = describe_text(ad)
    assert all(c.isprintable() for c in shown)
    assert "\x1b" not in shown and "\x9b" not in shown and "\u202e" not in shown
    assert ad.host.startswith("?[2J?]0;pwned?Eve")
    assert ("variant", "?[31mred") in ad.options


def describe_text(ad: Announcement) -> str:
    return "".join(table_lines([HeardTable("10.0.0.5", ad, 0.1)], 3.0, numbered=True))


def test_long_free_text_is_cut_and_bad_utf8_is_replaced():
    ad = parse_txt({**txt(), b"host": "Ä".encode() * 90 + b"\xff\xfe"})
    assert len(ad.host) == MAX_NAME and ad.host.endswith("…")
    ad = parse_txt({**txt(), b"host": b"\xff\xfeBen"})
    assert ad.host == "\ufffd\ufffdBen"
    ad = parse_txt(txt(opts=",".join(f"o{i}={'v' * 10}" for i in range(14))))
    assert len(ad.options) == 8
    ad = parse_txt(txt(opts=",".join(f"{'k' * 30}={'v' * 30}" for i in range(3))))
    assert all(len(k) <= 24 and len(v) <= 24 for k, v in ad.options)


@given(st.dictionaries(st.binary(max_size=12), st.none() | st.binary(max_size=300), max_size=20))
def test_no_bytes_make_the_reader_raise_anything_but_a_record_error(record):
    try:
        ad = parse_txt(record)
    except RecordError:
        return
    assert all(c.isprintable() for c in describe_text(ad))


def test_keys_and_values_that_are_not_bytes_are_refused():
    with pytest.raises(RecordError):
        parse_txt({"id": "x"})  # type: ignore[dict-item]


def test_instance_names_fit_a_dns_label_and_hold_no_dot():
    ad = announcement(TABLE, "teachers-pet", {}, "Dr. Ä" + "x" * 30, 1, 6, 1)
    name = ad.instance_name()
    assert len(name.encode()) <= 63 and "." not in name and name.endswith("[00010203]")


def test_only_unicast_ipv4_addresses_are_usable():
    assert usable_address("10.0.0.5") == "10.0.0.5"
    for junk in ("224.0.0.251", "0.0.0.0", "255.255.255.255", "240.0.0.1", "::1", "x", ""):
        assert usable_address(junk) is None


# -- the TXT record's wire form -------------------------------------------------


def test_a_txt_record_s_wire_form_reads_as_its_items():
    wire = b"".join(bytes([len(x)]) + x for x in (b"v=1", b"ID=ab", b"flag", b"", b"id=cd"))
    assert txt_items(wire) == {b"v": b"1", b"id": b"ab", b"flag": None}  # the first id wins


def test_a_txt_string_longer_than_its_record_or_too_many_strings_are_refused():
    with pytest.raises(RecordError, match="longer than its record"):
        txt_items(b"\xff\x01")
    with pytest.raises(RecordError, match="TXT strings"):
        txt_items(b"\x01x" * (MAX_KEYS + 1))


@given(st.binary(max_size=600))
def test_no_txt_bytes_make_the_reader_raise_anything_but_a_record_error(wire):
    try:
        items = txt_items(wire)
    except RecordError:
        return
    assert len(items) <= MAX_KEYS
    try:
        parse_txt(items)
    except RecordError:
        pass


# -- what a person reads, and picks ----------------------------------------------


def test_the_listing_says_who_what_how_full_and_where():
    lines = table_lines([HeardTable("10.0.0.5", AD, 0.1)], 3.0, numbered=True)
    assert lines == [
        "Open tables heard in 3 s (a listing is a hint: the code proves the host):",
        "  1) Ana: Pet Quartet (scoring=basic, variant=maestro), 1 of 3 seats taken, "
        "at 10.0.0.5:47001",
    ]
    unknown = announcement(TABLE, "chess", {}, "Ana", 1, 2, 1)
    assert "chess (a game this p2ptable does not know)" in describe(
        HeardTable("1.2.3.4", unknown, 0)
    )


def test_no_tables_heard_gives_the_hint_to_type_the_address():
    (line,) = table_lines([], 2.5)
    assert line.startswith("No open tables heard in 2.5 s. A network that filters multicast")
    assert "type the address the host printed" in line


def test_a_pick_is_a_number_or_enter_for_the_first():
    assert parse_pick("", 3) == 0
    assert parse_pick(" 2 ", 3) == 1
    assert isinstance(parse_pick("q", 3), Quit)
    assert parse_pick("4", 3) == Invalid("there is no table 4: choose 1-3, or q to leave")
    assert parse_pick("0", 1) == Invalid("there is no table 0: choose 1, or q to leave")
    assert parse_pick("Ana", 3) == Invalid("type a table's number: choose 1-3, or q to leave")
    assert isinstance(parse_pick("9" * 50, 3), Invalid)
