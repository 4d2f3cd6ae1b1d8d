"""The committed protocol test vectors still match the implementation.

If one of these fails, the wire or replay format changed: either fix the code or,
for a deliberate change, bump the protocol version and regenerate with
scripts/make_vectors.py.
"""

from __future__ import annotations

import hashlib
import hmac
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
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from p2ptable.crypto.encoding import pack
from p2ptable.crypto.links import (
    LINK_INFO,
    TAG_LEN,
    TAG_PERSON,
    check_tag,
    link_key,
    link_public,
)
from p2ptable.crypto.signing import SigningKey, verify_signature
from p2ptable.net.wire import Message, open_frame, seal
from p2ptable.randomness.chain import HashChain
from p2ptable.randomness.derive import chance_seed, uniform_values
from p2ptable.replay.entries import (
    GAME_ID_DOMAIN,
    PROTOCOL,
    SIG_DOMAIN,
    Entry,
    make_body,
    signed_message,
)
from p2ptable.replay.logfile import MAGIC, MAX_FRAME, encode_frame
from p2ptable.replay.verify import verify_bytes

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


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
# redo the same computation with hashlib, hmac, zlib, struct, msgpack and
# cryptography only, as an independent implementation written from
# protocol/replay.md and protocol/wire.md would.

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
    assert "reveal_domain" not in consts  # chance entries are not signed any more
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
    # The genesis lists the seat's X25519 link key next to its signing key and chain.
    genesis = from_json(ENTRIES[0]["body"])
    listed = genesis["seats"][seat["seat"]]
    assert (listed["key"].hex(), listed["chain"].hex(), listed["link"].hex()) == (
        seat["public_key"],
        seat["chain_head"],
        seat["link_public"],
    )


