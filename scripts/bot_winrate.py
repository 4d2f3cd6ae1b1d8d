#!/usr/bin/env python3
"""How much better the greedy bot plays: its win rate against random bots.

Plays GAMES games (default 200) per configuration through the pure rules engine,
with one greedy bot and the other seats random; the greedy seat rotates so no seat
order favours it.  A shared victory counts as 1/k of a win for each of the k
winners.  A bot as good as random would win 1/N of the games.

Usage: scripts/bot_winrate.py [--games 200] [--seed 1] [--game pet-quartet]
                              [--seats N ...]

A game not yet listed in ``p2ptable.games`` is found by its package name
(``teachers-pet``: ``p2ptable.games.teachers_pet``), so its bot can be measured
before the game is registered.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from p2ptable.engine.playout import Policy, play, random_chance, random_policy  # noqa: E402
from p2ptable.games import get_package  # noqa: E402
from p2ptable.games.package import GamePackage  # noqa: E402

PET_QUARTET = [
    (2, {"variant": "standard"}),
    (3, {"variant": "standard"}),
    (4, {"variant": "standard"}),
    (6, {"variant": "standard"}),
    (4, {"variant": "maestro"}),
    (2, {"variant": "duet"}),
    (4, {"variant": "standard", "scoring": "advanced"}),
]
#: the configurations measured per game; any other game: 2, 3, 4 and 6 seats, no options
CONFIGS = {"pet-quartet": PET_QUARTET}
DEFAULT_SEATS = (2, 3, 4, 6)


def package(game_name: str) -> GamePackage:
    """The game's package: from the registry, or by its module name if unlisted."""
    try:
        return get_package(game_name)
    except KeyError:
        module = importlib.import_module(f"p2ptable.games.{game_name.replace('-', '_')}")
        return module.PACKAGE


def bot(pack: GamePackage, kind: str, rng: random.Random) -> Policy:
    factory = pack.bots.get(kind)
    return random_policy(rng) if factory is None else factory(rng)


def win_rate(game_name: str, seats: int, options: dict, games: int, seed: int) -> float:
    pack = package(game_name)
    game = pack.rules
    rng = random.Random(seed)
    wins = 0.0
    for number in range(games):
        greedy_seat = number % seats
        bots = {
            s: bot(pack, "greedy" if s == greedy_seat else "random", random.Random(rng.random()))
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
    parser.add_argument("--seats", type=int, nargs="*", help="only these seat counts")
    args = parser.parse_args()
    configs = CONFIGS.get(args.game, [(n, {}) for n in DEFAULT_SEATS])
    if args.seats:
        configs = [(n, options) for n, options in configs if n in args.seats]
    print(f"greedy bot vs random bots, {args.games} games each ({args.game})")
    print(f"{'players':>7}  {'options':<34} {'greedy wins':>11}  {'fair share':>10}")
    for seats, options in configs:
        rate = win_rate(args.game, seats, options, args.games, args.seed)
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        print(f"{seats:>7}  {label:<34} {rate:>11.3f}  {1 / seats:>10.3f}")


if __name__ == "__main__":
    main()
