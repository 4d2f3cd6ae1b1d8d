"""The committed protocol test vectors still match the implementation.

If one of these fails, the wire or replay format changed: either fix the code or,
for a deliberate change, bump the protocol version and regenerate with
scripts/make_vectors.py.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from p2ptable.randomness.chain import HashChain
from p2ptable.randomness.derive import chance_seed, uniform_values

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
