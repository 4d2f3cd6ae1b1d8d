"""Reactions out of turn that reveal nothing (engine/reactions.py), on the test
game of attacks and shields (shield_game.py), through the ledger and between
live sessions.

Issue 14, part 2: "after an event, named seats may each play a reaction card from
their hidden hand or pass, in a fixed order ... Who is asked depends on public
state only.  A window opens for every eligible seat whether or not it holds a
reaction card; pass is always legal; a reaction card is played with its reveal
proof.  Nothing in the log, the frames or their sizes tells whether a seat that
passed held the card."  And the tests: "a reaction card claimed but not held ...
caught and naming the right seat"; "the audit at the end re-checks every ...
reaction".
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.engine.api import Action, Turn
from p2ptable.engine.reactions import PASS
from p2ptable.net.memory import MemoryNet
from p2ptable.replay import authoring
from p2ptable.replay.entries import make_body, sign_body
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import _next_entry
from tests.budget import examples
from tests.toy_tables import file_of, live_sessions, play_in_any_order, register, signed_genesis

from .shield_game import GAME, SHIELDS

NONCE = b"\x0a" * 16


@pytest.fixture(autouse=True)
def shields_registered(monkeypatch):
    register(monkeypatch, GAME)


def table(seed: str = "shields"):
    return signed_genesis(GAME, 3, seed, NONCE)


def play(seats, genesis, rng: random.Random, stop=None):
    """Every seat's moves at random, through the ledger (as `sim` plays)."""
    ledger = Ledger(genesis, readers={i: s.deck for i, s in enumerate(seats)})
    entries = [genesis]
    policy = [lambda game, state, seat: rng.choice(game.legal_actions(state, seat))] * 3
    for _ in range(400):
        if stop is not None and stop(ledger):
            return ledger, entries
        entry = _next_entry(ledger, seats, policy)
        if entry is None:
            return ledger, entries
        ledger.append(entry)
        entries.append(entry)
    raise AssertionError("the shield game did not end")


def in_window(ledger: Ledger) -> bool:
    return ledger.expected().kind == "action" and ledger.state.phase == "window"


@pytest.mark.parametrize("seed", range(4))
def test_games_of_reactions_verify_and_the_audit_rechecks_every_hand(seed):
    seats, genesis = table(f"whole{seed}")
    ledger, entries = play(seats, genesis, random.Random(seed))
    report = verify_bytes(file_of(entries))
    assert report.valid, report.error
    assert report.audited is True
    texts = [e.body.get("action", "") for e in entries if e.kind == "action"]
    assert any(t == "pass" for t in texts)


def test_a_window_opens_whether_or_not_the_asked_seat_holds_a_reaction_card():
    # "Who is asked depends on public state only."
    base = replace(GAME.initial(3, {}), phase="turn", deck=(), dealing=())
    holds = replace(base, hands=((5, 6, 7), (0, 3, 4), (8, 1, 2)))
    lacks = replace(base, hands=((5, 6, 7), (3, 4, 8), (0, 1, 2)))
    for state in (holds, lacks):
        after = GAME.apply(state, 0, Action("play", (0, 5)))
        assert GAME.pending(after) == Turn(1)  # Ben is asked either way
        assert PASS in GAME.legal_actions(after, 1)  # pass is always legal
    assert GAME.legal_actions(GAME.apply(holds, 0, Action("play", (0, 5))), 1) == (
        PASS, Action("react", (0, 0)),
    )  # fmt: skip
    assert GAME.legal_actions(GAME.apply(lacks, 0, Action("play", (0, 5))), 1) == (PASS,)
    # Another peer does not know Ben's hand: it accepts a claim, which a proof checks.
    hidden = replace(holds, hands=((5, 6, 7), (None, None, None), (None, None, None)))
    after = GAME.apply(hidden, 0, Action("play", (0, 5)))
    assert GAME.apply(after, 1, Action("react", (2, 1))).up == ((1, 1, 0),)


