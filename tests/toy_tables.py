"""Tables of the small test games (tests/choices, tests/reactions, tests/picks):
registering a game the product does not list, its signed genesis, its live
sessions, and playing them over an in-memory network that delivers frames in any
order."""

from __future__ import annotations

import random
from collections.abc import Callable

from p2ptable.engine.api import Action
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay import genesis as genesis_module
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")


def register(monkeypatch, game) -> None:  # noqa: ANN001 - pytest's monkeypatch, a Game
    """Let the ledger read geneses of ``game`` (for the test's duration)."""
    real = genesis_module.get_game
    monkeypatch.setattr(
        genesis_module, "get_game", lambda name: game if name == game.name else real(name)
    )


def signed_genesis(
    game,
    n: int,
    seed: str,
    nonce: bytes,
    chain_len: int = 64,  # noqa: ANN001 - a Game
) -> tuple[list[authoring.SeatSecrets], Entry]:
    """Every seat's secrets and the genesis they all signed (deck keys for a game
    with hidden hands)."""
    seats = [authoring.SeatSecrets.from_seed(seed.encode(), i, chain_len) for i in range(n)]
    decks = [s.deck_key(nonce) for s in seats] if getattr(game, "hidden_hands", False) else None
    body = authoring.genesis_body(
        game.name, {}, list(NAMES[:n]), [s.key.public for s in seats],
        [s.chain.head for s in seats], [s.link_public for s in seats], chain_len, nonce, decks,
    )  # fmt: skip
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    return seats, genesis


def live_sessions(seats: list[authoring.SeatSecrets], genesis: Entry):
    """One session per seat (each reads its own hidden cards), and each one's log."""
    logs = {i: [genesis.encode()] for i in range(len(seats))}
    sessions = {
        i: Session(Ledger(genesis, readers={i: s.deck}), i, s, 0.0, boot=bytes([i + 1]) * 8)
        for i, s in enumerate(seats)
    }
    return sessions, logs


def file_of(entries) -> bytes:  # noqa: ANN001 - entries or their encodings
    raw = (e if isinstance(e, bytes) else e.encode() for e in entries)
    return MAGIC + b"".join(encode_frame(r) for r in raw)


def pump_shuffled(net: MemoryNet, rng: random.Random, limit: int = 100_000) -> None:
    """Deliver every queued frame, in a random order (the network reorders)."""
    net.collect()
    for _ in range(limit):
        if not net.queue:
            return
        k = rng.randrange(len(net.queue))
        net.queue.rotate(-k)
        sender, target, frame = net.queue.popleft()
        net.queue.rotate(k)
        if target in net.sessions:
            net.sessions[target].receive(frame, net.now)
        net.collect()


def play_in_any_order(
    sessions: dict[int, Session],
    logs: dict[int, list[bytes]],
    rng: random.Random,
    choose: Callable[[Session, random.Random], Action] | None = None,
    rounds: int = 800,
) -> None:
    """Play to the end with frames delivered in any order, time moving on at
    random, and the seats asked answering in any order (``choose`` picks each
    answer; at random by default); then assert that nobody was named and every
    log is the same."""
    net = MemoryNet(sessions, logs)
    pick = choose or (lambda session, r: r.choice(session.legal_actions()))
    for _ in range(rounds):
        pump_shuffled(net, rng)
        if rng.random() < 0.2:
            net.advance(rng.choice([0.1, 1.0, 3.0]))
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers and all(s.finished for s in sessions.values()):
            break
        for mover in rng.sample(movers, rng.randint(0, len(movers))):
            mover.submit(pick(mover, rng), net.now)
    for _ in range(10):
        net.advance(1.0)
    assert all(s.stopped is None and s.finished for s in sessions.values())
    assert len({file_of(log) for log in logs.values()}) == 1
