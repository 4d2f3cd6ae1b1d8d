"""The ``departure`` entry in the log (issue 27; replay/departure.py,
protocol/sealed-decks.md section 15, protocol/replay.md 9.7).

Issue 27: "every staying seat signs a part ``{"of": leaver, "seat": j,
"share": s_j}``; each part is checked against the escrow commitments
(``share_is_right``); the bundle becomes an agreed entry so the log holds what
rebuilds ``x_i`` ... ``verify`` rebuilds the secret from the log and checks
``x_i·G = K_i``."

One short 4-seat Vorsicht Lehrer! game with ``keep_going`` is simulated once;
each test has a seat leave somewhere in it, with the staying seats' real shares.
"""

from __future__ import annotations

import pytest

from p2ptable.replay import departure
from p2ptable.replay.entries import Entry, sign_body
from p2ptable.replay.kinds import BODIES, DepartureBody, Kind
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.verify import verify_bytes
from p2ptable.sealed.group import N, scalar_bytes

from .test_escrow_ledger import GAME, PLAYERS, SEATS, SEED, SHORT, file_of, ledger_at
from .test_escrow_ledger import log as log  # noqa: F401 - the module's fixture

AT = 12  # after the escrows, the shuffles and the first deals


def shares_of(ledger: Ledger, leaver: int) -> dict[int, Entry]:
    assert ledger.book is not None
    at = (ledger.next_index, ledger.head)
    return {
        seat: departure.make_share(ledger.game_id, ledger.book, at, seat, SEATS[seat], leaver)
        for seat in departure.staying(ledger.book, leaver)
    }


def leave(ledger: Ledger, leaver: int) -> Entry:
    return departure.bundle(ledger.next_index, ledger.head, leaver, shares_of(ledger, leaver))


def false_share(ledger: Ledger, seat: int, leaver: int) -> Entry:
    honest = shares_of(ledger, leaver)[seat]
    wrong = scalar_bytes((int.from_bytes(honest.body["share"], "big") + 1) % N)
    body = departure.share_body(ledger.next_index, ledger.head, seat, leaver, wrong)
    return sign_body(ledger.game_id, body, {seat: SEATS[seat].key})


def test_the_staying_seats_shares_rebuild_the_leavers_secret_and_its_cards_are_read(log):
    """Seat 2 leaves: its secret is rebuilt, it is gone, and a ledger that read
    only seat 0's cards now reads seat 2's too, the same cards the audit reads."""
    ledger = ledger_at(log, AT, reader=0)
    entry = leave(ledger, 2)
    assert entry.sigs == () and entry.body["seats"] == [0, 1, 3]
    did = ledger.append(entry)
    assert did.kind is Kind.DEPARTURE and did.seat == 2
    book = ledger.book
    assert book is not None and book.gone == (2,)
    assert book.readers[2] == SEATS[2].deck
    audit = Ledger(Entry.decode(log[0]), readers={s: SEATS[s].deck for s in range(PLAYERS)})
    for payload in log[1:AT]:
        audit.append(Entry.decode(payload))
    assert audit.book is not None
    assert book.hand(2) == audit.book.hand(2)
    assert BODIES[Kind.DEPARTURE].parse(entry.body).to_body() == entry.body
    share = shares_of(ledger_at(log, AT), 2)[1]
    assert BODIES[Kind.SHARE].parse(share.body).encode() == share.body_bytes


def test_verify_rebuilds_the_secret_from_the_log_alone(log):
    """A verifier holds no secret: the departure's shares rebuild ``x_2`` and its
    key checks, so the log verifies past it (it ends early: no result yet)."""
    ledger = ledger_at(log, AT)
    entry = leave(ledger, 2)
    report = verify_bytes(file_of([*log[:AT], entry.encode()]))
    assert report.error is not None
    assert report.error["entry"] == AT + 1, report.error  # past the departure
    assert "ends before the game is over" in report.error["reason"]
    assert report.ledger is not None and report.ledger.book is not None
    assert report.ledger.book.readers[2] == SEATS[2].deck