@pytest.mark.parametrize(
    "vector",
    [*ENTRIES, REPLAY["abort_instead_of_entry_3"], REPLAY["agreed_abort_instead_of_entry_3"]],
    ids=lambda v: v["kind"],
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
    if vector["kind"] == "chance" or not sigs:
        # A chance entry carries no signature: its seats' hash chains vouch for it;
        # nor does an agreed abort: its evidence proves it, or nothing does.
        assert sigs == () and "signed_message_hex" not in vector
        return
    message = signed_message(game_id(), body_bytes)
    assert message.hex() == vector["signed_message_hex"]
    for seat, sig in sigs:
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


def test_agreed_abort_vector_is_what_a_peer_writes():
    # wire.md 6.8: unsigned, every field from the accusation alone.
    from p2ptable.net.accusations import Accusation, abort_body
    from p2ptable.replay.entries import Entry as LogEntry

    vector = REPLAY["agreed_abort_instead_of_entry_3"]
    assert vector["signatures"] == []

    class At:  # the log the abort ends: entries 0 to 2 of the vectors
        next_index = 3
        head = bytes.fromhex(ENTRIES[2]["entry_hash"])

    accusation = Accusation("withheld", "seat 1 did not send its part of entry 3 in time", 1, [])
    body = abort_body(At(), accusation)  # type: ignore[arg-type]
    assert LogEntry(body, ()).encode().hex() == vector["entry_hex"]


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


def test_chance_entry_by_hand():
    # A chance entry is [bin(body), []]: no signatures.  Each seat's value is
    # authenticated by its chain: H("p2ptable/chain/v1" 0x00 || pre[seat]) must be
    # the seat's chain head from the signed genesis (for step 0), and
    # sigs = fixarray(0) = 0x90.
    vector = next(v for v in ENTRIES if v["kind"] == "chance")
    body_bytes = bytes.fromhex(vector["body_hex"])
    entry = b"\x92" + bin_header(len(body_bytes)) + body_bytes + b"\x90"
    assert entry.hex() == vector["entry_hex"] and vector["signatures"] == []
    genesis = msgpack.unpackb(bytes.fromhex(ENTRIES[0]["body_hex"]))
    body = msgpack.unpackb(body_bytes)
    assert body["prev"] == hashlib.sha256(bytes.fromhex(ENTRIES[0]["entry_hex"])).digest()
    for seat, value in enumerate(body["pre"]):
        head = genesis["seats"][seat]["chain"]
        assert hashlib.sha256(b"p2ptable/chain/v1\x00" + value).digest() == head
    # A value off the chain (here the other seat's) does not hash to the head.
    assert (
        hashlib.sha256(b"p2ptable/chain/v1\x00" + body["pre"][1]).digest()
        != (genesis["seats"][0]["chain"])
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
    # CRCs, canonical msgpack, game id, hash links, every signature and every chain
    # value.
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
            # No signatures: each value must be the next one down its seat's chain.
            assert body["step"] == step and sigs == [] and len(body["pre"]) == len(seats)
            for seat, pre in enumerate(body["pre"]):
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


# -- wire (protocol/wire.md) -------------------------------------------------------------

WIRE = REPLAY["wire"]


def test_wire_vector_constants():
    assert bytes.fromhex(WIRE["tag_person"]) == TAG_PERSON == b"p2ptable/wire/v3"
    assert bytes.fromhex(WIRE["link_info"]) == LINK_INFO == b"p2ptable/link/v1"
    assert WIRE["tag_len"] == TAG_LEN == 16
    assert WIRE["game_id"] == game_id().hex()


def test_wire_vector_with_the_reference_code():
    privates = [bytes.fromhex(s["link_private"]) for s in WIRE["seats"]]
    publics = [link_public(p) for p in privates]
    assert [p.hex() for p in publics] == [s["link_public"] for s in WIRE["seats"]]
    assert [p.hex() for p in publics] == [s["link_public"] for s in REPLAY["seats"]]
    # Both ends derive the same key.
    assert link_key(privates[0], publics[0], publics[1], game_id()).hex() == WIRE["link_key"]
    assert link_key(privates[1], publics[1], publics[0], game_id()).hex() == WIRE["link_key"]
    key = bytes.fromhex(WIRE["link_key"])
    m = WIRE["message"]
    message = Message(
        m["kind"], game_id(), m["from"], bytes.fromhex(m["boot"]), m["seq"], from_json(m["data"])
    )
    frame = seal(message, key)
    assert frame.hex() == WIRE["frame_hex"]
    # Ben (seat 1) opens it with the key he shares with seat 0.
    assert open_frame(frame, game_id(), [key, None]) == message
    envelope = bytes.fromhex(WIRE["envelope_hex"])
    assert check_tag(key, envelope, bytes.fromhex(WIRE["tag"]))


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    """RFC 5869 HKDF with SHA-256, 32 bytes of output (one expand block)."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


def test_link_key_derivation_by_hand():
    # K = HKDF-SHA256(ikm = X25519(mine, theirs), salt = game id,
    #                 info = "p2ptable/link/v1" || lower public key || higher public key)
    seats = WIRE["seats"]
    privates = [
        X25519PrivateKey.from_private_bytes(bytes.fromhex(s["link_private"])) for s in seats
    ]
    publics = [p.public_key().public_bytes_raw() for p in privates]
    assert [p.hex() for p in publics] == [s["link_public"] for s in seats]
    shared = [
        privates[0].exchange(X25519PublicKey.from_public_bytes(publics[1])),
        privates[1].exchange(X25519PublicKey.from_public_bytes(publics[0])),
    ]
    assert shared[0] == shared[1] and shared[0].hex() == WIRE["x25519_shared"]
    info = b"p2ptable/link/v1" + b"".join(sorted(publics))  # bytewise order
    assert info.hex() == WIRE["hkdf_info_hex"]
    assert hkdf_sha256(shared[0], bytes.fromhex(WIRE["game_id"]), info).hex() == WIRE["link_key"]


def test_wire_frame_by_hand():
    # frame = tag || envelope; tag = 16-byte keyed BLAKE2b (RFC 7693) of the envelope
    # under the link key, personalised "p2ptable/wire/v3".
    key = bytes.fromhex(WIRE["link_key"])
    envelope = bytes.fromhex(WIRE["envelope_hex"])
    tag = hashlib.blake2b(envelope, key=key, digest_size=16, person=b"p2ptable/wire/v3").digest()
    assert tag.hex() == WIRE["tag"]
    frame = tag + envelope
    assert frame.hex() == WIRE["frame_hex"]
    # The envelope is the canonical map {boot, d, from, k, seq, table} (keys sorted).
    env = msgpack.unpackb(envelope, raw=False)
    assert list(env) == ["boot", "d", "from", "k", "seq", "table"]
    assert msgpack.packb(sort_keys(env), use_bin_type=True) == envelope
    m = WIRE["message"]
    assert (env["k"], env["from"], env["boot"].hex(), env["seq"]) == (
        m["kind"],
        m["from"],
        m["boot"],
        m["seq"],
    )
    assert env["table"].hex() == WIRE["game_id"]
    assert env["d"] == from_json(m["data"])
    # The reveal is seat 0's value for chance entry 1: on its chain, linked to entry 0.
    chance = from_json(next(v for v in ENTRIES if v["kind"] == "chance")["body"])
    assert (env["d"]["i"], env["d"]["prev"], env["d"]["step"]) == (1, chance["prev"], 0)
    assert env["d"]["pre"] == chance["pre"][0]
    # One flipped bit anywhere in the envelope, or another key, breaks the tag.
    flipped = bytearray(envelope)
    flipped[-1] ^= 1
    person = b"p2ptable/wire/v3"
    forged = hashlib.blake2b(bytes(flipped), key=key, digest_size=16, person=person).digest()
    assert forged != tag
    other = hashlib.blake2b(envelope, key=bytes(32), digest_size=16, person=person).digest()
    assert other != tag


def test_the_worked_example_in_wire_md_quotes_the_vectors():
    # protocol/wire.md section 4.6 copies numbers from replay.json; keep them in step.
    text = (VECTORS.parent / "wire.md").read_text()
    for field in ("x25519_shared", "link_key", "tag"):
        assert WIRE[field] in text, field
    assert WIRE["message"]["boot"] in text
    assert f"envelope ({len(bytes.fromhex(WIRE['envelope_hex']))} bytes)" in text
    frame = bytes.fromhex(WIRE["frame_hex"])
    assert frame[:16].hex() == WIRE["tag"] and "`<tag> <envelope>`" in text
    assert f"({len(frame)} bytes)" in text
