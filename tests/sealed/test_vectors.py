"""The committed sealed-deck vectors still match the implementation.

If one of these fails, the sealed-deck protocol changed: fix the code or, for a
deliberate change, bump ``p2ptable/sealed/v1`` and regenerate with
scripts/make_sealed_vectors.py.  Two checks are independent of p2ptable.sealed:
they redo a key proof and a decryption-share proof with only hashlib, msgpack and
coincurve, as another implementation following protocol/sealed-decks.md would.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import msgpack
from coincurve import PublicKey

import p2ptable.sealed as sd
from p2ptable.sealed.elgamal import card_point
from p2ptable.sealed.group import N, SeededRandom, hash_to_scalar, scalar_bytes, transcript
from p2ptable.sealed.shuffle import chain_base, generators

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "protocol" / "vectors" / "sealed.json").read_text())
GROUP, GAME = VECTORS["group"], VECTORS["game"]


def test_generator_reproduces_the_committed_file():
    spec = importlib.util.spec_from_file_location(
        "make", ROOT / "scripts" / "make_sealed_vectors.py"
    )
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    assert make.build() == VECTORS


def test_group_constants_and_hashes():
    assert GROUP["domain"] == "p2ptable/sealed/v1/"
    assert int(GROUP["order_hex"], 16) == N
    data = bytes.fromhex(GROUP["hash_to_scalar"]["transcript_hex"])
    assert data == transcript("dleq", [bytes(range(32)), 3, 1, "open", [0, None]])
    scalar = int.from_bytes(hashlib.sha512(data).digest(), "big") % N
    assert scalar_bytes(scalar).hex() == GROUP["hash_to_scalar"]["scalar_hex"]
    assert hash_to_scalar("dleq", bytes(range(32)), 3, 1, "open", [0, None]) == scalar
    assert [card_point(c["card"]).to_bytes().hex() for c in GROUP["card_points"]] == [
        c["point"] for c in GROUP["card_points"]
    ]
    assert [p.to_bytes().hex() for p in generators(3)] == GROUP["shuffle_generators"]
    assert chain_base().to_bytes().hex() == GROUP["chain_base"]
    seeded = GROUP["seeded_random"]
    assert SeededRandom(bytes.fromhex(seeded["seed_hex"]))(80).hex() == seeded["first_80_hex"]


def test_card_points_by_hand():
    # Try-and-increment: x = SHA-256(domain || "card" 00 || msgpack([card, counter])).
    for item in GROUP["card_points"]:
        body = msgpack.packb([item["card"], item["counter"]])
        x = hashlib.sha256(b"p2ptable/sealed/v1/card\x00" + body).digest()
        assert bytes.fromhex(item["point"]) == b"\x02" + x
        PublicKey(b"\x02" + x)  # on the curve


def _ops() -> list[sd.Op]:
    ops: list[sd.Op] = []
    for item in GAME["ops"]:
        kind = item["op"]
        if kind == "add-cards":
            ops.append(sd.AddCards(tuple(item["cards"])))
        elif kind == "open":
            msgs = tuple(sd.decode_message(bytes.fromhex(h), s) for s, h in enumerate(item["msgs"]))
            ops.append(sd.Open(tuple(item["to"]), msgs))
        else:
            data = bytes.fromhex(item["msg"])
            msg = sd.decode_message(data, msgpack.unpackb(data)["seat"])
            wrap = {
                "shuffle": sd.Shuffle,
                "hand-shuffle": sd.Shuffle,
                "transfer": sd.Transfer,
                "reveal": sd.Reveal,
            }[kind]
            ops.append(wrap(msg))
    return ops


def test_recorded_game_verifies_and_audits_to_the_recorded_hands():
    game_id = bytes.fromhex(GAME["game_id_hex"])
    keys = [sd.decode_message(bytes.fromhex(h), s) for s, h in enumerate(GAME["keys"])]
    secrets = [sd.decode_message(bytes.fromhex(h), s) for s, h in enumerate(GAME["secrets"])]
    report = sd.audit(game_id, keys, secrets, _ops())
    assert report.table.joint.to_bytes().hex() == GAME["joint_key"]
    got = [
        {
            "step": s.step,
            "op": s.op,
            "hands": [list(h) for h in s.hands],
            "deck": list(s.deck),
            "faces": list(s.faces),
        }
        for s in report.snapshots
    ]
    assert got == GAME["snapshots"]


# -- independent checks: hashlib, msgpack and coincurve only ---------------------------


def _mul(point: bytes, k: int) -> PublicKey:
    return PublicKey(point).multiply(k.to_bytes(32, "big"))


def _challenge(label: str, value) -> int:
    data = b"p2ptable/sealed/v1/" + label.encode() + b"\x00" + msgpack.packb(value)
    return int.from_bytes(hashlib.sha512(data).digest(), "big") % N


G_BYTES = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")


def test_key_proofs_by_hand():
    game_id = bytes.fromhex(GAME["game_id_hex"])
    for seat, hex_msg in enumerate(GAME["keys"]):
        msg = msgpack.unpackb(bytes.fromhex(hex_msg))
        key = msg["key"]
        c, z = (int.from_bytes(v, "big") for v in msg["proof"])
        # T = z·G − c·K
        t = PublicKey.combine_keys([PublicKey.from_secret(z.to_bytes(32, "big")), _mul(key, N - c)])
        context = [game_id, 0, seat, "key", []]
        assert _challenge("schnorr", [context, [G_BYTES, key], [t.format()]]) == c


def test_a_decryption_share_proof_by_hand():
    # The first opening deals cards 0..3 of the deck to seats 0, 1, 0, 1; seat 1's
    # first share is for opened card 0 (dealt to seat 0).  Its base is the A of the
    # top card after the two shuffles: the second shuffle message's first card.
    game_id = bytes.fromhex(GAME["game_id_hex"])
    shuffle2 = msgpack.unpackb(bytes.fromhex(GAME["ops"][2]["msg"]))
    a = shuffle2["cards"][0][0]
    opening = GAME["ops"][3]
    msg = msgpack.unpackb(bytes.fromhex(opening["msgs"][1]))
    share, (c_bytes, z_bytes) = msg["shares"][0]
    c, z = int.from_bytes(c_bytes, "big"), int.from_bytes(z_bytes, "big")
    key = msgpack.unpackb(bytes.fromhex(GAME["keys"][1]))["key"]
    t1 = PublicKey.combine_keys([PublicKey.from_secret(z.to_bytes(32, "big")), _mul(key, N - c)])
    t2 = PublicKey.combine_keys([_mul(a, z), _mul(share, N - c)])
    context = [game_id, msg["step"], 1, "open", [0, opening["to"][0]]]
    statement = [G_BYTES, key, a, share]
    assert _challenge("dleq", [context, statement, [t1.format(), t2.format()]]) == c
