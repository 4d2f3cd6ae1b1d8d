"""The committed protocol test vectors still match the implementation.

If one of these fails, the wire or replay format changed: either fix the code or,
for a deliberate change, bump the protocol version and regenerate with
scripts/make_vectors.py.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from pathlib import Path

import msgpack
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from p2ptable.crypto.encoding import pack
from p2ptable.crypto.signing import SigningKey, verify_signature
from p2ptable.randomness.chain import HashChain
from p2ptable.randomness.derive import chance_seed, uniform_values
from p2ptable.replay.entries import (
    GAME_ID_DOMAIN,
    PROTOCOL,
    REVEAL_DOMAIN,
    SIG_DOMAIN,
    Entry,
    make_body,
    reveal_message,
    signed_message,
)
from p2ptable.replay.logfile import MAGIC, MAX_FRAME, encode_frame
from p2ptable.replay.verify import verify_bytes

VECTORS = Path(__file__).resolve().parents[1] / "protocol" / "vectors"


def load(name: str) -> dict:
    return json.loads((VECTORS / name).read_text())


def test_chain_vector():
    data = load("randomness.json")["chain"]
    chain = HashChain(bytes.fromhex(data["secret"]), data["length"])
    values = [chain.head] + [chain.preimage(i) for i in range(data["length"])]
    assert [v.hex() for v in values] == data["values_head_first"]
    # Independent check of one link with plain hashlib, as another implementation would.
    head, first = (bytes.fromhex(v) for v in data["values_head_first"][:2])
    assert hashlib.sha256(b"p2ptable/chain/v1\x00" + first).digest() == head


@pytest.mark.parametrize("case", load("randomness.json")["chance"], ids=lambda c: c["purpose"])
def test_chance_vectors(case):
    pre = [bytes.fromhex(p) for p in case["preimages"]]
    seed = chance_seed(bytes.fromhex(case["game_id"]), case["step"], case["purpose"], pre)
    assert seed.hex() == case["seed"]
    assert list(uniform_values(seed, case["ranges"])) == case["outcome"]


def test_chance_seed_layout_by_hand():
    # The seed layout written out with hashlib only, as protocol/randomness.md says.
    case = load("randomness.json")["chance"][2]
    pre = b"".join(bytes.fromhex(p) for p in case["preimages"])
    purpose = case["purpose"].encode()
    data = (
        b"p2ptable/chance/v1\x00"
        + bytes.fromhex(case["game_id"])
        + case["step"].to_bytes(4, "big")
        + bytes([len(purpose)])
        + purpose
        + bytes([len(case["preimages"])])
        + pre
    )
    assert hashlib.sha256(data).hexdigest() == case["seed"]


# -- replay.json (protocol/replay.md) ----------------------------------------------------
#
# The first tests check the vectors against the reference code; the "by hand" ones
# redo the same computation with hashlib, zlib, struct, msgpack and cryptography only,
# as an independent verifier written from protocol/replay.md would.

REPLAY = load("replay.json")
ENTRIES = REPLAY["entries"]


def from_json(value):
    """Undo the vectors' JSON form: {"bin": hex} is a msgpack byte string."""
    if isinstance(value, dict):
        if set(value) == {"bin"}:
            return bytes.fromhex(value["bin"])
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def public_key(seat: int) -> bytes:
    return bytes.fromhex(REPLAY["seats"][seat]["public_key"])


def game_id() -> bytes:
    return bytes.fromhex(ENTRIES[0]["game_id"])


def test_replay_constants():
    consts = REPLAY["constants"]
    assert bytes.fromhex(consts["magic"]) == MAGIC == b"P2PTABLE\x00\x01"
    assert consts["max_frame"] == MAX_FRAME
    assert consts["protocol"] == PROTOCOL
    assert bytes.fromhex(consts["game_id_domain"]) == GAME_ID_DOMAIN == b"p2ptable/game-id/v1\x00"
    assert bytes.fromhex(consts["sig_domain"]) == SIG_DOMAIN == b"p2ptable/sig/v1\x00"
    assert bytes.fromhex(consts["reveal_domain"]) == REVEAL_DOMAIN == b"p2ptable/reveal/v1\x00"
    # The frame CRC is zlib's CRC-32 (CRC-32/ISO-HDLC), whose check value is cbf43926.
    assert int(consts["crc32_of_123456789"], 16) == zlib.crc32(b"123456789") == 0xCBF43926


@pytest.mark.parametrize("seat", REPLAY["seats"], ids=lambda s: s["name"])
def test_replay_seat_keys_and_chain_heads(seat):
    key = SigningKey(bytes.fromhex(seat["signing_seed"]))
    assert key.public.hex() == seat["public_key"]
    # By hand: the public key is RFC 8032's, from the 32-byte private key.
    raw = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seat["signing_seed"]))
    assert raw.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex() == seat["public_key"]
    chain = HashChain(bytes.fromhex(seat["chain_secret"]), REPLAY["chain_len"])
    assert chain.head.hex() == seat["chain_head"]


