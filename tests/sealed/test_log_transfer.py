"""A hand card given face down, and a card drawn face up from a sealed deck, carried
by the log (replay/sealed_book.py).

Issue 4: "Moving a hidden card from one hand to another, as with Teacher's Pet's
Bully card: the taker picks a position blindly and the victim hands the card over.
Only the victim and the taker learn the card, with proof that it is the same card."
and "Also supported: drawing face up from a sealed deck".

No registered game gives cards yet, so these tests use a tiny one (toy_game.py).
"""

from __future__ import annotations

import random

import pytest

from p2ptable.engine.playout import random_policy
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay import genesis as genesis_module
from p2ptable.replay.entries import Entry, make_body, sign_body
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.verify import audit_states, verify_bytes
from p2ptable.sim import _next_entry

from .toy_game import GAME

NONCE = b"\x05" * 16


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    real = genesis_module.get_game
    monkeypatch.setattr(
        genesis_module, "get_game", lambda name: GAME if name == GAME.name else real(name)
    )


def table(seed: str = "toy"):
    seats = [authoring.SeatSecrets.from_seed(seed.encode(), i, 64) for i in range(3)]
    body = authoring.genesis_body(
        GAME.name,
        {},
        ["Ana", "Ben", "Cleo"],
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [s.link_public for s in seats],
        64,
        NONCE,
        [s.deck_key(NONCE) for s in seats],
    )
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    return seats, genesis


def play(seats, genesis, pick):
    """Drive a whole game; ``pick(legal)`` chooses each move.  Returns the entries."""
    ledger = Ledger(genesis, readers={i: s.deck for i, s in enumerate(seats)})
    entries = [genesis]
    policies = [lambda game, state, seat: pick(game.legal_actions(state, seat))] * 3
    for _ in range(200):
        entry = _next_entry(ledger, seats, policies)
        if entry is None:
            return entries
        ledger.append(entry)
        entries.append(entry)
    raise AssertionError("the toy game did not end")


def gives_first(legal):
    return next((a for a in legal if a.verb == "give"), legal[0])


def file_of(entries) -> bytes:
    return MAGIC + b"".join(encode_frame(e.encode()) for e in entries)


def test_a_game_with_gives_verifies_and_audits():
    seats, genesis = table()
    entries = play(seats, genesis, gives_first)
    gives = [e for e in entries[1:] if e.kind == "action" and "transfer" in e.body]
    assert len(gives) == 3
    report = verify_bytes(file_of(entries))
    assert report.valid, report.error
    assert report.audited is True


def test_only_the_giver_and_the_taker_learn_the_given_card():
    seats, genesis = table()
    entries = play(seats, genesis, gives_first)
    first_give = next(i for i, e in enumerate(entries) if "transfer" in e.body)
    giver = entries[first_give].body["seat"]
    taker, other = (giver + 1) % 3, (giver + 2) % 3
    views = {
        s: Ledger(genesis, readers={s: seats[s].deck}) for s in range(3)
    }  # each seat's own peer
    for entry in entries[1 : first_give + 1]:
        for ledger in views.values():
            ledger.append(entry)
    *_, (_, audit) = audit_states(
        [e.encode() for e in entries[: first_give + 1]], tuple(s.deck for s in seats)
    )
    card = audit.state.hands[taker][-1]
    assert card is not None
    assert views[taker].state.hands[taker][-1] == card  # the taker reads it
    assert views[giver].state.hands[taker][-1] == card  # the giver knew it
    assert views[other].state.hands[taker][-1] is None  # nobody else does
    assert views[taker].book.hand(taker)[-1] == card


