"""Blind picks from a hidden hand (a ``pick`` chance step, then a forced give
with its transfer proof), on the test game of steals (steal_game.py), through the
ledger and between live sessions.

Issue 14, part 3: "A blind pick takes 1 or more cards from another seat's hidden
hand.  The position is chosen by commit-reveal randomness (a pick chance step
over the victim's hand positions), never by the victim, and the victim hands the
card over with a transfer proof.  Only the victim and the taker learn the card;
everyone can check it was a card the victim held."  And: "a pick answered with
the wrong card: ... caught and naming the right seat".
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.engine.api import Action, Turn
from p2ptable.net.memory import MemoryNet
from p2ptable.replay import authoring
from p2ptable.replay.entries import make_body, sign_body
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import _next_entry
from tests.budget import examples
from tests.toy_tables import file_of, live_sessions, play_in_any_order, register, signed_genesis

from .steal_game import GAME

NONCE = b"\x0b" * 16


@pytest.fixture(autouse=True)
def steals_registered(monkeypatch):
    register(monkeypatch, GAME)


def table(n: int = 3, seed: str = "steal"):
    return signed_genesis(GAME, n, seed, NONCE)


def stealing(game, state, seat):  # noqa: ANN001, ANN201 - a policy that steals when it can
    legal = game.legal_actions(state, seat)
    return next((a for a in legal if a.verb == "steal"), legal[0])


def play(seats, genesis, rng: random.Random, policy=None, stop=None):
    """Every seat's moves through the ledger (as `sim` plays), with every reader."""
    ledger = Ledger(genesis, readers={i: s.deck for i, s in enumerate(seats)})
    entries = [genesis]
    pick = policy or (lambda game, state, seat: rng.choice(game.legal_actions(state, seat)))
    for _ in range(400):
        if stop is not None and stop(ledger):
            return ledger, entries
        entry = _next_entry(ledger, seats, [pick] * len(seats))
        if entry is None:
            return ledger, entries
        ledger.append(entry)
        entries.append(entry)
    raise AssertionError("the steal game did not end")


def at_give(ledger: Ledger) -> bool:
    return ledger.state.picked is not None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_games_of_blind_picks_verify_and_the_audit_rechecks_every_card(n):
    seats, genesis = table(n, f"whole{n}")
    _, entries = play(seats, genesis, random.Random(n), policy=stealing)
    report = verify_bytes(file_of(entries))
    assert report.valid, report.error
    assert report.audited is True
    picks = [e for e in entries if e.kind == "chance" and e.body["purpose"] == "steal"]
    gives = [e for e in entries if e.kind == "action" and e.body["action"].startswith("give")]
    assert picks and len(picks) == len(gives)
    assert all("transfer" in g.body for g in gives)


def test_the_position_is_chance_not_the_victims_and_the_give_is_forced():
    seats, genesis = table(3, "forced")
    ledger, _ = play(seats, genesis, random.Random(1), policy=stealing, stop=at_give)
    victim = ledger.state.stealing[1]
    picked = ledger.state.picked
    # The pick was a chance entry made from every seat's chain (commit-reveal).
    last = ledger.entries[-1]
    assert last.kind == "chance" and last.body["purpose"] == "steal"
    assert last.body["outcome"] == [picked]
    assert GAME.pending(ledger.state) == Turn(victim, forced=True)
    assert ledger.expected().forced and ledger.expected().seat == victim
    assert GAME.legal_actions(ledger.state, victim) == (Action("give", (picked,)),)
    other = (picked + 1) % len(ledger.state.hands[victim])
    chosen = authoring.action_entry(ledger, victim, seats[victim], Action("give", (other,)))
    with pytest.raises(InvalidEntry) as refused:  # the victim may not choose the card
        ledger.append(chosen)
    assert refused.value.culprit == victim


def test_only_the_victim_and_the_taker_learn_the_card():
    seats, genesis = table(3, "learn")
    full, entries = play(seats, genesis, random.Random(2), policy=stealing, stop=at_give)
    taker, victim = full.state.stealing
    card = full.state.hands[victim][full.state.picked]
    give = _next_entry(full, seats, [stealing] * 3)
    entries.append(give)
    third = next(s for s in range(3) if s not in (taker, victim))
    seen = {}
    for seat in range(3):
        ledger = Ledger(genesis, readers={seat: seats[seat].deck})
        for entry in entries[1:]:
            ledger.append(entry)
        seen[seat] = ledger.state.hands[taker][-1]
    assert seen[taker] == card and seen[victim] == card  # the giver knew what it gave
    assert seen[third] is None
    # Everyone checked it was a card the victim held: the transfer proof passed.
    assert "transfer" in give.body


def sessions_for(n: int, seed: str):
    seats, genesis = table(n, seed)
    sessions, logs = live_sessions(seats, genesis)
    return seats, sessions, logs