@pytest.mark.parametrize(
    "vector", [*ENTRIES, REPLAY["abort_instead_of_entry_3"]], ids=lambda v: v["kind"]
)
def test_replay_entry_vectors(vector):
    body_bytes = bytes.fromhex(vector["body_hex"])
    assert pack(from_json(vector["body"])) == body_bytes
    assert make_body(**from_json(vector["body"])) == body_bytes
    sigs = tuple((s["seat"], bytes.fromhex(s["sig"])) for s in vector["signatures"])
    entry = Entry(body_bytes, sigs)
    assert entry.kind == vector["kind"]
    assert entry.encode().hex() == vector["entry_hex"]
    assert Entry.decode(bytes.fromhex(vector["entry_hex"])) == entry
    assert entry.hash.hex() == vector["entry_hash"]
    assert encode_frame(entry.encode()).hex() == vector["frame_hex"]
    if vector["kind"] == "chance":
        i, prev, step, pre = (entry.body[k] for k in ("i", "prev", "step", "pre"))
        messages = [reveal_message(game_id(), i, prev, step, seat, pre[seat]) for seat, _ in sigs]
        assert [m.hex() for m in messages] == vector["reveal_messages_hex"]
    else:
        messages = [signed_message(game_id(), body_bytes)] * len(sigs)
        assert messages[0].hex() == vector["signed_message_hex"]
    for (seat, sig), message in zip(sigs, messages, strict=True):
        assert verify_signature(public_key(seat), sig, message)


def test_replay_vectors_are_linked():
    # Every entry after the genesis names the previous entry's hash and its index.
    for index, vector in enumerate(ENTRIES[1:], start=1):
        body = from_json(vector["body"])
        assert body["i"] == index
        assert body["prev"].hex() == ENTRIES[index - 1]["entry_hash"]


def test_abort_vector_takes_the_place_of_entry_3():
    body = from_json(REPLAY["abort_instead_of_entry_3"]["body"])
    assert body["i"] == 3 and body["prev"].hex() == ENTRIES[2]["entry_hash"]
    # One signature, by the detecting seat, which is not the seat it names.
    assert [s["seat"] for s in REPLAY["abort_instead_of_entry_3"]["signatures"]] == [0]
    assert body["culprit"] == 1 and body["evidence"] == []


def test_replay_chance_vector_randomness():
    # The chance vector reveals s[1] of each seat's chain; the outcome is derived
    # exactly as protocol/randomness.md says.
    vector = next(v for v in ENTRIES if v["kind"] == "chance")
    body = from_json(vector["body"])
    for seat, value in enumerate(body["pre"]):
        head = bytes.fromhex(REPLAY["seats"][seat]["chain_head"])
        assert hashlib.sha256(b"p2ptable/chain/v1\x00" + value).digest() == head
    seed = chance_seed(game_id(), body["step"], body["purpose"], body["pre"])
    assert seed.hex() == vector["seed"]
    assert list(uniform_values(seed, vector["ranges"])) == body["outcome"]


def bin_header(n: int) -> bytes:
    """msgpack bin8 / bin16 header, the shortest that fits (entries never need bin32)."""
    return b"\xc4" + struct.pack(">B", n) if n < 256 else b"\xc5" + struct.pack(">H", n)


def test_genesis_vector_by_hand():
    vector = ENTRIES[0]
    body = bytes.fromhex(vector["body_hex"])
    # game id = SHA-256("p2ptable/game-id/v1" 0x00 || genesis body bytes)
    gid = hashlib.sha256(b"p2ptable/game-id/v1\x00" + body).digest()
    assert gid.hex() == vector["game_id"]
    # Each seat signs "p2ptable/sig/v1" 0x00 || game id || body (Ed25519, RFC 8032).
    message = b"p2ptable/sig/v1\x00" + gid + body
    for item in vector["signatures"]:
        key = Ed25519PublicKey.from_public_bytes(public_key(item["seat"]))
        key.verify(bytes.fromhex(item["sig"]), message)  # raises InvalidSignature if wrong
    with pytest.raises(InvalidSignature):
        Ed25519PublicKey.from_public_bytes(public_key(1)).verify(
            bytes.fromhex(vector["signatures"][0]["sig"]), message
        )
    # entry = msgpack [bin(body), [[seat, bin(sig)], ...]]: fixarray(2), bin header,
    # body, fixarray(n), then per signature fixarray(2), positive fixint, bin8(64).
    entry = (
        b"\x92"
        + bin_header(len(body))
        + body
        + bytes([0x90 + len(vector["signatures"])])
        + b"".join(
            b"\x92" + bytes([s["seat"]]) + b"\xc4\x40" + bytes.fromhex(s["sig"])
            for s in vector["signatures"]
        )
    )
    assert entry.hex() == vector["entry_hex"]
    assert hashlib.sha256(entry).hexdigest() == vector["entry_hash"]
    # frame = u32be(len) || entry || u32be(zlib.crc32(entry))
    frame = struct.pack(">I", len(entry)) + entry + struct.pack(">I", zlib.crc32(entry))
    assert frame.hex() == vector["frame_hex"]


