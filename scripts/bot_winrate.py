#!/usr/bin/env python3
"""How much better the greedy bot plays: its win rate against random bots.

Plays GAMES games (default 200) per configuration through the pure rules engine,
with one greedy bot and the other seats random; the greedy seat rotates so no seat
order favours it.  A shared victory counts as 1/k of a win for each of the k
winners.  A bot as good as random would win 1/N of the games.

Usage: scripts/bot_winrate.py [--games 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.bots import make_bot  # noqa: E402
from p2ptable.engine.playout import play, random_chance  # noqa: E402
from p2ptable.games import get_game  # noqa: E402

CONFIGS = [
    (2, {"variant": "standard"}),
    (3, {"variant": "standard"}),
    (4, {"variant": "standard"}),
    (6, {"variant": "standard"}),
    (4, {"variant": "maestro"}),
    (2, {"variant": "duet"}),
    (4, {"variant": "standard", "scoring": "advanced"}),
]


def win_rate(game_name: str, seats: int, options: dict, games: int, seed: int) -> float:
    game = get_game(game_name)
    rng = random.Random(seed)
    wins = 0.0
    for number in range(games):
        greedy_seat = number % seats
        bots = {
            s: make_bot(
                game, "greedy" if s == greedy_seat else "random", random.Random(rng.random())
            )
            for s in range(seats)
        }
        final = play(
            game, game.initial(seats, options), bots, random_chance(random.Random(rng.random()))
        )
        outcome = game.outcome(final)
        assert outcome is not None
        if greedy_seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="pet-quartet")
    args = parser.parse_args()
    print(f"greedy bot vs random bots, {args.games} games each ({args.game})")
    print(f"{'players':>7}  {'options':<34} {'greedy wins':>11}  {'fair share':>10}")
    for seats, options in CONFIGS:
        rate = win_rate(args.game, seats, options, args.games, args.seed)
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        print(f"{seats:>7}  {label:<34} {rate:>11.3f}  {1 / seats:>10.3f}")


if __name__ == "__main__":
    main()
