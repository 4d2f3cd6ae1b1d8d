"""The sealed-deck part of the replay vectors (protocol/replay.md section 9).

``replay.json``'s ``sealed`` section holds each seat's genesis ``deck`` field for a
fixed deck secret, a signed Vorsicht Lehrer! genesis carrying them and the first
bytes of ``sealed_rand``.  The first tests check them against the reference code;
the "by hand" ones redo the computation with hashlib, msgpack and coincurve only,
as an implementation written from the protocol documents would.  If one fails, the
format changed: fix the code or, deliberately, bump the version and regenerate with
scripts/make_vectors.py.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import msgpack
import pytest
from coincurve import PublicKey

from p2ptable.crypto.encoding import pack, unpack_canonical
from p2ptable.replay.entries import Entry, make_body
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.sealed_book import (
    DECK_KEY_DOMAIN,
    RAND_DOMAIN,
    make_deck_key,
    parse_deck_key,
    sealed_rand,
)
from p2ptable.sealed.group import N

ROOT = Path(__file__).resolve().parents[2]
SEALED = json.loads((ROOT / "protocol" / "vectors" / "replay.json").read_text())["sealed"]
G_BYTES = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")


def from_json(value):
    """Undo the vectors' JSON form: {"bin": hex} is a msgpack byte string."""
    if isinstance(value, dict):
        if set(value) == {"bin"}:
            return bytes.fromhex(value["bin"])
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def nonce() -> bytes:
    return bytes.fromhex(SEALED["nonce"])


def genesis_entry() -> Entry:
    vector = SEALED["genesis"]
    sigs = tuple((s["seat"], bytes.fromhex(s["sig"])) for s in vector["signatures"])
    return Entry(bytes.fromhex(vector["body_hex"]), sigs)


