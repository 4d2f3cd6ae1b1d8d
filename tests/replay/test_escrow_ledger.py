"""Escrowed deck secrets in the log (issue 27; sealed-decks.md section 15).

Issue 27: "At the start of a game with hidden hands, every seat splits its deck
secret among the other seats with verifiable secret sharing ... Every holder
checks its share against the commitments on arrival; a dealer whose share fails
is named with signed evidence, as a bad shuffle is today.  The commitments are
in the log, so ``verify`` checks every escrow."

One short 4-seat Vorsicht Lehrer! game with ``keep_going`` is simulated once;
each test puts one wrong thing at the escrow positions, signed by the seat it
blames with that seat's real secrets.
"""

from __future__ import annotations

import random

import pytest

from p2ptable.bots import make_bot
from p2ptable.crypto.encoding import pack
from p2ptable.replay import authoring, escrow_entries
from p2ptable.replay.entries import Entry, sign_body
from p2ptable.replay.genesis import read_genesis
from p2ptable.replay.kinds import EscrowBody, GenesisBody, Kind
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.replay.verify import verify_bytes
from p2ptable.sealed import escrow as vss
from p2ptable.sealed.group import N
from p2ptable.sim import _next_entry, simulate  # _next_entry: the seats' authoring, by row

GAME = "vorsicht-lehrer"
SEED = "escrow-ledger"
PLAYERS = 4
SHORT = {"track": "100"}
SEATS = [authoring.SeatSecrets.from_seed(SEED.encode(), i) for i in range(PLAYERS)]


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> list[bytes]:
    path = tmp_path_factory.mktemp("escrow") / "game.p2pt"
    simulate(GAME, PLAYERS, SEED, path, options=SHORT, keep_going=True)
    frames = parse_frames(path.read_bytes())
    assert frames.error is None
    return frames.payloads


def kinds(log: list[bytes]) -> list[str]:
    return [Entry.decode(p).body["t"] for p in log]


def file_of(log: list[bytes]) -> bytes:
    return MAGIC + b"".join(encode_frame(p) for p in log)


def ledger_at(log: list[bytes], index: int, reader: int | None = None) -> Ledger:
    readers = None if reader is None else {reader: SEATS[reader].deck}
    ledger = Ledger(Entry.decode(log[0]), readers=readers)
    for payload in log[1:index]:
        ledger.append(Entry.decode(payload))
    return ledger


def escrow_signed(ledger: Ledger, seat: int, msg: dict) -> Entry:
    body = EscrowBody(ledger.next_index, ledger.head, seat, msg)
    return sign_body(ledger.game_id, body.encode(), {seat: SEATS[seat].key})


def spoiled(msg: dict, holder: int) -> dict:
    """``msg`` with ``holder``'s masked share moved by one: the dealer lies to it."""
    shares = [list(s) for s in msg["shares"]]
    for share in shares:
        if share[0] == holder:
            share[2] = ((int.from_bytes(share[2], "big") + 1) % N).to_bytes(32, "big")
    return {**msg, "shares": shares}


def test_every_seat_escrows_first_in_seat_order_and_the_game_verifies(log):
    """The escrows come right after the genesis, one per seat in order, and the
    audit at the end opens every share and finds each on its dealer's polynomial."""
    assert kinds(log)[: PLAYERS + 1] == ["genesis"] + ["escrow"] * PLAYERS
    assert [Entry.decode(p).body["seat"] for p in log[1 : PLAYERS + 1]] == list(range(PLAYERS))
    assert Entry.decode(log[0]).body["keep_going"] is True
    report = verify_bytes(file_of(log))
    assert report.valid, report.error
    assert report.audited is True


def test_a_table_without_keep_going_writes_no_escrow_and_no_genesis_field(tmp_path):
    """Absent is as today: the genesis has no keep_going and no escrow entries."""
    path = tmp_path / "plain.p2pt"
    simulate(GAME, 3, SEED, path, options=SHORT)
    payloads = parse_frames(path.read_bytes()).payloads
    assert "keep_going" not in Entry.decode(payloads[0]).body
    assert Kind.ESCROW not in kinds(payloads)


