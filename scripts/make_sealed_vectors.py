#!/usr/bin/env python3
"""Regenerate protocol/vectors/sealed.json from the reference sealed-deck code.

Run only when the sealed-deck protocol deliberately changes (and bump its version,
``p2ptable/sealed/v1``); tests/sealed/test_vectors.py checks that the code still
reproduces the committed file and that the recorded game verifies.

The file holds: the group constants; hash-to-scalar and hash-to-point examples
with the exact bytes hashed; the first card points and shuffle generators; the
test randomness (``SeededRandom``); and a small complete game between two seats
(keys, two shuffles with fixed permutations, a private deal, a face-up draw, a
hand shuffle, a transfer, a reveal, the revealed secrets) with every message's
bytes and the audit's view of every hand after every step.  All randomness comes
from ``SeededRandom(b"p2ptable sealed vectors")``, so the messages are
reproducible; another implementation need not reproduce them (its nonces are its
own business) but must accept every one and reach the same hands.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import p2ptable.sealed as sd  # noqa: E402
from p2ptable.sealed.elgamal import card_point  # noqa: E402
from p2ptable.sealed.group import (  # noqa: E402
    DOMAIN,
    G,
    N,
    SeededRandom,
    hash_to_point,
    hash_to_scalar,
    scalar_bytes,
    transcript,
)
from p2ptable.sealed.shuffle import chain_base, generators  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "sealed.json"
SEED = b"p2ptable sealed vectors"
GAME_ID = bytes(range(32))


def _hash_to_point_counter(label: str, *parts) -> int:
    """Which try-and-increment counter gave the point (for a reader checking by hand)."""
    point = hash_to_point(label, *parts).to_bytes()
    for counter in range(256):
        if hashlib.sha256(transcript(label, (*parts, counter))).digest() == point[1:]:
            return counter
    raise AssertionError("not found")


def group_vectors() -> dict:
    parts = [GAME_ID, 3, 1, "open", [0, None]]
    data = transcript("dleq", parts)
    return {
        "domain": DOMAIN.decode(),
        "order_hex": f"{N:064x}",
        "G": G.to_bytes().hex(),
        "hash_to_scalar": {
            "label": "dleq",
            "transcript_hex": data.hex(),
            "scalar_hex": scalar_bytes(hash_to_scalar("dleq", *parts)).hex(),
        },
        "card_points": [
            {
                "card": c,
                "counter": _hash_to_point_counter("card", c),
                "point": card_point(c).to_bytes().hex(),
            }
            for c in range(4)
        ],
        "shuffle_generators": [p.to_bytes().hex() for p in generators(3)],
        "chain_base": chain_base().to_bytes().hex(),
        "seeded_random": {"seed_hex": SEED.hex(), "first_80_hex": SeededRandom(SEED)(80).hex()},
    }


def game_vectors() -> dict:
    rand = SeededRandom(SEED)
    secrets = [sd.new_secret(rand) for _ in range(2)]
    keys = [sd.make_key(GAME_ID, s, x, rand) for s, x in enumerate(secrets)]
    state = sd.new_state(sd.make_table(GAME_ID, keys))
    ops: list[sd.Op] = []
    record: list[dict] = []

    def run(op: sd.Op, description: dict) -> None:
        nonlocal state
        state, _ = sd.apply_op(state, op)
        ops.append(op)
        record.append(description)

    run(sd.AddCards((0, 1, 2, 3, 4)), {"op": "add-cards", "cards": [0, 1, 2, 3, 4]})
    for seat, perm in ((0, [4, 2, 0, 1, 3]), (1, [1, 0, 3, 4, 2])):
        msg = sd.make_shuffle(state, seat, rand, perm=perm)
        run(sd.Shuffle(msg), {"op": "shuffle", "msg": msg.encode().hex()})
    for to in ((0, 1, 0, 1), (None,)):
        msgs = tuple(sd.make_shares(state, s, x, to, rand) for s, x in enumerate(secrets))
        run(
            sd.Open(to, msgs),
            {"op": "open", "to": list(to), "msgs": [m.encode().hex() for m in msgs]},
        )
    msg = sd.make_shuffle(state, 1, rand, hand=True, perm=[1, 0])
    run(sd.Shuffle(msg), {"op": "hand-shuffle", "msg": msg.encode().hex()})
    msg = sd.make_transfer(state, 1, secrets[1], 0, 0, rand)
    run(sd.Transfer(msg), {"op": "transfer", "msg": msg.encode().hex()})
    msg = sd.make_reveal(state, 0, secrets[0], 2, rand)
    run(sd.Reveal(msg), {"op": "reveal", "msg": msg.encode().hex()})

    published = [sd.SecretMessage(s, x) for s, x in enumerate(secrets)]
    report = sd.audit(GAME_ID, keys, published, ops)
    return {
        "game_id_hex": GAME_ID.hex(),
        "keys": [k.encode().hex() for k in keys],
        "joint_key": report.table.joint.to_bytes().hex(),
        "ops": record,
        "secrets": [m.encode().hex() for m in published],
        "snapshots": [
            {
                "step": s.step,
                "op": s.op,
                "hands": [list(h) for h in s.hands],
                "deck": list(s.deck),
                "faces": list(s.faces),
            }
            for s in report.snapshots
        ],
    }


def build() -> dict:
    return {"group": group_vectors(), "game": game_vectors()}


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Regenerate protocol/vectors/sealed.json.")
    parser.add_argument("--out", type=Path, default=OUT.parent, help="default: protocol/vectors")
    path = parser.parse_args().out / OUT.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(build(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
