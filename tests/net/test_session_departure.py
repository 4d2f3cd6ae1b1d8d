"""A seat that leaves a ``keep_going`` table, between sans-IO sessions (issue 27;
net/departure_round.py, replay/departure.py).

Issue 27: "when a seat is named as having abandoned ... at a keep_going table
with ≥3 seats ... instead of the abort every staying seat signs a part ...; the
bundle becomes an agreed entry ... A holder that withholds its part in time is
named (``withheld``), a false part is ``cheated`` with that part as evidence."

Each test plays a 4-seat Vorsicht Lehrer! table until seat 2 is to move, then
takes seat 2 off the network for good, with a short abandonment timeout.
"""

from __future__ import annotations

import io
import random

import pytest

from p2ptable.net import departure_round
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Rejected, Session, Stopped
from p2ptable.replay import authoring, departure
from p2ptable.replay.entries import Entry, sign_body
from p2ptable.replay.kinds import Kind
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.verify import verify_bytes
from p2ptable.sealed.group import N, scalar_bytes
from p2ptable.ui.replay_viewer import Viewer
from p2ptable.ui.terminal import TerminalFrontend, status_lines

from .test_session_escrow import log_file, make_table
from .test_session_memory import random_policy
from .test_session_resume import play_until

LEAVER = 2
ABANDON = 30.0


OPTIONS = {"vorsicht-lehrer": {"track": "100"}, "teachers-pet": {}}


def make_game_table(players: int, seed: str, game: str, options: dict | None = None):
    seats = [authoring.SeatSecrets.from_seed(seed.encode(), i, 512) for i in range(players)]
    names = [f"P{i}" for i in range(players)]
    genesis = authoring.local_genesis(
        game, options or OPTIONS[game], names, seats, 512, b"\x09" * 16, keep_going=True
    )
    logs = {i: [genesis.encode()] for i in range(players)}
    sessions = {
        i: Session(
            Ledger(genesis, readers={i: seats[i].deck}), i, seats[i], 0.0, boot=bytes([i]) * 8
        )
        for i in range(players)
    }
    return seats, sessions, logs


def to_the_leavers_turn(
    seed: str, players: int = 4, game: str = "vorsicht-lehrer", kept: list | None = None
):
    """A table played (random moves) until the leaver is to move, the leaver
    then taken off the network: (seats, staying sessions, logs, net)."""
    seats, sessions, logs = make_game_table(players, seed, game)
    net = MemoryNet(sessions, logs)
    leaver = sessions[LEAVER]
    to_its_turn = lambda: leaver.my_turn() and leaver.ledger.next_index > 12  # noqa: E731
    play_until(sessions, net, random.Random(seed), to_its_turn, max_moves=500)
    gone = sessions.pop(LEAVER)
    if kept is not None:
        kept.append(gone)  # off the network, but not ended (the test's to use)
    for session in sessions.values():
        session.waiting.abandon_timeout = ABANDON
    return seats, sessions, logs, net


def assert_one_audited_log(sessions, logs) -> None:  # noqa: ANN001
    """Every staying seat wrote the same file, and it verifies, audited."""
    files = {log_file(logs[s]) for s in sessions}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid and report.audited, report.error


def wait(net: MemoryNet, seconds: int) -> None:
    for _ in range(seconds):
        net.advance(1.0)


def departures(log: list[bytes]) -> list[Entry]:
    return [e for e in map(Entry.decode, log) if e.kind == Kind.DEPARTURE]