def test_two_seats_or_no_hidden_hands_never_escrow():
    """'Only games with hidden hands and 3 seats or more escrow': the wish is not
    written where it does not apply, and a genesis that claims it is refused."""
    two = authoring.local_genesis(GAME, SHORT, ["a", "b"], SEATS[:2], 64, bytes(16), True)
    assert "keep_going" not in two.body
    open_game = authoring.local_genesis(
        "pet-quartet", {}, ["a", "b", "c"], SEATS[:3], 64, bytes(16), True
    )
    assert "keep_going" not in open_game.body
    forged = GenesisBody.parse(two.body)
    body = {**forged.to_body(), "keep_going": True}
    with pytest.raises(InvalidEntry, match="keep_going is written only"):
        read_genesis(Entry(pack(body), two.sigs))


def test_the_verifier_rebuilds_a_seats_secret_from_the_shares_in_the_log(log):
    """With the holders' secrets (public at the end), every escrow rebuilds its
    dealer's deck secret: what a stand-in's table will do with published shares."""
    ledger = ledger_at(log, len(log))
    book = ledger.book
    assert book is not None and book.escrows is not None and book.secrets is not None
    for msg in book.escrows:
        ctx = escrow_entries.escrow_context(ledger.game_id, msg.seat)
        shares = {
            e.holder: vss.open_share(ctx, msg, e.holder, book.secrets[e.holder]) for e in msg.shares
        }
        assert vss.rebuild(book.table.keys[msg.seat], msg, shares) == SEATS[msg.seat].deck


def test_a_malformed_escrow_is_refused_naming_its_dealer_and_is_proof(log):
    ledger = ledger_at(log, 3)  # seat 2 escrows next
    msg = Entry.decode(log[3]).body["msg"]
    short = escrow_signed(ledger, 2, {**msg, "commitments": msg["commitments"][:-1]})
    refused = ledger.rejection(short)
    assert refused is not None and refused.culprit == 2
    assert "commitments" in refused.reason
    ledger.check_cheat(2, [short.encode()], 0)  # every verifier accepts it as evidence


def test_an_escrow_out_of_turn_or_signed_by_another_is_refused(log):
    ledger = ledger_at(log, 2)  # seat 1 escrows next
    msg = Entry.decode(log[3]).body["msg"]
    assert "out of turn" in ledger.rejection(escrow_signed(ledger, 2, msg)).reason
    body = EscrowBody(ledger.next_index, ledger.head, 1, Entry.decode(log[2]).body["msg"])
    forged = sign_body(ledger.game_id, body.encode(), {1: SEATS[0].key})
    assert "signature" in ledger.rejection(forged).reason


def test_a_bad_share_is_refused_by_its_holder_alone_and_its_complaint_names_the_dealer(log):
    """Only the holder can tell that its share is false: its ledger refuses the
    escrow, naming the dealer, while every other ledger takes it.  The refusal
    alone proves nothing; the holder's complaint (x_j·E with a DLEQ proof) with
    the signed escrow proves it to everyone."""
    dealer, holder = 1, 3
    bad = escrow_signed(
        ledger_at(log, 2), dealer, spoiled(Entry.decode(log[2]).body["msg"], holder)
    )
    others = ledger_at(log, 2, reader=0)
    assert others.rejection(bad) is None
    mine = ledger_at(log, 2, reader=holder)
    refused = mine.rejection(bad)
    assert refused is not None and refused.culprit == dealer
    assert refused.reason.startswith(escrow_entries.FALSE_SHARE)
    with pytest.raises(InvalidEntry, match="holder's complaint"):
        mine.check_cheat(dealer, [bad.encode()], holder)
    assert mine.book is not None
    complaint = escrow_entries.complaint_evidence(
        mine.game_id, mine.book, bad, holder, SEATS[holder].deck
    )
    verifier = ledger_at(log, 2)  # no secret at all
    verifier.check_cheat(dealer, [bad.encode(), complaint], holder)