def test_a_shield_shown_stays_up_in_front_of_its_seat_as_public_state():
    base = replace(GAME.initial(3, {}), phase="turn", deck=(), dealing=())
    state = replace(base, hands=((5, 6, 7), (0, 3, 4), (8, 1, 2)))
    state = GAME.apply(state, 0, Action("play", (0, 5)))
    state = GAME.apply(state, 1, Action("react", (0, 0)))
    assert GAME.view(state, None)["up"] == [[1, 0]] and state.scores == (0, 0, 0)
    state = GAME.apply(state, 1, Action("play", (0, 3)))  # Ben's turn: he attacks
    state = GAME.apply(state, 2, PASS)
    state = GAME.apply(state, 0, PASS)
    assert state.scores == (0, 3, 0)
    state = GAME.apply(state, 2, Action("play", (0, 8)))  # Cleo attacks: Ben's shield is up
    assert state.scores == (0, 3, 0) and state.blocked == 2 and state.phase == "turn"


def test_nothing_in_the_log_tells_whether_a_seat_that_passed_held_a_reaction_card():
    # Every pass is the same entry but for its position and seat: the same fields
    # and, at a given index, the same length, held card or not.
    holders, others = [], []
    for seed in range(6):
        seats, genesis = table(f"passes{seed}")
        audit = Ledger(genesis, readers={i: s.deck for i, s in enumerate(seats)})
        _, entries = play(seats, genesis, random.Random(100 + seed))
        for entry in entries[1:]:
            if entry.kind == "action" and entry.body["action"] == "pass":
                seat = entry.body["seat"]
                held = any(c in SHIELDS for c in audit.state.hands[seat])
                reference = sign_body(
                    audit.game_id,
                    make_body(t="action", i=entry.body["i"], prev=bytes(32), seat=seat,
                              action="pass"),
                    {seat: seats[seat].key},
                )  # fmt: skip
                (holders if held else others).append(entry)
                assert set(entry.body) == set(reference.body)
                assert len(entry.encode()) == len(reference.encode())
            audit.append(entry)
    assert holders and others  # both kinds of pass were seen


def test_a_reaction_card_claimed_but_not_held_is_proved_cheating_by_its_seat():
    seats, genesis = table("liar")
    for seed in range(50):
        ledger, _ = play(seats, genesis, random.Random(seed), stop=in_window)
        seat = ledger.state.windows[0] if in_window(ledger) else None
        if seat is None:
            continue
        mine = ledger.state.hands[seat]
        slot = next((k for k, c in enumerate(mine) if c not in SHIELDS), None)
        if slot is None:
            continue
        shield = next(c for c in SHIELDS if c not in mine)
        lie = authoring.action_entry(ledger, seat, seats[seat], Action("react", (slot, shield)))
        with pytest.raises(InvalidEntry) as refused:
            ledger.append(lie)
        assert refused.value.culprit == seat
        return
    raise AssertionError("no window found with a non-shield card to lie about")


def sessions_for(seed: str):
    seats, genesis = table(seed)
    sessions, logs = live_sessions(seats, genesis)
    return seats, sessions, logs


@pytest.mark.parametrize("seed", range(3))
def test_live_sessions_play_reaction_windows_to_identical_logs_that_audit(seed):
    _, sessions, logs = sessions_for(f"live{seed}")
    net = MemoryNet(sessions, logs)
    rng = random.Random(seed)
    for _ in range(400):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        mover = movers[0]
        mover.submit(rng.choice(mover.legal_actions()), net.now)
    net.pump()
    assert all(s.finished and s.stopped is None for s in sessions.values())
    files = {file_of(log) for log in logs.values()}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid and report.audited, report.error