def test_a_false_share_is_refused_naming_its_seat_and_is_proof_of_cheating(log):
    ledger = ledger_at(log, AT)
    shares = shares_of(ledger, 2)
    shares[3] = false_share(ledger, 3, 2)
    entry = departure.bundle(ledger.next_index, ledger.head, 2, shares)
    refused = ledger.rejection(entry)
    assert refused is not None and refused.culprit == 3 and "false" in refused.reason
    ledger.check_cheat(3, [shares[3].encode()], 0)  # every verifier takes it as evidence
    with pytest.raises(InvalidEntry, match="proves nothing"):
        ledger.check_cheat(1, [shares_of(ledger, 2)[1].encode()], 0)


def test_a_departure_short_of_a_share_or_with_a_forged_signature_is_refused(log):
    ledger = ledger_at(log, AT)
    shares = shares_of(ledger, 2)
    del shares[1]
    short = departure.bundle(ledger.next_index, ledger.head, 2, shares)
    refused = ledger.rejection(short)
    assert refused is not None and "each staying seat" in refused.reason
    honest = leave(ledger, 2)
    body = DepartureBody.parse(honest.body)
    parts = [list(p) for p in body.parts]
    parts[0][1] = parts[1][1]  # seat 0's share with seat 1's signature
    forged = Entry(DepartureBody(body.i, body.prev, 2, body.seats, parts).encode(), ())
    refused = ledger.rejection(forged)
    assert refused is not None and "not signed by it" in refused.reason


def test_without_keep_going_nobody_can_leave(tmp_path):
    from p2ptable.replay.logfile import parse_frames
    from p2ptable.sim import simulate

    path = tmp_path / "plain.p2pt"
    simulate(GAME, PLAYERS, SEED, path, options=SHORT)
    payloads = parse_frames(path.read_bytes()).payloads
    ledger = Ledger(Entry.decode(payloads[0]))
    for payload in payloads[1:8]:
        ledger.append(Entry.decode(payload))
    assert ledger.book is not None and not departure.can_depart(ledger.book, 2)
    body = DepartureBody(ledger.next_index, ledger.head, 2, [0, 1, 3], [])
    refused = ledger.rejection(Entry(body.encode(), ()))
    assert refused is not None and "cannot leave" in refused.reason


def test_seats_leave_one_after_the_other_until_one_is_left(log):
    """'After the first seat's secret is public, its share of the second's is
    too': seat 0 leaves after seat 2 with the shares of seats 1 and 3 alone,
    then seat 3 with seat 1's; the last seat cannot leave (nobody would stay)."""
    ledger = ledger_at(log, AT, reader=1)
    ledger.append(leave(ledger, 2))
    second = leave(ledger, 0)
    assert second.body["seats"] == [1, 3]
    ledger.append(second)
    assert ledger.book is not None and ledger.book.gone == (2, 0)
    assert ledger.book.readers[0] == SEATS[0].deck
    report = verify_bytes(file_of([*log[:AT], *(e.encode() for e in ledger.entries[AT:])]))
    assert report.error is not None and report.error["entry"] == AT + 2, report.error
    third = leave(ledger, 3)
    assert third.body["seats"] == [1]
    ledger.append(third)
    assert ledger.book.gone == (2, 0, 3)
    assert not departure.can_depart(ledger.book, 1)
    assert ledger.expected().kind is Kind.SECRETS  # one left: the game ends


def test_a_seat_that_leaves_on_purpose_publishes_its_own_secret(log):
    """'Their peer publishes its own secret in a signed entry': one part, the
    leaver's own, checked against its deck key; a wrong secret names the leaver."""
    ledger = ledger_at(log, AT, reader=0)
    at = (ledger.next_index, ledger.head)
    assert ledger.book is not None
    own = departure.own_departure(ledger.game_id, ledger.book, at, SEATS[2], 2)
    assert own.body["seats"] == [2]
    wrong = departure.own_departure(ledger.game_id, ledger.book, at, SEATS[1], 2)
    refused = ledger.rejection(wrong)  # seat 1's keys: not signed by seat 2
    assert refused is not None and "not signed by it" in refused.reason
    body = departure.share_body(at[0], at[1], 2, 2, scalar_bytes(SEATS[1].deck))
    lie = departure.bundle(*at, 2, {2: sign_body(ledger.game_id, body, {2: SEATS[2].key})})
    refused = ledger.rejection(lie)
    assert refused is not None and refused.culprit == 2 and "does not match" in refused.reason
    ledger.append(own)
    assert ledger.book.gone == (2,) and ledger.book.readers[2] == SEATS[2].deck
