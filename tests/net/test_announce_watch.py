"""Tables that admit spectators on the LAN list (issue 16: `p2ptable watch ADDRESS
--code CODE (or picked from p2ptable tables)`).

A table opened with `host --spectators` says so in its announcement (``watch=1``)
and stays announced once full, since spectators may still come; `join` lists only
open tables, `watch` only those that admit spectators.
"""

from __future__ import annotations

from p2ptable.net.announce_record import announcement, parse_txt
from p2ptable.net.listing import Listing
from p2ptable.ui.table_list import describe, table_lines

from .test_announce_record import TABLE, txt
from .test_listing import heard


def test_the_spectators_flag_reads_back_and_is_absent_otherwise():
    watched = announcement(TABLE, "teachers-pet", {}, "Ana", 2, 4, 47001, watch=True)
    assert watched.to_txt()["watch"] == "1" and parse_txt(txt(watched)).watch
    plain = announcement(TABLE, "teachers-pet", {}, "Ana", 2, 4, 47001)
    assert "watch" not in plain.to_txt() and not parse_txt(txt(plain)).watch
    assert not parse_txt(txt(plain, watch="yes")).watch  # only "1" means yes


def test_a_full_table_that_admits_spectators_stays_listed_as_full():
    tables = Listing()
    full = announcement(TABLE, "teachers-pet", {}, "Ana", 4, 4, 47001, watch=True)
    heard(tables, full, "10.0.0.5")
    (table,) = tables.tables()
    assert table.announcement == full
    words = describe(table)
    assert "full, spectators welcome" in words and "seats taken" not in words
    # a full table that admits no spectators leaves the list, as before
    closed = announcement(TABLE, "teachers-pet", {}, "Ana", 4, 4, 47001)
    heard(tables, closed, "10.0.0.5")
    assert tables.tables() == []


def test_watch_says_plainly_when_no_table_admits_spectators():
    (line,) = table_lines([], 3.0, numbered=True, watching=True)
    assert "No table that admits spectators" in line and "--spectators" in line
    assert "p2ptable watch 192.168.1.20:47001 --code CODE" in line


def test_a_table_whose_spectators_may_talk_lists_it_with_its_options():
    # host --spectators-talk is known before anyone sits down, as the clock is.
    from p2ptable.net import lobby
    from p2ptable.net.discovery import listed_options
    from p2ptable.replay import authoring

    me = authoring.SeatSecrets.from_seed(b"listed", 0, 8)
    options = {"scoring": "basic", "variant": "standard"}
    host = lobby.HostLobby("pet-quartet", options, 2, "7KQ-M2X", me, "Ana", "tcp://10.0.0.1:4000",
                           spectators=True, spectators_talk=True, clock=60)  # fmt: skip
    assert listed_options(host) == {**options, "clock": "60s", "spectators": "talk"}
    listed = announcement(TABLE, "pet-quartet", listed_options(host), "Ana", 1, 2, 47001, True)
    assert ("spectators", "talk") in parse_txt(txt(listed)).options
    quiet = lobby.HostLobby("pet-quartet", options, 2, "7KQ-M2X", me, "Ana",
                            "tcp://10.0.0.1:4000", spectators=True)  # fmt: skip
    assert listed_options(quiet) == options
