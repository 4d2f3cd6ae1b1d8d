"""Filling a table: the join-code handshake and the roster (sans-IO).

Issue 3: "The join code keeps strangers out. A peer that doesn't know it cannot take
a seat or inject messages, and the code is never sent in clear."  What the code
proves and how often a stranger may try is in test_join_code.py and
test_knock_limits.py; arbitrary input in test_lobby_fuzz.py.
"""

from __future__ import annotations

import pytest

from p2ptable.crypto.encoding import pack
from p2ptable.net import lobby
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger

from .lobby_table import (
    CODE,
    HOST_ENDPOINT,
    as_host,
    deliver,
    exchange,
    host_lobby,
    joiner,
    settle,
)


def test_a_full_table_gives_everyone_the_same_genesis():
    host = host_lobby(3)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    wire: list[bytes] = []
    exchange(host, ben, wire)
    assert host.genesis is None
    exchange(host, cleo, wire)
    assert host.full and host.genesis is None  # the roll call: Ben has not answered
    # Ben hears about the full table through the roster broadcast, and answers.
    settle(host, [ben, cleo], wire)
    assert host.genesis is not None
    assert cleo.genesis == host.genesis
    for frame in wire:
        assert CODE.replace("-", "").encode() not in frame  # never sent in clear
        assert CODE.encode() not in frame
    seats = [m.name for m in host.members]
    assert seats == ["Ana", "Ben", "Cleo"]


def test_the_genesis_from_a_lobby_is_accepted_by_the_ledger():
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    exchange(host, ben, [])
    secrets = [host.me, ben.me]
    sigs = [authoring.sign_genesis(host.genesis, s) for s in secrets]
    ledger = Ledger(authoring.assemble_genesis(host.genesis, sigs))
    assert [s.name for s in ledger.seats] == ["Ana", "Ben"]


def test_a_joiner_with_the_wrong_code_learns_it_and_sends_no_proof():
    host = host_lobby(2)
    mallory = joiner(1, "Mallory", code="XXX-YYY")
    with pytest.raises(lobby.LobbyError, match="wrong join code"):
        exchange(host, mallory, [])
    assert mallory.outgoing == [] and mallory.host_key is None  # no join, nothing trusted
    assert len(host.members) == 1


def test_a_join_with_a_bad_proof_is_denied():
    host = host_lobby(2)
    mallory = joiner(1, "Mallory")
    deliver(host, mallory, mallory.outgoing.pop())
    challenge = host.outgoing.pop()[1]
    mallory.receive(challenge)
    join_frame = mallory.outgoing.pop()
    # Replace the proof by garbage, re-signed by Mallory's own key.
    kind, key, data = lobby.open_lobby(join_frame)
    forged = lobby.seal_lobby("join", dict(data, proof=bytes(32)), mallory.me)
    deliver(host, mallory, forged)
    kind, _, data = lobby.open_lobby(host.outgoing.pop()[1])
    assert (kind, data["reason"]) == ("denied", "wrong join code")
    assert len(host.members) == 1


def test_the_table_full_and_taken_names_are_refused():
    host = host_lobby(2)
    exchange(host, joiner(1, "Ben"), [])
    late = joiner(2, "Cleo")
    with pytest.raises(lobby.LobbyError, match="table is full"):
        exchange(host, late, [])
    host3 = host_lobby(3)
    with pytest.raises(lobby.LobbyError, match="name 'Ana' is taken"):
        exchange(host3, joiner(1, "Ana"), [])


@pytest.mark.parametrize("name", ["ana", "ANA", "Ana"])
def test_names_are_unique_without_regard_to_case(name):
    # Issue 11: "Seat names are unique without regard to case ("ana" next to
    # "Ana" is refused)."  People tell seats apart by name on every screen.
    host = host_lobby(3)
    with pytest.raises(lobby.LobbyError, match="is taken"):
        exchange(host, joiner(1, name), [])


def test_a_low_order_link_key_is_refused():
    # An all-zero X25519 public key gives no shared secret: refuse it before anyone
    # signs a genesis that would stop every game at its first frame.
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    deliver(host, ben, ben.outgoing.pop())
    ben.receive(host.outgoing.pop()[1])
    _, _, data = lobby.open_lobby(ben.outgoing.pop())
    deliver(host, ben, lobby.seal_lobby("join", dict(data, link=bytes(32)), ben.me))
    kind, _, reply = lobby.open_lobby(host.outgoing.pop()[1])
    assert kind == "denied"
    assert "link key" in reply["reason"]
    assert len(host.members) == 1


