"""Starting short-handed and removing a joiner, in the lobby (sans-IO).

Issue 26: "the host may start once the game's minimum number of players is
seated ('start now with 3 of 4'), and may remove a joiner from the lobby before
the game begins; both shown to everyone in the lobby."  Both travel in the
roster, which the host signs and binds to each joiner's handshake: a stranger
cannot say "start" for the host, and a removed joiner cannot come back in with
the handshake it had.
"""

from __future__ import annotations

import pytest

from p2ptable.crypto.encoding import unpack_canonical
from p2ptable.net import lobby, lobby_commands
from p2ptable.replay import authoring

from .lobby_table import as_host, deliver, exchange, host_lobby, joiner, settle


def seated(host: lobby.HostLobby) -> list[str]:
    return [m.name for m in host.members]


def test_the_host_starts_with_three_of_four_and_everyone_signs_that_genesis():
    host = host_lobby(4)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    settle(host, [ben, cleo])
    assert host.genesis is None  # 3 of 4: the table waits ...
    assert any("Type 'start' to start now with 3 of 4 seats" in line for line in host.screen)
    assert lobby_commands.run(host, "start", 1.0) is None  # ... until the host says
    settle(host, [ben, cleo], now=1.0)
    assert host.genesis is not None and host.genesis == ben.genesis == cleo.genesis
    assert len(unpack_canonical(host.genesis)["seats"]) == 3
    assert ben.short == cleo.short == (3, 4)  # shown to everyone in the lobby
    assert "Starting now with 3 of 4 seats." in host.screen


def test_the_hint_is_not_said_while_bots_are_coming_for_every_free_seat():
    # `play` (a host whose other seats are all bot peers) said "Type 'start' to
    # start now with 2 of 4 seats, 'bots' to fill the free seats ..." as each of
    # its bots sat down: nothing for its person to do (found by hand).  A host
    # with seats left for people is still told.
    host = host_lobby(3)
    host.bots_coming = 2  # play --bots 2: Ben and Cleo are those bots
    settle(host, [joiner(1, "Ben (bot)"), joiner(2, "Cleo (bot)")])
    assert not any("Type 'start'" in line for line in host.screen)
    assert host.bots_coming == 0 and host.genesis is not None
    people = host_lobby(4)
    people.bots_coming = 1
    settle(people, [joiner(1, "Ben (bot)"), joiner(2, "Cleo")])
    assert any("Type 'start' to start now with 3 of 4 seats" in line for line in people.screen)


def test_the_host_cannot_start_below_the_games_minimum():
    host = host_lobby(3)
    said = lobby_commands.run(host, "start", 0.0)
    assert said == "Cannot do that: 1 seated: the game takes at least 2 players."
    assert host.seats == 3 and host.genesis is None


def test_a_knock_after_the_start_finds_the_table_full():
    host = host_lobby(4)
    ben = joiner(1, "Ben")
    settle(host, [ben])
    lobby_commands.run(host, "start", 1.0)
    late = joiner(2, "Cleo")
    with pytest.raises(lobby.LobbyError, match="the table is full"):
        exchange(host, late, [], now=1.5)


def test_a_removed_joiner_is_told_and_everyone_sees_it():
    host = host_lobby(4)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    settle(host, [ben, cleo])
    assert lobby_commands.run(host, "remove cleo", 1.0) is None  # any case
    assert seated(host) == ["Ana", "Ben"]
    with pytest.raises(lobby.LobbyError, match="the host removed you from the table"):
        exchange(host, cleo, [], now=1.5)
    exchange(host, ben, [], now=1.5)
    assert ben.removed == ["Cleo"] and [m.name for m in ben.members] == ["Ana", "Ben"]
    assert "Cleo was removed from the table (2/4)" in host.screen


def test_a_removed_joiner_cannot_come_back_with_its_handshake_or_its_key():
    host = host_lobby(4)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    settle(host, [ben, cleo])
    cleo.tick(0.5)
    kept = list(cleo.outgoing)  # a `here` of Cleo's handshake, recorded
    cleo.outgoing.clear()
    lobby_commands.run(host, "remove Cleo", 1.0)
    for frame in kept:  # sent again, from Cleo's own machine
        deliver(host, cleo, frame, 2.0)
    # Its key knocks again (the same process, or one replaying its knock).
    again = lobby.JoinerLobby(cleo.code, cleo.me, "Cleo", cleo.endpoint)
    for frame in again.outgoing:
        deliver(host, again, frame, 3.0)
    assert seated(host) == ["Ana", "Ben"]
    assert not [f for t, f in host.outgoing if t == cleo.endpoint and b"challenge" in f]
    assert any("a key the host removed" in line for line in host.log)
    # A person who is welcome after all joins again as a new peer.
    dan = joiner(3, "Cleo")
    settle(host, [ben, dan], now=4.0)
    assert seated(host) == ["Ana", "Ben", "Cleo"] and dan.seated


def test_nobody_can_be_removed_once_the_game_is_starting():
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    settle(host, [ben])
    assert host.genesis is not None
    assert lobby_commands.run(host, "remove Ben", 1.0) == lobby_commands.WAITING
    with pytest.raises(lobby.LobbyError, match="already starting"):
        host.remove("Ben")


def test_removing_nobody_says_who_joined():
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    settle(host, [ben])
    said = lobby_commands.run(host, "remove Dan", 1.0)
    assert said == "Cannot do that: nobody called 'Dan' has joined (joined: Ben)."
    assert lobby_commands.run(host, "remove Ana", 1.0).startswith("Cannot do that")  # type: ignore[union-attr]
    assert lobby_commands.run(host, "dance", 1.0) == lobby_commands.HELP


def test_a_joiners_start_command_does_nothing():
    ben = joiner(1, "Ben")
    assert lobby_commands.run(ben, "start", 0.0) == lobby_commands.WAITING


def test_a_stranger_cannot_say_start_or_remove_for_the_host():
    host = host_lobby(4)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    settle(host, [ben, cleo])
    stranger = authoring.SeatSecrets.from_seed(b"stranger", 9, 8)
    forged = {
        "table": host.table,
        "members": [m.as_dict() for m in host.members[:2]],
        "genesis": b"",
        "v": 99,
        "watchers": [],
        "short": [2, 4],
        "removed": ["Cleo"],
    }
    with pytest.raises(lobby.LobbyIgnored, match="not signed by the host"):
        cleo.receive(lobby.seal_lobby("roster", forged, stranger))
    # Ben's copy of a real roster, sent to Cleo, is bound to Ben's handshake.
    bens = as_host(host, ben, "roster", forged)
    with pytest.raises(lobby.LobbyIgnored, match="bad tag"):
        cleo.receive(bens)
    assert cleo.short is None and cleo.removed == [] and cleo.seated


def test_bots_fill_the_free_seats_once():
    host = host_lobby(4)
    ben = joiner(1, "Ben")
    settle(host, [ben])
    asked: list[int] = []
    said = lobby_commands.run(host, "bots", 1.0, asked.append)
    assert said == "Starting 2 bot peers for the free seats." and asked == [2]
    # Typed again before they sit down: the seats are theirs already.
    assert lobby_commands.run(host, "bots", 1.5, asked.append).startswith("Cannot do that")
    assert asked == [2]
    bot = joiner(2, "Peggy (bot)")
    settle(host, [ben, bot], now=2.0)
    assert host.bots_coming == 1


def test_a_table_that_cannot_start_bots_says_so():
    host = host_lobby(3)
    assert lobby_commands.run(host, "bots", 0.0) == "Cannot do that: this table cannot start bots."
