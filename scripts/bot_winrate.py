#!/usr/bin/env python3
"""How much better a bot plays: its win rate against other bots.

Plays GAMES games (default 200) per configuration through the pure rules engine,
with one bot of kind BOT (default greedy) and the other seats AGAINST (default
random); the bot's seat rotates so no seat order favours it.  A shared victory
counts as 1/k of a win for each of the k winners.  A bot as good as the others
would win 1/N of the games.  ``--bot strong --against greedy`` measures
Teacher's Pet's strong bot against its greedy one.

Usage: scripts/bot_winrate.py [--games 200] [--seed 1] [--game pet-quartet]
                              [--seats N ...] [--bot greedy] [--against random]

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


def win_rate(
    game_name: str,
    seats: int,
    options: dict,
    games: int,
    seed: int,
    kind: str = "greedy",
    against: str = "random",
) -> float:
    pack = package(game_name)
    game = pack.rules
    rng = random.Random(seed)
    wins = 0.0
    for number in range(games):
        seat = number % seats
        bots = {
            s: bot(pack, kind if s == seat else against, random.Random(rng.random()))
            for s in range(seats)
        }
        final = play(
            game, game.initial(seats, options), bots, random_chance(random.Random(rng.random()))
        )
        outcome = game.outcome(final)
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="pet-quartet")
    parser.add_argument("--seats", type=int, nargs="*", help="only these seat counts")
    parser.add_argument("--bot", default="greedy", help="the bot measured (default greedy)")
    parser.add_argument("--against", default="random", help="the other seats' bot")
    args = parser.parse_args()
    configs = CONFIGS.get(args.game, [(n, {}) for n in DEFAULT_SEATS])
    if args.seats:
        configs = [(n, options) for n, options in configs if n in args.seats]
    print(f"{args.bot} bot vs {args.against} bots, {args.games} games each ({args.game})")
    wins = f"{args.bot} wins"
    print(f"{'players':>7}  {'options':<34} {wins:>11}  {'fair share':>10}")
    for seats, options in configs:
        rate = win_rate(args.game, seats, options, args.games, args.seed, args.bot, args.against)
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        print(f"{seats:>7}  {label:<34} {rate:>11.3f}  {1 / seats:>10.3f}")


if __name__ == "__main__":
    main()