@pytest.mark.parametrize("n", [2, 3, 4])
def test_live_sessions_hand_over_picked_cards_by_themselves(n):
    # Nobody is asked to give: the forced move is its session's own (like a shuffle).
    _, sessions, logs = sessions_for(n, f"live{n}")
    net = MemoryNet(sessions, logs)
    rng = random.Random(n)
    asked_to_give = 0
    for _ in range(600):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        mover = movers[0]
        legal = mover.legal_actions()
        asked_to_give += any(a.verb == "give" for a in legal)
        steal = [a for a in legal if a.verb == "steal"]
        mover.submit(steal[0] if steal and rng.random() < 0.6 else rng.choice(legal), net.now)
    net.pump()
    assert asked_to_give == 0
    assert all(s.finished and s.stopped is None for s in sessions.values())
    files = {file_of(log) for log in logs.values()}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid and report.audited, report.error


def steal_from_a_modified_victim(sessions, net, step):  # noqa: ANN001, ANN201
    """Play first choices until a seat can steal; the victim's session gets
    ``step`` for its action round (a modified client); the steal is made."""
    for _ in range(100):
        net.pump()
        mover = next(s for s in sessions.values() if s.my_turn())
        steal = [a for a in mover.legal_actions() if a.verb == "steal"]
        if steal:
            victim = sessions[steal[0].args[0]]
            victim.rounds["action"].step = step
            mover.submit(steal[0], net.now)
            return mover, victim
        mover.submit(mover.legal_actions()[0], net.now)
    raise AssertionError("nobody could steal")


def test_a_victim_that_does_not_hand_over_the_card_is_named_for_withholding():
    _, sessions, logs = sessions_for(3, "keeps")
    net = MemoryNet(sessions, logs)
    mover, victim = steal_from_a_modified_victim(sessions, net, lambda *args: False)
    net.pump()
    for _ in range(30):
        net.advance(1.0)
    for s in sessions.values():
        if s is not victim:
            assert s.stopped is not None and (s.stopped.reason, s.stopped.culprit) == (
                "withheld", victim.seat,
            )  # fmt: skip
    assert verify_bytes(file_of(logs[mover.seat])).stopped["culprit"] == victim.seat


def test_a_victim_that_hands_over_another_card_than_the_picked_one_is_proved_cheating():
    seats, sessions, logs = sessions_for(3, "other-card")
    net = MemoryNet(sessions, logs)

    def other_card(table, expected, now):  # noqa: ANN001, ANN202 - a modified client
        ledger = table.ledger
        if not expected.forced or expected.seat != table.seat:
            return False
        other = (ledger.state.picked + 1) % len(ledger.state.hands[table.seat])
        give = Action("give", (other,))
        entry = authoring.action_entry(ledger, table.seat, seats[table.seat], give)
        table.send(None, "entry", {"entry": entry.encode()})
        return False

    _, victim = steal_from_a_modified_victim(sessions, net, other_card)
    for _ in range(5):
        net.advance(1.0)
    for s in sessions.values():
        if s is not victim:
            assert s.stopped is not None and s.stopped.culprit == victim.seat
            assert (s.stopped.reason, s.stopped.proved) == ("cheated", True)


def test_before_a_pick_the_victim_shuffles_its_hand_so_nobody_else_knows_where_a_card_is():
    # "a taker may know the slot order of a victim's hand" (issue 14): Ben gave
    # card X to Ana (his own steal's victim... here Ana stole X from Ben), so Ben
    # knows X is Ana's last card; when Cleo steals from Ana, Ana first shuffles
    # her hand, and Ben cannot tell whether Cleo got X.
    seats, genesis = table(3, "order")

    def script(game, state, seat):  # noqa: ANN001, ANN202
        legal = game.legal_actions(state, seat)
        want = {0: Action("steal", (1,)), 2: Action("steal", (0,))}.get(seat)
        if state.picked is None and want in legal and state.steals < 2:
            return want
        return next(a for a in legal if a.verb in ("play", "give"))

    def second_pick_made(ledger: Ledger) -> bool:
        return ledger.state.steals == 2 and ledger.state.picked is not None

    full, entries = play(seats, genesis, random.Random(0), policy=script, stop=second_pick_made)
    kinds = [(e.kind, e.body.get("msg", {}).get("hand")) for e in entries]
    assert ("shuffle", True) in kinds  # a hand shuffle, before the second pick
    ben = Ledger(genesis, readers={1: seats[1].deck})
    knew, forgot = None, False
    for entry in entries[1:]:
        ben.append(entry)
        if entry.kind == "action" and entry.body["action"].startswith("give") and knew is None:
            knew = ben.state.hands[0][-1]  # the card Ben gave Ana, where Ben put it
        if entry.kind == "shuffle" and entry.body["msg"].get("hand") and knew is not None:
            assert entry.body["seat"] == 0  # Ana's, before Cleo's pick from her
            assert ben.state.hands[0] == (None,) * len(ben.state.hands[0])
            forgot = True
    assert knew is not None and forgot
    ana = Ledger(genesis, readers={0: seats[0].deck})
    for entry in entries[1:]:
        ana.append(entry)
    assert None not in ana.state.hands[0]  # Ana read her own new order
    assert ana.state.hands[0] == full.state.hands[0]
    report = verify_bytes(file_of(entries))  # every entry so far checks out
    assert "ends before the game is over" in report.error["reason"]