def test_the_staying_seats_rebuild_the_leavers_secret_in_one_identical_entry():
    seats, sessions, logs, net = to_the_leavers_turn("departs")
    at = sessions[0].ledger.next_index
    wait(net, int(ABANDON) + 3)
    for seat in sessions:
        (entry,) = departures(logs[seat])
        assert entry.body["i"] == at and entry.body["of"] == LEAVER
        assert entry.body["seats"] == [0, 1, 3]
        book = sessions[seat].ledger.book
        assert book is not None and book.gone == (LEAVER,)
        assert book.readers[LEAVER] == seats[LEAVER].deck  # its cards are read now
    assert len({bytes(e.encode()) for s in sessions for e in departures(logs[s])}) == 1
    # Its cards face up on every screen; nobody waits for it to resume.
    hand = sessions[0].ledger.book.hand(LEAVER)
    game = sessions[0].game
    lines = status_lines(sessions[0], net.now)
    cards = ", ".join(game.card_name(c) for c in hand)
    assert f"P{LEAVER} left the table: a bot plays for P{LEAVER}, cards face up: {cards}" in lines
    assert not any(f"waiting for P{LEAVER}" in line for line in lines)
    # The stand-in's state reads the gone seat's cards and never the peer's own.
    ledger = sessions[0].ledger
    assert all(c is not None for c in ledger.state.hands[0])
    assert all(c is None for c in ledger.stand_in_state.hands[0])
    assert list(ledger.stand_in_state.hands[LEAVER]) == list(hand)
    assert all(c is not None for c in ledger.state.hands[LEAVER])  # read from the start
    # verify rebuilds the secret from the log alone and checks it against the key
    report = verify_bytes(log_file(logs[0][: at + 1]))
    assert report.error is not None and report.error["entry"] == at + 1, report.error
    assert report.ledger is not None and report.ledger.book is not None
    assert report.ledger.book.readers[LEAVER] == seats[LEAVER].deck


def test_a_staying_seat_that_withholds_its_share_is_named(monkeypatch):
    _, sessions, logs, net = to_the_leavers_turn("withholds")
    quiet = sessions[3].departure
    monkeypatch.setattr(quiet, "start", lambda table, leaver, now: True)  # sends nothing
    wait(net, int(ABANDON) + 25)
    for seat in (0, 1):
        stopped = sessions[seat].stopped
        assert stopped is not None and stopped.culprit == 3, stopped
        assert stopped.reason == "withheld"
        assert not departures(logs[seat])
    report = verify_bytes(log_file(logs[0]))
    assert report.stopped is not None and report.stopped["reason"] == "withheld"
    assert report.stopped["culprit"] == 3


def test_a_false_share_is_named_as_cheating_with_it_as_the_proof(monkeypatch):
    _, sessions, logs, net = to_the_leavers_turn("lies")
    honest = departure.make_share

    def lying(game_id, book, at, seat, secrets, leaver):  # noqa: ANN001, ANN202
        entry = honest(game_id, book, at, seat, secrets, leaver)
        if seat != 3:
            return entry
        wrong = scalar_bytes((int.from_bytes(entry.body["share"], "big") + 1) % N)
        body = departure.share_body(at[0], at[1], seat, leaver, wrong)
        return sign_body(game_id, body, {seat: secrets.key})

    monkeypatch.setattr(departure_round.departure, "make_share", lying)
    wait(net, int(ABANDON) + 3)
    stops = [e for s in (0, 1) for e in sessions[s].take_events() if isinstance(e, Stopped)]
    assert stops and all(e.culprit == 3 and e.proved and e.reason == "cheated" for e in stops)
    ends = {log_file(logs[s]) for s in (0, 1)}
    assert len(ends) == 1
    report = verify_bytes(ends.pop())
    assert report.stopped is not None and report.stopped["proved"]
    assert report.stopped["culprit"] == 3 and "false" in report.stopped["detail"]


def test_without_keep_going_the_leaver_still_stops_the_game():
    seats, sessions, logs = make_table(4, "plain-leaver", keep_going=False)
    gone = sessions.pop(LEAVER)
    assert gone is not None
    net = MemoryNet(sessions, logs)
    for session in sessions.values():
        session.waiting.abandon_timeout = ABANDON
    wait(net, int(ABANDON) + 3)
    for seat in sessions:
        stopped = sessions[seat].stopped
        assert stopped is not None and stopped.reason == "abandoned"
        assert not departures(logs[seat])


def finish(sessions, net: MemoryNet, seed: str, max_moves: int = 3000) -> None:
    """The staying seats play on (random moves) until the game is over."""
    policies = {s: random_policy(random.Random(f"{seed}{s}")) for s in sessions}
    for _ in range(max_moves):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            net.advance(1.0)  # a relay's wait, if any; nothing else is awaited
            if all(s.finished or s.stopped for s in sessions.values()):
                return
            continue
        mover = movers[0]
        action = policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat)
        mover.submit(action, net.now)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["vorsicht-lehrer", "teachers-pet"])
