"""Real peer processes on 127.0.0.1 play Vorsicht Lehrer! with sealed hands.

Issue 5: "Simulated games and networked games (host, join, play) work as they do for
Pet Quartet."  Issue 4: "Sealed decks work between real peer processes."
"""

from __future__ import annotations

import pytest

from p2ptable.replay.entries import Entry
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import verify_file

from .peers import Peers, free_port, wait_for_entries

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
SHORT = ("--option", "track=100")


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    group.close()


def assert_same_audited_replays(peers: Peers, names: list[str]) -> None:
    blobs = {name: peers.replay(name).read_bytes() for name in names}
    assert len(set(blobs.values())) == 1, "replays differ"
    report = verify_file(peers.replay(names[0]))
    assert report.valid, report.error
    assert report.audited is True
    kinds = {Entry.decode(p).kind for p in parse_frames(blobs[names[0]]).payloads}
    assert {"shuffle", "open", "secrets"} <= kinds


@pytest.mark.parametrize("seats", [2, 4])
def test_bots_play_a_whole_hidden_hand_game(peers, seats):
    port = free_port()
    names = NAMES[:seats]
    peers.host(names[0], "vorsicht-lehrer", seats, port, "--bot", "greedy", *SHORT)
    for name in names[1:]:
        peers.join(name, port, "--bot", "random")
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in names}
    assert_same_audited_replays(peers, names)


def test_a_killed_peer_resumes_with_its_hand(peers):
    """The deck secret is saved with the resume secrets: the resumed seat reads its
    own hand again from the log and plays on."""
    port = free_port()
    names = ["Ana", "Ben", "Cleo"]
    slow = ("--bot", "greedy", "--bot-delay", "0.02")
    peers.host("Ana", "vorsicht-lehrer", 3, port, *slow, *SHORT)
    peers.join("Ben", port, *slow)
    peers.join("Cleo", port, *slow)
    wait_for_entries(peers.replay("Cleo"), 30)
    peers.kill("Cleo")
    peers.start("Cleo", "resume", str(peers.replay("Cleo")), "--quiet", *slow)
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in names}
    assert_same_audited_replays(peers, names)
