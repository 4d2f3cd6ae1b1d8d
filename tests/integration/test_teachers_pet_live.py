"""Real peer processes on 127.0.0.1 play Teacher's Pet with sealed hands.

Issue 15: "It must be playable over the LAN with hidden hands, simulated offline,
and verified from the replay, as the other two games are"; "`host`, `join` and
`play` work as for the other games, for people and bots".
"""

from __future__ import annotations

from collections import Counter

import pytest

from p2ptable.replay.entries import Entry
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import verify_file

from .peers import Peers, free_port, wait_for_entries

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    group.close()


def assert_same_audited_replays(peers: Peers, names: list[str]) -> Counter:
    blobs = {name: peers.replay(name).read_bytes() for name in names}
    assert len(set(blobs.values())) == 1, "replays differ"
    report = verify_file(peers.replay(names[0]))
    assert report.valid, report.error
    assert report.audited is True
    kinds = Counter(Entry.decode(p).kind for p in parse_frames(blobs[names[0]]).payloads)
    # sealed hands, and the free Move's secret choices (commits, then choices)
    assert {"shuffle", "open", "secrets", "commits", "choices"} <= set(kinds)
    return kinds


@pytest.mark.slow  # the resumed game below and the sims cover it; run with -m slow
def test_four_bots_play_a_whole_game_with_sealed_hands(peers):
    port = free_port()
    peers.host(NAMES[0], "teachers-pet", 4, port, "--bot", "greedy")
    for name, kind in zip(NAMES[1:], ["random", "greedy", "random"], strict=True):
        peers.join(name, port, "--bot", kind)
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in NAMES}
    assert_same_audited_replays(peers, NAMES)


def test_a_killed_peer_resumes_with_its_hand(peers):
    """The resumed seat reads its own hand again from the log and plays on."""
    port = free_port()
    names = NAMES[:3]
    slow = ("--bot", "greedy", "--bot-delay", "0.01")
    peers.host("Ana", "teachers-pet", 3, port, *slow)
    peers.join("Ben", port, *slow)
    peers.join("Cleo", port, "--bot", "random", "--bot-delay", "0.01")
    wait_for_entries(peers.replay("Cleo"), 80)
    peers.kill("Cleo")
    peers.start("Cleo", "resume", str(peers.replay("Cleo")), "--quiet", *slow)
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in names}
    assert_same_audited_replays(peers, names)