def test_a_live_seat_that_claims_a_shield_it_does_not_hold_is_named_by_the_others():
    seats, sessions, logs = sessions_for("live-liar")
    net = MemoryNet(sessions, logs)
    rng = random.Random(8)
    for _ in range(400):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        assert movers, "the game ended without a window to lie in"
        mover = movers[0]
        state = mover.ledger.state
        if state.phase == "window":
            hand = state.hands[mover.seat]
            slot = next((k for k, c in enumerate(hand) if c not in SHIELDS), None)
            if slot is not None:
                shield = next(c for c in SHIELDS if c not in hand)
                lie = authoring.action_entry(
                    mover.ledger, mover.seat, seats[mover.seat], Action("react", (slot, shield))
                )
                mover.send(None, "entry", {"entry": lie.encode()})  # a modified client
                net.pump()
                for other in sessions.values():
                    if other.seat != mover.seat:
                        stopped = other.stopped
                        assert stopped is not None and stopped.culprit == mover.seat
                        assert stopped.reason == "cheated"
                others = [logs[s] for s in sessions if s != mover.seat]
                assert others[0] == others[1]
                assert verify_bytes(file_of(others[0])).stopped["culprit"] == mover.seat
                return
        mover.submit(rng.choice(mover.legal_actions()), net.now)
    raise AssertionError("no window came")


def test_a_bot_answers_a_window_after_the_same_delay_holding_a_shield_or_not():
    # "Bots answer after a delay that does not depend on their hand."
    from p2ptable.bots.seat import BotPlayer

    class Asked:
        """What a bot sees of a session in a window: its turn, its legal actions."""

        def __init__(self, legal) -> None:  # noqa: ANN001
            self.legal, self.log_length, self.game = legal, 7, GAME

        def my_turn(self) -> bool:
            return True

        def ask(self, policy):  # noqa: ANN001, ANN201
            return self.legal[0]

    for legal in ((PASS,), (PASS, Action("react", (0, 0)))):
        bot = BotPlayer("random", delay=0.4, policy=lambda *a: None)
        session = Asked(legal)
        assert bot.choose(session, 10.0) is None
        assert bot.wake_at(session, 10.0) == pytest.approx(10.4)
        assert bot.choose(session, 10.39) is None
        assert bot.choose(session, 10.4) == PASS


def test_the_ledger_refuses_a_reaction_outside_its_window():
    seats, genesis = table("outside")
    ledger, _ = play(seats, genesis, random.Random(1), stop=lambda lg: lg.state.phase == "turn")
    seat = ledger.state.current
    entry = authoring.action_entry(ledger, seat, seats[seat], Action("react", (0, 0)))
    with pytest.raises(InvalidEntry):
        ledger.append(entry)


def test_the_terminal_asks_the_same_question_whether_or_not_the_person_holds_a_shield():
    # "The terminal asks a person the same question whether or not they hold the
    # card": a window with `pass` its only choice is asked like any other, never
    # answered for the person.
    import io

    from p2ptable.ui.terminal import TerminalFrontend

    seen = {}
    for seed in range(40):
        _, sessions, logs = sessions_for(f"screen{seed}")
        net = MemoryNet(sessions, logs)
        rng = random.Random(seed)
        for _ in range(60):
            net.pump()
            mover = next((s for s in sessions.values() if s.my_turn()), None)
            if mover is None:
                break
            if mover.ledger.state.phase == "window":
                holds = len(mover.legal_actions()) > 1
                if holds not in seen:
                    person = TerminalFrontend(stdin=io.StringIO(""), stdout=io.StringIO())
                    screen = person.screen(mover, net.now)
                    assert person.choose(mover, net.now, typed=False) is None
                    seen[holds] = screen.splitlines()[-1]
                    assert "1) pass" in screen
            mover.submit(rng.choice(mover.legal_actions()), net.now)
        if len(seen) == 2:
            break
    assert seen[True] == seen[False] == "Your choice (number, or ? for help):"


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(0, 2**32))
def test_no_honest_seat_is_ever_accused_whatever_the_order_of_frames(seed):
    # Random interleavings of the in-memory network (frames delivered in any
    # order, time moving on at random): every honest game ends, nobody is named.
    _, sessions, logs = sessions_for(f"order{seed % 3}")
    play_in_any_order(sessions, logs, random.Random(seed), rounds=600)
