"""Offline simulation: every seat is a local bot with real keys and real chains.

How it works: derive each seat's key and chain secret from the seed, sign the
genesis, then loop on :meth:`Ledger.expected`: the row of the kind expected
(replay/rows.py) makes the entry with every seat's secrets: the seat to act signs
an action chosen by its bot, every seat reveals its next preimage for a chance
step, every seat signs the result.  Each entry goes through :meth:`Ledger.append` (the same
check a verifier and a live peer make) and is written at once, to a temporary
file that becomes ``out`` when the game ends (replay/outputs.py: an interrupted
simulation leaves no partial file, and none is ever written over a replay).  Keys,
chains, nonce and bots all come from the seed, and Ed25519 signatures are
deterministic, so the same seed gives a byte-identical replay.

A game with hidden hands is simulated exactly as it is played between peers: with
a sealed deck (every seat shuffles with a proof, every deal is opened with every
seat's shares, every played card carries its reveal proof, every seat publishes
its deck secret at the end).  The simulation's ledger reads every seat's cards, so
each bot can be given its own seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from p2ptable.bots import make_bot
from p2ptable.crypto.signing import sha256
from p2ptable.engine.api import Action, Outcome, normalize_options
from p2ptable.games import get_game
from p2ptable.randomness.chain import DEFAULT_LENGTH
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Applied, Ledger
from p2ptable.replay.logfile import LogWriter
from p2ptable.replay.outputs import written_whole
from p2ptable.replay.rows import ROWS

DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
MAX_ENTRIES = 100_000


@dataclass(frozen=True)
class SimResult:
    path: Path
    entries: int
    outcome: Outcome
    names: tuple[str, ...]


def simulate(
    game_name: str,
    players: int,
    seed: str,
    out: str | Path,
    options: Mapping[str, str] | None = None,
    names: Sequence[str] | None = None,
    bots: Sequence[str] | None = None,
    on_entry: Callable[[Applied, Ledger], None] | None = None,
    chain_len: int = DEFAULT_LENGTH,
    force: bool = False,
    keep_going: bool = False,
) -> SimResult:
    """Play a whole game between bots and write its replay to ``out``.

    Never over a replay, nor over another existing file unless ``force``
    (``OutputRefused``, replay/outputs.py); the file appears whole when the game
    ends, and an interrupted simulation leaves none."""
    game = get_game(game_name)
    opts = normalize_options(game, players, options or {})
    game.initial(players, opts)  # refuse impossible combinations (BadOptions) up front
    names = tuple(names or DEFAULT_NAMES[:players])
    if len(names) != players:
        raise ValueError(f"{players} players need {players} names, got {len(names)}")
    bots = tuple(bots or ("greedy",) * players)
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bot kinds, got {len(bots)}")
    seed_bytes = seed.encode()
    seats = [authoring.SeatSecrets.from_seed(seed_bytes, i, chain_len) for i in range(players)]
    policies = [
        make_bot(game, kind, random.Random(sha256(b"p2ptable/sim/bot\x00", seed_bytes, bytes([i]))))
        for i, kind in enumerate(bots)
    ]
    nonce = sha256(b"p2ptable/sim/nonce\x00", seed_bytes)[:16]
    genesis = authoring.local_genesis(game.name, opts, names, seats, chain_len, nonce, keep_going)
    path = Path(out)
    with written_whole(path, force) as part, LogWriter(part) as writer:
        ledger = Ledger(genesis, readers={i: s.deck for i, s in enumerate(seats)})
        writer.append(genesis.encode())
        for _ in range(MAX_ENTRIES):
            entry = _next_entry(ledger, seats, policies)
            if entry is None:
                break
            applied = ledger.append(entry)
            writer.append(entry.encode())
            if on_entry is not None:
                on_entry(applied, ledger)
        else:  # pragma: no cover - a rules bug
            raise RuntimeError(f"the game did not end within {MAX_ENTRIES} entries")
    assert ledger.result is not None
    return SimResult(path, len(ledger.entries), ledger.result, names)


def _next_entry(ledger: Ledger, seats: list[authoring.SeatSecrets], policies: list) -> Entry | None:
    """The next entry, made by its kind's row (replay/rows.py): every seat is here."""
    row = ROWS.get(ledger.expected().kind)  # none after the result
    if row is None or row.author is None:
        return None

    def choose(seat: int) -> Action:
        return policies[seat](ledger.game, ledger.state, seat)

    return row.author(ledger, seats, choose)
