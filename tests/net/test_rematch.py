"""The rematch's codes: derived from a pair of seats' link key (p2ptable/rematch.py).

Issue 26: "Design it so nothing a spectator or stranger sends can start or join
a rematch".  The code between the host and seat s is derived from their
pairwise link key, which only those two can compute: the host and the seat get
the same code, another pair (or another game) gets another, and a knock for
seat s that proves anything else is a wrong code.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from p2ptable.crypto.links import link_key
from p2ptable.net import lobby
from p2ptable.rematch import derived_code, next_replay
from p2ptable.replay import authoring

from .lobby_table import CODE, answers, deliver, exchange, host_lobby

GAME_ID = b"\x07" * 32


def secrets(n: int) -> authoring.SeatSecrets:
    return authoring.SeatSecrets.from_seed(b"lobby", n, 8)  # as lobby_table's seats


def pair_code(a: authoring.SeatSecrets, b: authoring.SeatSecrets, game_id: bytes = GAME_ID):
    return derived_code(link_key(a.link, a.link_public, b.link_public, game_id), game_id)


def test_the_host_and_a_seat_derive_the_same_code_and_nobody_else_does():
    host, ben, cleo = secrets(0), secrets(1), secrets(2)
    code = pair_code(host, ben)
    assert code == pair_code(ben, host)
    assert code != pair_code(host, cleo) != pair_code(ben, cleo)
    assert code != pair_code(host, ben, b"\x08" * 32)  # another game, another code
    assert len(code) == 20 and lobby.normalize_code(code) == code


def rematch_host(codes: dict[int, str]) -> lobby.HostLobby:
    return dataclasses.replace(host_lobby(3), again=codes)


def knocker(n: int, name: str, code: str, again: int | None) -> lobby.JoinerLobby:
    return lobby.JoinerLobby(code, secrets(n), name, f"tcp://10.0.0.{n + 1}:4000", again=again)


def test_a_seat_that_says_yes_proves_its_derived_code():
    code = pair_code(secrets(0), secrets(1))
    host = rematch_host({1: code})
    ben = knocker(1, "Ben", code, again=1)
    exchange(host, ben, [])
    assert [m.name for m in host.members] == ["Ana", "Ben"]


@pytest.mark.parametrize("guess", ["the table's code", "another seat's code"])
def test_a_spectator_or_stranger_claiming_a_seat_has_a_wrong_code(guess):
    ben_code, cleo_code = pair_code(secrets(0), secrets(1)), pair_code(secrets(0), secrets(2))
    host = rematch_host({1: ben_code, 2: cleo_code})
    # A spectator of the old game knows the log and the old code, and Cleo
    # knows her own code: neither proves Ben's.
    code = CODE if guess == "the table's code" else cleo_code
    stranger = knocker(5, "Ben", code, again=1)
    with pytest.raises(lobby.LobbyError, match="wrong join code"):
        exchange(host, stranger, [])
    assert [m.name for m in host.members] == ["Ana"]


def test_someone_new_joins_a_rematch_with_the_tables_printed_code():
    host = rematch_host({1: pair_code(secrets(0), secrets(1))})
    dan = knocker(3, "Dan", CODE, again=None)
    exchange(host, dan, [])
    assert [m.name for m in host.members] == ["Ana", "Dan"]


def test_a_rematch_joiner_waits_through_a_denial_for_the_host_to_open_again():
    ben = knocker(1, "Ben", pair_code(secrets(0), secrets(1)), again=1)
    old = host_lobby(2)  # the old game's host, still there: "the table is full"
    old.members.append(dataclasses.replace(old.members[0], name="X", key=b"x" * 32))
    deliver(old, ben, ben.outgoing.pop())
    ((kind, data),) = answers(old, ben.endpoint)
    assert kind == "denied"
    frame = lobby.seal_lobby("denied", data, old.me)
    ben.receive(frame)  # not the end: it knocks again
    ben.tick(0.0)
    assert ben.wake_at(0.0) == 10.0


def test_the_rematchs_replay_is_next_to_the_old_one():
    assert next_replay(Path("/r/Ana.p2pt")) == Path("/r/Ana.game2.p2pt")
    assert next_replay(Path("/r/Ana.game2.p2pt")) == Path("/r/Ana.game3.p2pt")


@pytest.mark.parametrize("talk", [True, False])
def test_a_resumed_hosts_rematch_keeps_the_spectators_talk_of_the_last_table(
    tmp_path, monkeypatch, talk
):
    """A host that resumed and says yes to the rematch has no command-line
    options of the last table: what it opens again comes from its files and the
    genesis (keep going, spectators, and whether they may talk), as it was."""
    from p2ptable import play
    from p2ptable.net.memory_transport import Switchboard
    from p2ptable.rematch import host_again, read_again

    from .test_memory_transport import run_all, table

    peers = table(tmp_path, Switchboard(), spectators=True, talk=talk)
    assert run_all(peers) == [0, 0, 0]
    again = read_again(tmp_path / "Ana.p2pt")
    assert again.spectators and again.spectators_talk is talk
    opened: dict = {}
    monkeypatch.setattr(play, "host", lambda *args, **options: opened.update(options))
    host_again(tmp_path / "Ana.p2pt")  # as `resume` calls it: no options of the last table
    assert opened["spectators"] is True and opened["spectators_talk"] is talk
