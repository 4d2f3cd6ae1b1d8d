"""Secret simultaneous choices in the log: commit, then reveal (replay/choices.py).

Issue 14, part 1: "each seat writes a signed commit entry: a hash, with domain
separation, of (game id, the decision's position in the log, seat, the action, a
32-byte salt) ... When every commit is in the log, each seat writes its reveal
(action and salt); the ledger checks it against the commit ... The rules apply
the choices together, in seat order, only after the last reveal.  No view shows
a choice before then."  No registered game chooses at once yet, so these tests
use a tiny one (bid_game.py), played through the ledger as `sim` plays a game.
"""

from __future__ import annotations

import random

import pytest

from p2ptable.engine.api import Action
from p2ptable.replay import authoring, choices
from p2ptable.replay.entries import Entry, make_body, sign_body
from p2ptable.replay.evidence import check_cheat, check_equivocation
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import _next_entry
from tests.toy_tables import file_of, register, signed_genesis

from .bid_game import GAME

NONCE = b"\x07" * 16


@pytest.fixture(autouse=True)
def bids_registered(monkeypatch):
    register(monkeypatch, GAME)


def table(n: int = 3, seed: str = "bids"):
    return signed_genesis(GAME, n, seed, NONCE)


def policies(rng: random.Random, n: int):
    return [lambda game, state, seat: rng.choice(game.legal_actions(state, seat))] * n


def play(seats, genesis, rng: random.Random):
    ledger = Ledger(genesis)
    entries = [genesis]
    for _ in range(100):
        entry = _next_entry(ledger, seats, policies(rng, len(seats)))
        if entry is None:
            return ledger, entries
        ledger.append(entry)
        entries.append(entry)
    raise AssertionError("the bid game did not end")


def to_commits(seats, genesis) -> Ledger:
    """A ledger whose next entry is the first commits entry."""
    ledger = Ledger(genesis)
    assert ledger.expected().kind == "commits"
    return ledger


def commit_all(ledger: Ledger, seats, bids: dict[int, int]) -> Entry:
    parts = {
        i: authoring.choice_part(ledger, i, seats[i], Action("bid", (bids[i],)))
        for i in ledger.expected().targets
    }
    return authoring.choices_bundle(ledger, parts)


def part(ledger: Ledger, seat: int, secrets, msg: dict) -> Entry:
    body = make_body(t="part", i=ledger.next_index, prev=ledger.head, seat=seat, msg=msg)
    return sign_body(ledger.game_id, body, {seat: secrets.key})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_game_of_secret_choices_plays_through_the_log_and_verifies(n):
    seats, genesis = table(n)
    ledger, entries = play(seats, genesis, random.Random(n))
    kinds = [e.body["t"] for e in entries]
    assert kinds.count("commits") == kinds.count("choices") == 3  # one pair a round
    report = verify_bytes(file_of(entries))
    assert report.valid, report.error
    assert ledger.result is not None


def test_the_commits_change_nothing_a_view_can_show_and_the_choices_apply_together():
    # "No view shows a choice before then": the state after the commits is the
    # state before them; after the choices every bid is applied at once.
    seats, genesis = table(3)
    ledger = to_commits(seats, genesis)
    before = [GAME.view(ledger.state, s) for s in (0, 1, 2, None)]
    ledger.append(commit_all(ledger, seats, {0: 3, 1: 2, 2: 2}))
    assert [GAME.view(ledger.state, s) for s in (0, 1, 2, None)] == before
    assert ledger.state == Ledger(genesis).state
    assert ledger.expected().kind == "choices" and ledger.expected().targets == (0, 1, 2)
    reveals = {i: authoring.committed_choice(ledger, i, seats[i]) for i in range(3)}
    assert reveals == {0: Action("bid", (3,)), 1: Action("bid", (2,)), 2: Action("bid", (2,))}
    # The choice a seat remembers is tried first, and taken only if its commit
    # seals it: a wrong memory still finds the committed action.
    for hint in (Action("bid", (3,)), Action("bid", (1,))):
        assert authoring.committed_choice(ledger, 0, seats[0], hint) == Action("bid", (3,))
    parts = {i: authoring.choice_part(ledger, i, seats[i], a) for i, a in reveals.items()}
    applied = ledger.append(authoring.choices_bundle(ledger, parts))
    assert ledger.state.scores == (3, 0, 0)  # Ana's 3 was the only bid of its kind
    assert "Ana bids 3" in applied.text and "Cleo bids 2" in applied.text