def test_generator_reproduces_the_sealed_section():
    spec = importlib.util.spec_from_file_location("make", ROOT / "scripts" / "make_vectors.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    assert make.sealed_vectors() == SEALED


def test_sealed_constants():
    assert bytes.fromhex(SEALED["rand_domain"]) == RAND_DOMAIN == b"p2ptable/sealed-rand/v1\x00"
    assert SEALED["deck_key_domain"] == DECK_KEY_DOMAIN == "p2ptable/deck-key/v1"


@pytest.mark.parametrize("seat", SEALED["seats"], ids=lambda s: f"seat{s['seat']}")
def test_deck_key_with_the_reference_code(seat):
    secret = int(seat["deck_secret"], 16)
    signing = bytes.fromhex(seat["signing_key"])
    deck = from_json(seat["deck"])
    # Made exactly as SeatSecrets.deck_key makes it.
    assert (
        make_deck_key(nonce(), signing, secret, sealed_rand(secret, nonce(), signing, "deck-key"))
        == deck
    )
    assert parse_deck_key(deck, nonce(), signing).to_bytes() == deck["key"]
    # The proof is bound to the table nonce and to the seat's signing key.
    other = bytes.fromhex(SEALED["seats"][1 - seat["seat"]]["signing_key"])
    with pytest.raises(ValueError, match="proof of knowledge"):
        parse_deck_key(deck, nonce(), other)
    with pytest.raises(ValueError, match="proof of knowledge"):
        parse_deck_key(deck, bytes(16), signing)
    with pytest.raises(ValueError, match="exactly key and proof"):
        parse_deck_key({**deck, "seat": seat["seat"]}, nonce(), signing)


def _mul(point: bytes, k: int) -> PublicKey:
    return PublicKey(point).multiply(k.to_bytes(32, "big"))


def _stream(seed: bytes, n: int) -> bytes:
    """SeededRandom by hand: SHA-512(seed || u64be(block)) for block = 0, 1, ..."""
    out = b""
    block = 0
    while len(out) < n:
        out += hashlib.sha512(seed + block.to_bytes(8, "big")).digest()
        block += 1
    return out[:n]


@pytest.mark.parametrize("seat", SEALED["seats"], ids=lambda s: f"seat{s['seat']}")
def test_deck_key_by_hand(seat):
    # K = x·G; the proof's nonce k is the first 64 bytes of
    # sealed_rand(x, nonce, signing key, "deck-key") mod N; T = k·G;
    # c = SHA-512("p2ptable/sealed/v1/schnorr" 00 || msgpack([context, [G, K], [T]]))
    # mod N with context = ["p2ptable/deck-key/v1", nonce, signing key]; z = k + c·x.
    x_bytes = bytes.fromhex(seat["deck_secret"])
    x = int.from_bytes(x_bytes, "big")
    signing = bytes.fromhex(seat["signing_key"])
    deck = from_json(seat["deck"])
    key = PublicKey.from_secret(x_bytes).format()
    assert deck["key"] == key
    seed = hashlib.sha512(
        b"p2ptable/sealed-rand/v1\x00" + x_bytes + nonce() + signing + b"deck-key"
    ).digest()
    assert seed.hex() == seat["deck_key_rand_seed"]
    k = int.from_bytes(_stream(seed, 64), "big") % N
    assert k != 0
    t = PublicKey.from_secret(k.to_bytes(32, "big")).format()
    context = ["p2ptable/deck-key/v1", nonce(), signing]
    transcript = b"p2ptable/sealed/v1/schnorr\x00" + msgpack.packb(
        [context, [G_BYTES, key], [t]], use_bin_type=True
    )
    c = int.from_bytes(hashlib.sha512(transcript).digest(), "big") % N
    z = (k + c * x) % N
    assert deck["proof"] == [c.to_bytes(32, "big"), z.to_bytes(32, "big")]
    # The verifier's side: T = z·G − c·K gives back the challenge.
    recomputed = PublicKey.combine_keys(
        [PublicKey.from_secret(z.to_bytes(32, "big")), _mul(key, N - c)]
    )
    assert recomputed.format() == t


def test_sealed_genesis_vector():
    vector = SEALED["genesis"]
    body_bytes = bytes.fromhex(vector["body_hex"])
    assert pack(from_json(vector["body"])) == body_bytes
    assert make_body(**from_json(vector["body"])) == body_bytes
    entry = genesis_entry()
    assert entry.encode().hex() == vector["entry_hex"]
    assert entry.hash.hex() == vector["entry_hash"]
    ledger = Ledger(entry)
    assert ledger.game_id.hex() == vector["game_id"]
    assert ledger.book is not None and ledger.book.seats == 2
    # The genesis fills the sealed deck with the 58 school cards: step 1, nobody
    # has shuffled yet.
    assert ledger.book.state.step == 1 and len(ledger.book.state.deck) == 58
    assert ledger.book.next_shuffler() == 0
    body = from_json(vector["body"])
    for seat in SEALED["seats"]:
        assert body["seats"][seat["seat"]]["deck"] == from_json(seat["deck"])


def test_sealed_genesis_by_hand():
    # Seat maps sort their keys: chain, deck, key, link, name; a deck field is the
    # map {key: bin33, proof: [bin32, bin32]}.
    body_bytes = bytes.fromhex(SEALED["genesis"]["body_hex"])
    body = msgpack.unpackb(body_bytes, raw=False)
    for seat in body["seats"]:
        assert list(seat) == ["chain", "deck", "key", "link", "name"]
        assert list(seat["deck"]) == ["key", "proof"]
        assert len(seat["deck"]["key"]) == 33 and seat["deck"]["key"][0] in (2, 3)
        assert [len(v) for v in seat["deck"]["proof"]] == [32, 32]
    gid = hashlib.sha256(b"p2ptable/game-id/v1\x00" + body_bytes).digest()
    assert gid.hex() == SEALED["genesis"]["game_id"]
    assert (b"p2ptable/sig/v1\x00" + gid + body_bytes).hex() == SEALED["genesis"][
        "signed_message_hex"
    ]


def _genesis_with(seats_change) -> Entry:
    """The vector genesis with its seats changed (unsigned: the deck checks come first)."""
    body = unpack_canonical(bytes.fromhex(SEALED["genesis"]["body_hex"]))
    seats_change(body["seats"])
    return Entry(make_body(**body), ())


def test_a_genesis_with_swapped_or_missing_deck_keys_is_refused():
    def swap(seats):
        seats[0]["deck"], seats[1]["deck"] = seats[1]["deck"], seats[0]["deck"]

    with pytest.raises(InvalidEntry, match="seat 0 deck key: the proof of knowledge"):
        Ledger(_genesis_with(swap))

    def drop(seats):
        del seats[1]["deck"]

    with pytest.raises(InvalidEntry, match="seat 1 has no deck key"):
        Ledger(_genesis_with(drop))

    def copy(seats):
        seats[1]["deck"] = seats[0]["deck"]

    # Ben cannot take Ana's key: the proof names her signing key.
    with pytest.raises(InvalidEntry, match="seat 1 deck key: the proof of knowledge"):
        Ledger(_genesis_with(copy))


def test_sealed_rand_with_the_reference_code():
    vector = SEALED["sealed_rand"]
    rand = sealed_rand(
        int(vector["secret"], 16),
        bytes.fromhex(vector["game_id"]),
        bytes.fromhex(vector["prev"]),
        vector["purpose"],
    )
    assert rand(32).hex() == vector["first_32_hex"]
    assert rand(64).hex() == vector["first_96_hex"][64:]
    assert vector["game_id"] == SEALED["genesis"]["game_id"]
    assert vector["prev"] == SEALED["genesis"]["entry_hash"]
    assert vector["secret"] == SEALED["seats"][0]["deck_secret"]


def test_sealed_rand_by_hand():
    # seed = SHA-512("p2ptable/sealed-rand/v1" 00 || secret (32 bytes big endian)
    #                || game id || prev || purpose); the stream is
    # SHA-512(seed || u64be(0)) || SHA-512(seed || u64be(1)) || ...
    vector = SEALED["sealed_rand"]
    seed = hashlib.sha512(
        b"p2ptable/sealed-rand/v1\x00"
        + bytes.fromhex(vector["secret"])
        + bytes.fromhex(vector["game_id"])
        + bytes.fromhex(vector["prev"])
        + vector["purpose"].encode()
    ).digest()
    assert seed.hex() == vector["seed"]
    block0 = hashlib.sha512(seed + (0).to_bytes(8, "big")).digest()
    block1 = hashlib.sha512(seed + (1).to_bytes(8, "big")).digest()
    assert block0[:32].hex() == vector["first_32_hex"]
    assert (block0 + block1)[:96].hex() == vector["first_96_hex"]


def test_replay_md_quotes_the_sealed_vectors():
    # protocol/replay.md section 9 copies numbers from the sealed vectors.
    text = (ROOT / "protocol" / "replay.md").read_text()
    assert SEALED["seats"][0]["deck"]["key"]["bin"] in text
    assert SEALED["sealed_rand"]["first_32_hex"] in text
    assert SEALED["genesis"]["game_id"] in text
