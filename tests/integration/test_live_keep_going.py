"""Real peer processes on 127.0.0.1 at a table opened with ``host --keep-going``.

Issue 27: "At the start of a game with hidden hands, every seat splits its deck
secret among the other seats with verifiable secret sharing ... The commitments
are in the log, so ``verify`` checks every escrow."  Here over ZeroMQ between
separate processes: the joiners learn the option from the host, every seat's
escrow follows the genesis, and a seat killed right after the escrows resumes
and plays on with byte-identical replays.
"""

from __future__ import annotations

import pytest

from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import verify_file

from .peers import Peers, free_port, wait_for_entries

NAMES = ["Ana", "Ben", "Cleo"]
SHORT = ("--option", "track=100")


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    group.close()


def assert_same_audited_escrowed_replays(peers: Peers) -> None:
    blobs = {name: peers.replay(name).read_bytes() for name in NAMES}
    assert len(set(blobs.values())) == 1, "replays differ"
    report = verify_file(peers.replay("Ana"))
    assert report.valid, report.error
    assert report.audited is True
    payloads = parse_frames(blobs["Ana"]).payloads
    assert Entry.decode(payloads[0]).body["keep_going"] is True
    assert [Entry.decode(p).kind for p in payloads[1:4]] == [Kind.ESCROW] * 3


def test_bots_play_a_whole_keep_going_game(peers):
    port = free_port()
    peers.host("Ana", "vorsicht-lehrer", 3, port, "--bot", "greedy", "--keep-going", *SHORT)
    for name in NAMES[1:]:
        peers.join(name, port, "--bot", "random")
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in NAMES}
    assert_same_audited_escrowed_replays(peers)
    assert "keeps going without a player who leaves" in peers.output("Ana")


def test_a_seat_killed_after_the_escrows_resumes_and_makes_the_same_log(peers):
    port = free_port()
    slow = ("--bot", "greedy", "--bot-delay", "0.02")
    peers.host("Ana", "vorsicht-lehrer", 3, port, *slow, "--keep-going", *SHORT)
    peers.join("Ben", port, *slow)
    peers.join("Cleo", port, *slow)
    wait_for_entries(peers.replay("Cleo"), 5)
    peers.kill("Cleo")
    peers.start("Cleo", "resume", str(peers.replay("Cleo")), "--quiet", *slow)
    codes = peers.wait_all()
    assert all(code == 0 for code in codes.values()), {n: peers.output(n) for n in NAMES}
    assert_same_audited_escrowed_replays(peers)


SEATS = ["Ana", "Ben", "Cleo", "Dev", "Eli"]


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("teachers-pet", 4, ()), ("vorsicht-lehrer", 5, SHORT)],
    ids=["teachers-pet-4", "vorsicht-lehrer-5"],
)
def test_a_seat_killed_for_good_is_played_by_a_bot_and_the_others_finish(
    peers, monkeypatch, game, seats, options
):
    """Issue 27: one bot peer is ``kill -9``'d mid-game and never resumed; the
    others rebuild its secret, a bot plays it, and they finish with
    byte-identical, valid replays (a short abandonment timeout, for the test)."""
    monkeypatch.setenv("P2PTABLE_ABANDON_TIMEOUT", "3")
    names = SEATS[:seats]
    port = free_port()
    slow = ("--bot", "random", "--bot-delay", "0.01")
    peers.host(names[0], game, seats, port, *slow, "--keep-going", *options)
    for name in names[1:]:
        peers.join(name, port, *slow)
    gone = names[-1]
    wait_for_entries(peers.replay(gone), 3 * seats)
    peers.kill(gone)
    peers.procs.pop(gone)  # never resumed
    codes = peers.wait_all()
    staying = names[:-1]
    assert all(codes[n] == 0 for n in staying), {n: peers.output(n) for n in staying}
    blobs = {peers.replay(n).read_bytes() for n in staying}
    assert len(blobs) == 1, "replays differ"
    payloads = parse_frames(blobs.pop()).payloads
    departures = [Entry.decode(p) for p in payloads if Entry.decode(p).kind == Kind.DEPARTURE]
    report = verify_file(peers.replay(names[0]))
    assert report.valid and report.audited, report.error
    seat_of = {seat["name"]: number for number, seat in enumerate(report.seats)}
    assert len(departures) == 1 and departures[0].body["of"] == seat_of[gone]