def test_the_stand_in_plays_the_gone_seat_and_every_log_ends_the_same_and_verifies(game):
    seats, sessions, logs, net = to_the_leavers_turn("plays-on", game=game)
    wait(net, int(ABANDON) + 3)
    finish(sessions, net, "plays-on", max_moves=20_000)
    for session in sessions.values():
        assert session.stopped is None, session.stopped
        assert session.finished
    files = {log_file(logs[s]) for s in sessions}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid, report.error
    assert report.audited is True
    entries = [Entry.decode(p) for p in logs[0]]
    (gone_at,) = [e.body["i"] for e in entries if e.kind == Kind.DEPARTURE]
    stand_in = [e for e in entries[gone_at:] if e.kind == Kind.ACTION and e.body["seat"] == LEAVER]
    assert stand_in and all(e.sigs == () for e in stand_in)  # moved, unsigned
    result = entries[-1]
    assert result.kind == Kind.RESULT and [s for s, _ in result.sigs] == [0, 1, 3]


def test_a_forged_stand_in_move_is_refused_and_the_stand_ins_own_is_kept():
    """Any peer could write an unsigned move for the gone seat: every ledger
    takes only the one the stand-in makes there, byte for byte."""
    _, sessions, logs, net = to_the_leavers_turn("forged")
    wait(net, int(ABANDON) + 3)
    finish(sessions, net, "forged")
    entries = [Entry.decode(p) for p in logs[0]]
    (gone_at,) = [e.body["i"] for e in entries if e.kind == Kind.DEPARTURE]
    first = next(e for e in entries[gone_at:] if e.kind == Kind.ACTION and e.body["seat"] == LEAVER)
    at = first.body["i"]
    ledger = Ledger(entries[0], readers={0: sessions[0].secrets.deck})
    for entry in entries[1:at]:
        ledger.append(entry)
    assert ledger.gone_entry() is not None
    assert ledger.gone_entry().encode() == first.encode()
    legal = ledger.game.legal_actions(ledger.state, LEAVER)
    other = next((a for a in legal if a.text != first.body["action"]), None)
    assert other is not None, "the stand-in had one choice here"
    forged = Entry(
        authoring.action_body(ledger, LEAVER, ledger.book.readers[LEAVER], other).encode(), ()
    )
    refused = ledger.rejection(forged)
    assert refused is not None and "not the stand-in's action" in refused.reason
    signed = sign_body(ledger.game_id, first.body_bytes, {0: sessions[0].secrets.key})
    refused = ledger.rejection(signed)  # nobody signs for a gone seat
    assert refused is not None
    assert ledger.rejection(first) is None


def test_two_seats_leave_one_after_the_other_and_the_two_left_finish():
    """'After the first seat's secret is public, its share of the second's is
    too': seat 0 leaves after seat 2, rebuilt from the shares of seats 1 and 3."""
    seats, sessions, logs, net = to_the_leavers_turn("two-leave")
    wait(net, int(ABANDON) + 3)
    (first,) = departures(logs[0])
    policies = {s: random_policy(random.Random(f"two{s}")) for s in sessions}
    for _ in range(500):
        net.pump()
        if sessions[0].my_turn() and sessions[0].ledger.next_index > first.body["i"] + 5:
            break
        mover = next(s for s in sessions.values() if s.my_turn())
        mover.submit(
            policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat), net.now
        )
    else:
        raise AssertionError("seat 0 never came to move")
    del sessions[0]
    wait(net, int(ABANDON) + 3)
    for session in sessions.values():
        assert session.ledger.book.gone == (LEAVER, 0), session.stopped
        assert session.ledger.book.readers[0] == seats[0].deck
    second = departures(logs[1])[1]
    assert second.body["seats"] == [1, 3]
    finish(sessions, net, "two-leave")
    files = {log_file(logs[s]) for s in sessions}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid, report.error
    result = Entry.decode(logs[1][-1])
    assert result.kind == Kind.RESULT and [s for s, _ in result.sigs] == [1, 3]


def test_two_seats_gone_at_the_same_moment_stop_the_game_as_before():
    """Two leaving at once leave ``n - 2`` shares: nothing can be rebuilt, and
    the game stops with the abandonment named, as without keep_going."""
    _, sessions, logs, net = to_the_leavers_turn("two-at-once")
    del sessions[3]
    wait(net, int(ABANDON) + 3)
    for seat in (0, 1):
        stopped = sessions[seat].stopped
        assert stopped is not None and stopped.reason == "abandoned", stopped
        assert stopped.culprit in (LEAVER, 3)
        assert not departures(logs[seat])
    assert log_file(logs[0]) == log_file(logs[1])
    report = verify_bytes(log_file(logs[0]))
    assert report.stopped is not None and report.stopped["reason"] == "abandoned"