def test_a_commit_shows_nothing_and_is_made_again_after_a_crash():
    # "The salt is derived from the seat's secret and the position, so a seat
    # that crashes and resumes re-makes the same commit."
    seats, genesis = table(2)
    ledger = to_commits(seats, genesis)
    one = authoring.choice_part(ledger, 0, seats[0], Action("bid", (2,)))
    again = authoring.choice_part(ledger, 0, seats[0], Action("bid", (2,)))
    assert one.encode() == again.encode()
    commit = one.body["msg"]["commit"]
    assert set(one.body["msg"]) == {"commit"} and len(commit) == 32
    other = authoring.choice_part(ledger, 0, seats[0], Action("bid", (3,)))
    assert other.body["msg"]["commit"] != commit
    # Without the salt, no bid can be tried against it.
    assert choices.committed_action(
        GAME.legal_actions(ledger.state, 0), ledger.game_id, 1, 0, bytes(32), commit
    ) is None  # fmt: skip


def test_a_reveal_that_does_not_open_its_commit_is_cheating_by_that_seat():
    # "A reveal that does not match its commit is cheating, with the two signed
    # entries as evidence" (the commit is in the log; the reveal is the part).
    seats, genesis = table(3)
    ledger = to_commits(seats, genesis)
    ledger.append(commit_all(ledger, seats, {0: 1, 1: 2, 2: 3}))
    salt = choices.salt_for(seats[1], ledger.game_id, ledger.position.commits_at)
    changed = part(ledger, 1, seats[1], {"action": "bid 3", "salt": salt})  # it bid 2
    assert "does not open seat 1's commit" in ledger.choice_problem(1, changed.body["msg"])
    parts = {
        i: authoring.choice_part(
            ledger, i, seats[i], authoring.committed_choice(ledger, i, seats[i])
        )
        for i in (0, 2)
    }  # noqa: E501
    parts[1] = changed
    with pytest.raises(InvalidEntry, match="does not open seat 1's commit") as refused:
        ledger.append(authoring.choices_bundle(ledger, parts))
    # The log keeps openings without signatures (protocol 3): one that opens
    # nothing in a file is nobody's proven word, so the ledger names no one...
    assert refused.value.culprit is None
    # ...but the seat's signed reveal, as it travels, is the proof.
    check_cheat(ledger, 1, [changed.encode()], detector=0)  # proves it: no exception
    honest = authoring.choice_part(ledger, 0, seats[0], Action("bid", (1,)))
    with pytest.raises(InvalidEntry, match="proves nothing"):
        check_cheat(ledger, 0, [honest.encode()], detector=1)


def test_a_commit_copied_from_another_seat_opens_nothing():
    # "Copying another seat's commit is useless: the seat is inside the hash."
    seats, genesis = table(2)
    ledger = to_commits(seats, genesis)
    ana = authoring.choice_part(ledger, 0, seats[0], Action("bid", (3,)))
    copied = part(ledger, 1, seats[1], dict(ana.body["msg"]))
    ledger.append(authoring.choices_bundle(ledger, {0: ana, 1: copied}))
    # Ben cannot open Ana's commit even with Ana's action and salt, once she shows them.
    ana_salt = choices.salt_for(seats[0], ledger.game_id, ledger.position.commits_at)
    ben = part(ledger, 1, seats[1], {"action": "bid 3", "salt": ana_salt})
    assert "does not open seat 1's commit" in ledger.choice_problem(1, ben.body["msg"])


def test_two_commits_for_one_position_are_equivocation():
    seats, genesis = table(2)
    ledger = to_commits(seats, genesis)
    first = authoring.choice_part(ledger, 1, seats[1], Action("bid", (1,)))
    second = authoring.choice_part(ledger, 1, seats[1], Action("bid", (3,)))
    check_equivocation(ledger, 1, [first.encode(), second.encode()], detector=0)
    with pytest.raises(InvalidEntry, match="same thing"):
        check_equivocation(ledger, 1, [first.encode(), first.encode()], detector=0)


