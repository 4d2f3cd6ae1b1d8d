"""Talk and breaks live between sessions (net/sideline.py), over MemoryNet.

Issue 26: "every seat and spectator sees it with the sender's name, in order per
sender ... talk must never delay or block a move"; "Any seat can propose a
break; when every seat agrees (each peer signs it), every peer saves and exits
cleanly"; "a flood of talk, talk with escape sequences, a pause proposed a
thousand times".
"""

from __future__ import annotations

from p2ptable.net import talk
from p2ptable.net.memory import MemoryNet
from p2ptable.net.pause import Agreement
from p2ptable.net.session import Rejected
from p2ptable.net.sideline import BreakAgreed, BreakNews, Declined, Talked
from p2ptable.net.wire import Message, seal

from .test_session_memory import make_table


def started(players: int = 3, seed: str = "sideline"):  # noqa: ANN201
    seats, sessions, logs = make_table(players, seed)
    net = MemoryNet(sessions, logs)
    net.pump()
    for _ in range(4):  # a few moves in
        mover = next(s for s in sessions.values() if s.my_turn())
        mover.submit(mover.legal_actions()[0], net.now)
        net.pump()
    for session in sessions.values():
        session.take_events()
    return seats, sessions, net, logs


def of(session, kind) -> list:  # noqa: ANN001
    return [e for e in session.take_events() if isinstance(e, kind)]


def test_a_line_said_reaches_every_seat_once_and_writes_nothing_in_the_log():
    _, sessions, net, logs = started()
    lengths = {seat: len(log) for seat, log in logs.items()}
    sessions[1].say("  good luck\x1b[31m all ", net.now)
    net.pump()
    for session in sessions.values():
        (said,) = of(session, Talked)
        assert said.line.seat == 1 and said.line.text == "good luck [31m all"
        assert said.line.at == session.log_length
    assert {seat: len(log) for seat, log in logs.items()} == lengths  # beside the log


def test_talk_does_not_stop_a_move_or_wait_for_one():
    _, sessions, net, _ = started()
    mover = next(s for s in sessions.values() if s.my_turn())
    other = next(s for s in sessions.values() if s is not mover)
    other.say("hurry up", net.now)
    mover.submit(mover.legal_actions()[0], net.now)  # before the line arrives
    net.pump()
    assert len({s.ledger.head for s in sessions.values()}) == 1
    assert all(of(s, Talked) for s in sessions.values())


def test_a_flood_of_talk_is_refused_at_the_sender_and_bounded_at_the_others():
    _, sessions, net, _ = started()
    for i in range(talk.BURST):
        sessions[0].say(f"line {i}", net.now)
    sessions[0].take_events()
    sessions[0].say("one more", net.now)
    (declined,) = sessions[0].take_events()
    assert isinstance(declined, Declined) and "slow down" in declined.reason
    net.pump()
    assert len(of(sessions[1], Talked)) == talk.BURST


def test_a_forged_line_names_the_seat_that_sent_it_and_the_game_goes_on():
    seats, sessions, net, _ = started()
    line = talk.TalkLine(2, 1, 1, "I resign")  # seat 2's words, signed by seat 0
    record = talk.make_record(seats[0].key, sessions[0].ledger.game_id, line)
    message = Message("talk", sessions[0].ledger.game_id, 0, sessions[0].boot, 10_000, {})
    frame = seal(message._replace(data={"line": record}), sessions[1].links[0])  # type: ignore[arg-type]
    sessions[1].receive(frame, net.now)
    events = sessions[1].take_events()
    assert [e for e in events if isinstance(e, Rejected) and e.seat == 0]
    assert not [e for e in events if isinstance(e, Talked)]


def test_a_break_agreed_by_every_seat_ends_with_the_same_agreement_everywhere():
    _, sessions, net, _ = started()
    sessions[0].propose_break()
    net.pump()
    for seat in (1, 2):
        (news,) = of(sessions[seat], BreakNews)
        assert news.proposer == 0 and set(news.waiting_for) == {1, 2} - set()
        assert sessions[seat].sideline.proposal(sessions[seat].ledger) is not None
    sessions[1].propose_break()  # agrees
    net.pump()
    assert not any(of(s, BreakAgreed) for s in sessions.values())
    sessions[2].propose_break()
    net.pump()
    agreed = [of(s, BreakAgreed) for s in sessions.values()]
    assert all(len(a) == 1 for a in agreed)
    (first,) = agreed[0]
    assert all(a[0].agreement == first.agreement for a in agreed)
    game = sessions[0].ledger.game_id
    keys = sessions[0].keys
    assert Agreement.from_bytes(first.agreement.to_bytes(), game, keys) == first.agreement
    assert not any(s.my_turn() for s in sessions.values())  # nobody moves past it