@pytest.mark.parametrize("what", ["no proof", "another slot", "another seat", "on a play"])
def test_a_false_transfer_is_refused_naming_the_giver(what):
    """ "with proof that it is the same card": a give whose transfer is missing, is
    for another slot or seat, or a transfer on a move that gives nothing, is the
    giver's signed cheating."""
    seats, genesis = table("toy-bad")
    entries = play(seats, genesis, gives_first)
    index = next(i for i, e in enumerate(entries) if "transfer" in e.body)
    body = dict(entries[index].body)
    seat = body["seat"]
    ledger = Ledger(genesis, readers={seat: seats[seat].deck})  # the giver's own peer
    for entry in entries[1:index]:
        ledger.append(entry)
    if what == "no proof":
        del body["transfer"]
    elif what in ("another slot", "another seat"):
        from p2ptable.sealed.group import SeededRandom

        slot, to = (1, (seat + 1) % 3) if what == "another slot" else (0, (seat + 2) % 3)
        body["transfer"] = ledger.book.make_transfer(
            seat, seats[seat].deck, slot, to, SeededRandom(b"t")
        )
    else:
        play_ = next(a for a in GAME.legal_actions(ledger.state, seat) if a.verb == "play")
        body["action"] = play_.text
    forged = sign_body(ledger.game_id, make_body(**body), {seat: seats[seat].key})
    if what == "on a play":
        refused = ledger.rejection(forged)
        assert refused is not None and refused.culprit == seat
        return
    with pytest.raises(InvalidEntry) as info:
        ledger.append(forged)
    assert info.value.culprit == seat


def test_peers_give_cards_to_each_other_over_the_session():
    seats, genesis = table("toy-net")
    logs = {i: [genesis.encode()] for i in range(3)}
    sessions = {
        i: Session(
            Ledger(genesis, readers={i: seats[i].deck}),
            i,
            seats[i],
            0.0,
            boot=bytes([i]) * 8,
        )
        for i in range(3)
    }
    net = MemoryNet(sessions, logs)
    policy = random_policy(random.Random(7))
    for _ in range(100):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        mover = movers[0]
        legal = GAME.legal_actions(mover.ledger.state, mover.seat)
        gives = [a for a in legal if a.verb == "give"]
        action = gives[0] if gives else policy(GAME, mover.ledger.state, mover.seat)
        mover.submit(action, net.now)
    net.pump()
    assert all(s.finished for s in sessions.values())
    files = {MAGIC + b"".join(encode_frame(p) for p in log) for log in logs.values()}
    assert len(files) == 1
    report = verify_bytes(files.pop())
    assert report.valid and report.audited, report.error
    assert sum("transfer" in Entry.decode(p).body for p in logs[0][1:]) == 3


def test_a_card_drawn_face_up_from_the_sealed_deck_is_seen_by_everyone():
    seats, genesis = table("toy-draw")
    entries = play(seats, genesis, lambda legal: legal[0])  # plays only
    draws = [
        i
        for i, e in enumerate(entries)
        if e.kind == "open" and all(len(msg["shares"]) == 1 for msg, _sig in e.body["parts"])
    ]
    assert draws  # every seat gave a share: a face-up card
    public = Ledger(genesis)  # no secret at all
    for entry in entries[1:]:
        public.append(entry)
    audit = list(audit_states([e.encode() for e in entries], tuple(s.deck for s in seats)))
    assert public.state.table == audit[-1][1].state.table
    assert public.state.table and None not in public.state.table
    assert verify_bytes(file_of(entries)).valid


def test_a_refused_entry_leaves_the_sealed_deck_as_it_was(monkeypatch):
    """Found in review: an action that both gives a card and shows one had its
    transfer applied to the sealed deck before its reveal failed, so a refused entry
    changed the ledger."""
    seats, genesis = table("toy-both")
    entries = play(seats, genesis, gives_first)
    index = next(i for i, e in enumerate(entries) if "transfer" in e.body)
    body = dict(entries[index].body)
    seat = body["seat"]
    ledger = Ledger(genesis, readers={seat: seats[seat].deck})
    for entry in entries[1:index]:
        ledger.append(entry)
    # Pretend the rules also show the given card, and claim a card it is not.
    monkeypatch.setattr(GAME, "hand_card_played", lambda s, seat, a: (a.args[0], 99))
    from p2ptable.sealed.group import SeededRandom

    body["reveal"] = ledger.book.make_reveal(seat, seats[seat].deck, 1, SeededRandom(b"r"))
    forged = sign_body(ledger.game_id, make_body(**body), {seat: seats[seat].key})
    before = (ledger.book.state.step, [len(h) for h in ledger.book.state.hands])
    with pytest.raises(InvalidEntry):
        ledger.append(forged)
    assert (ledger.book.state.step, [len(h) for h in ledger.book.state.hands]) == before
