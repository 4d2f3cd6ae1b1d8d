"""Teacher's Pet invariants, checked at every step of random playouts (hypothesis),
and through the log: every simulated game verifies and audits."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptable.engine.api import Action, Chance, GameOver, Simultaneous, Turn, chooser
from p2ptable.games.teachers_pet import GAME
from p2ptable.games.teachers_pet.cards import (
    CLASSROOM,
    PAWN_ROOMS,
    PLAY,
    TEACHER,
    TEACHERS_LOUNGE,
)
from p2ptable.games.teachers_pet.rulings import BEFORE
from p2ptable.games.teachers_pet.state import all_play_cards
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import LogWriter
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import _next_entry as sim_next_entry
from p2ptable.sim import simulate
from tests.budget import examples

MAX_STEPS = 5_000  # a 6-seat game takes under a thousand


#: any combination of the game's options (rulings.py): every invariant holds under each
OPTIONS = st.fixed_dictionaries({spec.name: st.sampled_from(spec.choices) for spec in GAME.options})


@st.composite
def tables(draw):
    return draw(st.integers(2, 6)), draw(st.integers(0, 2**32)), draw(OPTIONS)


def walk(seats, seed, options=None):
    """Yield (state, decision) at every step of a random playout, then the end."""
    rng = random.Random(seed)
    state = GAME.initial(seats, options or {})
    for _ in range(MAX_STEPS):
        decision = GAME.pending(state)
        yield state, decision
        if isinstance(decision, GameOver):
            return
        if isinstance(decision, Chance):
            state = GAME.resolve(state, tuple(rng.randrange(r) for r in decision.step.ranges))
        else:
            seat = chooser(decision)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    raise AssertionError(f"no end within {MAX_STEPS} steps")


@settings(max_examples=examples(25), deadline=None)
@given(tables())
def test_no_card_is_ever_created_or_lost(table):
    play_cards = Counter(range(len(PLAY)))
    for state, _ in walk(*table):
        assert all_play_cards(state) == play_cards
        assert Counter(state.teacher_deck) + Counter(state.teacher_discard) == Counter(
            range(len(TEACHER))
        )
        assert list(state.deck) == sorted(state.deck)
        assert list(state.discard) == sorted(state.discard)
        if state.rulings.floor == "zero":
            assert all(p >= 0 for p in state.points)
        if state.teacher is not None:
            assert all(room in PAWN_ROOMS for room in state.rooms)  # never in the Hallway


@settings(max_examples=25, deadline=None)
@given(tables())
def test_every_playout_ends_after_day_five_with_a_winner(table):
    seats, _, _ = table
    *_, (state, decision) = walk(*table)
    assert decision == GameOver() and state.day == 5 and state.period == 7
    assert not state.teacher_deck
    outcome = GAME.outcome(state)
    assert len(outcome.scores) == seats and outcome.winners
    assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)


@settings(max_examples=15, deadline=None)
@given(tables())
def test_only_the_seats_asked_have_legal_actions(table):
    seats = table[0]
    for state, decision in walk(*table):
        for seat in range(seats):
            legal = GAME.legal_actions(state, seat)
            asked = isinstance(decision, Simultaneous) and seat in decision.seats
            if (isinstance(decision, Turn) and decision.seat == seat) or asked:
                assert legal and all(Action.parse(a.text) == a for a in legal)
                if isinstance(decision, Turn) and decision.forced:
                    assert len(legal) == 1
            else:
                assert legal == ()


@settings(max_examples=examples(15), deadline=None)
@given(tables())
def test_views_hide_the_hands_and_the_deck(table):
    seats = table[0]
    for state, _ in walk(*table):
        public = GAME.view(state, None)
        assert json.loads(json.dumps(public)) == public
        assert public["hand"] is None
        for seat in range(seats):
            mine = GAME.view(state, seat)
            assert [c["id"] for c in mine["hand"]] == list(state.hands[seat])
            # the seat view is the public view plus its own hand, nothing else
            assert {**mine, "you": None, "hand": None} == public
        assert public["deck_left"] == len(state.deck)


@settings(max_examples=15, deadline=None)
@given(tables())
def test_a_reaction_window_is_the_same_question_for_every_hand(table):
    # engine/reactions.py: "Who is asked depends on public state only": the
    # window and pass are there whatever the asked seat holds.
    for state, decision in walk(*table):
        if state.phase.endswith("-window"):
            seat = state.windows[0]
            assert decision == Turn(seat)
            hidden = state.with_hand(seat, (None,) * len(state.hands[seat]))
            assert GAME.pending(hidden) == decision
            assert GAME.legal_actions(hidden, seat) == (Action("pass"),)
            assert GAME.view(hidden, None) == GAME.view(state, None)


def test_simulated_games_verify_and_audit(tmp_path):
    # Through the log, with the sealed deck: every deal, card shown, blind pick
    # and hand shuffle, the Cheat's known card and the free Move's commits.
    kinds = Counter()
    old = BEFORE.options()  # the rulings of replays written before the options
    for seats, bots, options in ((2, "random", {}), (4, "greedy", {}), (6, "random", {}),
                                 (3, "random", old)):  # fmt: skip
        path = tmp_path / f"tp{seats}.p2pt"
        simulate("teachers-pet", seats, f"props-{seats}", path, options, bots=[bots] * seats)
        report = verify_bytes(path.read_bytes())
        assert report.valid, report.error
        assert report.audited
        for applied in report.events:
            kinds[applied.kind] += 1
            for words in ("hands a card", "cheats", "shows Hall Pass", "late"):
                kinds[words] += words in applied.text
    assert kinds["commits"] and kinds["choices"]  # the free Move, in secret
    # these seeds' games show blind picks and reactions at least once
    assert kinds["hands a card"] and kinds["shows Hall Pass"]


def _heading(rng, wants):
    """Takes the first legal action starting with one of ``wants``, else random."""

    def policy(game, state, seat):
        legal = game.legal_actions(state, seat)
        for wanted in wants:
            for action in legal:
                if action.text.startswith(wanted):
                    return action
        return rng.choice(legal)

    return policy


def test_a_cheated_card_is_later_shown_with_a_proof(tmp_path):
    # "Cheat: ... choose 1 Assignment Card, adding it to your Hand": the known card
    # enters the sealed hand (deck.take_known), so showing it later is proved
    # like a dealt card, and the audit re-checks it.
    seats = [authoring.SeatSecrets.from_seed(b"cheat", i, 256) for i in range(3)]
    genesis = authoring.local_genesis("teachers-pet", {}, ("A", "B", "C"), seats, 256, bytes(16))
    ledger = Ledger(genesis, readers={i: s.deck for i, s in enumerate(seats)})
    cheater = ("cheat", f"move {TEACHERS_LOUNGE}", "late", "add", "done", "stay")
    student = ("turn-in", "add", "done", f"move {CLASSROOM}", "go")
    policies = [_heading(random.Random(i), cheater if i == 0 else student) for i in range(3)]
    payloads = [genesis.encode()]
    cheated: set[int] = set()
    shown_after: set[int] = set()
    for _ in range(20_000):
        entry = sim_next_entry(ledger, seats, policies)
        if entry is None:
            break
        body = entry.body
        if body.get("t") == "action":
            action = Action.parse(body["action"])
            if action.verb == "cheat":
                cheated.add(action.args[0])
            elif action.verb in ("work", "turn-in", "add", "late") and action.args[1] in cheated:
                shown_after.add(action.args[1])
        ledger.append(entry)
        payloads.append(entry.encode())
    assert ledger.result is not None and shown_after
    path = tmp_path / "cheat.p2pt"
    with LogWriter(path) as writer:
        for payload in payloads:
            writer.append(payload)
    report = verify_bytes(path.read_bytes())
    assert report.valid and report.audited, report.error


def test_the_golden_replay_shows_every_kind_of_hidden_card_step():
    # replays/README.md: the recorded game has each kind, so CI's verify of it
    # re-checks each kind of proof (tests/replay/test_replays.py verifies every file).
    from pathlib import Path

    golden = Path(__file__).resolve().parents[2] / "replays" / "teachers-pet-4p.p2pt"
    report = verify_bytes(golden.read_bytes())
    assert report.valid and report.audited, report.error
    texts = " | ".join(applied.text for applied in report.events)
    for words in (
        "hands a card",
        "shuffles its hand",
        "cheats",
        "shows Hall Pass",
        "shows Goody Two-Shoes",
        "tattles",
        "Squeal",
        "turns in",
        "late",
    ):
        assert words in texts, words
    kinds = {applied.kind for applied in report.events}
    assert {"commits", "choices", "shuffle", "open", "secrets"} <= kinds


def test_every_combination_of_the_options_plays_to_the_end_keeping_every_card():
    # hypothesis draws combinations above; here each of them once, at 2 to 6 seats.
    import itertools

    names = [spec.name for spec in GAME.options]
    combinations = itertools.product(*(spec.choices for spec in GAME.options))
    for n, values in enumerate(combinations):
        *_, (state, decision) = walk(2 + n % 5, n, dict(zip(names, values, strict=True)))
        assert decision == GameOver() and all_play_cards(state) == Counter(range(len(PLAY)))
        assert state.rulings.options() == dict(zip(names, values, strict=True))