def test_with_one_player_left_the_game_ends_at_once_and_the_last_one_wins(tmp_path):
    """Vorsicht Lehrer!'s RULES.md: "When every other player has left, the game
    ends at once where it stands: the negative points so far are the scores, and
    the player still at the table wins"."""
    seats, sessions, logs, net = to_the_leavers_turn("one-left", players=3)
    wait(net, int(ABANDON) + 3)
    (first,) = departures(logs[0])
    policies = {s: random_policy(random.Random(f"one{s}")) for s in sessions}
    for _ in range(500):
        net.pump()
        if sessions[0].my_turn() and sessions[0].ledger.next_index > first.body["i"] + 3:
            break
        mover = next(s for s in sessions.values() if s.my_turn())
        mover.submit(
            policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat), net.now
        )
    else:
        raise AssertionError("seat 0 never came to move")
    state = sessions[1].ledger.state
    del sessions[0]
    wait(net, int(ABANDON) + 3)
    last = sessions[1]
    assert last.finished and last.stopped is None
    kinds = [Entry.decode(p).kind for p in logs[1]]
    assert kinds[-3:] == [Kind.DEPARTURE, Kind.SECRETS, Kind.RESULT]
    result = Entry.decode(logs[1][-1])
    assert [s for s, _ in result.sigs] == [1]
    assert result.body["winners"] == [1]
    assert result.body["scores"] == list(min(t, state.track) for t in state.tokens)
    report = verify_bytes(log_file(logs[1]))
    assert report.valid and report.audited, report.error
    assert "every other player left" in report.result["explanation"]
    # The end-of-game screens say so too: they said "The game is not over yet."
    # (the rules have no outcome there; the log's result is the end; found by hand).
    shown = io.StringIO()
    screen = TerminalFrontend(stdin=io.StringIO(), stdout=shown)
    screen.final(last, last.ledger.result)  # as the Finished event has it
    screen.close()
    path = tmp_path / "one-left.p2pt"
    path.write_bytes(log_file(logs[1]))
    viewer = Viewer(path)
    for text in (shown.getvalue(), viewer.screen(viewer.last)):
        assert "not over yet" not in text
        assert "P1 wins: every other player left the table" in text, text


def test_a_player_who_leaves_on_purpose_is_played_by_the_bot_at_once():
    """'Their peer publishes its own secret in a signed entry ... the others go
    on at once (no 5-minute wait)': no time passes between the leave and the
    stand-in's first move."""
    seats, sessions, logs = make_game_table(4, "on-purpose", "vorsicht-lehrer")
    net = MemoryNet(sessions, logs)
    policies = {s: random_policy(random.Random(f"purpose{s}")) for s in sessions}
    for _ in range(500):
        net.pump()
        if sessions[LEAVER].my_turn() and sessions[LEAVER].ledger.next_index > 12:
            break
        mover = next(s for s in sessions.values() if s.my_turn())
        mover.submit(
            policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat), net.now
        )
    at, then = sessions[0].ledger.next_index, net.now
    leaver = sessions[LEAVER]
    leaver.departure.leave(leaver)
    leaver.advance(net.now)
    net.pump()
    assert net.now == then
    for seat in (0, 1, 3):
        entry = Entry.decode(logs[seat][at])
        assert entry.kind == Kind.DEPARTURE and entry.body["seats"] == [LEAVER]
        following = Entry.decode(logs[seat][at + 1])  # the stand-in's move, at once
        assert following.kind == Kind.ACTION and following.body["seat"] == LEAVER
        assert following.sigs == ()
    assert not leaver.my_turn()  # a bot plays it now, for everyone alike
    lines = status_lines(leaver, net.now)
    # Said while its peer is on its way out: no "you watch the rest" (it exits).
    assert "You left the table (you chose to leave): a bot plays for you" in lines
    del sessions[LEAVER]  # its peer exits
    finish(sessions, net, "on-purpose")
    assert_one_audited_log(sessions, logs)


