"""The lobby's messages as types (net/lobby_messages.py): every kind a lobby
sends is built from its type, and reading a frame's data back gives the same
value, so the bytes on the wire are those of the dicts before (wire.md 3)."""

from __future__ import annotations

import pytest

from p2ptable.crypto.encoding import pack
from p2ptable.net.lobby_frames import LobbyError, LobbyIgnored, Member
from p2ptable.net.lobby_messages import (
    Challenge,
    Denied,
    Here,
    Join,
    Knock,
    LobbyKind,
    Roster,
    Watch,
)

MEMBER = Member("Ana", b"k" * 32, b"c" * 32, b"l" * 32, "tcp://127.0.0.1:5000", None)
TABLE = b"t" * 16

EXAMPLES = [
    Knock(b"x" * 33, "tcp://127.0.0.1:1"),
    Knock(b"x" * 33, "tcp://127.0.0.1:1", watch=True, again=2),
    Challenge(b"x", TABLE, "pet-quartet", {"maestro": True}, 4, b"y", b"p", 2),
    Challenge(b"x", TABLE, "vorsicht-lehrer", {}, 3, b"y", b"p", 2, True, True, 60),
    Denied(b"x", "the table is full"),
    Denied(b"x", "too many knocks", wait=30),
    Join(b"p", 2, "Ben", b"c" * 32, b"l" * 32, None),
    Watch(b"p", 2, "Eve"),
    Here(3),
    Roster(TABLE, (MEMBER,), b"", 1),
    Roster(TABLE, (MEMBER,), b"g", 5, ("Eve",), ("Dan",), (3, 4)),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_each_message_reads_back_as_it_was_written(message):
    assert type(message).parse(message.to_data()) == message


def test_the_bytes_are_those_of_the_lobby_dicts_before_the_types():
    """What the host's _send_roster and the joiner's _knock packed by hand."""
    roster = {
        "table": TABLE,
        "members": [MEMBER.as_dict()],
        "genesis": b"",
        "v": 1,
        "watchers": [],
    }
    assert pack(Roster(TABLE, (MEMBER,), b"", 1).to_data()) == pack(roster)
    knock = {"pake": b"x", "endpoint": "tcp://127.0.0.1:1", "watch": True}
    assert pack(Knock(b"x", "tcp://127.0.0.1:1", watch=True).to_data()) == pack(knock)
    assert pack(LobbyKind.ROSTER) == pack("roster")


def test_a_challenge_whose_table_cannot_be_used_is_an_error():
    data = Challenge(b"x", TABLE, "pet-quartet", {}, 4, b"y", b"p", 2).to_data()
    for field, bad in [("table", b"short"), ("seats", True), ("options", []), ("game", 1)]:
        with pytest.raises(LobbyError, match="malformed challenge"):
            Challenge.parse({**data, field: bad})
    with pytest.raises(LobbyError, match="a bad clock"):
        Challenge.parse({**data, "clock": 0})


def test_a_roster_that_cannot_be_used_is_ignored_and_its_screen_lists_are_cleaned():
    data = Roster(TABLE, (MEMBER,), b"", 1).to_data()
    for field, bad in [("members", {}), ("genesis", None), ("v", True)]:
        with pytest.raises(LobbyIgnored, match="malformed roster"):
            Roster.parse({**data, field: bad})
    with pytest.raises(LobbyIgnored, match="malformed roster: "):
        Roster.parse({**data, "members": [{"name": "Ana"}]})
    dirty = Roster.parse(
        {**data, "watchers": ["Eve", "\x1b[2J", 7, "x" * 99], "short": [4, 3], "removed": "Dan"}
    )
    assert dirty.watchers == ("Eve",)
    assert dirty.short is None and dirty.removed == ()


def test_a_knock_for_a_rematch_names_a_game_only_by_a_number():
    assert Knock.parse({"pake": b"x", "endpoint": "e", "again": "1"}).again is None
    assert Knock.parse({"pake": b"x", "endpoint": "e", "watch": 1}).watch is False
