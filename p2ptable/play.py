"""Live play entry points behind `host`, `join`, `play` and `resume`.

Each builds a :class:`~p2ptable.net.peer.PeerConfig`, picks a frontend (a bot, or
the terminal for a person) and runs the peer loop.  The CLI only parses arguments
and prints what these return.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from p2ptable.bots import make_bot
from p2ptable.bots.seat import BotFrontend
from p2ptable.engine.api import normalize_options
from p2ptable.engine.registry import get_game
from p2ptable.net import lobby as lobbies
from p2ptable.net.local_table import (
    DEFAULT_PORT,
    BotProcesses,
    address_towards,
    lan_address,
    split_address,
)
from p2ptable.net.peer import Frontend, Peer, PeerConfig
from p2ptable.net.persistence import Resume, load_resume


def check_new_replay(replay: Path | None) -> None:
    """A new game never writes over (or appends to) an existing replay."""
    if replay is not None and replay.exists():
        raise ValueError(f"{replay} already exists: choose another --replay (or resume it)")


@dataclass(frozen=True)
class PlayResult:
    status: int  # 0 finished, 2 timed out, 3 stopped (a cheater was caught)
    replay: Path | None


def make_frontend(game_name: str, bot: str | None, quiet: bool, delay: float = 0.0) -> Frontend:
    if bot is not None:
        policy = make_bot(get_game(game_name), bot, random.Random())
        return BotFrontend(policy, quiet=quiet, delay=delay)
    from p2ptable.ui.terminal import TerminalFrontend

    return TerminalFrontend()


def host(
    game: str,
    seats: int,
    name: str,
    options: dict[str, str],
    port: int = DEFAULT_PORT,
    code: str | None = None,
    bot: str | None = None,
    replay: Path | None = None,
    bind: str = "0.0.0.0",
    advertise: str | None = None,
    quiet: bool = False,
    announce=print,  # noqa: ANN001 - where to print the join instructions
    stats: Path | None = None,
    bot_delay: float = 0.0,
) -> PlayResult:
    """Open a table and play at seat 0 once every seat is filled."""
    check_new_replay(replay)
    the_game = get_game(game)
    opts = normalize_options(the_game, seats, options)
    the_game.initial(seats, opts)  # refuse impossible combinations before anyone joins
    code = code or lobbies.new_code()
    lobbies.normalize_code(code)
    advertise = advertise or lan_address()
    config = PeerConfig(
        name=name,
        host=True,
        game=the_game.name,
        options=opts,
        seats=seats,
        code=code,
        port=port,
        bind=bind,
        advertise=advertise,
        replay=replay,
        stats=stats,
    )
    peer = Peer(config, make_frontend(the_game.name, bot, quiet, bot_delay))
    where = f"{advertise}:{peer.transport.port}"
    announce(f"Table open: {the_game.title} for {seats} players. Others join with:")
    announce(f"  p2ptable join {where} --code {code} --name <their name>")
    return PlayResult(peer.run(), peer.replay_path)


def join(
    address: str,
    code: str,
    name: str,
    bot: str | None = None,
    replay: Path | None = None,
    port: int = 0,
    quiet: bool = False,
    stats: Path | None = None,
    bot_delay: float = 0.0,
) -> PlayResult:
    """Join the table at ``address`` (HOST:PORT) and play."""
    check_new_replay(replay)
    host_ip, _ = split_address(address)
    lobbies.normalize_code(code)
    advertise = address_towards(host_ip)
    bind = "127.0.0.1" if advertise.startswith("127.") else "0.0.0.0"
    config = PeerConfig(
        name=name,
        host=False,
        connect=address,
        code=code,
        port=port,
        bind=bind,
        advertise=advertise,
        replay=replay,
        stats=stats,
    )
    # The game is only known after the handshake; bots are made generic until then.
    frontend = _LateFrontend(bot, quiet, bot_delay)
    peer = Peer(config, frontend)
    frontend.peer = peer
    return PlayResult(peer.run(), peer.replay_path)


def play(
    game: str,
    bots: int,
    name: str,
    options: dict[str, str],
    bot_kind: str = "greedy",
    you: str | None = None,
    replay: Path | None = None,
    quiet: bool = False,
    bot_delay: float = 0.0,
) -> PlayResult:
    """You against ``bots`` local bot peers, each its own process on loopback."""
    code = lobbies.new_code()
    seats = bots + 1
    with BotProcesses() as procs:
        result_holder: list[PlayResult] = []

        def announce(line: str) -> None:
            if line.startswith("  p2ptable join"):
                port = int(line.split()[2].rsplit(":", 1)[1])
                procs.start(f"127.0.0.1:{port}", code, bots, bot_kind, bot_delay)
                if not quiet:
                    print(f"Started {bots} bot peers; waiting for them to join...", flush=True)

        result_holder.append(
            host(
                game,
                seats,
                name,
                options,
                port=0,
                code=code,
                bot=you,
                replay=replay,
                bind="127.0.0.1",
                advertise="127.0.0.1",
                quiet=quiet,
                announce=announce,
                bot_delay=bot_delay,
            )
        )
        if result_holder[0].status != 0:
            procs.stop(grace=0)  # the bots cannot finish without us
    return result_holder[0]


def resume(
    replay: Path, bot: str | None = None, quiet: bool = False, bot_delay: float = 0.0
) -> PlayResult:
    """Continue a game whose process died, from its replay and secrets files."""
    state: Resume = load_resume(replay)
    config = PeerConfig(name=state.ledger.seats[state.seat].name, host=False, bind="0.0.0.0")
    endpoint = state.endpoints[state.seat]
    config.advertise = endpoint.split("//", 1)[1].rsplit(":", 1)[0]
    config.bind = "127.0.0.1" if config.advertise.startswith("127.") else "0.0.0.0"
    frontend = make_frontend(state.ledger.game.name, bot, quiet, bot_delay)
    peer = Peer(config, frontend, resume=state)
    return PlayResult(peer.run(), peer.replay_path)


class _LateFrontend:
    """A frontend chosen once the joiner learns which game the table plays."""

    def __init__(self, bot: str | None, quiet: bool, delay: float = 0.0) -> None:
        self.bot, self.quiet, self.delay = bot, quiet, delay
        self.peer: Peer | None = None
        self._inner: Frontend | None = None
        if bot is None:
            self._inner = make_frontend("", None, quiet)

    def _get(self, game_name: str) -> Frontend:
        if self._inner is None:
            self._inner = make_frontend(game_name, self.bot, self.quiet, self.delay)
        return self._inner

    def say(self, text: str) -> None:
        if self._inner is not None:
            self._inner.say(text)
        elif not self.quiet:
            print(text, flush=True)

    def on_events(self, session, events, now):  # noqa: ANN001, ANN201
        self._get(session.ledger.game.name).on_events(session, events, now)

    def decide(self, session, now):  # noqa: ANN001, ANN201
        return self._get(session.ledger.game.name).decide(session, now)

    def tick(self, session, now):  # noqa: ANN001, ANN201
        self._get(session.ledger.game.name).tick(session, now)

    def wake_at(self, session, now):  # noqa: ANN001, ANN201
        return self._get(session.ledger.game.name).wake_at(session, now)

    def stdin_fd(self) -> int | None:
        return sys.stdin.fileno() if self.bot is None else None

    def on_stdin(self, session, now):  # noqa: ANN001, ANN201
        return self._inner.on_stdin(session, now) if self._inner is not None else None