def test_a_player_who_comes_back_after_a_bot_took_the_seat_watches():
    """'A person who resumes after a stand-in took the seat watches the rest as
    a spectator and is told why': the seat's session follows the log to the end,
    is never asked to move, and contributes nothing (every log stays the same)."""
    seats, sessions, logs, net = to_the_leavers_turn("comes-back")
    wait(net, int(ABANDON) + 3)
    (gone,) = departures(logs[0])
    back = Session(
        Ledger(Entry.decode(logs[LEAVER][0]), readers={LEAVER: seats[LEAVER].deck}),
        LEAVER,
        seats[LEAVER],
        net.now,
        boot=b"\x02" * 7 + b"\x09",
        resumed=True,
    )
    for payload in logs[LEAVER][1:]:
        back.ledger.append(Entry.decode(payload))
    sessions[LEAVER] = back
    net.pump()
    wait(net, 3)
    assert back.ledger.next_index > gone.body["i"]
    assert not back.my_turn()
    lines = status_lines(back, net.now)
    assert any(line.startswith("You left the table (you were out of contact") for line in lines)
    finish(sessions, net, "comes-back")
    assert back.finished and back.failed is None
    files = {log_file(logs[s]) for s in sessions}
    assert len(files) == 1, "the watcher's log differs"
    assert verify_bytes(files.pop()).valid


def test_the_log_in_words_says_who_left_and_which_moves_the_bot_made():
    from p2ptable.replay.verify import verify_bytes as verified
    from p2ptable.ui.narrative import event_line
    from p2ptable.ui.text import verify_summary

    _, sessions, logs, net = to_the_leavers_turn("words")
    wait(net, int(ABANDON) + 3)
    finish(sessions, net, "words")
    report = verified(log_file(logs[0]))
    said = [did.text for did in report.events]
    assert any(
        t.startswith("left the table: its deck secret is rebuilt from 3 shares") for t in said
    )
    # In words a player reads: the stand-in's moves say for whom it played ("for Ben").
    assert any(t.endswith(f"(the bot playing for seat {LEAVER})") for t in said)
    names = [f"P{n}" for n in range(len(sessions))]
    bot_moves = [
        event_line(did, names, {}) for did in report.events if "the bot playing" in did.text
    ]
    assert bot_moves and all(
        line.endswith(f"(the bot playing for P{LEAVER})") for line in bot_moves
    )
    summary = verify_summary("game.p2pt", report)
    assert f"left:    P{LEAVER} at entry" in summary


def test_once_a_seats_share_is_out_the_leavers_late_move_is_refused():
    """A leaver back just in time must not fork the log of a seat whose share
    is out from the logs of the seats that bundle the departure with it."""
    kept: list = []
    _, sessions, logs, net = to_the_leavers_turn("late-move", kept=kept)
    (leaver,) = kept
    for seat in (1, 3):
        sessions[seat].waiting.abandon_timeout = ABANDON + 6  # seat 0's clock first
    at = sessions[0].ledger.next_index
    wait(net, int(ABANDON) + 2)
    assert sessions[0].departure.active(sessions[0]) == LEAVER
    sessions[0].take_events()
    legal = leaver.legal_actions()
    leaver.submit(legal[0], net.now)
    for dest, frame in leaver.take_outgoing():
        if dest == 0:
            sessions[0].receive(frame, net.now)
    assert sessions[0].ledger.next_index == at  # the move was not taken
    refused = [e for e in sessions[0].take_events() if isinstance(e, Rejected)]
    assert any("only its departure may come there" in e.reason for e in refused), refused
    wait(net, 8)  # the others' clocks name it too, well within the withholding time
    for seat in sessions:
        (entry,) = departures(logs[seat])
        assert entry.body["i"] == at
    assert len({log_file(logs[s]) for s in sessions}) == 1


