"""A seated peer cannot crash the others or get an honest seat accused.

Issue 3: "Bad input never crashes a peer. Each of these is rejected with a specific
reason in the peer's log, and the game goes on."  Each test here is a problem found
in review and reproduced before the fix.
"""

from __future__ import annotations

import os

from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_scalar_add,
    crypto_core_ed25519_scalar_mul,
    crypto_core_ed25519_scalar_reduce,
    crypto_scalarmult_ed25519_base_noclamp,
)

from p2ptable.crypto.signing import sha256
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Rejected
from p2ptable.net.wire import Message, envelope_of, seal
from p2ptable.replay.entries import Entry, signed_message

from .test_session_cheating import first_real_choice, kind_of
from .test_session_memory import make_table, play_out


def frame_from(sessions, sender: int, target: int, kind: str, data: dict, boot: bytes) -> bytes:
    link = sessions[target].links[sender]
    message = Message(kind, sessions[target].ledger.game_id, sender, boot, 0, data)
    return seal(message, link)


def rejected(session) -> list[Rejected]:
    return [e for e in session.take_events() if isinstance(e, Rejected)]


def test_a_late_genesis_signature_is_harmless():
    # Found: a gsig frame after the game started raised AttributeError.
    seats, sessions, _ = make_table(2, "lategsig")
    net = MemoryNet(sessions)
    net.pump()
    # Sent in seat 1's own stream (same boot, next sequence number), as a peer that
    # re-sends its genesis signature would.
    link = sessions[0].links[1]
    message = Message(
        "gsig", sessions[0].ledger.game_id, 1, sessions[1].boot, sessions[1].seq, {"sig": bytes(64)}
    )
    sessions[1].seq += 1
    sessions[0].receive(seal(message, link), 0.0)
    assert not rejected(sessions[0])
    assert sessions[0].stopped is None
    import random

    play_out(sessions, net, random.Random(3))
    assert sessions[0].finished


def _second_signature(secret_seed: bytes, public: bytes, message: bytes) -> bytes:
    """A valid Ed25519 signature with another nonce (what a cheater can make)."""
    h = sha256  # noqa: F841 - documentation: RFC 8032 uses SHA-512 below
    import hashlib

    digest = hashlib.sha512(secret_seed).digest()
    scalar = bytearray(digest[:32])
    scalar[0] &= 248
    scalar[31] &= 127
    scalar[31] |= 64
    a = crypto_core_ed25519_scalar_reduce(bytes(scalar) + bytes(32))
    r = crypto_core_ed25519_scalar_reduce(os.urandom(64))
    big_r = crypto_scalarmult_ed25519_base_noclamp(r)
    k = crypto_core_ed25519_scalar_reduce(hashlib.sha512(big_r + public + message).digest())
    s = crypto_core_ed25519_scalar_add(r, crypto_core_ed25519_scalar_mul(k, a))
    assert crypto_core_ed25519_add(big_r, big_r)  # the point is valid
    return big_r + s


def test_the_same_move_with_another_signature_is_not_equivocation():
    # Found: an old move re-signed with another nonce made the honest peer try to
    # stop with evidence its own ledger refused, and crash.
    seats, sessions, logs = make_table(3, "resign")
    net = MemoryNet(sessions, logs)
    mover, actions = first_real_choice(sessions, net)
    mover.submit(actions[0], net.now)
    net.pump()
    index = mover.ledger.next_index - 1
    while mover.ledger.entries[index].kind != "action":
        index -= 1
    original = mover.ledger.entries[index]
    seat = original.body["seat"]
    message = signed_message(mover.ledger.game_id, original.body_bytes)
    other_sig = _second_signature(seats[seat].key.seed, seats[seat].key.public, message)
    twin = Entry(original.body_bytes, ((seat, other_sig),))
    assert twin.encode() != original.encode()
    victim = (seat + 1) % 3
    frame = frame_from(sessions, seat, victim, "entry", {"entry": twin.encode()}, b"twin!!!!")
    sessions[victim].receive(frame, net.now)
    assert sessions[victim].stopped is None
    assert any("say the same thing" in r.reason for r in rejected(sessions[victim]))


def test_garbage_data_in_a_well_formed_frame_is_rejected_not_raised():
    seats, sessions, _ = make_table(2, "garbage-data")
    net = MemoryNet(sessions)
    net.pump()
    frame = frame_from(sessions, 1, 0, "entries", {"from": 1, "entries": [b"\xc1"]}, b"garbage!")
    sessions[0].receive(frame, 0.0)
    assert any("malformed entry" in r.reason for r in rejected(sessions[0]))
    assert sessions[0].stopped is None


def test_a_withholder_cannot_hide_behind_a_false_log_length():
    # Found: a seat that pinged "len 1" forever was never named.
    seats, sessions, logs = make_table(3, "liar")
    net = MemoryNet(sessions, logs)
    cheater = 2

    def lie(sender, target, frame):
        if sender != cheater:
            return frame
        kind = kind_of(frame)
        if kind in ("reveal", "entries"):
            return None
        if kind == "ping":
            env = envelope_of(frame)
            data = dict(env["d"], len=1)
            msg = Message("ping", env["table"], cheater, env["boot"], env["seq"], data)
            return seal(msg, sessions[target].links[cheater])
        return frame

    net.filter = lie
    net.pump()
    for _ in range(30):
        net.advance(1.0)
    for seat in (0, 1):
        assert sessions[seat].stopped is not None
        assert sessions[seat].stopped.culprit == cheater


def test_only_the_seat_missing_from_the_awaited_step_is_named():
    # Found: a stray reveal for the result's position made the honest seat 1 look
    # like the withholder of the result signatures.
    seats, sessions, logs = make_table(3, "stray")
    net = MemoryNet(sessions, logs)
    cheater = 2

    def withhold_result(sender, target, frame):
        # Its result signature goes out neither as an rsig nor in catch-up; the
        # chance entries it gathers as a collector still go out.
        at_end = sessions[cheater].ledger.expected().kind in ("result", "none")
        if sender == cheater and (
            kind_of(frame) == "rsig" or at_end and kind_of(frame) == "entries"
        ):
            return None
        return frame

    import random

    net.filter = withhold_result
    play_out(sessions, net, random.Random(5))
    index = sessions[0].ledger.next_index
    assert sessions[0].ledger.expected().kind == "result"
    stray = frame_from(
        sessions, cheater, 0, "reveal",
        {"i": index, "prev": bytes(32), "step": 0, "pre": bytes(32)}, b"stray!!!",
    )  # fmt: skip
    sessions[0].receive(stray, net.now)
    for _ in range(30):
        net.advance(1.0)
    assert sessions[0].stopped is not None
    assert sessions[0].stopped.culprit == cheater