def test_a_break_proposed_a_thousand_times_is_one_proposal():
    _, sessions, net, _ = started()
    for _ in range(1000):
        sessions[0].propose_break()
    assert len([f for f in sessions[0].take_outgoing()]) == 2  # one frame per other seat
    sessions[0].take_events()


def test_a_thousand_copies_of_a_break_frame_are_reported_once():
    _, sessions, net, _ = started()
    sessions[0].propose_break()
    frames = [f for d, f in sessions[0].take_outgoing() if d == 1]
    for _ in range(1000):
        sessions[1].receive(frames[0], net.now)  # a replayed frame: refused as one
    news = of(sessions[1], BreakNews)
    assert len(news) == 1


def test_a_move_ends_a_proposal_and_a_late_signature_for_it_is_not_counted():
    _, sessions, net, _ = started()
    sessions[0].propose_break()
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    mover.submit(mover.legal_actions()[0], net.now)
    net.pump()
    assert all(s.sideline.proposal(s.ledger) is None for s in sessions.values())
    sessions[1].propose_break()  # a new proposal, here
    net.pump()
    assert all(not of(s, BreakAgreed) for s in sessions.values())


def test_a_break_cannot_be_proposed_after_the_end():
    _, sessions, net, _ = started(2, "sideline-end")
    for _ in range(2000):
        mover = next((s for s in sessions.values() if s.my_turn()), None)
        if mover is None:
            break
        mover.submit(mover.legal_actions()[0], net.now)
        net.pump()
    assert sessions[0].finished
    sessions[0].take_events()
    sessions[0].propose_break()
    (declined,) = sessions[0].take_events()
    assert isinstance(declined, Declined) and "over" in declined.reason
    assert not sessions[0].take_outgoing()


def test_a_break_signature_that_does_not_check_names_its_sender():
    _, sessions, net, _ = started()
    sessions[0].propose_break()
    frames = [f for d, f in sessions[0].take_outgoing() if d == 1]
    message = Message("break", sessions[0].ledger.game_id, 0, sessions[0].boot, 99, {})
    data = {"at": sessions[1].log_length, "head": sessions[1].ledger.head, "sig": bytes(64)}
    forged = seal(message._replace(data={**data, "seat": 2}), sessions[1].links[0])  # type: ignore[arg-type]
    sessions[1].receive(frames[0], net.now)
    assert of(sessions[1], BreakNews)
    sessions[1].receive(forged, net.now)  # seat 2's signature, forged by seat 0
    assert [e for e in sessions[1].take_events() if isinstance(e, Rejected) and e.seat == 0]
    assert 2 not in sessions[1].sideline.pause.sigs


# Issue 26: "The break does not count as anyone abandoning the game, however long
# it lasts"; once a seat is heard from again, its silence counts as anyone's.
def test_a_seat_absent_since_the_break_is_never_named_for_that_absence():
    from p2ptable.net.waiting import Waiting

    waiting = Waiting(0.0, withhold_timeout=20.0, abandon_timeout=300.0)
    waiting.spared = frozenset({1, 2})
    never = {1: None, 2: None}
    assert waiting.accusation({1, 2}, False, never, 40, 10_000_000.0) is None
    heard = {1: 100.0, 2: None}  # seat 1 came back, then went silent
    found = waiting.accusation({1, 2}, False, heard, 40, 100.0 + 300.0)
    assert found is not None and found.culprit == 1


# "a break frame from a spectator or stranger is refused": talk and break are
# game frames, opened with a seat's link key; a spectator holds none.
def test_a_break_or_talk_from_someone_without_a_seat_is_refused():
    _, sessions, net, _ = started()
    game = sessions[0].ledger.game_id
    data = {"at": sessions[1].log_length, "head": sessions[1].ledger.head, "sig": bytes(64)}
    for kind, body in (("break", {**data, "seat": 0}), ("talk", {"line": b"x"})):
        message = Message(kind, game, 0, bytes(8), 1, body)
        sessions[1].receive(seal(message, b"\x01" * 32), net.now)  # not seat 0's link key
        (rejected,) = sessions[1].take_events()
        assert isinstance(rejected, Rejected) and "authentication" in rejected.reason
    assert sessions[1].sideline.pause.sigs == {} and sessions[1].sideline.talk.lines == []


