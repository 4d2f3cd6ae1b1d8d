"""Secret simultaneous choices between live sessions over the in-memory link.

Issue 14, part 1: "Commits go out concurrently: one message round ... Reveals go
out concurrently: a second round."  "A reveal that does not match its commit is
cheating ... A seat that commits and never reveals is named after the
withholding timeout."  "The salt is derived from the seat's secret and the
position, so a seat that crashes and resumes re-makes the same commit (a second,
different commit for one position is equivocation)."  And: "no honest seat is
ever accused (a property test over random interleavings of the in-memory
network)".  The game is the test game of secret bids (bid_game.py).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.engine.api import Action
from p2ptable.net.events import Recovered, Rejected
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Choice, Session
from p2ptable.net.wire import envelope_of
from p2ptable.replay import authoring, choices
from p2ptable.replay.entries import Entry, make_body, sign_body
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.verify import verify_bytes
from tests.toy_tables import NAMES, file_of, play_in_any_order

from .test_commit_reveal import GAME, NONCE, bids_registered, table  # noqa: F401 - the fixture

__all__ = ["bids_registered"]


def sessions_for(n: int, seed: str = "live"):
    seats, genesis = table(n, seed)
    logs = {i: [genesis.encode()] for i in range(n)}
    sessions = {
        i: Session(Ledger(genesis), i, seats[i], 0.0, boot=bytes([i + 1]) * 8) for i in range(n)
    }
    return seats, genesis, sessions, logs


def kind_of(frame: bytes) -> str:
    return envelope_of(frame)["k"]


def choose_all(sessions, net, rng: random.Random, skip: frozenset = frozenset()) -> None:
    """Every seat asked to choose does, in a random order (bots at once)."""
    movers = [s for s in sessions.values() if s.my_turn() and s.seat not in skip]
    rng.shuffle(movers)
    for mover in movers:
        mover.submit(rng.choice(mover.legal_actions()), net.now)


def play_out(sessions, net, rng: random.Random, rounds: int = 200) -> None:
    for _ in range(rounds):
        net.pump()
        if not any(s.my_turn() for s in sessions.values()):
            break
        choose_all(sessions, net, rng)
    net.pump()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_whole_games_of_secret_choices_give_identical_valid_logs(n):
    _, _, sessions, logs = sessions_for(n, f"whole{n}")
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(n))
    assert all(s.finished and s.stopped is None for s in sessions.values())
    files = {file_of(log) for log in logs.values()}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid, report.error


def test_one_seat_asked_chooses_in_secret_and_several_choose_each_in_secret():
    # Issue 25: the words were "Cleo choose, each in secret" for one seat.
    from p2ptable.replay.ledger import Applied

    _, _, sessions, _ = sessions_for(2, "words")
    net = MemoryNet(sessions)
    play_out(sessions, net, random.Random(2))
    said = {
        e.text for e in sessions[0].take_events() if isinstance(e, Applied) and e.kind == "commits"
    }
    assert said == {
        "Ana and Ben choose, each in secret",
        "Ana chooses in secret",
        "Ben chooses in secret",
    }


def test_every_asked_seat_may_choose_at_once_and_nobody_else():
    _, _, sessions, _ = sessions_for(3)
    net = MemoryNet(sessions)
    net.pump()
    assert [s.my_turn() for s in sessions.values()] == [True, True, True]
    assert all(s.choosing_together() for s in sessions.values())
    sessions[1].submit(Action("bid", (2,)), net.now)
    assert not sessions[1].my_turn() and sessions[1].legal_actions() == ()
    net.pump()
    assert sessions[0].my_turn() and sessions[2].my_turn()  # they still choose
    # Who has chosen is known (not what): Ana waits on Cleo, and knows Ben chose.
    assert sessions[0].secret_choice() == (None, [2], [1])
    assert sessions[1].secret_choice() == (Action("bid", (2,)), [0, 2], [])


def test_no_view_shows_a_choice_before_the_last_reveal():
    # "No view shows a choice before then."  And no frame: a commit is a hash.
    _, _, sessions, _ = sessions_for(3, "views")
    net = MemoryNet(sessions)
    net.pump()
    before = {s.seat: (s.view(), s.public_view()) for s in sessions.values()}
    frames: list[bytes] = []
    net.filter = lambda sender, target, frame: frames.append(frame) or frame
    sessions[0].submit(Action("bid", (3,)), net.now)
    sessions[1].submit(Action("bid", (1,)), net.now)
    net.pump()
    for s in sessions.values():
        assert (s.view(), s.public_view()) == before[s.seat]
        assert s.ledger.expected().kind == "commits"  # Cleo has not chosen
    parts = [f for f in frames if kind_of(f) == "part"]
    assert len(parts) == 2 * 2  # each commit to both other seats, nothing more
    sessions[2].submit(Action("bid", (1,)), net.now)
    net.pump()
    assert all(s.ledger.state.scores == (3, 0, 0) for s in sessions.values())


def test_at_five_seats_a_collector_gathers_the_parts_and_a_silent_one_is_done_without():
    # wire.md 6.12, the collector: from five seats each part goes to the lowest
    # asked seat alone, which sends the bundle to all; if it does not, every seat
    # sends its part to every other after RELAY_WAIT and bundles by itself.
    from p2ptable.net.rounds import COLLECT_FROM, RELAY_WAIT

    assert COLLECT_FROM == 5
    _, _, sessions, logs = sessions_for(5, "collect")
    net = MemoryNet(sessions, logs)
    net.pump()
    sent: list[tuple[int, int, str]] = []
    net.filter = lambda sender, target, frame: (
        sent.append((sender, target, kind_of(frame))) or frame
    )
    for s in sessions.values():
        s.submit(Action("bid", (2,)), net.now)
    net.pump()
    parts = [(a, b) for a, b, k in sent if k == "part"]
    assert {b for _, b in parts} == {0}  # every part to Ana, the collector
    assert len(parts) == 2 * 4  # four commits, then four reveals
    assert [Entry.decode(raw).kind for raw in logs[1]].count("choices") == 1
    assert len({b"".join(log) for log in logs.values()}) == 1
    before = len(logs[1])
    # The next round, with a collector that keeps the bundle to itself.
    sent.clear()

    def bundles_kept(sender: int, target: int, frame: bytes) -> bytes | None:
        if sender == 0 and kind_of(frame) == "entries":
            kinds = {Entry.decode(r).kind for r in envelope_of(frame)["d"]["entries"]}
            if kinds & {"commits", "choices"}:
                return None  # the collector keeps its bundles to itself
        return frame

    net.filter = bundles_kept
    for _ in range(60):  # to the end of the game, Ana's bundles never arriving
        net.advance(RELAY_WAIT + 0.1)
        for s in sessions.values():
            if s.my_turn():
                s.submit(Action("bid", (1,)), net.now)
        net.pump()
        if all(s.finished for s in sessions.values()):
            break
    assert all(s.finished and s.stopped is None for s in sessions.values())
    assert len({b"".join(log) for log in logs.values()}) == 1
    later = [Entry.decode(raw) for raw in logs[1][before:]]
    kinds = [entry.kind for entry in later]
    assert "commits" in kinds and "choices" in kinds  # made without Ana's bundles
    # Ana was asked, so she was the collector: her own parts went to nobody but
    # in her bundles (she sends them to the seats that lacked them: the test
    # that failed before the late part was answered, once the game's path led
    # to such a round).
    assert any(e.kind == "commits" and 0 in e.body["seats"] for e in later)


def test_a_seat_that_commits_and_never_reveals_is_named_for_withholding():
    _, _, sessions, logs = sessions_for(3, "sits")
    net = MemoryNet(sessions, logs)
    cheater = sessions[2]
    cheater._parts._our_part = lambda table, expected: (  # a modified client
        None if expected.kind == "choices" else type(cheater._parts)._our_part(
            cheater._parts, table, expected
        )
    )  # fmt: skip
    net.pump()
    choose_all(sessions, net, random.Random(1))
    net.pump()
    assert all(s.ledger.expected().kind == "choices" for s in sessions.values())
    for _ in range(30):  # pings keep flowing: it is there, and reveals nothing
        net.advance(1.0)
    for seat in (0, 1):
        stopped = sessions[seat].stopped
        assert stopped is not None and (stopped.reason, stopped.culprit) == ("withheld", 2)
        report = verify_bytes(file_of(logs[seat]))
        assert report.stopped["culprit"] == 2


def test_a_person_may_think_about_a_secret_choice_as_long_as_they_like():
    _, _, sessions, _ = sessions_for(3, "think")
    net = MemoryNet(sessions)
    net.pump()
    sessions[0].submit(Action("bid", (1,)), net.now)
    sessions[2].submit(Action("bid", (1,)), net.now)
    for _ in range(120):  # two minutes: Ben thinks
        net.advance(1.0)
    assert all(s.stopped is None for s in sessions.values())
    assert sessions[1].my_turn()


def test_a_reveal_that_does_not_open_the_commit_is_proved_cheating_by_its_seat():
    seats, _, sessions, logs = sessions_for(3, "liar")
    net = MemoryNet(sessions, logs)
    cheater = sessions[1]
    real = type(cheater._parts)._our_part

    def lie(table, expected):
        part = real(cheater._parts, table, expected)
        if expected.kind != "choices":
            return part
        said = part.body["msg"]["action"]
        other = "bid 1" if said != "bid 1" else "bid 3"  # it now claims another bid
        msg = {"action": other, "salt": part.body["msg"]["salt"]}
        ledger = table.ledger
        body = make_body(t="part", i=ledger.next_index, prev=ledger.head, seat=1, msg=msg)
        return sign_body(ledger.game_id, body, {1: seats[1].key})

    cheater._parts._our_part = lie
    net.pump()
    choose_all(sessions, net, random.Random(2))
    net.pump()
    for seat in (0, 2):
        stopped = sessions[seat].stopped
        assert stopped is not None and (stopped.reason, stopped.culprit) == ("cheated", 1)
        assert stopped.proved
        report = verify_bytes(file_of(logs[seat]))
        assert report.stopped["culprit"] == 1
    assert logs[0] == logs[2]


def test_a_reveal_that_opens_its_commit_is_taken_whatever_its_signature():
    # Protocol 3: a reveal proves itself by opening the seat's signed commit, so
    # its signature is not checked (one check less per reveal, at every peer) and
    # the log keeps the opening alone.  A reveal under a broken signature that
    # opens the commit is the seat's choice all the same.
    seats, _, sessions, logs = sessions_for(3, "unsigned")
    net = MemoryNet(sessions, logs)
    odd = sessions[1]
    real = type(odd._parts)._our_part

    def broken_signature(table, expected):
        part = real(odd._parts, table, expected)
        if expected.kind != "choices":
            return part
        return Entry(part.body_bytes, ((1, bytes(64)),))

    odd._parts._our_part = broken_signature
    net.pump()
    choose_all(sessions, net, random.Random(4))
    net.pump()
    assert all(s.stopped is None for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1
    revealed = next(Entry.decode(r) for r in logs[0] if Entry.decode(r).kind == "choices")
    assert revealed.sigs == () and all(isinstance(p, dict) for p in revealed.body["parts"])
    play_out(sessions, net, random.Random(4))
    assert all(s.finished and s.stopped is None for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1
    assert verify_bytes(file_of(logs[0])).valid


def test_a_true_reveal_to_one_seat_and_a_false_one_to_another_stops_both_on_the_proof():
    # "A seat sends it to one peer and not another": Ben reveals his bid to Ana
    # and another bid to Cleo.  Ana bundles the true opening and goes on; Cleo
    # stops on the false one, signed by Ben.  Ana's log holds no signature of
    # Ben's to set against it, but the false reveal is proof by itself: Ana cuts
    # her log back to that entry and ends it as Cleo did.
    seats, _, sessions, logs = sessions_for(3, "twofaced")
    net = MemoryNet(sessions, logs)
    cheater = sessions[1]
    parts = cheater._parts
    real = type(parts)._mine

    def two_faced(table, part, now):
        ledger = table.ledger
        if ledger.expected().kind != "choices":
            return real(parts, table, part, now)
        index = ledger.next_index
        parts.pending.setdefault(index, {})[1] = part
        parts._checked.add((index, 1))
        said = part.body["msg"]["action"]
        msg = {"action": "bid 1" if said != "bid 1" else "bid 3", "salt": part.body["msg"]["salt"]}
        body = make_body(t="part", i=index, prev=ledger.head, seat=1, msg=msg)
        table.send(0, "part", {"entry": part.encode()})
        table.send(
            2, "part", {"entry": sign_body(ledger.game_id, body, {1: seats[1].key}).encode()}
        )

    parts._mine = two_faced
    net.pump()
    choose_all(sessions, net, random.Random(6))
    for _ in range(10):
        net.advance(1.0)
    for seat in (0, 2):
        stopped = sessions[seat].stopped
        assert stopped is not None and (stopped.reason, stopped.culprit) == ("cheated", 1)
        assert sessions[seat].failed is None
    assert logs[0] == logs[2]
    assert verify_bytes(file_of(logs[0])).stopped["culprit"] == 1


def test_a_game_begun_under_protocol_2_goes_on_in_its_layout():
    # replay.md section 10: a table whose genesis names protocol 2 (a game saved
    # before the upgrade, resumed after it) keeps a signature with each opening,
    # and every peer checks it; the log verifies as protocol 2.
    seats = [authoring.SeatSecrets.from_seed(b"old", i, 64) for i in range(3)]
    body = authoring.genesis_body(
        GAME.name, {}, list(NAMES[:3]), [s.key.public for s in seats],
        [s.chain.head for s in seats], [s.link_public for s in seats], 64, NONCE,
    )  # fmt: skip
    old = make_body(**{**Entry(body, ()).body, "protocol": "p2ptable/2"})
    genesis = authoring.assemble_genesis(old, [authoring.sign_genesis(old, s) for s in seats])
    logs = {i: [genesis.encode()] for i in range(3)}
    sessions = {
        i: Session(Ledger(genesis), i, seats[i], 0.0, boot=bytes([i + 1]) * 8) for i in range(3)
    }
    net = MemoryNet(sessions, logs)
    play_out(sessions, net, random.Random(8))
    assert all(s.finished and s.stopped is None for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1
    revealed = [Entry.decode(r) for r in logs[0] if Entry.decode(r).kind == "choices"]
    assert revealed and all(
        isinstance(p, list) and len(p[1]) == 64 for e in revealed for p in e.body["parts"]
    )
    assert verify_bytes(file_of(logs[0])).valid


def test_two_commits_for_one_position_sent_to_different_seats_are_equivocation():
    # A seat "sends it to one peer and not another": Ana gets one commit, Cleo
    # another.  Their bundles differ; the part that differs is signed by Ben.
    seats, _, sessions, logs = sessions_for(3, "fork")
    net = MemoryNet(sessions, logs)
    net.pump()
    cheater = sessions[1]
    index = cheater.ledger.next_index
    one = authoring.choice_part(cheater.ledger, 1, seats[1], Action("bid", (1,)))
    two = authoring.choice_part(cheater.ledger, 1, seats[1], Action("bid", (3,)))
    cheater._parts.pending.setdefault(index, {})[1] = one.encode()
    cheater._parts._checked.add((index, 1))
    cheater.send(0, "part", {"entry": one.encode()})
    cheater.send(2, "part", {"entry": two.encode()})
    sessions[0].submit(Action("bid", (2,)), net.now)
    sessions[2].submit(Action("bid", (2,)), net.now)
    for _ in range(10):
        net.advance(1.0)
    for seat in (0, 2):
        stopped = sessions[seat].stopped
        assert stopped is not None and (stopped.reason, stopped.culprit) == ("equivocation", 1)
    assert logs[0] == logs[2]
    assert verify_bytes(file_of(logs[0])).stopped["culprit"] == 1


@pytest.mark.parametrize("n", [3, 5])
def test_a_second_copy_of_a_checked_part_with_other_signature_bytes_changes_nothing(n):
    # A seat sends its commit again, the same body under a signature that is
    # not its own (a modified client).  The copy checked on arrival is the one
    # bundled: before, the second copy took its place unchecked, the bundle
    # carried a bad signature, and the peer's own ledger refused its own bundle
    # (a bug of ours, the session stopped) instead of the game going on.
    seats, _, sessions, logs = sessions_for(n, f"resend{n}")
    net = MemoryNet(sessions, logs)
    net.pump()
    cheater = sessions[1]
    ours = authoring.choice_part(cheater.ledger, 1, seats[1], Action("bid", (3,)))
    cheater.submit(Action("bid", (3,)), net.now)  # the same part, byte for byte
    net.pump()
    forged = Entry(ours.body_bytes, ((1, bytes(64)),))
    for seat in sessions:
        if seat != 1:
            cheater.send(seat, "part", {"entry": forged.encode()})
    net.pump()
    for seat, session in sessions.items():
        if seat != 1:
            session.submit(Action("bid", (2,)), net.now)
    play_out(sessions, net, random.Random(4))
    assert all(s.failed is None and s.stopped is None and s.finished for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1
    assert verify_bytes(file_of(logs[0])).valid


def test_a_seat_that_crashes_after_its_commit_left_commits_to_the_same_choice_again():
    seats, genesis, sessions, logs = sessions_for(3, "crash")
    net = MemoryNet(sessions, logs)
    net.pump()
    sessions[1].submit(Action("bid", (3,)), net.now)
    net.pump()  # Ben's commit reached Ana and Cleo
    kept = net.kept[1]
    assert [(c.index, c.action) for c in kept] == [(1, "bid 3")]
    # Ben's process dies and comes back, from its log (the genesis alone) and
    # the choice it kept, before the others have chosen: it is not asked again,
    # and sends the very same commit (a different one would be equivocation).
    ledger = Ledger(genesis)
    for raw in logs[1][1:]:
        ledger.append(Entry.decode(raw))
    back = Session(ledger, 1, seats[1], net.now, boot=b"\x09" * 8, resumed=True, choice=kept[-1])
    sessions[1] = back
    net.pump()
    assert not back.my_turn()
    sessions[0].submit(Action("bid", (1,)), net.now)
    sessions[2].submit(Action("bid", (2,)), net.now)
    play_out(sessions, net, random.Random(3))
    assert all(s.finished and s.stopped is None for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1
    entries = [Entry.decode(raw) for raw in logs[0]]
    first = next(e for e in entries if e.kind == "choices")
    assert [p["action"] for p in first.body["parts"]] == ["bid 1", "bid 3", "bid 2"]


def resumed_without(seats, genesis, logs, net, seat: int, choice=None) -> Session:
    """``seat``'s process died and comes back from its log, with ``choice`` as
    its choice file gave it (None: the file was lost, or damaged and ignored)."""
    ledger = Ledger(genesis)
    for raw in logs[seat][1:]:
        ledger.append(Entry.decode(raw))
    boot = bytes([0x20 + seat]) * 8
    return Session(ledger, seat, seats[seat], net.now, boot=boot, resumed=True, choice=choice)


def stops(sessions) -> list:
    return [(s.seat, s.stopped.reason, s.stopped.culprit) for s in sessions.values() if s.stopped]


@pytest.mark.parametrize("n", [3, 5])
def test_a_seat_that_lost_its_kept_choice_takes_its_commit_back_from_the_others(n):
    # Issue 22, 1: "Kill a seat ... right after its secret choice was kept and its
    # commit sent, delete REPLAY.choice ... and resume: it asks the person again,
    # commits a second time for the same position, and verify prints
    # 'equivocation by Ben'".  "On resume it first learns from the others whether
    # a commit of its own for the pending position exists; if one does, it
    # recovers its choice from that commit ... and re-reveals."  At five seats
    # the commit went to the collector (Ana) alone.
    seats, genesis, sessions, logs = sessions_for(n, f"forgot{n}")
    net = MemoryNet(sessions, logs)
    net.pump()
    sessions[1].submit(Action("bid", (3,)), net.now)
    net.pump()  # Ben's commit reached the others (the collector alone at five)
    before = len(net.kept[1])
    back = sessions[1] = resumed_without(seats, genesis, logs, net, 1)
    assert not back.my_turn()  # not before every other seat has answered
    net.pump()
    assert not back.my_turn()  # asked nothing: its commit was given back
    assert back.secret_choice()[0] == Action("bid", (3,))
    # And kept again, before anything else leaves: a later crash of every seat
    # at once (their memories, and a bundle not yet synced, lost) finds it on
    # disk.  Found by the fault drill (seed 20261205, game 43): without it, the
    # seat asked its player again after a blackout and committed differently.
    assert [(c.index, c.action) for c in net.kept[1][before:]] == [(1, "bid 3")]
    for _ in range(3):
        net.advance(1.0)
    assert not back.my_turn() and not stops(sessions)
    for s in sessions.values():
        if s.my_turn():
            s.submit(Action("bid", (1,)), net.now)
    play_out(sessions, net, random.Random(5))
    assert not stops(sessions)
    assert all(s.finished for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1
    assert verify_bytes(file_of(logs[0])).valid
    first = next(Entry.decode(r) for r in logs[0] if Entry.decode(r).kind == "choices")
    assert [p["action"] for p in first.body["parts"]][1] == "bid 3"


def test_a_forged_choice_file_is_not_trusted_over_the_seats_signed_commit():
    # "A CRC-valid forged choice record does the same ... a damaged or forged one
    # is reported and ignored, never trusted over the commit."
    seats, genesis, sessions, logs = sessions_for(3, "forged")
    net = MemoryNet(sessions, logs)
    net.pump()
    sessions[1].submit(Action("bid", (3,)), net.now)
    net.pump()
    forged = Choice(1, "bid 1")  # the file says bid 1; Ben committed to bid 3
    back = sessions[1] = resumed_without(seats, genesis, logs, net, 1, forged)
    net.pump()
    assert back.secret_choice()[0] == Action("bid", (3,))
    said = [e for e in back.take_events() if isinstance(e, Recovered)]
    assert said and "bid 3" in said[0].text and "bid 1" in said[0].text
    for s in (sessions[0], sessions[2]):
        s.submit(Action("bid", (2,)), net.now)
    play_out(sessions, net, random.Random(6))
    assert not stops(sessions) and all(s.finished for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1


def test_a_seat_whose_commit_never_left_is_asked_again_once_every_seat_has_answered():
    # "only when no commit of its left the machine may it ask again".
    seats, genesis, sessions, logs = sessions_for(3, "unsent")
    net = MemoryNet(sessions, logs)
    net.pump()
    net.filter = lambda sender, target, frame: None if sender == 1 else frame
    sessions[1].submit(Action("bid", (3,)), net.now)
    net.pump()  # its commit was kept, then the process died before it left
    net.filter = None
    back = sessions[1] = resumed_without(seats, genesis, logs, net, 1)
    net.pump()
    assert back.my_turn()  # nobody holds a commit of Ben's: he chooses again
    back.submit(Action("bid", (1,)), net.now)
    for s in (sessions[0], sessions[2]):
        s.submit(Action("bid", (2,)), net.now)
    play_out(sessions, net, random.Random(7))
    assert not stops(sessions) and all(s.finished for s in sessions.values())


def test_a_ping_sent_before_the_others_heard_of_the_resume_does_not_end_the_wait():
    # The others' pings go out every second, whether or not they know Ben is
    # back: only their answer to his hello (a welcome, holding his commit if they
    # have it) says what they hold of his.
    seats, genesis, sessions, logs = sessions_for(3, "race")
    net = MemoryNet(sessions, logs)
    net.pump()
    sessions[1].submit(Action("bid", (3,)), net.now)
    net.pump()
    back = sessions[1] = resumed_without(seats, genesis, logs, net, 1)
    held: list = []

    def hold_welcomes(sender: int, target: int, frame: bytes) -> bytes | None:
        if target == 1 and kind_of(frame) == "welcome":
            held.append((sender, frame))
            return None
        return frame

    net.filter = hold_welcomes
    for _ in range(3):
        net.advance(1.0)  # pings from Ana and Cleo reach Ben
    assert held and not back.my_turn()
    net.filter = None
    for _sender, frame in held:
        back.receive(frame, net.now)
    net.pump()
    assert not back.my_turn() and back.secret_choice()[0] == Action("bid", (3,))


def test_commits_are_made_again_byte_for_byte():
    seats, genesis = table(2, "same")
    ledger = Ledger(genesis)
    one = authoring.choice_part(ledger, 0, seats[0], Action("bid", (2,)))
    assert one.encode() == authoring.choice_part(ledger, 0, seats[0], Action("bid", (2,))).encode()
    salt = choices.salt_for(seats[0], ledger.game_id, ledger.next_index)
    assert salt != choices.salt_for(seats[1], ledger.game_id, ledger.next_index)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_no_honest_seat_is_ever_accused_whatever_the_order_of_frames(n, seed):
    _, _, sessions, logs = sessions_for(n, f"order{n}")
    play_in_any_order(sessions, logs, random.Random(seed), rounds=200)


def welcome_from(sender: Session, to: int, yours: list) -> bytes:
    """A welcome ``sender`` signs and seals for seat ``to`` (a modified client)."""
    ledger = sender.ledger
    data = {"len": ledger.next_index, "head": ledger.head, "ep": "", "yours": yours}
    sender.send(to, "welcome", data)
    return sender.take_outgoing()[-1][1]


def test_a_welcome_holding_parts_we_did_not_sign_is_refused_and_changes_nothing():
    # Only our own signature makes a part ours: a seat cannot hand a resumed
    # seat a commit it never made (a choice it would then reveal), nor flood it.
    seats, genesis, sessions, logs = sessions_for(3, "forged-welcome")
    net = MemoryNet(sessions, logs)
    net.pump()
    back = sessions[1] = resumed_without(seats, genesis, logs, net, 1)
    net.pump()
    assert back.my_turn()  # nobody held a commit of Ben's
    ana = sessions[0]
    # Ana makes a commit "of Ben's" (Ben's seat, Ana's signature) ...
    body = authoring.part_body(1, ana.ledger.head, 1, {"commit": bytes(32)})
    forged = sign_body(ana.ledger.game_id, body, {0: seats[0].key})
    # ... and one of her own, and a flood.
    own = authoring.choice_part(ana.ledger, 0, seats[0], Action("bid", (2,)))
    for yours in ([forged.encode()], [own.encode()], [own.encode()] * 50, [b"junk"]):
        back.receive(welcome_from(ana, 1, yours), net.now)
        rejected = [e for e in back.take_events() if isinstance(e, Rejected)]
        assert rejected and rejected[0].seat == 0, yours[:1]
        assert back.my_turn() and back.secret_choice()[0] is None
    assert not stops(sessions)


def test_a_choice_found_again_from_the_commits_entry_is_kept_again():
    # The fault drill (seed 20261205, game 43, again): Ana's commit was already
    # bundled into the commits entry when her process died and her choice file
    # was lost; she revealed from the log's commit, but kept nothing, so when
    # every seat then lost power (a bundle is not synced: nobody's disk had it)
    # she was asked again and committed differently.  Whatever way a seat finds
    # its choice again, it keeps it before its reveal leaves.
    seats, genesis, sessions, logs = sessions_for(3, "bundled")
    net = MemoryNet(sessions, logs)
    net.pump()

    def reveal_held(sender: int, target: int, frame: bytes) -> bytes | None:
        has_commits = any(Entry.decode(r).kind == "commits" for r in logs[1])
        held = 1 in (sender, target) and kind_of(frame) == "part" and has_commits
        return None if held else frame

    net.filter = reveal_held
    sessions[1].submit(Action("bid", (3,)), net.now)
    sessions[0].submit(Action("bid", (1,)), net.now)
    sessions[2].submit(Action("bid", (2,)), net.now)
    net.pump()
    assert Entry.decode(logs[1][-1]).kind == "commits"  # Ben's reveal never left
    net.filter = None
    before = len(net.kept[1])
    back = sessions[1] = resumed_without(seats, genesis, logs, net, 1)
    net.pump()
    assert [(c.index, c.action) for c in net.kept[1][before:]] == [(1, "bid 3")]
    play_out(sessions, net, random.Random(8))
    assert back.finished and not stops(sessions)


@pytest.mark.parametrize("n", [3, 5])
def test_a_commits_entry_is_on_stable_storage_at_every_seat_before_anything_leaves(n):
    # The fault drill (seed 20261205, game 43, a third time): a seat's commit is
    # in the others' logs (the commits bundle) before that seat reveals; if the
    # others' copies were not synced, a power cut of theirs could lose it while
    # the seat itself had lost its choice file, and the seat would be asked
    # again: if one disk had kept the bundle after all, its second commit would
    # prove an equivocation against an honest seat.  So every seat syncs a
    # commits entry, as it does an entry it signed (at five seats, the collector
    # sends it first; the others take it as a relay).
    _, _, sessions, logs = sessions_for(n, f"durable{n}")
    seen: dict[int, list] = {i: [] for i in sessions}
    for i, session in sessions.items():
        real = session.take_writes

        def take(real=real, i=i):  # noqa: ANN001, ANN202 - a recording wrapper
            out = real()
            seen[i].extend(out)
            return out

        session.take_writes = take
    net = MemoryNet(sessions, logs)
    net.pump()
    for session in sessions.values():
        session.submit(Action("bid", (2,)), net.now)
    net.pump()
    for i in sessions:
        durable = {Entry.decode(w.payload).kind: w.durable for w in seen[i]}
        assert durable["commits"] is True, (i, durable)
