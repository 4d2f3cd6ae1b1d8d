"""Public messages: canonical bytes out, strictly checked bytes in.

Spec: protocol/sealed-decks.md section 8.  A message that does not decode is the
sender's fault and names it, before any arithmetic is done on its content.
"""

from __future__ import annotations

import msgpack
import pytest

import p2ptable.sealed as sd
from p2ptable.crypto.encoding import pack
from tests.sealed.helpers import ready_table


def all_messages():
    t = ready_table(3, 6)
    msgs = [t.keys[1], sd.make_shuffle(t.state, 1, t.rand)]
    msgs += t.shares((0, None))
    t.deal(1)
    msgs.append(sd.make_reveal(t.state, 2, t.secrets[2], 0, t.rand))
    msgs.append(sd.make_transfer(t.state, 0, t.secrets[0], 0, 1, t.rand))
    msgs.append(sd.make_shuffle(t.state, 1, t.rand, hand=True))
    msgs.append(sd.SecretMessage(1, t.secrets[1]))
    return msgs


MESSAGES = all_messages()


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips_through_its_bytes(msg):
    data = msg.encode()
    assert data == pack(msg.to_value())
    assert sd.decode_message(data, msg.seat) == msg
    assert sd.message_from_value(msg.to_value(), msg.seat) == msg


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_a_message_from_another_seat_is_refused(msg):
    sender = (msg.seat + 1) % 3
    with pytest.raises(sd.SealedDeckError, match=f"sent a message for seat {msg.seat}") as exc:
        sd.decode_message(msg.encode(), sender)
    assert exc.value.seat == sender


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_extra_or_missing_fields_are_malformed(msg):
    extra = dict(msg.to_value(), zz=1)
    missing = dict(msg.to_value())
    del missing["seat"]
    for value in (extra, missing):
        with pytest.raises(sd.SealedDeckError, match="malformed") as exc:
            sd.decode_message(pack(value), 2)
        assert exc.value.seat == 2


BAD_VALUES = {
    "not a map": [1, 2],
    "unknown kind": {"t": "sealed-nonsense", "seat": 0},
    "seat is a bool": {"t": "sealed-secret", "seat": True, "secret": bytes(32)},
    "seat negative": {"t": "sealed-secret", "seat": -1, "secret": bytes(32)},
    "secret too big": {"t": "sealed-secret", "seat": 0, "secret": b"\xff" * 32},
    "proof too short": {
        "t": "sealed-key",
        "seat": 0,
        "key": MESSAGES[0].key.to_bytes(),
        "proof": [bytes(32)],
    },
    "shares not a list": {"t": "sealed-shares", "seat": 0, "step": 1, "shares": 5},
    "share not a pair": {"t": "sealed-shares", "seat": 0, "step": 1, "shares": [[b"x"]]},
    "hand not a bool": {
        "t": "sealed-shuffle",
        "seat": 0,
        "step": 1,
        "hand": 0,
        "cards": [],
        "proof": {},
    },
}


@pytest.mark.parametrize("name", sorted(BAD_VALUES))
def test_malformed_values_name_the_sender(name):
    with pytest.raises(sd.SealedDeckError, match="malformed") as exc:
        sd.decode_message(pack(BAD_VALUES[name]), 0)
    assert exc.value.seat == 0


def test_shuffle_proof_of_the_wrong_size_is_malformed():
    shuffle = MESSAGES[1].to_value()
    shuffle["proof"]["u"] = shuffle["proof"]["u"][:-1]
    with pytest.raises(sd.SealedDeckError, match="malformed.*u must have"):
        sd.decode_message(pack(shuffle), 1)


def test_non_canonical_bytes_are_malformed():
    value = MESSAGES[-1].to_value()
    unsorted = msgpack.packb(dict(reversed(list(value.items()))), use_bin_type=True)
    with pytest.raises(sd.SealedDeckError, match="malformed.*canonical"):
        sd.decode_message(unsorted, 1)
    with pytest.raises(sd.SealedDeckError, match="malformed"):
        sd.decode_message(MESSAGES[-1].encode() + b"\x00", 1)
