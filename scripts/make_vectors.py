#!/usr/bin/env python3
"""Regenerate the test vectors in protocol/vectors/ from the reference implementation.

Run only when the protocol deliberately changes (and bump the protocol version);
tests/test_vectors.py checks that the code still reproduces the committed files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.randomness.chain import HashChain  # noqa: E402
from p2ptable.randomness.derive import chance_seed, uniform_values  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "protocol" / "vectors"


def randomness_vectors() -> dict:
    chain = HashChain(bytes.fromhex("11" * 32), length=4)
    chains = {
        "secret": "11" * 32,
        "length": 4,
        "values_head_first": [chain.head.hex()] + [chain.preimage(i).hex() for i in range(4)],
    }
    game_id = bytes(range(32))
    cases = []
    for step, purpose, n, ranges in [
        (0, "first-player", 4, [4]),
        (1, "draw", 4, [88]),
        (7, "roll", 3, [6, 6, 6]),
        (12, "maestro-tiles", 6, [6, 5, 4, 3, 2, 1]),
        (3, "stress", 2, [2**63 + 1, 2**63 + 1, 2**63 + 1, 2**63 + 1]),
    ]:
        pre = [bytes([0xA0 + seat]) * 32 for seat in range(n)]
        seed = chance_seed(game_id, step, purpose, pre)
        cases.append(
            {
                "game_id": game_id.hex(),
                "step": step,
                "purpose": purpose,
                "preimages": [p.hex() for p in pre],
                "seed": seed.hex(),
                "ranges": ranges,
                "outcome": list(uniform_values(seed, ranges)),
            }
        )
    return {"chain": chains, "chance": cases}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "randomness.json"
    path.write_text(json.dumps(randomness_vectors(), indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
