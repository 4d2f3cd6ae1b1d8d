#!/usr/bin/env python3
"""Regenerate protocol/vectors/escrow.json from the reference escrow code.

Run only when the escrow (protocol/sealed-decks.md section 15) deliberately
changes; tests/sealed/test_escrow_vectors.py checks that the code still writes
the committed file and re-checks its shares with only hashlib, msgpack and
coincurve.  A 4-seat table, all randomness from
``SeededRandom(b"p2ptable escrow vectors")``: the secrets and deck keys, each
seat's escrow message (its canonical msgpack bytes), every holder's opened share,
each secret rebuilt from the other seats' shares, and a complaint against a
spoiled share with its verdict.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.crypto.encoding import pack  # noqa: E402
from p2ptable.sealed import escrow  # noqa: E402
from p2ptable.sealed.deck import context  # noqa: E402
from p2ptable.sealed.group import N, SeededRandom, base_mul, random_scalar, scalar_bytes  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "escrow.json"
SEED = b"p2ptable escrow vectors"
GAME_ID = bytes(range(32))
SEATS = 4


def build() -> dict:
    rand = SeededRandom(SEED)
    secrets = [random_scalar(rand) for _ in range(SEATS)]
    keys = [base_mul(x) for x in secrets]
    dealers = []
    for dealer in range(SEATS):
        ctx = context(GAME_ID, 0, dealer, "escrow")
        msg = escrow.make_escrow(ctx, dealer, secrets[dealer], keys, rand)
        shares = {
            j: escrow.open_share(ctx, msg, j, secrets[j]) for j in escrow.holders(SEATS, dealer)
        }
        assert escrow.rebuild(keys[dealer], msg, shares) == secrets[dealer]
        dealers.append(
            {
                "context": [GAME_ID.hex(), 0, dealer, "escrow", []],
                "message_hex": pack(msg.to_value()).hex(),
                "opened_shares": {str(j): scalar_bytes(s).hex() for j, s in shares.items()},
                "rebuilt_secret": scalar_bytes(secrets[dealer]).hex(),
            }
        )
    # A spoiled share: dealer 0's share for seat 2 plus one; seat 2 complains.
    ctx = context(GAME_ID, 0, 0, "escrow")
    good = escrow.make_escrow(ctx, 0, secrets[0], keys, SeededRandom(SEED + b" spoiled"))
    spoiled = escrow.EscrowMessage(
        0,
        good.commitments,
        tuple(
            escrow.EncryptedShare(s.holder, s.ephemeral, (s.masked + 1) % N) if s.holder == 2 else s
            for s in good.shares
        ),
    )
    complaint = escrow.make_complaint(
        ctx, spoiled, 2, secrets[2], SeededRandom(SEED + b" complaint")
    )
    return {
        "seats": SEATS,
        "secrets": [scalar_bytes(x).hex() for x in secrets],
        "keys": [k.to_bytes().hex() for k in keys],
        "dealers": dealers,
        "complaint": {
            "message_hex": pack(spoiled.to_value()).hex(),
            "complaint_hex": pack(complaint.to_value()).hex(),
            "at_fault": escrow.judge_complaint(ctx, keys, spoiled, complaint),
        },
    }


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Regenerate protocol/vectors/escrow.json.")
    parser.add_argument("--out", type=Path, default=OUT.parent, help="default: protocol/vectors")
    path = parser.parse_args().out / OUT.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(build(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
