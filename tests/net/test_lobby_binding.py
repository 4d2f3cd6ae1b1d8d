"""Lobby and spectator frames after the handshake are bound to it (sans-IO).

Issue 22, part 3: "Replaying a dead joiner's `here` every 2 s keeps its seat:
the table fills with a dead seat and hangs, and the next player is told 'the
table is full'.  Replaying a departed spectator's `feed` keeps its slot and
reflects the host's answers to its address (347x the bytes sent)."  What to
build: "Every frame after the handshake is bound to that handshake (keys from
SPAKE2, a counter or a nonce): a replayed or re-addressed frame is refused and
counted, never acted on.  No frame makes the host send more bytes to an address
than that address's verified peer asked for."  The same with real processes:
tests/integration/test_lobby_replays.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from p2ptable.net import gallery, lobby
from p2ptable.net.spectator import Follower
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.logfile import read_file

from .lobby_table import CODE, answers, deliver, exchange, host_lobby, joiner, settle

GOLDEN = Path(__file__).resolve().parents[2] / "replays" / "teachers-pet-4p.p2pt"


def watching_host(seats: int = 2) -> lobby.HostLobby:
    plain = host_lobby(seats)
    return lobby.HostLobby(
        plain.game, plain.options, seats, CODE, plain.me, "Ana", plain.endpoint, spectators=True
    )


def spectator(n: int, name: str) -> lobby.JoinerLobby:
    me = authoring.SeatSecrets.from_seed(b"watch", n, 2)
    return lobby.JoinerLobby(CODE, me, name, f"tcp://10.0.1.{n + 1}:4000", watch=True)


def admit(host: lobby.HostLobby, watcher: lobby.JoinerLobby, now: float = 0.0) -> None:
    for _ in range(6):
        for frame in watcher.outgoing:
            deliver(host, watcher, frame, now)
        watcher.outgoing.clear()
        for queue in (host.outgoing, host.gallery.outgoing):
            mine = [f for t, f in queue if t == watcher.endpoint]
            queue[:] = [(t, f) for t, f in queue if t != watcher.endpoint]
            for frame in mine:
                watcher.receive(frame)
    assert watcher.watching is not None


def heres(j: lobby.JoinerLobby, now: float) -> list[bytes]:
    """The `here` frames the joiner sends at ``now`` (taken off its queue)."""
    j.tick(now)
    out = [f for f in j.outgoing if lobby.open_lobby(f)[0] == "here"]
    j.outgoing[:] = [f for f in j.outgoing if f not in out]
    return out


def refused(host: lobby.HostLobby) -> int:
    return sum(host.unbound.values())


# -- a dead joiner's `here` --------------------------------------------------------


def test_a_replayed_here_keeps_no_dead_seat_and_the_next_players_get_in():
    host = host_lobby(3)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    exchange(host, ben, [], now=0.0)
    recorded = heres(ben, 1.0)  # an eavesdropper records Ben's `here` ...
    for frame in recorded:
        deliver(host, ben, frame, 1.0)
    # ... and Ben's process dies.  The recording is sent again every 2 s, from
    # Ben's own address (the worst case: the host cannot tell by the address).
    exchange(host, cleo, [], now=2.0)  # Cleo fills the table: the roll call
    for t in range(2, 12):
        for frame in recorded:
            deliver(host, ben, frame, float(t))
        exchange(host, cleo, [], now=float(t))
        host.tick(float(t))
    assert [m.name for m in host.members] == ["Ana", "Cleo"]  # Ben's seat is free
    assert any("Ben left the table" in line for line in host.screen)
    assert host.unbound["replayed"] >= 5  # each refused while Ben's seat was held
    dan = joiner(3, "Dan")
    exchange(host, dan, [], now=12.0)  # not "the table is full"
    settle(host, [cleo, dan], now=12.0)
    assert host.genesis is not None and [m.name for m in host.members] == ["Ana", "Cleo", "Dan"]


def test_a_here_from_another_address_is_refused_and_counted():
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    exchange(host, ben, [], now=0.0)
    [fresh] = heres(ben, 1.0)
    host.receive(fresh, "10.0.0.99", 1.0)  # a fresh frame, sent on from elsewhere
    assert host.unbound["another address"] == 1
    deliver(host, ben, fresh, 1.0)  # the same frame from Ben's machine still counts
    assert host.unbound["another address"] == 1 and refused(host) == 1


def test_an_unbound_or_altered_here_is_refused():
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    exchange(host, ben, [], now=0.0)
    [fresh] = heres(ben, 1.0)
    _, _, data = lobby.open_lobby(fresh)
    plain = {"v": data["v"]}  # as before the binding: signed, but not bound
    deliver(host, ben, lobby.seal_lobby("here", plain, ben.me), 1.0)
    altered = dict(data, v=data["v"] + 1)  # Ben's key signs it, the tag does not fit
    deliver(host, ben, lobby.seal_lobby("here", altered, ben.me), 1.0)
    later = dict(data, n=data["n"] + 5)
    deliver(host, ben, lobby.seal_lobby("here", later, ben.me), 1.0)
    assert host.unbound == {"unbound": 1, "bad tag": 2}


# -- a departed spectator's `feed` -------------------------------------------------


def fed_host() -> tuple[lobby.HostLobby, Follower]:
    host = watching_host(4)
    payloads = read_file(GOLDEN).payloads
    host.gallery.entries = lambda: payloads
    wally = spectator(1, "Wally")
    admit(host, wally)
    wally.table = host.gallery.table = Entry.decode(payloads[0]).body["nonce"]  # the golden's
    wally.game = "teachers-pet"
    return host, Follower(wally)


def pull(host: lobby.HostLobby, follower: Follower, now: float) -> list[bytes]:
    follower.tick(now)
    sent = list(follower.outgoing)
    for frame in follower.outgoing:
        deliver(host, follower.lobby, frame, now)
    follower.outgoing.clear()
    for _, frame in host.gallery.outgoing:
        follower.receive(frame, now)
    host.gallery.outgoing.clear()
    return sent


def test_a_replayed_feed_keeps_no_slot_and_is_answered_with_nothing():
    host, follower = fed_host()
    recorded: list[bytes] = []
    for step in range(5):
        recorded = pull(host, follower, step * 0.25) or recorded
    assert follower.have > 0
    # Wally leaves; its last request is sent again, 10 a second, for a minute,
    # from its own address and from another one.
    sent = answered = 0
    for step in range(600):
        now = 2.0 + step * 0.1
        for frame in recorded:
            sent += len(frame)
            deliver(host, follower.lobby, frame, now)
            host.receive(frame, "10.0.1.99", now)
        host.tick(now)
        answered += sum(len(f) for _, f in host.gallery.outgoing)
        host.gallery.outgoing.clear()
    assert answered == 0 and sent > 0
    assert host.gallery.watchers == {}  # its place is free after WATCHER_SILENT
    assert any("Wally stopped watching" in line for line in host.screen)
    # Counted while its place was held (from elsewhere too: the counter is stale).
    assert host.unbound["replayed"] >= 2 * 280 and "another address" not in host.unbound


def test_a_fresh_feed_sent_on_from_another_address_is_not_answered():
    host, follower = fed_host()
    follower.tick(0.0)
    [fresh] = follower.outgoing
    follower.outgoing.clear()
    host.receive(fresh, "10.0.1.99", 0.0)  # reflected at Wally's machine by a stranger
    assert host.gallery.outgoing == [] and host.unbound["another address"] == 1
    deliver(host, follower.lobby, fresh, 0.0)  # Wally's own is answered
    assert len(host.gallery.outgoing) == 1


def test_the_host_sends_a_spectator_one_answer_per_request_it_made():
    # "No frame makes the host send more bytes to an address than that
    # address's verified peer asked for": one bounded answer per bound request.
    host, follower = fed_host()
    requests = answered = 0
    for step in range(40):
        follower.tick(step * 0.05)
        for frame in follower.outgoing:
            requests += 1
            deliver(host, follower.lobby, frame, step * 0.05)
        follower.outgoing.clear()
        for _, frame in host.gallery.outgoing:
            answered += 1
            assert len(frame) < gallery.FEED_BYTES + 4096
            follower.receive(frame, step * 0.05)
        host.gallery.outgoing.clear()
    assert follower.have == len(read_file(GOLDEN).payloads)
    assert 0 < answered <= requests


def test_frames_bound_to_an_earlier_handshake_are_refused_after_knocking_again():
    # A spectator that knocks again (its host went quiet) uses the same key: what
    # it sent under the first handshake must not count under the second.
    host = watching_host(2)
    wally = spectator(1, "Wally")
    admit(host, wally)
    follower = Follower(wally)
    old = pull(host, follower, 0.0)
    again = lobby.JoinerLobby(CODE, wally.me, "Wally", wally.endpoint, watch=True)
    host.gallery.watchers.clear()  # as a resumed host: it knows no spectator
    admit(host, again, 1.0)
    _, _, data = lobby.open_lobby(old[0])
    later = dict(data, n=data["n"] + 100)  # a higher counter, but the old handshake's tag
    deliver(host, again, lobby.seal_lobby("feed", later, again.me), 1.5)
    assert host.gallery.outgoing == [] and host.unbound["bad tag"] == 1


# -- the host's frames, at the joiner --------------------------------------------


def test_a_joiner_takes_the_hosts_frames_only_bound_to_its_handshake():
    host = host_lobby(4)
    ben, cleo = joiner(1, "Ben"), joiner(2, "Cleo")
    wire: list[bytes] = []
    exchange(host, ben, wire, now=0.0)
    roster = next(f for f in reversed(wire) if lobby.open_lobby(f)[0] == "roster")
    with pytest.raises(lobby.LobbyIgnored, match="replayed"):
        ben.receive(roster)  # the same roster again
    exchange(host, cleo, [], now=0.5)
    [for_ben] = [f for t, f in host.outgoing if t == ben.endpoint]
    _, _, data = lobby.open_lobby(for_ben)
    unbound = {k: v for k, v in data.items() if k not in ("n", "tag")}
    with pytest.raises(lobby.LobbyIgnored, match="unbound"):
        ben.receive(lobby.seal_lobby("roster", unbound, host.me))
    # The roster Cleo was sent is bound to Cleo's handshake, not Ben's.
    cleos = lobby.seal_lobby("roster", dict(data, tag=bytes(16)), host.me)
    with pytest.raises(lobby.LobbyIgnored, match="bad tag"):
        ben.receive(cleos)
    ben.receive(for_ben)
    assert [m.name for m in ben.members] == ["Ana", "Ben", "Cleo"]


def test_a_spectator_ignores_a_replayed_answer():
    host, follower = fed_host()
    follower.tick(0.0)
    for frame in follower.outgoing:
        deliver(host, follower.lobby, frame, 0.0)
    follower.outgoing.clear()
    [(_, answer)] = host.gallery.outgoing
    host.gallery.outgoing.clear()
    assert follower.receive(answer, 0.0)  # entries taken
    have, dropped = follower.have, follower.dropped
    assert follower.receive(answer, 0.1) == [] and follower.dropped == dropped + 1
    assert follower.have == have


def test_a_joiner_and_a_host_of_versions_before_binding_are_told_to_update():
    host = host_lobby(2)
    dan = joiner(3, "Dan")
    deliver(host, dan, dan.outgoing.pop())
    _, _, data = lobby.open_lobby(host.outgoing.pop()[1])
    older = {k: v for k, v in data.items() if k != "bind"}
    with pytest.raises(lobby.LobbyError, match="older p2ptable"):
        dan.receive(lobby.seal_lobby("challenge", older, host.me))  # once the code is proved
    ben = joiner(1, "Ben")
    deliver(host, ben, ben.outgoing.pop())
    challenge = host.outgoing.pop()[1]
    assert lobby.open_lobby(challenge)[2]["bind"] == 1
    ben.receive(challenge)
    _, _, join = lobby.open_lobby(ben.outgoing.pop())
    assert join["bind"] == 1
    old_join = {k: v for k, v in join.items() if k != "bind"}
    deliver(host, ben, lobby.seal_lobby("join", old_join, ben.me))
    [(kind, denial)] = answers(host, ben.endpoint)
    assert kind == "denied" and "update p2ptable" in denial["reason"]
