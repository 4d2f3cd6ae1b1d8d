"""A host that comes back is followed again (sans-IO): net/host_lobby.py
``lobby.under_way`` and the follower's knock again (net/spectator.py).

Issue 16 left it out: "a spectator follows the host's peer only: if the host's
process stops or is resumed (a resumed host runs no lobby), its spectators lose
the feed".  Now a host that admitted spectators keeps its code with its secrets,
and its resumed peer admits spectators again on the same port; a spectator whose
host went quiet proves the code again and goes on from the entries it has.
"""

from __future__ import annotations

from pathlib import Path

from p2ptable.net import lobby
from p2ptable.net.spectator import KNOCK_AGAIN, Follower
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.genesis import read_genesis
from p2ptable.replay.logfile import read_file

from .lobby_table import CODE, HOST_ENDPOINT, answers, deliver, joiner

GOLDEN = Path(__file__).resolve().parents[2] / "replays" / "teachers-pet-4p.p2pt"
PAYLOADS = read_file(GOLDEN).payloads
GENESIS = Entry.decode(PAYLOADS[0])
HOST = authoring.SeatSecrets.from_seed(b"comeback", 0, 2)


def under_way(me: authoring.SeatSecrets = HOST, log: list[bytes] = PAYLOADS) -> lobby.HostLobby:
    """The lobby of a host resumed in the golden game, its log ``log``."""
    seats = read_genesis(GENESIS).seats
    members = [
        lobby.Member(s.name, s.key, s.chain_head, s.link, f"tcp://10.0.2.{i + 1}:4000")
        for i, s in enumerate(seats)
    ]
    host = lobby.under_way(GENESIS, CODE, me, HOST_ENDPOINT, members)
    assert host.gallery is not None
    host.gallery.entries = lambda: log
    return host


def spectator() -> Follower:
    me = authoring.SeatSecrets.from_seed(b"comeback-watch", 1, 2)
    wally = lobby.JoinerLobby(CODE, me, "Wally", "tcp://10.0.1.9:4000", watch=True)
    follower = Follower(wally)
    follower.written = follower.writes  # type: ignore[attr-defined]  # nothing takes them
    return follower


def pump(host: lobby.HostLobby, follower: Follower, now: float, answer: bool = True) -> None:
    """One round trip: the follower's frames to the host, the host's back (or
    none: a host that does not run)."""
    wally = follower.lobby
    for frame in wally.outgoing:
        follower.outgoing.append(frame)
    wally.outgoing.clear()
    follower.tick(now)
    for frame in follower.outgoing:
        if answer:
            deliver(host, wally, frame, now)
    follower.outgoing.clear()
    assert host.gallery is not None
    for queue in (host.outgoing, host.gallery.outgoing):
        for _, frame in queue:
            if answer:
                if wally.watching is None:
                    wally.receive(frame)
                else:
                    follower.receive(frame, now)
        queue.clear()


def run(host: lobby.HostLobby, follower: Follower, start: float, until, rounds: int = 400):  # noqa: ANN001
    now = start
    for _ in range(rounds):
        now += 0.25
        pump(host, follower, now)
        if until():
            return now
    raise AssertionError("did not happen in time")


def test_a_resumed_host_admits_spectators_and_tells_a_seat_knock_the_table_is_full():
    host = under_way()
    assert host.full and host.genesis == GENESIS.body_bytes
    assert host.table == read_genesis(GENESIS).nonce  # the table's id, as before
    ben = joiner(5, "Newcomer")
    deliver(host, ben, ben.outgoing.pop())
    ((kind, data),) = answers(host, ben.endpoint)
    assert kind == "denied" and "full" in data["reason"]
    follower = spectator()
    run(host, follower, 0.0, lambda: follower.over)
    assert follower.written == PAYLOADS  # type: ignore[attr-defined]


def test_a_spectator_knocks_again_and_follows_the_host_that_came_back_from_where_it_was():
    first = under_way(log=PAYLOADS[:120])
    follower = spectator()
    now = run(first, follower, 0.0, lambda: follower.have == 120)
    # The host's process ends; the same seat comes back (resume) with a new
    # lobby that knows no watcher, and a log that went on meanwhile.
    back = under_way(log=PAYLOADS)
    quiet = now
    while now - quiet <= KNOCK_AGAIN:  # it asks the new process the old way: no answer
        now += 0.25
        pump(back, follower, now)
        assert follower.again is None or now - quiet > KNOCK_AGAIN
    run(back, follower, now, lambda: follower.over)
    assert follower.rejoined == 1
    assert follower.written == PAYLOADS  # type: ignore[attr-defined]  # nothing twice


def test_a_host_that_was_only_slow_is_followed_the_old_way():
    host = under_way(log=PAYLOADS[:50])
    follower = spectator()
    now = run(host, follower, 0.0, lambda: follower.have == 50)
    for _ in range(int(KNOCK_AGAIN / 0.25) + 4):  # silent: the follower knocks again
        now += 0.25
        pump(host, follower, now, answer=False)
    assert follower.again is not None
    host.gallery.entries = lambda: PAYLOADS  # type: ignore[union-attr]
    run(host, follower, now, lambda: follower.over)  # the same process answers again
    assert follower.rejoined == 0
    assert follower.written == PAYLOADS  # type: ignore[attr-defined]


def test_another_host_with_the_code_at_the_address_is_not_taken_for_the_table():
    first = under_way(log=PAYLOADS[:30])
    follower = spectator()
    now = run(first, follower, 0.0, lambda: follower.have == 30)
    other = under_way(me=authoring.SeatSecrets.from_seed(b"impostor", 0, 2))
    for _ in range(int(3 * KNOCK_AGAIN / 0.25)):
        now += 0.25
        pump(other, follower, now)
    assert follower.rejoined == 0 and follower.have == 30
    assert follower.refused == "another table answers at the host's address"