def test_a_choice_the_rules_refuse_is_cheating_even_if_it_opens_the_commit():
    seats, genesis = table(2)
    ledger = to_commits(seats, genesis)
    at = ledger.next_index
    salt = choices.salt_for(seats[1], ledger.game_id, at)
    bogus = part(
        ledger, 1, seats[1], {"commit": choices.commitment(ledger.game_id, at, 1, "bid 9", salt)}
    )  # noqa: E501
    ana = authoring.choice_part(ledger, 0, seats[0], Action("bid", (2,)))
    ledger.append(authoring.choices_bundle(ledger, {0: ana, 1: bogus}))
    reveal = part(ledger, 1, seats[1], {"action": "bid 9", "salt": salt})
    assert "not one the rules allow seat 1" in ledger.choice_problem(1, reveal.body["msg"])
    # The opening proves itself, unsigned in the log: its seat's commit sealed it.
    ana_reveal = authoring.choice_part(ledger, 0, seats[0], Action("bid", (2,)))
    with pytest.raises(InvalidEntry, match="not one the rules allow") as refused:
        ledger.append(authoring.choices_bundle(ledger, {0: ana_reveal, 1: reveal}))
    assert refused.value.culprit == 1
    with pytest.raises(ValueError, match="seals none of our legal actions"):
        authoring.committed_choice(ledger, 1, seats[1])


@pytest.mark.parametrize(
    "msg",
    [{}, {"commit": b"short"}, {"commit": bytes(32), "extra": 1}, {"action": "bid 1"}, [1]],
)
def test_malformed_commit_parts_are_refused_naming_the_seat(msg):
    seats, genesis = table(2)
    ledger = to_commits(seats, genesis)
    assert ledger.choice_problem(1, msg) is not None
    ana = authoring.choice_part(ledger, 0, seats[0], Action("bid", (2,)))
    parts = {0: ana, 1: part(ledger, 1, seats[1], msg if isinstance(msg, dict) else {"x": msg})}
    with pytest.raises(InvalidEntry) as refused:
        ledger.append(authoring.choices_bundle(ledger, parts))
    assert refused.value.culprit == 1


def test_a_bundle_must_hold_exactly_the_asked_seats_signed_by_each():
    seats, genesis = table(3)
    ledger = to_commits(seats, genesis)
    good = commit_all(ledger, seats, {0: 1, 1: 1, 2: 1})
    missing = make_body(**{**good.body, "seats": [0, 1], "parts": good.body["parts"][:2]})
    with pytest.raises(InvalidEntry, match="seats asked to choose are"):
        ledger.append(Entry(missing, ()))
    swapped = [good.body["parts"][0], good.body["parts"][2], good.body["parts"][1]]
    forged = make_body(**{**good.body, "parts": swapped})
    with pytest.raises(InvalidEntry, match="not signed by it"):
        ledger.append(Entry(forged, ()))
    signed = sign_body(ledger.game_id, good.body_bytes, {0: seats[0].key})
    with pytest.raises(InvalidEntry, match="carries no signatures"):
        ledger.append(signed)
    ledger.append(good)  # the refusals changed nothing
    assert ledger.expected().kind == "choices"


def test_tampering_with_a_recorded_choice_is_caught_by_verify():
    seats, genesis = table(3)
    _, entries = play(seats, genesis, random.Random(5))
    at = next(i for i, e in enumerate(entries) if e.body["t"] == "choices")
    body = dict(entries[at].body)
    parts = [dict(p) for p in body["parts"]]
    parts[0]["action"] = "bid 1" if parts[0]["action"] != "bid 1" else "bid 2"
    entries[at] = Entry(make_body(**{**body, "parts": parts}), ())
    report = verify_bytes(file_of(entries))
    assert not report.valid and report.error["entry"] == at
    # Changed after the commit was signed: nobody's cheating, the file was
    # tampered with (the opening no longer opens the signed commit).
    assert "does not open seat 0's commit" in report.error["reason"]
    assert report.error["culprit"] is None


def test_a_choices_entry_keeps_the_openings_alone_and_refuses_signatures_in_them():
    # Protocol 3 (replay/choices.py, signed_parts): each opening proves itself
    # against its seat's signed commit, so the log keeps no signature for it;
    # a choices entry with signed parts is the protocol-2 layout, refused here.
    seats, genesis = table(3)
    ledger = to_commits(seats, genesis)
    ledger.append(commit_all(ledger, seats, {0: 1, 1: 2, 2: 3}))
    parts = {
        i: authoring.choice_part(
            ledger, i, seats[i], authoring.committed_choice(ledger, i, seats[i])
        )
        for i in range(3)
    }
    good = authoring.choices_bundle(ledger, parts)
    assert all(isinstance(item, dict) for item in good.body["parts"])
    signed = [[parts[i].body["msg"], parts[i].sigs[0][1]] for i in range(3)]
    old_layout = Entry(make_body(**{**good.body, "parts": signed}), ())
    with pytest.raises(InvalidEntry, match="opening alone, with no signature"):
        ledger.append(old_layout)
    ledger.append(good)
    assert ledger.state.scores is not None and ledger.expected().kind != "choices"
