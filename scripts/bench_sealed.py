#!/usr/bin/env python3
"""Cost of the sealed-deck cryptography, measured in one process.

Measures, for 6 seats and an 88-card deck (the sizes of the networked target):

  * keys: 6 key pairs with their Schnorr proofs, and checking all 6;
  * shuffle: proving one shuffle of 88 cards, decoding its bytes (every point
    validated) and verifying it once;
  * deal: 42 cards, 7 to each seat: every seat's shares and DLEQ proofs (35 each),
    and one verifier checking all of them, then one seat reading its hand;
  * reveal: verifying one hand-card reveal;
  * transfer: proving and verifying one hand-card transfer.

Each figure is the median of ``--repeat`` runs.  From them it estimates the wall
time of the same work across 6 peer processes sharing 2 cores (network time not
included): the shuffle phase is 6 rounds of "the shuffler proves, then the 5 others
verify on 2 cores", and the deal is every peer making its shares and checking the
5 others' at once, on 2 cores.  Usage: scripts/bench_sealed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import p2ptable.sealed as sd  # noqa: E402

SEATS, CARDS, HAND, CORES = 6, 88, 7, 2


def timed(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    rand = os.urandom
    game_id = os.urandom(32)
    xs = [sd.new_secret(rand) for _ in range(SEATS)]

    t_keys, keys = timed(
        lambda: [sd.make_key(game_id, s, xs[s], rand) for s in range(SEATS)], repeat
    )
    t_table, table = timed(lambda: sd.make_table(game_id, keys), repeat)
    state = sd.add_cards(sd.new_state(table), range(CARDS))

    t_prove, msg = timed(lambda: sd.make_shuffle(state, 0, rand), repeat)
    t_verify, _ = timed(lambda: sd.apply_shuffle(state, msg), repeat)
    data = msg.encode()
    t_decode, _ = timed(lambda: sd.decode_message(data, 0), repeat)
    for seat in range(SEATS):  # the whole phase once, to reach a dealable state
        state = sd.apply_shuffle(state, sd.make_shuffle(state, seat, rand))

    to = tuple(s for _ in range(HAND) for s in range(SEATS))
    t_shares, shares = timed(
        lambda: [sd.make_shares(state, s, xs[s], to, rand) for s in range(SEATS)], repeat
    )

    def check_all():
        round_ = sd.begin_open(state, to)
        for m in shares:
            round_ = sd.add_shares(round_, m)
        return sd.finish_open(round_)[0]

    t_check, dealt = timed(check_all, repeat)
    t_read, _ = timed(lambda: sd.read_hand(dealt, 0, xs[0]), repeat)
    reveal = sd.make_reveal(dealt, 0, xs[0], 0, rand)
    t_reveal, _ = timed(lambda: sd.apply_reveal(dealt, reveal), max(repeat, 20))
    t_tprove, transfer = timed(lambda: sd.make_transfer(dealt, 0, xs[0], 1, 1, rand), repeat)
    t_tverify, _ = timed(lambda: sd.apply_transfer(dealt, transfer), max(repeat, 20))

    # 6-process estimates on 2 cores.
    per_share_msg = t_check / SEATS  # checking one seat's 35 shares
    t_check_shuffle = t_decode + t_verify  # what each of the 5 other peers does
    shuffle_round = t_prove + (SEATS - 1) * t_check_shuffle / CORES
    shuffle_phase = SEATS * shuffle_round
    shuffle_floor = SEATS * (t_prove + (SEATS - 1) * t_check_shuffle) / CORES
    deal_cpu = SEATS * (t_shares / SEATS + (SEATS - 1) * per_share_msg + t_read)
    deal_wall = deal_cpu / CORES

    ms = lambda t: f"{t * 1000:8.1f} ms"  # noqa: E731
    print(f"sealed decks: {SEATS} seats, {CARDS} cards, secp256k1 (coincurve)")
    print(f"  {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"keys: make 6 with proofs    {ms(t_keys)}")
    print(f"keys: check 6 proofs        {ms(t_table)}")
    print(f"shuffle 88: prove           {ms(t_prove)}   ({len(data)} bytes)")
    print(f"shuffle 88: decode bytes    {ms(t_decode)}   (every point validated)")
    print(f"shuffle 88: verify          {ms(t_verify)}")
    print(f"deal 42: all shares+proofs  {ms(t_shares)}   ({SEATS} x {len(shares[0].shares)})")
    print(f"deal 42: verify all shares  {ms(t_check)}   ({len(to) * (SEATS - 1)} proofs)")
    print(f"deal 42: read own hand      {ms(t_read)}")
    print(f"reveal: verify one          {ms(t_reveal)}")
    print(f"transfer: prove / verify    {ms(t_tprove)} / {ms(t_tverify).strip()}")
    print(f"estimate, 6 processes on {CORES} cores (CPU only, no network):")
    print(
        f"  shuffle phase (6 rounds)  {ms(shuffle_phase)}   (target < 1500 ms;"
        f" pipelined floor {ms(shuffle_floor).strip()})"
    )
    print(f"  deal 42 cards             {ms(deal_wall)}   (target < 500 ms)")
    print(f"  verify one reveal         {ms(t_reveal)}   (target < 2 ms)")


if __name__ == "__main__":
    main()