def test_a_joiner_refuses_a_roster_that_changed_its_entry():
    # Found in review: a host could swap a joiner's chain head for its own and so
    # know that joiner's random contributions.
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    deliver(host, ben, ben.outgoing.pop())
    ben.receive(host.outgoing.pop()[1])
    deliver(host, ben, ben.outgoing.pop())
    roster_frame = host.outgoing.pop()[1]
    _, _, data = lobby.open_lobby(roster_frame)
    members = [dict(m) for m in data["members"]]
    members[1]["chain"] = host.me.chain.head[::-1]
    forged = as_host(host, ben, "roster", dict(data, members=members))
    with pytest.raises(lobby.LobbyError, match="does not list us as we joined"):
        ben.receive(forged)


def test_malformed_lobby_frames_are_logged_not_raised():
    host = host_lobby(2)
    host.receive(pack([pack({"k": "knock", "key": bytes(32), "d": {}}), 7]), "10.0.0.9", 0.0)
    host.receive(b"\xc1", "10.0.0.9", 0.0)
    host.receive(pack([b"", b""]), "10.0.0.9", 0.0)
    assert len(host.log) == 3
    assert all(line.startswith("rejected a lobby message") for line in host.log)


@pytest.mark.parametrize("code", ["", "hello wörld", "7kq m2x!", "7KQ-M2", "7KQ_M2X"])
def test_malformed_codes(code):
    with pytest.raises(lobby.LobbyError, match="not a join code"):
        lobby.normalize_code(code)


def test_codes_are_case_and_dash_insensitive():
    assert lobby.normalize_code("7kq m2x") == lobby.normalize_code("7KQ-M2X") == "7KQM2X"
    assert lobby.normalize_code(lobby.new_code())


def test_a_joiner_refuses_a_roster_with_a_bad_deck_key_before_signing_anything():
    # Found in review: a host listing a deck key whose proof fails (its own, here)
    # made every joiner sign a genesis its own ledger then refused, and crash.
    me = authoring.SeatSecrets.from_seed(b"lobby", 0, 8)
    host = lobby.HostLobby("vorsicht-lehrer", {"track": "200"}, 2, CODE, me, "Ana", HOST_ENDPOINT)
    ben = joiner(1, "Ben")
    deliver(host, ben, ben.outgoing.pop())
    ben.receive(host.outgoing.pop()[1])
    deliver(host, ben, ben.outgoing.pop())
    roster_frame = host.outgoing.pop()[1]
    _, _, data = lobby.open_lobby(roster_frame)
    members = [dict(m) for m in data["members"]]
    members[0]["deck"] = me.deck_key(b"\x00" * 16)  # proved for another table
    forged = as_host(host, ben, "roster", dict(data, members=members))
    with pytest.raises(lobby.LobbyError, match="bad deck key for Ana"):
        ben.receive(forged)
    assert ben.genesis is None


# Issue 12, finding 4: "A joiner who knows the code can crash the host with a bogus
# endpoint string ... any endpoint (ipc://, another machine) is accepted, and every
# peer connects there."  "Endpoints are validated ... at the host and at every
# joiner; a bad one refuses that join."
@pytest.mark.parametrize("bad", ["bogus", "ipc:///tmp/x", "tcp://nowhere:1", "tcp://10.0.0.2:0", 7])
def test_the_host_answers_no_knock_with_a_bad_endpoint(bad):
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    _, _, data = lobby.open_lobby(ben.outgoing.pop())
    deliver(host, ben, lobby.seal_lobby("knock", dict(data, endpoint=bad), ben.me))
    assert host.outgoing == []  # nowhere to answer: a socket pointed there could crash us
    assert "knock with a bad endpoint" in host.log[-1]


def test_the_host_answers_no_knock_that_names_another_machine():
    # The answer goes to the endpoint: a knock must not make the host, and then
    # every seat, connect to a third machine.
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    host.receive(ben.outgoing.pop(), "10.0.0.66", 0.0)
    assert host.outgoing == []
    assert "names another machine" in host.log[-1]


def test_the_host_denies_a_second_seat_on_one_endpoint():
    host = host_lobby(3)
    exchange(host, joiner(1, "Ben"), [])
    cleo = joiner(2, "Cleo", endpoint=host.members[1].endpoint)  # Ben's
    with pytest.raises(lobby.LobbyError, match="already at the table"):
        exchange(host, cleo, [])
    assert len(host.members) == 2


@pytest.mark.parametrize("seat", [0, 1])
def test_a_joiner_refuses_a_roster_with_a_bad_endpoint(seat):
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    exchange(host, ben, [])
    cleo = joiner(2, "Cleo")
    deliver(host, cleo, cleo.outgoing.pop())
    cleo.receive(host.outgoing.pop()[1])
    deliver(host, cleo, cleo.outgoing.pop())
    _, _, data = lobby.open_lobby(host.outgoing[-1][1])
    members = [dict(m) for m in data["members"]]
    members[seat]["endpoint"] = "tcp://nowhere:1"
    forged = as_host(host, cleo, "roster", dict(data, members=members))
    with pytest.raises(lobby.LobbyError, match="bad endpoint for"):
        cleo.receive(forged)
    assert cleo.genesis is None


