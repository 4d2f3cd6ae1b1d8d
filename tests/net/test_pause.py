"""A break every seat agrees to (net/pause.py, replay/break_file.py).

Issue 26: "Any seat can propose a break; when every seat agrees (each peer signs
it), every peer saves and exits cleanly ... The break does not count as anyone
abandoning the game, however long it lasts"; "a pause proposed a thousand times".
"""

from __future__ import annotations

import pytest

from p2ptable.crypto.signing import SigningKey
from p2ptable.net import pause
from p2ptable.net.pause import Agreement, PauseBook, PauseRejected, Position
from p2ptable.replay.break_file import break_path, keep_agreement, read_agreement

GAME = bytes(range(32))
KEYS = [SigningKey(bytes([i + 7]) * 32) for i in range(3)]
PUBLIC = tuple(k.public for k in KEYS)
HERE = Position(12, b"\x11" * 32)


def table(position: Position = HERE) -> list[PauseBook]:
    books = [PauseBook(GAME, PUBLIC, seat) for seat in range(3)]
    for book in books:
        book.moved(position)
    return books


def test_a_break_is_agreed_when_every_seat_has_signed_the_same_position():
    ana, ben, cleo = table()
    proposal = ana.sign(KEYS[0])
    assert ben.receive(0, HERE, proposal) and cleo.receive(0, HERE, proposal)
    assert ben.proposer == 0 and ben.waiting_for == (1, 2)
    agree_ben, agree_cleo = ben.sign(KEYS[1]), cleo.sign(KEYS[2])
    for book, sender, sig in [
        (ana, 1, agree_ben),
        (ana, 2, agree_cleo),
        (ben, 2, agree_cleo),
        (cleo, 1, agree_ben),
    ]:
        book.receive(sender, HERE, sig)
    agreements = [book.agreement() for book in (ana, ben, cleo)]
    assert agreements[0] is not None and agreements[0] == agreements[1] == agreements[2]


def test_no_agreement_while_a_seat_has_not_signed():
    ana, ben, _ = table()
    ben.receive(0, HERE, ana.sign(KEYS[0]))
    ben.sign(KEYS[1])
    assert ben.agreement() is None and ben.waiting_for == (2,)


def test_a_move_ends_the_proposal():
    ana, ben, _ = table()
    ben.receive(0, HERE, ana.sign(KEYS[0]))
    ben.moved(Position(13, b"\x22" * 32))
    assert ben.waiting_for == () and ben.proposer is None
    # Ana's signature for the old position does not count for the new one.
    assert not ben.receive(0, HERE, ana.sign(KEYS[0]))


def test_a_break_proposed_a_thousand_times_is_new_once():
    ana, ben, _ = table()
    sig = ana.sign(KEYS[0])
    assert sum(ben.receive(0, HERE, sig) for _ in range(1000)) == 1


def test_a_signature_for_another_position_or_game_is_not_counted():
    ana, ben, _ = table()
    elsewhere = Position(11, b"\x33" * 32)
    assert not ben.receive(0, elsewhere, pause.sign_break(KEYS[0], GAME, elsewhere))
    other_game = pause.sign_break(KEYS[0], bytes(32), HERE)
    with pytest.raises(PauseRejected) as caught:
        ben.receive(0, HERE, other_game)
    assert caught.value.seat == 0


def test_a_seat_cannot_sign_for_another():
    ana, ben, cleo = table()
    cleo_as_ana = pause.sign_break(KEYS[2], GAME, HERE)
    with pytest.raises(PauseRejected) as caught:
        ben.receive(0, HERE, cleo_as_ana)
    assert caught.value.seat == 0 and ben.sigs == {}


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"at": 1, "head": b"x" * 32},
        {"at": 0, "head": b"x" * 32, "sig": b"s" * 64},
        {"at": 1, "head": b"x" * 31, "sig": b"s" * 64},
        {"at": 1, "head": b"x" * 32, "sig": b"s" * 63},
        {"at": "1", "head": b"x" * 32, "sig": b"s" * 64},
        {"at": 1, "head": b"x" * 32, "sig": b"s" * 64, "more": 1},
    ],
)
def test_malformed_signals_are_refused(data):
    with pytest.raises(ValueError):
        pause.decode_signal(data)


def test_the_signal_round_trips():
    sig = pause.sign_break(KEYS[0], GAME, HERE)
    assert pause.decode_signal(pause.encode_signal(HERE, sig)) == (HERE, sig)


def agreed() -> Agreement:
    ana, *_ = table()
    ana.sign(KEYS[0])
    for seat in (1, 2):
        ana.receive(seat, HERE, pause.sign_break(KEYS[seat], GAME, HERE))
    agreement = ana.agreement()
    assert agreement is not None
    return agreement


def test_the_agreement_is_kept_beside_the_replay_and_read_back(tmp_path):
    replay = tmp_path / "Ana.p2pt"
    keep_agreement(replay, agreed())
    assert break_path(replay).exists()
    assert read_agreement(replay, GAME, PUBLIC) == (agreed(), None)
    assert read_agreement(tmp_path / "Other.p2pt", GAME, PUBLIC) == (None, None)


def test_a_forged_or_damaged_agreement_is_not_believed(tmp_path):
    replay = tmp_path / "Ana.p2pt"
    good = agreed()
    forged = Agreement(good.position, (good.sigs[0], good.sigs[0], good.sigs[2]))
    keep_agreement(replay, forged)
    agreement, why = read_agreement(replay, GAME, PUBLIC)
    assert agreement is None and "seat 1's signature" in why
    break_path(replay).write_bytes(good.to_bytes()[:-3])
    agreement, why = read_agreement(replay, GAME, PUBLIC)
    assert agreement is None and why
    keep_agreement(replay, Agreement(good.position, good.sigs[:2]))
    agreement, why = read_agreement(replay, GAME, PUBLIC)
    assert agreement is None and "3 signatures" in why