def test_typing_leave_at_either_screen_is_leaving_for_good():
    """'a person types leave / a menu entry "leave: a bot plays for me"': the line
    mode and the full-screen table's typing line read it alike, and offer it."""
    from p2ptable.net.frontend import LeaveForGood
    from p2ptable.ui import typed_line
    from p2ptable.ui.tui.channel import Typed
    from p2ptable.ui.tui.link import FullScreenFrontend

    _, sessions, _, net = to_the_leavers_turn("typed-leave", kept=(kept := []))
    (mover,) = kept
    assert mover.can_leave()
    assert typed_line.meaning(mover, "leave", mover.legal_actions()) == LeaveForGood()
    waiting = sessions[0]  # away from its turn: leaving waits for it (the next test)
    assert not waiting.can_leave() and waiting.may_leave()
    assert typed_line.meaning(waiting, "leave", waiting.legal_actions()) == LeaveForGood()
    ui = FullScreenFrontend()
    try:
        ui.link.send(Typed("leave"))
        assert ui.choose(mover, net.now, typed=True) == LeaveForGood()
        ui.show(mover, [], net.now)
        snap = ui.link.take()
        assert snap is not None and "leave: a bot plays for me (type leave)" in snap.status
    finally:
        ui.link.close()


@pytest.mark.parametrize("choices", ["together", "in-turn"])
def test_leave_typed_away_from_ones_turn_is_carried_out_at_the_next_one_by_itself(choices):
    """A person who must go while another player thinks types leave all the same
    (the brief: 'a person can leave a running game'): the screen says they leave
    at their turn, and there their peer leaves by itself, the person asked
    for no move.  Not before: at another's turn that seat may write the next
    entry, and a departure in the same place would fork the honest logs."""
    # Teacher cards chosen together: a secret choice asked of it on the way is
    # still its own (answered here); in turn: it may leave at its turn to choose.
    options = {"track": "100", "teacher-choices": choices}
    seats, sessions, logs = make_game_table(4, "leave-later", "vorsicht-lehrer", options)
    net = MemoryNet(sessions, logs)
    leaver = sessions[LEAVER]
    policies = {s: random_policy(random.Random(f"later{s}")) for s in sessions}

    def play_one(but=None) -> None:  # noqa: ANN001
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if but is not None and but.can_leave():
            movers.remove(but)  # its turn: it leaves by itself, never asked
        mover = movers[0] if movers else None
        if mover is not None:
            mover.submit(
                policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat), net.now
            )

    for _ in range(500):  # until another seat is to move, past the deal
        play_one()
        if leaver.ledger.next_index > 12 and not leaver.my_turn() and leaver.may_leave():
            break
    assert not leaver.can_leave()
    leaver.departure.wish(leaver)
    assert leaver.leaving_at_turn
    assert "You leave at your turn: a bot plays for you from then on" in status_lines(
        leaver, net.now
    )
    at = len(logs[0])
    for _ in range(500):  # the others play; the leaver is never asked for a move
        assert not leaver.can_leave(), "its turn came and it did not leave"
        play_one(but=leaver)
        if departures(logs[0]):
            break
    (entry,) = departures(logs[0])
    assert entry.body["i"] > at and entry.body["seats"] == [LEAVER]  # its own secret
    before = Ledger(Entry.decode(logs[0][0]))
    for payload in logs[0][1 : entry.body["i"]]:
        before.append(Entry.decode(payload))
    # Where it left: its own turn, where no other seat could have written the entry.
    expected = before.expected()
    assert (expected.kind, expected.seat) == (Kind.ACTION, LEAVER), expected
    assert not leaver.leaving_at_turn and leaver.left_for_good
    del sessions[LEAVER]  # its peer exits
    finish(sessions, net, "leave-later")
    assert_one_audited_log(sessions, logs)


def test_leave_is_refused_at_a_table_that_does_not_keep_going():
    from p2ptable.ui import prompt, typed_line

    seats, sessions, logs = make_game_table(3, "no-escrow", "vorsicht-lehrer")
    plain = authoring.local_genesis(
        "vorsicht-lehrer", OPTIONS["vorsicht-lehrer"], ["P0", "P1", "P2"], seats, 512,
        b"\x0a" * 16,
    )  # fmt: skip
    session = Session(Ledger(plain, readers={0: seats[0].deck}), 0, seats[0], 0.0, boot=b"0" * 8)
    assert not session.may_leave()
    said = typed_line.meaning(session, "leave", session.legal_actions())
    assert isinstance(said, prompt.Invalid) and "does not go on without" in said.message


def test_the_stand_in_is_the_tables_default_bot():
    """'a deterministic stand-in bot (the table's default bot for the game ...)':
    the log's copy of it is the one bots.make_bot makes for the game's opponent."""
    from p2ptable.bots import make_bot, opponent_for
    from p2ptable.games import get_game
    from p2ptable.replay.stand_in import default_bot

    for name in ("vorsicht-lehrer", "teachers-pet"):
        game = get_game(name)
        ours = default_bot(game, random.Random(1))
        theirs = make_bot(game, opponent_for(game), random.Random(1))
        assert type(ours) is type(theirs) and getattr(ours, "__qualname__", "") == getattr(
            theirs, "__qualname__", ""
        )


