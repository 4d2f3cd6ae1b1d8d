"""The table's clock in the lobby: said by the host, signed into the genesis.

Issue 26: "The table's clock must be known to every seat and to verify": it
rides in the host's challenge (after the host proved the code, so no stranger
can set it), every seat builds the genesis with it, and a table without a
clock says nothing of one (its frames and its genesis are as before).
"""

from __future__ import annotations

import dataclasses

import pytest

from p2ptable.crypto.encoding import unpack_canonical
from p2ptable.net import lobby
from p2ptable.net.announce_record import announcement
from p2ptable.net.lobby_frames import parse_clock

from .lobby_table import answers, deliver, host_lobby, joiner, settle


def clocked(seats: int = 2, clock: int | None = 60) -> lobby.HostLobby:
    return dataclasses.replace(host_lobby(seats), clock=clock)


def test_every_seat_signs_a_genesis_with_the_hosts_clock():
    host = clocked(3)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    settle(host, [ben, cleo])
    assert ben.clock == 60 and cleo.clock == 60
    assert host.genesis is not None and host.genesis == ben.genesis == cleo.genesis
    assert unpack_canonical(host.genesis)["clock"] == 60


def test_a_table_without_a_clock_says_nothing_of_one():
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    deliver(host, ben, ben.outgoing.pop())
    ((kind, data),) = answers(host, ben.endpoint)
    assert kind == "challenge" and "clock" not in data
    host, ben = host_lobby(2), joiner(1, "Ben")
    settle(host, [ben])
    assert ben.clock is None
    assert host.genesis is not None and "clock" not in unpack_canonical(host.genesis)


@pytest.mark.parametrize("bad", [0, -1, 86401, "60", 1.5, True])
def test_a_joiner_refuses_a_challenge_with_a_bad_clock(bad):
    assert parse_clock(60) == 60 and parse_clock(None) is None
    with pytest.raises(lobby.LobbyError, match="clock"):
        parse_clock(bad)


def test_the_listing_names_the_clock_with_the_options():
    ad = announcement(
        b"\x01" * 16, "pet-quartet", {"clock": "60s", "scoring": "basic"}, "Ana", 1, 2, 47001
    )
    assert ("clock", "60s") in ad.options
