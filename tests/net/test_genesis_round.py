"""The genesis round and replay protection that cannot be turned against a sender.

Issue 12: "One replayed genesis-signature frame blocks its sender for good.
Genesis signatures go out under their own boot, consumed before the session
exists; the session then takes that unseen boot as the sender's new one, and
refuses every genuine frame after it as 'replayed from an earlier run'." and
"Replay protection that cannot be turned against a sender: an unseen boot
displaces the current one only when the frame proves it is newer (e.g. a boot
counter kept with the seat's secrets and bound into the authenticated frame),
across receiver restarts too."
"""

from __future__ import annotations

import random

import pytest

from p2ptable.net.genesis_round import MAX_KEPT_FRAMES, GenesisRound
from p2ptable.net.memory import MemoryNet
from p2ptable.net.peers import PeerStates, boot_bytes
from p2ptable.net.session import Rejected, Session
from p2ptable.net.wire import Message, RemoteProtocolError, seal
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger

from .test_session_memory import play_out


def table(players: int, seed: bytes = b"genesis-round"):
    seats = [authoring.SeatSecrets.from_seed(seed, i, 256) for i in range(players)]
    body = authoring.genesis_body(
        "pet-quartet",
        {"scoring": "basic", "variant": "standard"},
        [f"P{i}" for i in range(players)],
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [s.link_public for s in seats],
        256,
        bytes(16),
    )
    rounds = {
        i: GenesisRound(
            body,
            [s.key.public for s in seats],
            [s.link_public for s in seats],
            i,
            seats[i],
            boot_bytes(1),
            0.0,
        )
        for i in range(players)
    }
    return seats, rounds


def exchange(rounds: dict[int, GenesisRound], recorded: list | None = None) -> None:
    for _ in range(10):
        moved = False
        for seat, round_ in rounds.items():
            for dest, frame in round_.take_outgoing():
                if recorded is not None:
                    recorded.append((seat, dest, frame))
                if dest in rounds:  # a seat that is gone gets nothing
                    rounds[dest].receive(frame, 0.0)
                moved = True
        if not moved:
            return


def sessions_from(seats, rounds) -> dict[int, Session]:
    return {
        i: Session(
            Ledger(r.genesis),
            i,
            seats[i],
            0.0,
            boot=r.boot,
            seq=r.seq,
            peers=r.peers,
        )
        for i, r in rounds.items()
    }


@pytest.mark.parametrize("players", [2, 4])
def test_every_seat_assembles_the_same_genesis(players):
    _, rounds = table(players)
    exchange(rounds)
    geneses = {r.genesis.encode() for r in rounds.values()}
    assert len(geneses) == 1 and None not in geneses
    assert all(r.missing() == [] for r in rounds.values())


def test_a_signature_is_sent_again_until_the_genesis_is_complete():
    _, rounds = table(3)
    rounds[0].take_outgoing()  # lost on the way
    rounds[0].tick(0.5)
    assert rounds[0].take_outgoing() == []  # not before a second has passed
    rounds[0].tick(1.0)
    assert len(rounds[0].take_outgoing()) == 2  # again, to both others


def test_junk_is_dropped_and_what_is_kept_for_the_session_is_bounded():
    seats, rounds = table(2)
    first = rounds[0]
    first.receive(b"\x00" * 40, 0.0)
    first.receive(b"junk", 0.0)
    assert first.dropped == 2 and first.kept == []
    # A seat flooding us with authentic frames before the game: kept up to a bound.
    link = rounds[1].links[0]
    for seq in range(MAX_KEPT_FRAMES + 50):
        message = Message(
            "ping", first.game_id, 1, boot_bytes(1), 100 + seq, {"len": 1, "head": b"", "ep": ""}
        )
        first.receive(seal(message, link), 0.0)
    assert len(first.kept) == MAX_KEPT_FRAMES and first.dropped == 52


def test_a_replayed_genesis_signature_never_blocks_its_sender():
    seats, rounds = table(3)
    recorded: list = []
    exchange(rounds, recorded)
    sessions = sessions_from(seats, rounds)
    net = MemoryNet(sessions)
    net.pump()
    # A stranger on the wire replays seat 1's genesis signature to seat 0, now and
    # after seat 1 has restarted: it is refused, and changes nothing.
    gsig = next(frame for seat, dest, frame in recorded if seat == 1 and dest == 0)
    sessions[0].receive(gsig, net.now)
    assert any(
        isinstance(e, Rejected) and "replayed" in e.reason for e in sessions[0].take_events()
    )
    play_out(sessions, net, random.Random(7), max_moves=20)
    sessions[0].receive(gsig, net.now)
    # Seat 1's genuine frames still count: the game plays to the end.
    play_out(sessions, net, random.Random(8))
    assert all(s.finished for s in sessions.values())
    assert len({s.ledger.head for s in sessions.values()}) == 1