def test_a_complaint_about_a_right_share_names_the_complainer(log):
    """A holder that complains about a right share names itself, not the dealer:
    the evidence is refused."""
    ledger = ledger_at(log, 2)
    assert ledger.book is not None
    right = Entry.decode(log[2])
    complaint = escrow_entries.complaint_evidence(
        ledger.game_id, ledger.book, right, 3, SEATS[3].deck
    )
    with pytest.raises(InvalidEntry, match="names the complainer"):
        ledger.check_cheat(1, [log[2], complaint], 3)


def test_the_audit_finds_a_false_share_no_holder_complained_about(log, monkeypatch):
    """A spoiled share that nobody complained about is still found once every
    secret is public: verify names the dealer at its escrow entry."""
    dealer, holder = 1, 3
    ledger = ledger_at(log, 2)
    bad = escrow_signed(ledger, dealer, spoiled(Entry.decode(log[2]).body["msg"], holder))
    # Re-sign the rest of the log on top of the spoiled escrow: the seats' own
    # secrets make every later entry again, while the holder looks away (its
    # ledger would refuse the escrow at once, as the session test shows).
    monkeypatch.setattr(escrow_entries, "share_is_false", lambda *args: False)
    rebuilt = [log[0], log[1], bad.encode()]
    ledger.append(bad)
    policies = [make_bot(ledger.game, "random", random.Random(i)) for i in range(PLAYERS)]
    readers = {i: s.deck for i, s in enumerate(SEATS)}
    audit = Ledger(Entry.decode(log[0]), readers=readers)
    for payload in rebuilt[1:]:
        audit.append(Entry.decode(payload))
    for _ in range(5000):
        entry = _next_entry(audit, SEATS, policies)
        if entry is None:
            break
        audit.append(entry)
        rebuilt.append(entry.encode())
    monkeypatch.undo()
    report = verify_bytes(file_of(rebuilt))
    assert not report.valid
    assert report.error["entry"] == 2 and report.error["culprit"] == dealer
    assert "false share" in report.error["reason"] and "audit" in report.error["reason"]


def test_after_one_leaver_is_rebuilt_its_shares_open_the_next_leavers_secret(log):
    """Sealed-decks.md 15, the bounds: "a seat whose own secret is public (it
    left and was rebuilt) has its shares of the others' secrets readable by
    anyone, so a second leaver can be rebuilt after the first".  Seat 0 leaves:
    seats 1-3 pool their shares; then seat 1 leaves: seats 2 and 3 pool theirs,
    and seat 0's share is opened with its now public secret.  Two leaving at once
    cannot be rebuilt: n - 2 shares are consistent with every secret."""
    ledger = ledger_at(log, PLAYERS + 1)
    book = ledger.book
    assert book is not None and book.escrows is not None
    keys, game_id = book.table.keys, ledger.game_id

    def share(dealer: int, holder: int, secret: int) -> int:
        ctx = escrow_entries.escrow_context(game_id, dealer)
        return vss.open_share(ctx, book.escrows[dealer], holder, secret)

    first = vss.rebuild(
        keys[0], book.escrows[0], {h: share(0, h, SEATS[h].deck) for h in (1, 2, 3)}
    )
    assert first == SEATS[0].deck
    published = {h: share(1, h, SEATS[h].deck) for h in (2, 3)}
    published[0] = share(1, 0, first)  # anyone can: seat 0's secret is in the open
    assert vss.rebuild(keys[1], book.escrows[1], published) == SEATS[1].deck
    with pytest.raises(ValueError, match="missing"):
        vss.rebuild(keys[1], book.escrows[1], {h: published[h] for h in (2, 3)})
    false = {**published, 2: (published[2] + 1) % N}
    with pytest.raises(vss.SealedDeckError) as caught:
        vss.rebuild(keys[1], book.escrows[1], false)
    assert caught.value.seat == 2  # a false share names its sender
