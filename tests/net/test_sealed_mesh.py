"""Frames between sealed-deck seat processes: signed, bound to the game, in order.

Brief: "Frames carry (seat, payload) signed with that seat's Ed25519 key [...] each
process generates its own Ed25519 key and announces it in a first signed hello
(trust on first use)."  The gate is what stands between the socket and the seat
machine, so everything a stranger could send is refused here.
"""

from __future__ import annotations

import pytest

from p2ptable.crypto.encoding import pack, unpack_canonical
from p2ptable.crypto.signing import SigningKey
from p2ptable.net.sealed_mesh import FrameError, FrameGate, FrameSigner

GAME = bytes(range(32))


def signer(seat: int, seed: int = 1, game: bytes = GAME) -> FrameSigner:
    return FrameSigner(SigningKey(bytes([seed]) * 32), game, seat)


def test_a_seat_is_known_by_its_hello_and_its_frames_then_pass():
    gate, one = FrameGate(GAME, 0, 3), signer(1)
    assert gate.open(one.hello()) == (1, "hello", one.key.public)
    assert gate.open(one.frame("sealed", b"payload")) == (1, "sealed", b"payload")


def refused(gate: FrameGate, frame: bytes, match: str) -> None:
    with pytest.raises(FrameError, match=match):
        gate.open(frame)


def test_a_frame_before_the_hello_is_refused():
    refused(FrameGate(GAME, 0, 3), signer(1).frame("sealed", b"x"), "before its hello")


def test_a_second_key_for_a_seat_is_refused():
    gate = FrameGate(GAME, 0, 3)
    gate.open(signer(1).hello())
    refused(gate, signer(1, seed=2).hello(), "second key")


def test_a_frame_signed_by_another_key_is_refused():
    gate, one, impostor = FrameGate(GAME, 0, 3), signer(1), signer(1, seed=9)
    gate.open(one.hello())
    impostor.seq = 5
    refused(gate, impostor.frame("sealed", b"x"), "bad signature")


def test_a_changed_payload_is_refused():
    gate, one = FrameGate(GAME, 0, 3), signer(1)
    gate.open(one.hello())
    outer = unpack_canonical(one.frame("sealed", b"bet 1"))
    body = unpack_canonical(outer["body"]) | {"data": b"bet 9"}
    refused(gate, pack({"body": pack(body), "sig": outer["sig"]}), "bad signature")


def test_a_replayed_frame_is_refused():
    gate, one = FrameGate(GAME, 0, 3), signer(1)
    gate.open(one.hello())
    frame = one.frame("sealed", b"x")
    gate.open(frame)
    refused(gate, frame, "replayed")


def test_frames_of_another_game_or_seat_are_refused():
    refused(FrameGate(GAME, 0, 3), signer(1, game=bytes(32)).hello(), "another game")
    refused(FrameGate(GAME, 0, 3), signer(0).hello(), "from seat 0")  # our own seat
    refused(FrameGate(GAME, 0, 3), signer(3).hello(), "from seat 3")


@pytest.mark.parametrize(
    "frame", [b"", b"\xc1", pack([1]), pack({"body": b"", "sig": b""}), pack({"body": 1, "sig": 2})]
)
def test_garbage_is_refused(frame):
    with pytest.raises(FrameError):
        FrameGate(GAME, 0, 3).open(frame)
