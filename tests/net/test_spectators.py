"""Spectators who verify: the gallery (host side) and the follower (sans-IO).

Issue 16: "`p2ptable watch ADDRESS --code CODE` follows a game without a seat: it
receives the log as it grows, checks every entry exactly as a seated peer does
... and shows the public view: never a hand, never a decryption share"; "A
spectator has no say: it cannot write an entry, its frames are never taken as a
seat's, and a misbehaving or slow spectator never delays or stops the seated
peers (bounded buffers, it can be dropped). The seats decide whether a table
admits spectators (`host --spectators`, off by default)".
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from p2ptable.net import gallery, lobby
from p2ptable.net.spectator import FeedError, Follower
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.logfile import read_file

from .lobby_table import CODE, address, answers, deliver, exchange, host_lobby, joiner

GOLDEN = Path(__file__).resolve().parents[2] / "replays" / "teachers-pet-4p.p2pt"


def spectator(n: int, name: str, code: str = CODE) -> lobby.JoinerLobby:
    me = authoring.SeatSecrets.from_seed(b"watch", n, 2)
    return lobby.JoinerLobby(code, me, name, f"tcp://10.0.1.{n + 1}:4000", watch=True)


def watching_host(seats: int = 2) -> lobby.HostLobby:
    host = host_lobby(seats)
    return lobby.HostLobby(
        host.game, host.options, seats, CODE, host.me, "Ana", host.endpoint, spectators=True
    )


def admit(host: lobby.HostLobby, watcher: lobby.JoinerLobby, now: float = 0.0) -> None:
    """Knock, challenge, watch, welcome: the spectator's handshake.  The host's
    lobby answers (challenge, denial) and its gallery's (the welcome) both reach
    the spectator."""
    for _ in range(6):
        for frame in watcher.outgoing:
            deliver(host, watcher, frame, now)
        watcher.outgoing.clear()
        queues = [host.outgoing] + ([host.gallery.outgoing] if host.gallery else [])
        for queue in queues:
            mine = [f for t, f in queue if t == watcher.endpoint]
            queue[:] = [(t, f) for t, f in queue if t != watcher.endpoint]
            for frame in mine:
                watcher.receive(frame)
        if watcher.watching is not None and not watcher.outgoing:
            return


def golden_payloads() -> list[bytes]:
    return read_file(GOLDEN).payloads


def pump(host: lobby.HostLobby, follower: Follower, now: float) -> list:
    """One round trip: the follower's request to the host, the answer back."""
    follower.tick(now)
    for frame in follower.outgoing:
        deliver(host, follower.lobby, frame, now)
    follower.outgoing.clear()
    applied = []
    assert host.gallery is not None
    for target, frame in host.gallery.outgoing:
        assert target == follower.lobby.endpoint
        applied += follower.receive(frame, now)
    host.gallery.outgoing.clear()
    return applied


# -- admission ----------------------------------------------------------------------


def test_a_spectator_with_the_code_is_admitted_and_takes_no_seat():
    host = watching_host(2)
    wally = spectator(1, "Wally")
    admit(host, wally)
    assert wally.watching is not None and wally.watching["seats"] == ["Ana"]
    assert [m.name for m in host.members] == ["Ana"]  # no seat taken
    assert host.gallery is not None and host.gallery.names() == ["Wally"]
    assert any("Wally is watching" in line for line in host.log)
    # the seated see who watches (the roster a joiner gets says so)
    ben = joiner(1, "Ben")
    exchange(host, ben, [])
    assert ben.watchers == ["Wally"] and ben.spectators


def test_a_table_admits_no_spectators_unless_its_host_says_so():
    host = host_lobby(2)  # no --spectators
    wally = spectator(1, "Wally")
    deliver(host, wally, wally.outgoing.pop())
    ((kind, data),) = answers(host, wally.endpoint)
    assert (kind, data["reason"]) == ("denied", "this table admits no spectators")


def test_a_spectator_with_the_wrong_code_is_not_admitted():
    host = watching_host(2)
    mallory = spectator(1, "Mallory", code="XXX-YYY")
    with pytest.raises(lobby.LobbyError, match="wrong join code"):
        admit(host, mallory)
    assert host.gallery is not None and host.gallery.names() == []


def test_a_full_table_still_admits_spectators():
    host = watching_host(2)
    exchange(host, joiner(1, "Ben"), [])
    assert host.full
    wally = spectator(2, "Wally")
    admit(host, wally)
    assert wally.watching is not None and len(host.members) == 2


def test_a_spectators_knock_cannot_take_a_seat_nor_a_players_watch():
    host = watching_host(2)
    wally = spectator(1, "Wally")
    deliver(host, wally, wally.outgoing.pop())
    challenge = host.outgoing.pop()[1]
    wally.receive(challenge)
    kind, key, data = lobby.open_lobby(wally.outgoing.pop())
    assert kind == "watch"
    # a join (with a seat's fields) on the spectator's knock is denied
    join = dict(data, chain=bytes(32), link=bytes(32), deck={})
    deliver(host, wally, lobby.seal_lobby("join", join, wally.me))
    ((kind, data),) = answers(host, wally.endpoint)
    assert (kind, data["reason"]) == ("denied", "a spectator's knock takes no seat")
    assert len(host.members) == 1