def test_a_frame_from_an_earlier_start_is_refused_and_a_later_start_accepted():
    peers = PeerStates(2, 0)
    game = bytes(32)

    def frame(boot: int, seq: int) -> Message:
        return Message("ping", game, 1, boot_bytes(boot), seq, {})

    peers.check_fresh(frame(2, 5))
    with pytest.raises(RemoteProtocolError, match="earlier run"):
        peers.check_fresh(frame(1, 99))  # recorded before seat 1 restarted
    with pytest.raises(RemoteProtocolError, match="already seen"):
        peers.check_fresh(frame(2, 5))
    peers.check_fresh(frame(2, 6))  # the current start goes on, unharmed
    peers.check_fresh(frame(3, 0))  # seat 1 restarted: its new counter is higher
    assert peers.boots() == {1: 3}


def test_the_counters_we_accepted_survive_our_own_restart():
    # Kept with our secrets (net/persistence.py), so after we restart a
    # recording of a peer's earlier run is refused too.
    peers = PeerStates(3, 0, known_boots={1: 4, 2: 1})
    with pytest.raises(RemoteProtocolError, match="earlier run"):
        peers.check_fresh(Message("ping", bytes(32), 1, boot_bytes(3), 10**6, {}))
    peers.check_fresh(Message("ping", bytes(32), 1, boot_bytes(4), 0, {}))


def test_a_seat_that_died_in_the_genesis_round_comes_back(tmp_path):
    # Issue 12: "A peer that dies during the genesis comes back." (wire.md §9.5:
    # "There is no replay to resume from until the genesis is complete".)  Ben's
    # process dies after saving what it needs and before the genesis is complete;
    # the others, who got his signature, already play; he comes back.
    from p2ptable.net.pending_genesis import load_pending, pending_path, save_pending
    from p2ptable.net.persistence import save_secrets

    seats, rounds = table(3, b"come-back")
    replay = tmp_path / "Ben.p2pt"
    endpoints = [f"tcp://127.0.0.1:{47100 + i}" for i in range(3)]
    save_secrets(replay, seats[1], 1, endpoints, 47101)
    save_pending(replay, rounds[1].body)
    # Ben's signature reaches the others; theirs never reach Ben: he dies.
    for dest, frame in rounds[1].take_outgoing():
        rounds[dest].receive(frame, 0.0)
    del rounds[1]
    exchange(rounds)
    assert all(r.genesis is not None for r in rounds.values())
    sessions = sessions_from(seats, rounds)
    assert not replay.exists() and pending_path(replay).exists()
    pending = load_pending(replay)
    assert (pending.seat, pending.body, pending.boot) == (1, rounds[0].body, 1)
    back = GenesisRound(
        pending.body,
        [s.key.public for s in seats],
        [s.link_public for s in seats],
        1,
        pending.secrets,
        boot_bytes(pending.boot + 1),
        10.0,
    )
    for dest, frame in back.take_outgoing():  # its signatures; the sessions answer
        sessions[dest].receive(frame, 10.0)
    for session in list(sessions.values()):
        for dest, frame in session.take_outgoing():
            if dest == 1:
                back.receive(frame, 10.0)
            else:
                sessions[dest].receive(frame, 10.0)
    assert back.genesis is not None
    assert back.genesis.encode() == sessions[0].ledger.entries[0].encode()
    sessions[1] = Session(
        Ledger(back.genesis),
        1,
        pending.secrets,
        10.0,
        boot=back.boot,
        seq=back.seq,
        peers=back.peers,
    )
    net = MemoryNet(sessions)
    net.now = 10.0
    play_out(sessions, net, random.Random(5))
    assert all(s.finished for s in sessions.values())
    assert len({s.ledger.head for s in sessions.values()}) == 1


def test_two_sessions_never_answer_each_others_genesis_signatures():
    seats, rounds = table(2, b"no-echo")
    exchange(rounds)
    sessions = sessions_from(seats, rounds)
    net = MemoryNet(sessions)
    net.pump()  # hellos: each knows the other holds a log
    late = Message("gsig", rounds[0].game_id, 0, rounds[0].boot, 10_000, {"sig": rounds[0].sigs[0]})
    sessions[1].receive(seal(late, rounds[0].links[1]), net.now)
    assert not [d for d, frame in sessions[1].take_outgoing() if d == 0]