def test_our_own_endpoint_must_be_one_others_can_use():
    me = authoring.SeatSecrets.from_seed(b"lobby", 0, 8)
    with pytest.raises(lobby.LobbyError, match="our own address"):
        lobby.HostLobby("pet-quartet", {}, 2, CODE, me, "Ana", "tcp://myhost.local:4000")
    with pytest.raises(lobby.LobbyError, match="our own address"):
        lobby.JoinerLobby(CODE, me, "Ana", "tcp://0.0.0.0:4000")


# Anyone can reach a joiner's inbox (its endpoint is in its knock), so only the
# host, answering this joiner's own knock, can make it stop.
@pytest.mark.parametrize(
    "frame", [b"", b"\xc1", pack([b"", b""]), b"L" * 100, pack([pack({"k": 1}), b""])]
)
def test_junk_in_a_joiners_inbox_is_ignored(frame):
    ben = joiner(1, "Ben")
    with pytest.raises(lobby.LobbyIgnored):
        ben.receive(frame)


def test_a_denial_or_challenge_for_another_knock_is_ignored():
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    stranger = authoring.SeatSecrets.from_seed(b"stranger", 0, 8)
    for kind in ("denied", "challenge"):
        frame = lobby.seal_lobby(kind, {"re": bytes(32), "reason": "go away"}, stranger)
        with pytest.raises(lobby.LobbyIgnored, match="for another knock"):
            ben.receive(frame)
    exchange(host, ben, [])  # and Ben still joins
    assert [m.name for m in host.members] == ["Ana", "Ben"]


def test_a_seated_joiner_ignores_denials_even_from_the_host():
    # The host answers at an endpoint; a stranger on a seat's machine could make
    # it send a denial there.  Being seated is final.
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    exchange(host, ben, [])
    denial = lobby.seal_lobby("denied", {"re": ben._exchange.message, "reason": "no"}, host.me)
    with pytest.raises(lobby.LobbyIgnored, match="after we were seated"):
        ben.receive(denial)


def test_a_replayed_knock_does_not_spoil_the_joiners_handshake():
    # Replacing the first knock's state would make Ben's join, made for the first
    # challenge, fail as a wrong code.
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    knock = ben.outgoing[0]
    deliver(host, ben, knock)
    deliver(host, ben, knock)  # an eavesdropper on Ben's machine sends it again
    assert "the same knock again" in host.log[-1]
    ben.outgoing.clear()
    ben.receive(host.outgoing.pop(0)[1])
    exchange(host, ben, [])
    assert [m.name for m in host.members] == ["Ana", "Ben"]


def test_a_joiner_ignores_a_roster_before_the_host_proved_the_code():
    host = host_lobby(2)
    ben = joiner(1, "Ben")
    roster = {"table": host.table, "members": [m.as_dict() for m in host.members], "genesis": b""}
    with pytest.raises(lobby.LobbyIgnored, match="before the host proved"):
        ben.receive(lobby.seal_lobby("roster", roster, host.me))


def test_a_joiner_refuses_a_roster_that_does_not_seat_the_host_first():
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    deliver(host, ben, ben.outgoing.pop())
    ben.receive(host.outgoing.pop()[1])
    deliver(host, ben, ben.outgoing.pop())
    _, _, data = lobby.open_lobby(host.outgoing.pop()[1])
    members = list(reversed(data["members"]))
    with pytest.raises(lobby.LobbyError, match="seat the host first"):
        ben.receive(as_host(host, ben, "roster", dict(data, members=members)))


def test_a_later_roster_is_not_undone_by_an_earlier_one():
    # Lobby frames to a seat may go by two links (one for answering knocks, one
    # for the game), so an earlier roster can arrive after a later one.
    host = host_lobby(3)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    wire: list[bytes] = []
    exchange(host, ben, wire)
    first_roster = next(f for f in reversed(wire) if lobby.open_lobby(f)[0] == "roster")
    exchange(host, cleo, [])
    settle(host, [cleo, ben])
    for target, frame in host.outgoing:
        if target == ben.endpoint:
            ben.receive(frame)
    host.outgoing.clear()
    assert ben.genesis == host.genesis is not None
    with pytest.raises(lobby.LobbyIgnored, match="replayed"):  # its counter is older
        ben.receive(first_roster)
    assert [m.name for m in ben.members] == ["Ana", "Ben", "Cleo"]