def test_a_break_signed_ahead_of_us_is_taken_when_our_log_gets_there():
    # Found by the whole-table test: a seat a move behind dropped the proposal,
    # and nobody signed again at that position.  Ana moves; Ben has her move and
    # proposes a break after it; Ben's break reaches Cleo before Ana's move does.
    _, sessions, net, _ = started()
    ana = next(s for s in sessions.values() if s.my_turn())
    ben, cleo = (s for s in sessions.values() if s is not ana)
    ana.submit(ana.legal_actions()[0], net.now)
    moved = ana.take_outgoing()
    for dest, frame in moved:
        if dest == ben.seat:
            ben.receive(frame, net.now)
    ben.propose_break()
    for dest, frame in ben.take_outgoing():
        if dest == cleo.seat:
            cleo.receive(frame, net.now)  # ahead of Cleo's log: held
    assert cleo.sideline.proposal(cleo.ledger) is None
    for dest, frame in moved:
        if dest == cleo.seat:
            cleo.receive(frame, net.now)
    cleo.tick(net.now)
    proposal = cleo.sideline.proposal(cleo.ledger)
    assert proposal is not None and cleo.seat in proposal.waiting_for


def test_a_bot_agrees_to_a_break_and_holds_its_move_once_not_at_every_move():
    from p2ptable.bots.seat import BREAK_HOLD, BotPlayer, BreakManners
    from p2ptable.net.frontend import TakeBreak

    _, sessions, net, _ = started()
    bot = next(s for s in sessions.values() if s.my_turn())
    person = next(s for s in sessions.values() if s is not bot)
    manners, player = BreakManners(), BotPlayer("random")
    person.propose_break()
    net.pump()
    assert manners.choose(bot, 0.0, player) == TakeBreak()
    bot.propose_break()
    net.pump()
    assert manners.choose(bot, 1.0, player) is None  # holds while the others agree
    assert manners.choose(bot, 1.0 + BREAK_HOLD, player) is not None  # then plays on


def test_a_break_every_seat_signed_just_behind_us_is_agreed_all_the_same():
    # Found by the whole-table test: every seat signed a position, then a step
    # went on (a move, or a chance entry gathered automatically) before the last
    # signature reached two of them: one seat agreed and left, the others
    # waited for ever.
    _, sessions, net, _ = started()
    mover = next(s for s in sessions.values() if s.my_turn())
    for session in sessions.values():
        session.propose_break()
    mover.submit(mover.legal_actions()[0], net.now)  # after its signature
    net.pump()
    agreed = [of(s, BreakAgreed) for s in sessions.values()]
    assert all(len(a) == 1 for a in agreed), agreed
    assert len({a[0].agreement for a in agreed}) == 1


def test_a_seat_back_from_a_break_does_not_take_the_same_break_again():
    # Found in a CI-like run (tests/net/test_evening_in_memory.py): every seat
    # came back from a break and stopped again at once.  As it agrees, each peer
    # sends every signature once more (for a seat whose copy was lost); copies
    # that arrive after the seat has come back, at the position it stopped at,
    # made the same break again.  Ed25519 signs deterministically, so a new
    # break there would be the same bytes: the break taken back is spent.
    from p2ptable.net.sideline import Sideline

    _, sessions, net, _ = started()
    sessions[0].propose_break()
    sessions[1].propose_break()
    net.pump()
    sessions[2].propose_break()
    for dest, frame in sessions[2].take_outgoing():
        sessions[dest].receive(frame, net.now)
    agreement = sessions[0].sideline.agreed
    assert agreement is not None
    late = [frame for dest, frame in sessions[0].take_outgoing() if dest == 1]
    assert late  # the copies of every signature, sent once more
    back = sessions[1]  # comes back: a new sideline, the break taken back from its file
    back.take_events()  # what it saw before it stopped
    back.sideline = Sideline(back.ledger.game_id, back.keys, back.seat)
    back.sideline.taken_back(agreement)
    for frame in late:
        back.receive(frame, net.now)
    assert back.sideline.agreed is None and not of(back, BreakAgreed)
