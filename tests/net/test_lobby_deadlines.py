"""Every loop sleeps to its next deadline: the lobbies and the spectator say when.

Issue 24: "`watch.py` polls on a fixed 50 ms beat while `peer.py` sleeps to its
next deadline."  So each sans-IO part says when its ``tick`` has something to do
next (``wake_at``), and the loops sleep until then or until a frame comes.  The
rule these tests hold: nothing is due before ``wake_at``, and at ``wake_at`` the
tick does what was due.
"""

from __future__ import annotations

from p2ptable.net import lobby
from p2ptable.net.spectator import KNOCK_AGAIN as FOLLOWER_KNOCK_AGAIN
from p2ptable.net.spectator import PULL_EVERY, Follower

from .lobby_table import address, deliver, host_lobby, joiner, settle
from .test_spectators import admit, spectator, watching_host


def test_an_unanswered_joiner_wakes_to_knock_again_and_not_before():
    ben = joiner(1, "Ben")
    ben.take_outgoing()  # the first knock
    ben.tick(0.0)  # no answer yet: the deadline is set
    wake = ben.wake_at(0.0)
    assert wake == lobby.KNOCK_AGAIN
    ben.tick(wake - 0.01)
    assert ben.take_outgoing() == []
    ben.tick(wake)
    assert [lobby.open_lobby(f)[0] for f in ben.take_outgoing()] == ["knock"]


def test_a_seated_joiner_wakes_to_say_it_is_here():
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    settle(host, [ben], now=0.0)
    assert ben.seated
    ben.tick(0.0)
    ben.take_outgoing()
    wake = ben.wake_at(0.0)
    assert 0.0 < wake <= lobby.HERE_EVERY
    ben.tick(wake)
    assert [lobby.open_lobby(f)[0] for f in ben.take_outgoing()] == ["here"]


def test_the_host_wakes_to_free_a_silent_seat():
    host = host_lobby(3)
    ben = joiner(1, "Ben")
    settle(host, [ben], now=0.0)
    host.take_screen()
    wake = host.wake_at(0.0)
    assert lobby.SILENT_SEAT < wake < lobby.SILENT_SEAT + 0.01  # Ben was last heard at 0
    host.tick(lobby.SILENT_SEAT)
    assert len(host.members) == 2  # not yet: silent for more than SILENT_SEAT
    host.tick(wake)
    assert len(host.members) == 1
    assert any("Ben left the table" in line for line in host.take_screen())


def test_the_host_wakes_to_forget_a_handshake_whose_join_never_came():
    host = host_lobby(3)
    stranger = joiner(5, "Mallory")
    for frame in stranger.take_outgoing():
        host.receive(frame, address(stranger), 0.0)
    assert host.pending == 1
    assert host.wake_at(0.0) == lobby.PENDING_SECONDS
    host.tick(lobby.PENDING_SECONDS)
    assert host.pending == 0


def test_a_host_with_nothing_to_do_has_no_deadline():
    assert host_lobby(3).wake_at(0.0) == float("inf")


def test_the_follower_wakes_to_pull_and_to_knock_again():
    host = watching_host(2)
    wally = spectator(1, "Wally")
    admit(host, wally)
    follower = Follower(wally)
    follower.tick(0.0)
    [feed] = follower.take_outgoing()
    assert lobby.open_lobby(feed)[0] == "feed"
    assert follower.wake_at(0.0) == PULL_EVERY
    follower.tick(PULL_EVERY)
    assert [lobby.open_lobby(f)[0] for f in follower.take_outgoing()] == ["feed"]
    # The host stays silent: the follower knocks again once that is due.
    assert follower.wake_at(PULL_EVERY) == PULL_EVERY * 2
    now, wakes = PULL_EVERY, 0
    while follower.again is None and wakes < 100:
        now, wakes = follower.wake_at(now), wakes + 1
        follower.tick(now)
        follower.take_outgoing()
    assert follower.again is not None  # knocking again: the host went quiet
    assert FOLLOWER_KNOCK_AGAIN < now < FOLLOWER_KNOCK_AGAIN + 0.01  # no later, and woken
    assert wakes <= FOLLOWER_KNOCK_AGAIN / PULL_EVERY + 1  # each pull, then the knock


def test_a_host_knocked_by_a_stranger_wakes_to_tell_its_player():
    host = host_lobby(3)
    ben = joiner(1, "Ben", code="AAA-AAA")  # a wrong code
    deliver(host, ben, ben.take_outgoing()[0], 0.0)
    host.tick(lobby.PENDING_SECONDS)  # its handshake came to nothing: counted
    wake = host.wake_at(lobby.PENDING_SECONDS)
    assert wake < float("inf")
    host.take_screen()
    host.tick(wake)
    assert any("Strangers" in line for line in host.take_screen())