def test_a_spectator_is_told_who_left_and_sees_their_cards_face_up():
    """Issue 27: "The seat's cards become readable by all (shown face up from
    then on)": a spectator, who holds no secret, reads them from the log too, and
    its screen says who left in the players' words."""
    from types import SimpleNamespace

    from p2ptable import watch

    _, sessions, logs, net = to_the_leavers_turn("watched")
    wait(net, int(ABANDON) + 3)
    entries = [Entry.decode(r) for r in logs[0]]
    ledger = Ledger(entries[0])  # a spectator's: no reader of any hand
    for entry in entries[1:]:
        ledger.append(entry)
    hand = ledger.book.hand(LEAVER)
    cards = ", ".join(ledger.game.card_name(c) for c in hand)
    drawn: list[list[str]] = []
    screen = SimpleNamespace(tty=True, dirty=False, draw=lambda f, a, status: drawn.append(status))
    follower = SimpleNamespace(ledger=ledger, over=False, rejoined=0, again=None, heard=net.now)
    state = SimpleNamespace(
        lobby=SimpleNamespace(watching=True),
        follower=follower,
        screen=screen,
        told=(0, False),
        clock=None,
        clock_said=None,
    )
    watch._verdict(state, ["an entry"], net.now, 1.0, (15.0, 60.0))
    (status,) = drawn
    assert status[0] == watch.WATCHING
    assert f"P{LEAVER} left the table: a bot plays for P{LEAVER}, cards face up: {cards}" in status


def leaving_on_purpose(seed: str):  # noqa: ANN201
    """The leaver back on the network at its turn, and gone on purpose (its own
    departure made and applied): (seats, sessions, logs, net, leaver)."""
    kept: list = []
    seats, sessions, logs, net = to_the_leavers_turn(seed, kept=kept)
    (leaver,) = kept
    sessions[LEAVER] = leaver
    leaver.departure.leave(leaver)
    leaver.advance(net.now)
    return seats, sessions, logs, net, leaver


def test_a_player_who_left_on_purpose_and_resumes_watches_instead_of_leaving_again():
    """'A person who comes back with `resume` after a stand-in took the seat
    watches the rest as a spectator': a seat that typed `leave` and resumes is
    not sent away at once (its peer's exit status stays open until the game
    ends), yet the run that left does go (found by hand: resume printed 'You
    left the table' and exited with 130)."""
    from types import SimpleNamespace

    from p2ptable.net.peer_exit import LEFT, exit_status

    seats, sessions, logs, net, leaver = leaving_on_purpose("purpose-back")
    net.pump()
    wait(net, 2)  # the others' acknowledgements come back
    arrival = SimpleNamespace(spectators_behind=lambda length, now: False)  # none watch
    assert exit_status(leaver, arrival, net.now, None, False) == LEFT  # the run that left
    del sessions[LEAVER]
    back = Session(
        Ledger(Entry.decode(logs[LEAVER][0]), readers={LEAVER: seats[LEAVER].deck}),
        LEAVER,
        seats[LEAVER],
        net.now,
        boot=b"\x02" * 7 + b"\x09",
        resumed=True,
    )
    for payload in logs[LEAVER][1:]:
        back.ledger.append(Entry.decode(payload))
    sessions[LEAVER] = back
    net.pump()
    wait(net, 3)
    assert not back.finished
    assert exit_status(back, arrival, net.now, None, False) is None  # it watches
    lines = status_lines(back, net.now)
    said = "You left the table (you chose to leave): a bot plays for you; you watch the rest"
    assert said in lines
    from p2ptable.ui import prompt, typed_line

    again = typed_line.meaning(back, "leave", back.legal_actions())  # typed once more
    assert isinstance(again, prompt.Invalid) and "You left the table already" in again.message
    finish(sessions, net, "purpose-back")
    assert back.finished and back.failed is None
    assert exit_status(back, arrival, net.now + 60, net.now, False) == 0