def test_a_hand_shuffle_is_expected_before_a_pick_and_must_be_one():
    seats, genesis = table(3, "hand-shuffle")

    def hand_shuffle_due(lg: Ledger) -> bool:
        return lg.expected().kind == "shuffle" and lg.expected().hand

    ledger, _ = play(seats, genesis, random.Random(3), policy=stealing, stop=hand_shuffle_due)
    expected = ledger.expected()
    victim = expected.seat
    assert victim == ledger.state.stealing[1] and expected.chance.kind == "pick"
    # A shuffle that says it is of the deck, in its place, is refused.
    from p2ptable.sealed import deck as sealed_deck
    from p2ptable.sealed.group import SeededRandom

    made = sealed_deck.make_shuffle(ledger.book.state, victim, SeededRandom(b"x"), hand=True)
    wrong = {**made.to_value(), "hand": False}
    body = make_body(t="shuffle", i=ledger.next_index, prev=ledger.head, seat=victim, msg=wrong)
    entry = sign_body(ledger.game_id, body, {victim: seats[victim].key})
    with pytest.raises(InvalidEntry, match="shuffle of its own hand") as refused:
        ledger.append(entry)
    assert refused.value.culprit == victim
    right = authoring.shuffle_entry(ledger, victim, seats[victim])
    ledger.append(right)
    assert ledger.expected().kind == "chance"  # now the pick itself


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_no_honest_seat_is_ever_accused_whatever_the_order_of_frames(n, seed):
    def choose(session, rng):  # noqa: ANN001, ANN202 - steal often
        legal = session.legal_actions()
        steal = [a for a in legal if a.verb == "steal"]
        return steal[0] if steal and rng.random() < 0.5 else rng.choice(legal)

    _, sessions, logs = sessions_for(n, f"order{n}")
    play_in_any_order(sessions, logs, random.Random(seed), choose)


def fishing(game, state, seat):  # noqa: ANN001, ANN201 - fish when it can, then play it
    legal = game.legal_actions(state, seat)
    if Action("fish") in legal and state.fishes < 1:
        return Action("fish")
    plays = [a for a in legal if a.verb == "play"]
    return plays[-1] if plays else legal[0]  # the last card: the one fished, if any


def test_a_known_card_taken_into_a_hidden_hand_is_played_later_with_its_proof():
    # Issue 14: "A known card into a hidden hand: a card taken from a face-up
    # pile ... enters the taker's hand so that it can later be played with the
    # same proof as a dealt card."
    seats, genesis = table(3, "fish")
    ledger, entries = play(seats, genesis, random.Random(4), policy=fishing)
    texts = [(e.body["seat"], e.body["action"]) for e in entries if e.kind == "action"]
    k = next(k for k, (_, text) in enumerate(texts) if text == "fish")
    fisher = texts[k][0]
    replayed = [t for t in texts[k + 1 :] if t[0] == fisher and t[1].startswith("play")]
    assert replayed, "the fisher played again"
    fish = next(e for e in entries if e.kind == "action" and e.body["action"] == "fish")
    assert "reveal" not in fish.body and "transfer" not in fish.body  # nothing to prove
    later = next(e for e in entries[entries.index(fish):]
                 if e.kind == "action" and e.body["seat"] == fisher
                 and e.body["action"].startswith("play"))  # fmt: skip
    assert "reveal" in later.body  # played with the proof of any hand card
    report = verify_bytes(file_of(entries))
    assert report.valid and report.audited, report.error


def test_a_false_claim_about_a_fished_card_is_caught():
    seats, genesis = table(3, "fish-lie")
    fished = None

    def after_fish(ledger: Ledger) -> bool:
        return ledger.state.fishes == 1 and ledger.state.current == fished

    def policy(game, state, seat):  # noqa: ANN001, ANN202
        nonlocal fished
        action = fishing(game, state, seat)
        if action == Action("fish"):
            fished = seat
        return action

    ledger, _ = play(seats, genesis, random.Random(5), policy=policy, stop=after_fish)
    hand = ledger.state.hands[fished]
    slot, card = len(hand) - 1, hand[-1]  # the fished card, last
    other = next(c for c in range(9) if c != card and c not in hand)
    lie = authoring.action_entry(ledger, fished, seats[fished], Action("play", (slot, other)))
    with pytest.raises(InvalidEntry) as refused:
        ledger.append(lie)
    assert refused.value.culprit == fished
    honest = authoring.action_entry(ledger, fished, seats[fished], Action("play", (slot, card)))
    ledger.append(honest)