def test_chance_reveal_messages_by_hand():
    # reveal = "p2ptable/reveal/v1" 0x00 || game id || msgpack [i, prev, step, seat, pre]
    vector = next(v for v in ENTRIES if v["kind"] == "chance")
    body = from_json(vector["body"])
    for item, expected in zip(vector["signatures"], vector["reveal_messages_hex"], strict=True):
        seat = item["seat"]
        packed = (
            b"\x95"
            + bytes([body["i"]])
            + b"\xc4\x20"
            + body["prev"]
            + bytes([body["step"]])
            + bytes([seat])
            + b"\xc4\x20"
            + body["pre"][seat]
        )
        message = b"p2ptable/reveal/v1\x00" + game_id() + packed
        assert message.hex() == expected
        Ed25519PublicKey.from_public_bytes(public_key(seat)).verify(
            bytes.fromhex(item["sig"]), message
        )


def test_complete_replay_vector_verifies():
    data = bytes.fromhex(REPLAY["replay"]["hex"])
    assert len(data) == REPLAY["replay"]["length"]
    assert hashlib.sha256(data).hexdigest() == REPLAY["replay"]["sha256"]
    report = verify_bytes(data).to_json()
    expected = REPLAY["replay"]["verify"]
    report["result"] = {key: report["result"][key] for key in expected["result"]}
    assert {key: report[key] for key in expected} == expected


def sort_keys(value):
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys(v) for v in value]
    return value


def test_complete_replay_vector_by_hand():
    # The cryptographic half of a verifier, from protocol/replay.md alone: frames and
    # CRCs, canonical msgpack, game id, hash links, every signature and every reveal.
    # (Checking the moves themselves needs the game's rules and is left to the ledger.)
    data = bytes.fromhex(REPLAY["replay"]["hex"])
    assert data[:10] == b"P2PTABLE\x00\x01"
    pos, payloads = 10, []
    while pos < len(data):
        (length,) = struct.unpack_from(">I", data, pos)
        payload = data[pos + 4 : pos + 4 + length]
        (crc,) = struct.unpack_from(">I", data, pos + 4 + length)
        assert crc == zlib.crc32(payload)
        payloads.append(payload)
        pos += 8 + length
    assert pos == len(data)
    assert len(payloads) == REPLAY["replay"]["verify"]["entries"]

    def canonical(raw: bytes):
        value = msgpack.unpackb(raw, raw=False, strict_map_key=True)
        assert msgpack.packb(sort_keys(value), use_bin_type=True) == raw
        return value

    genesis_body_bytes, genesis_sigs = canonical(payloads[0])
    genesis = canonical(genesis_body_bytes)
    gid = hashlib.sha256(b"p2ptable/game-id/v1\x00" + genesis_body_bytes).digest()
    keys = [Ed25519PublicKey.from_public_bytes(seat["key"]) for seat in genesis["seats"]]
    tips = [seat["chain"] for seat in genesis["seats"]]
    seats = list(range(len(keys)))
    for seat, sig in genesis_sigs:
        keys[seat].verify(sig, b"p2ptable/sig/v1\x00" + gid + genesis_body_bytes)
    step = 0
    for index, payload in enumerate(payloads[1:], start=1):
        body_bytes, sigs = canonical(payload)
        body = canonical(body_bytes)
        assert body["i"] == index
        assert body["prev"] == hashlib.sha256(payloads[index - 1]).digest()
        if body["t"] == "chance":
            assert body["step"] == step and [s for s, _ in sigs] == seats
            for seat, sig in sigs:
                pre = body["pre"][seat]
                reveal = msgpack.packb([index, body["prev"], step, seat, pre], use_bin_type=True)
                keys[seat].verify(sig, b"p2ptable/reveal/v1\x00" + gid + reveal)
                assert hashlib.sha256(b"p2ptable/chain/v1\x00" + pre).digest() == tips[seat]
                tips[seat] = pre
            # The outcome needs the step's ranges, which only the rules know.
            step += 1
        else:
            expected = [body["seat"]] if body["t"] == "action" else seats
            assert [s for s, _ in sigs] == expected
            for seat, sig in sigs:
                keys[seat].verify(sig, b"p2ptable/sig/v1\x00" + gid + body_bytes)
    assert body["t"] == "result"
    assert body["scores"] == REPLAY["replay"]["verify"]["result"]["scores"]
    assert body["winners"] == REPLAY["replay"]["verify"]["result"]["winners"]


def test_the_worked_example_in_replay_md_quotes_the_vectors():
    # protocol/replay.md section 8 copies numbers from replay.json; keep them in step.
    text = (VECTORS.parent / "replay.md").read_text()
    genesis = ENTRIES[0]
    frame = bytes.fromhex(genesis["frame_hex"])
    assert genesis["game_id"] in text
    assert genesis["entry_hash"] in text
    assert " ".join(f"{b:02x}" for b in frame[:4]) in text  # the length field
    assert " ".join(f"{b:02x}" for b in frame[-4:]) in text  # the CRC
    assert f"{len(bytes.fromhex(genesis['body_hex']))} bytes" in text
    assert f"{REPLAY['replay']['verify']['entries']} entries" in text