def test_a_leaver_goes_once_every_seat_holds_its_departure_not_what_came_after():
    """Issue 27: "their peer publishes its own secret and exits".  It waits for
    every other seat to hold its departure (net/peer_exit.py), not for the entries
    the table made after it: at a fast table that kept the leaver's peer chasing
    the game to its end (seen by hand: a 3-seat Teacher's Pet with two bot peers
    was over when the leaver's peer exited, after its 5-second linger)."""
    from types import SimpleNamespace

    from p2ptable.net.peer_exit import LEFT, exit_status

    _, sessions, _, net, leaver = leaving_on_purpose("purpose-goes")
    at = max(i for i, e in enumerate(leaver.ledger.entries) if e.kind == Kind.DEPARTURE)
    policies = {s: random_policy(random.Random(f"goes{s}")) for s in sessions}
    for _ in range(200):  # the others play on, the leaver's peer still taking it in
        net.pump()
        if leaver.ledger.next_index > at + 5:
            break
        mover = next(s for s in sessions.values() if s.my_turn())
        action = policies[mover.seat](mover.ledger.game, mover.ledger.state, mover.seat)
        mover.submit(action, net.now)
    assert leaver.ledger.next_index > at + 5
    arrival = SimpleNamespace(spectators_behind=lambda length, now: False)  # none watch
    for state in leaver.peers.values():
        state.their_len = at  # one short: the departure not yet held
    assert exit_status(leaver, arrival, net.now, net.now, False) is None
    for state in leaver.peers.values():
        state.their_len = at + 1  # the departure held, and nothing after it
    assert exit_status(leaver, arrival, net.now, net.now, False) == LEFT


def revealed(entry: Entry) -> dict[int, str]:
    """Each seat's action opened in a ``choices`` entry."""
    items = next(v for k, v in entry.body.items() if k != "seats" and isinstance(v, list))
    msgs = [item[0] if isinstance(item, list) else item for item in items]
    return {seat: msg["action"] for seat, msg in zip(entry.body["seats"], msgs, strict=True)}


def test_a_secret_choice_made_before_a_departure_there_is_not_asked_again():
    """A seat named as having abandoned while the others had chosen their
    teacher cards in secret: the departure lands where the commits were to go,
    and the choice is made at the next entry.  Each staying seat commits there to
    what its player chose already, asked nothing twice (found in the closing
    notes of 2026-12-06: a person was asked for their teacher card again)."""
    options = {"track": "100", "teacher-choices": "together"}
    seats, sessions, logs = make_game_table(4, "choice-kept", "vorsicht-lehrer", options)
    net = MemoryNet(sessions, logs)
    policies = {s: random_policy(random.Random(f"kept{s}")) for s in sessions}

    def every_seat_chooses() -> bool:  # a teacher card chosen by every seat at once
        expected = sessions[0].ledger.expected()
        targets = expected.targets
        return expected.kind == Kind.COMMITS and LEAVER in targets and len(targets) > 2

    play_until(sessions, net, random.Random("kept"), every_seat_chooses)
    expected = sessions[0].ledger.expected()
    chosen = {}
    for session in sessions.values():
        if session.seat != LEAVER and session.my_turn():
            action = policies[session.seat](session.ledger.game, session.ledger.state, session.seat)
            session.submit(action, net.now)
            chosen[session.seat] = action.text
    assert len(chosen) == len(expected.targets) - 1
    net.pump()
    del sessions[LEAVER]  # gone before it chose
    for session in sessions.values():
        session.waiting.abandon_timeout = ABANDON
    for _ in range(int(ABANDON) + 10):
        net.advance(1.0)
        gone = departures(logs[0])
        kinds = [Entry.decode(p).kind for p in logs[0]]
        if gone and Kind.CHOICES in kinds[gone[0].body["i"] :]:
            break  # the choice is opened: the game asks for moves again
        asked = [s.seat for s in sessions.values() if s.my_turn()]
        assert not asked, f"seats {asked} are asked their secret choice again"
    (departure,) = departures(logs[0])
    opened = [Entry.decode(p) for p in logs[0] if Entry.decode(p).kind == Kind.CHOICES]
    assert opened and opened[-1].body["i"] > departure.body["i"]
    ours = revealed(opened[-1])
    assert {seat: ours[seat] for seat in chosen} == chosen
    finish(sessions, net, "choice-kept")
    assert_one_audited_log(sessions, logs)