def test_the_gallery_is_bounded():
    host = watching_host(2)
    for n in range(gallery.MAX_WATCHERS):
        admit(host, spectator(n, f"W{n}"))
    extra = spectator(99, "Late")
    with pytest.raises(lobby.LobbyError, match="already has"):
        admit(host, extra)
    assert host.gallery is not None and len(host.gallery.watchers) == gallery.MAX_WATCHERS
    # a silent watcher is forgotten, and its place freed
    host.tick(gallery.WATCHER_SILENT + 1)
    assert host.gallery.watchers == {}


# -- the feed ---------------------------------------------------------------------------


def _fed(payloads: list[bytes]):
    host = watching_host(2)
    wally = spectator(1, "Wally")
    admit(host, wally)
    assert host.gallery is not None
    host.gallery.entries = lambda: payloads
    follower = Follower(wally)
    return host, follower, follower.writes  # nothing takes them here: they stay


def test_a_spectator_catches_up_from_the_start_and_checks_every_entry():
    payloads = golden_payloads()
    host, follower, written = _fed(payloads)
    follower.lobby.table = Entry.decode(payloads[0]).body["nonce"]  # the golden's table
    follower.lobby.game = "teachers-pet"
    host.gallery.table = follower.lobby.table
    now = 0.0
    for _ in range(200):
        now += 0.25
        pump(host, follower, now)
        if follower.over:
            break
    assert follower.over and written == payloads  # byte for byte the players' log
    assert follower.ledger is not None and follower.ledger.book is not None
    # the spectator's state knows no hidden card: every hand is None cards
    final = follower.ledger.state
    assert all(card is None for hand in final.hands for card in hand)


def test_every_answer_is_bounded_and_requests_are_rate_limited():
    payloads = golden_payloads()
    host, follower, _ = _fed(payloads)
    assert host.gallery is not None
    key, where = follower.lobby.me.key.public, address(follower.lobby)

    def feed() -> dict:  # a request bound to the spectator's handshake
        return follower.lobby.binding.bind("feed", {"from": 0})

    host.gallery.receive(key, "feed", feed(), where, 10.0)
    host.gallery.receive(key, "feed", feed(), where, 10.0 + gallery.FEED_INTERVAL / 2)
    assert len(host.gallery.outgoing) == 1  # the second, too soon, is dropped
    _, frame = host.gallery.outgoing[0]
    assert len(frame) < gallery.FEED_BYTES + 4096
    kind, _, data = lobby.open_lobby(frame)
    assert kind == "entries" and sum(map(len, data["payloads"])) <= gallery.FEED_BYTES


def test_a_false_entry_from_the_host_stops_the_spectator_keeping_what_checked():
    payloads = list(golden_payloads())
    bad = Entry.decode(payloads[5])
    forged = Entry(bad.body_bytes, tuple((seat, bytes(64)) for seat, _ in bad.sigs))
    payloads[5] = forged.encode()
    host, follower, written = _fed(payloads)
    follower.lobby.table = Entry.decode(payloads[0]).body["nonce"]
    follower.lobby.game = "teachers-pet"
    host.gallery.table = follower.lobby.table
    with pytest.raises(FeedError, match="entry 5 from the host does not check"):
        for step in range(20):
            pump(host, follower, step * 0.25)
    assert written == payloads[:5]


def test_a_spectator_reads_only_its_hosts_answers():
    payloads = golden_payloads()
    host, follower, _ = _fed(payloads)
    stranger = authoring.SeatSecrets.from_seed(b"stranger", 0, 2)
    fake = lobby.seal_lobby("entries", {"table": follower.lobby.table, "from": 0,
                                        "payloads": payloads[:3]}, stranger)  # fmt: skip
    assert follower.receive(fake, 0.0) == [] and follower.have == 0
    assert follower.receive(b"\x00garbage", 0.0) == []
    assert follower.dropped == 2


def test_garbage_from_anyone_never_raises_at_the_host():
    host = watching_host(3)
    wally = spectator(1, "Wally")
    admit(host, wally)
    rng = random.Random(16)
    for _ in range(300):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200)))
        host.receive(junk, address(wally), 1.0)
        kind = rng.choice(["feed", "watch", "entries", "knock", "x"])
        data = rng.choice([{}, {"from": -1}, {"from": "x"}, {"from": 10**9}, {"name": 5}])
        host.receive(lobby.seal_lobby(kind, data, wally.me), address(wally), 1.0)
    assert [m.name for m in host.members] == ["Ana"]


def test_a_spectators_handshake_survives_the_table_filling_meanwhile():
    # Found in a run: Dana knocked, then Ben's join filled the table before
    # Dana's watch came, and Dana was told "the table is full".
    host = watching_host(2)
    dana = spectator(1, "Dana")
    deliver(host, dana, dana.outgoing.pop())  # knock: a challenge is queued for Dana
    exchange(host, joiner(2, "Ben"), [])  # the table fills
    assert host.full
    admit(host, dana)
    assert dana.watching is not None
