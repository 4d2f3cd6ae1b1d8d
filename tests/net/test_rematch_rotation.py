"""The rematch's first player: the player after the last game's first player.

Issue 26: "'play again' offers the same people, game and options a new game at
the same table (a new game id, the first player rotated) ... seats that decline
leave, and the rest may fill them with bots or start short-handed".  So the
rotation goes by name (net/rotation.py): the seats of a rematch are in the
order they sat down again.  The host tells it in its challenge, every seat
builds the genesis from it (``first``), and a seat of the old game refuses a
host whose order is not the one its own replay gives.
"""

from __future__ import annotations

import dataclasses

import pytest

from p2ptable.crypto.encoding import unpack_canonical
from p2ptable.engine.api import FIRST
from p2ptable.net import lobby
from p2ptable.net.lobby_messages import Challenge
from p2ptable.net.rotation import first_seat, parse_rotation, rotation_after, with_first
from p2ptable.rematch import first_player
from p2ptable.replay.verify import verify_file
from p2ptable.sim import simulate

from .lobby_table import OPTIONS, exchange, host_lobby, joiner, settle

NAMES = ("Ana", "Ben", "Cleo")


def test_the_rotation_starts_after_the_first_player_and_goes_round_the_table():
    assert rotation_after(NAMES, 0) == ("Ben", "Cleo", "Ana")
    assert rotation_after(NAMES, 2) == ("Ana", "Ben", "Cleo")


def test_the_first_player_is_the_first_of_the_rotation_seated_again():
    rotation = ("Ben", "Cleo", "Ana")
    assert first_seat(rotation, ["Ana", "Ben", "Cleo"]) == 1
    assert first_seat(rotation, ["Ana", "Cleo", "Ben"]) == 2  # sat down in another order
    assert first_seat(rotation, ["Ana", "Bea (bot)", "Cleo"]) == 2  # Ben declined: Cleo
    assert first_seat(rotation, ["ana", "Dan"]) == 0  # names match in any case
    assert first_seat(rotation, ["Dan", "Eve"]) is None  # nobody came back: drawn
    assert with_first(OPTIONS, (), ["Ana", "Ben"]) == OPTIONS  # not a rematch: drawn
    assert with_first(OPTIONS, rotation, ["Ana", "Ben"]) == {**OPTIONS, FIRST: "1"}


@pytest.mark.parametrize(
    "value", [[], ["Ana"] * 17, ["Ana", 3], ["x" * 33], ["a\nb"], "Ana", {"Ana": 1}]
)
def test_a_malformed_rotation_is_refused(value):
    with pytest.raises(ValueError, match="rotation"):
        parse_rotation(value)


def genesis_options(body: bytes | None) -> dict:
    assert body is not None
    return unpack_canonical(body)["options"]


def rematch_table(rotation, joiner_rotation, again: int | None = 1, name: str = "Ben"):
    host = dataclasses.replace(host_lobby(2), rotation=rotation)
    ben = dataclasses.replace(joiner(1, name), again=again, rotation=joiner_rotation)
    return host, ben


def test_every_seat_builds_the_genesis_that_names_the_rotations_first_player():
    # The host's code for Ben is the table's here: the derived codes are
    # test_rematch.py's; what matters is the order both sides build from.
    host, ben = rematch_table(("Ben", "Ana"), ("Ben", "Ana"))
    settle(host, [ben])
    assert host.genesis is not None and host.genesis == ben.genesis
    assert genesis_options(host.genesis) == {**OPTIONS, FIRST: "1"}


def test_a_seat_of_the_old_game_refuses_a_host_that_picks_another_first_player():
    host, ben = rematch_table(("Ana", "Ben"), ("Ben", "Ana"))
    with pytest.raises(lobby.LobbyError, match="does not give the first move"):
        settle(host, [ben])
    assert ben.genesis is None


def test_someone_new_takes_the_hosts_order_as_the_tables():
    host, dan = rematch_table(("Ben", "Ana"), (), again=None, name="Dan")
    settle(host, [dan])
    assert host.genesis == dan.genesis
    # Nobody of the order but the host is seated: the host plays first.
    assert genesis_options(host.genesis)[FIRST] == "0"


def test_a_host_that_names_another_first_player_in_the_genesis_is_not_signed():
    # Ben was told the order; the genesis the host then proposes names Cleo.
    host = dataclasses.replace(host_lobby(3), rotation=("Ben", "Cleo", "Ana"))
    ben = dataclasses.replace(joiner(1, "Ben"), again=1, rotation=("Ben", "Cleo", "Ana"))
    exchange(host, ben, [])
    host.rotation = ("Cleo", "Ana", "Ben")
    with pytest.raises(lobby.LobbyError, match="genesis does not match the roster"):
        settle(host, [ben, joiner(2, "Cleo")])
    assert ben.genesis is None


def test_three_games_in_a_row_the_first_player_moves_one_seat_each_time(tmp_path):
    # Game 1 draws its first player; games 2 and 3 are its rematches: each
    # names the player after the last game's first, as the host and every seat
    # compute it from the last game's replay.
    names, options, firsts = list(NAMES), {}, []
    for game in range(3):
        path = tmp_path / f"game{game + 1}.p2pt"
        simulate("vorsicht-lehrer", 3, f"chain{game}", path, options=options, names=names)
        report = verify_file(path)
        assert report.valid, report.error
        assert report.ledger is not None
        first = first_player(report.ledger)
        assert first is not None
        firsts.append(names[first])
        options = with_first({}, rotation_after(names, first), names)
    assert firsts[1] == NAMES[(NAMES.index(firsts[0]) + 1) % 3]
    assert firsts[2] == NAMES[(NAMES.index(firsts[0]) + 2) % 3]


def test_after_a_seat_declines_the_next_player_still_by_name(tmp_path):
    path = tmp_path / "game1.p2pt"
    simulate("pet-quartet", 3, "decline", path, options={FIRST: "0"}, names=NAMES)
    ledger = verify_file(path).ledger
    assert ledger is not None and first_player(ledger) == 0  # Ana played first
    rotation = rotation_after(NAMES, 0)  # Ben, Cleo, Ana
    # Ben declines; a bot sits down before Cleo comes back.
    again = ["Ana", "Bea (bot)", "Cleo"]
    options = with_first({}, rotation, again)
    assert options == {FIRST: "2"}
    path2 = tmp_path / "game2.p2pt"
    simulate("pet-quartet", 3, "decline2", path2, options=options, names=again)
    ledger2 = verify_file(path2).ledger
    assert ledger2 is not None and again[first_player(ledger2)] == "Cleo"


def test_the_challenge_carries_the_order_only_in_a_rematch():
    plain = Challenge(b"x", bytes(16), "pet-quartet", OPTIONS, 2, b"y", b"p", 2)
    assert "rotation" not in plain.to_data()  # as before: no field at all
    again = dataclasses.replace(plain, rotation=("Ben", "Ana"))
    assert again.to_data()["rotation"] == ["Ben", "Ana"]
    assert Challenge.parse(again.to_data()) == again
    with pytest.raises(lobby.LobbyError, match="malformed challenge from the host: a rotation"):
        Challenge.parse({**again.to_data(), "rotation": ["Ben", 7]})