def test_a_seated_joiner_that_goes_silent_frees_its_seat_before_the_table_is_full():
    # Found by the fault drill (scripts/drill.py, seed 751155980): a joiner whose
    # process died in the lobby kept its seat for good; its player could not join
    # again ("the name is taken", then "the table is full") and the genesis round
    # would have waited for ever for the dead seat's signature.  A seated joiner
    # says "here" every second until the table is full; the host frees a seat it
    # has not heard from for lobby.SILENT_SEAT seconds.
    host = host_lobby(3)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    exchange(host, ben, [], now=0.0)
    exchange(host, cleo, [], now=0.0)  # a full table would not free anyone
    assert [m.name for m in host.members] == ["Ana", "Ben", "Cleo"] or host.full
    host = host_lobby(4)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    exchange(host, ben, [], now=0.0)
    exchange(host, cleo, [], now=0.0)
    for t in range(1, 10):  # Cleo is there; Ben's process died at 0
        cleo.tick(float(t))
        exchange(host, cleo, [], now=float(t))
        host.tick(float(t))
    assert [m.name for m in host.members] == ["Ana", "Cleo"]
    assert any("Ben left the table" in line for line in host.log)
    exchange(host, cleo, [], now=9.0)  # the new roster reaches the seated
    assert [m.name for m in cleo.members] == ["Ana", "Cleo"]
    again = joiner(5, "Ben")  # Ben's player joins again, with a new process
    exchange(host, again, [], now=9.5)
    assert [m.name for m in host.members] == ["Ana", "Cleo", "Ben"]


def test_a_joiner_whose_seat_was_freed_is_told_to_join_again():
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    exchange(host, ben, [], now=0.0)
    host.tick(lobby.SILENT_SEAT + 1)
    assert [m.name for m in host.members] == ["Ana"]
    with pytest.raises(lobby.LobbyError, match="freed our seat"):
        exchange(host, ben, [], now=lobby.SILENT_SEAT + 1)


def test_a_full_table_frees_no_seat():
    host = host_lobby(2)
    exchange(host, joiner(1, "Ben"), [], now=0.0)
    assert host.full
    host.tick(1000.0)
    assert len(host.members) == 2 and host.genesis is not None


def test_a_full_table_proposes_the_genesis_only_when_every_joiner_answered_its_roster():
    # Found by the fault drill (tests/integration/test_drill_findings.py): a
    # joiner that died in the lobby just before the table filled kept its seat
    # for good, since a full table freed nobody and the genesis round waited for
    # the dead seat.  Now the full roster goes out without the genesis, and the
    # genesis only once every joiner answered that roster (wire.md 3.3, the roll
    # call); a seat silent meanwhile is freed as before.
    host = host_lobby(3)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    exchange(host, ben, [], now=0.0)
    recorded = ben.seal_bound("here", {"v": ben._version})
    # Ben's process dies now; Cleo fills the table at once.
    exchange(host, cleo, [], now=1.0)
    assert host.full and host.genesis is None
    deliver(host, ben, recorded, now=2.0)  # a stranger replays Ben's earlier `here`
    assert host.genesis is None  # it names an older roster
    for t in range(2, 10):
        cleo.tick(float(t))
        exchange(host, cleo, [], now=float(t))
        host.tick(float(t))
    assert [m.name for m in host.members] == ["Ana", "Cleo"] and host.genesis is None
    again = joiner(5, "Ben")  # Ben's player joins again, with a new process
    exchange(host, again, [], now=10.0)
    settle(host, [cleo, again], now=10.0)
    assert host.genesis is not None
    assert cleo.genesis == again.genesis == host.genesis
    assert [m.name for m in host.members] == ["Ana", "Cleo", "Ben"]


def test_a_handshake_pending_when_the_table_fills_is_told_the_table_is_full():
    # Found by a flaky run of the drill finding's test: a player who knocked just
    # before the last seat was taken got the host's challenge, then silence: the
    # table filled, the host forgot the pending handshake, and dropped the join
    # as "a join without a knock"; the joiner waited for a roster for ever.
    host = host_lobby(3)
    exchange(host, joiner(1, "Ben"), [], now=0.0)
    late = joiner(5, "Dan")
    deliver(host, late, late.outgoing.pop(), 1.0)  # its knock: a challenge comes back
    late.receive(host.outgoing.pop()[1])
    join = late.outgoing.pop()
    exchange(host, joiner(2, "Cleo"), [], now=1.5)  # the table fills meanwhile
    told = [f for target, f in host.outgoing if target == late.endpoint]
    assert [lobby.open_lobby(f)[0] for f in told] == ["denied"]
    with pytest.raises(lobby.LobbyError, match="table is full"):
        late.receive(told[0])
    deliver(host, late, join, 2.0)  # its join, come late, is dropped
    assert [m.name for m in host.members] == ["Ana", "Ben", "Cleo"]
