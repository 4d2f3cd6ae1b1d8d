"""The commands that play live: host, join, play and resume."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from p2ptable.cli import _game_name, _options, main
from p2ptable.engine.api import RulesError
from p2ptable.net.lobby import LobbyError


def _login_name() -> str:
    import getpass

    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = ""
    login = "".join(c for c in login if c.isprintable())[:32]
    return login.capitalize() if login else "Player"


def _bot_option(f):  # noqa: ANN001, ANN201
    f = click.option(
        "--stats",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        hidden=True,
        help="Write per-entry timestamps (JSON lines) for the latency benchmark.",
    )(f)
    f = click.option(
        "--bot-delay",
        type=float,
        default=0.0,
        help="Seconds a bot waits before each move, so people can follow.",
    )(f)
    return click.option(
        "--bot",
        type=click.Choice(["random", "greedy"]),
        default=None,
        help="Let a bot play this seat (no prompts); exit 0 when the game ends.",
    )(f)


def _finish(result, resumable: bool = True) -> None:  # noqa: ANN001
    if result.status == 130:
        click.echo("\nYou left the game.")
        if result.replay is not None and resumable:
            click.echo(f"To continue where you stopped: p2ptable resume {result.replay}")
        sys.exit(130)
    if result.replay is not None:
        click.echo(f"Replay saved to {result.replay}")
        click.echo(f"Check it with: p2ptable verify {result.replay}")
    if result.status == 2:
        raise click.ClickException("the table did not fill in time")
    if result.status == 3:
        raise click.ClickException("the game was stopped: a player cheated (see the replay)")
    sys.exit(result.status)


@main.command()
@click.argument("game")
@click.option("--seats", type=int, required=True, help="Number of players, you included.")
@click.option("--name", required=True, help="Your name at the table.")
@click.option("--variant", default=None)
@click.option("--scoring", default=None)
@click.option("--option", multiple=True, metavar="NAME=VALUE")
@click.option("--port", type=int, default=47001, show_default=True, help="0 picks a free port.")
@click.option("--code", default=None, help="Join code (default: a random one).")
@click.option("--advertise", default=None, help="Address others reach you at (default: guessed).")
@click.option(
    "--replay",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write your replay (default: a new file in your data directory).",
)
@click.option("--quiet", "-q", is_flag=True)
@_bot_option
def host(
    game,
    seats,
    name,
    variant,
    scoring,
    option,
    port,
    code,
    advertise,
    replay,
    quiet,
    bot,
    bot_delay,
    stats,
):  # noqa: ANN001, ANN201
    """Open a table for GAME and print what the others must type."""
    from p2ptable import play

    try:
        result = play.host(
            _game_name(game),
            seats,
            name,
            _options(variant, scoring, option),
            port=port,
            code=code,
            bot=bot,
            replay=replay,
            advertise=advertise,
            quiet=quiet,
            announce=click.echo,
            bot_delay=bot_delay,
            stats=stats,
        )
    except (RulesError, ValueError, LobbyError) as exc:
        raise click.ClickException(str(exc)) from None
    _finish(result)


@main.command()
@click.argument("address")
@click.option("--code", required=True, help="The join code the host printed.")
@click.option("--name", required=True, help="Your name at the table.")
@click.option(
    "--port",
    type=int,
    default=0,
    help="Port the other players reach you on (default: any free one; fix it for a firewall).",
)
@click.option(
    "--replay",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write your replay (default: a new file in your data directory).",
)
@click.option("--quiet", "-q", is_flag=True)
@_bot_option
def join(address, code, name, port, replay, quiet, bot, bot_delay, stats):  # noqa: ANN001, ANN201
    """Join the table at ADDRESS (HOST:PORT, as the host printed it)."""
    from p2ptable import play

    try:
        result = play.join(
            address,
            code,
            name,
            bot=bot,
            replay=replay,
            quiet=quiet,
            bot_delay=bot_delay,
            stats=stats,
            port=port,
        )
    except (LobbyError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    _finish(result)


@main.command(name="play")
@click.argument("game")
@click.option("--bots", type=int, default=3, show_default=True, help="How many bot opponents.")
@click.option("--name", default=None, help="Your name at the table (default: your login name).")
@click.option("--variant", default=None)
@click.option("--scoring", default=None)
@click.option("--option", multiple=True, metavar="NAME=VALUE")
@click.option(
    "--opponents", type=click.Choice(["random", "greedy"]), default="greedy", show_default=True
)
@click.option(
    "--replay",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write your replay (default: a new file in your data directory).",
)
@click.option("--quiet", "-q", is_flag=True)
@_bot_option
def play_cmd(  # noqa: ANN201
    game, bots, name, variant, scoring, option, opponents, replay, quiet, bot, bot_delay, stats
):  # noqa: ANN001, ANN201
    """Play GAME against local bot peers (separate processes on loopback)."""
    from p2ptable import play

    name = name or _login_name()
    try:
        result = play.play(
            _game_name(game),
            bots,
            name,
            _options(variant, scoring, option),
            bot_kind=opponents,
            you=bot,
            replay=replay,
            quiet=quiet,
            bot_delay=bot_delay,
        )
    except (RulesError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    _finish(result, resumable=False)  # the local bots are gone with us


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--quiet", "-q", is_flag=True)
@_bot_option
def resume(file, quiet, bot, bot_delay, stats):  # noqa: ANN001, ANN201
    """Rejoin a running game from your replay FILE after your process died."""
    from p2ptable import play
    from p2ptable.net.persistence import ResumeError

    try:
        result = play.resume(file, bot=bot, quiet=quiet, bot_delay=bot_delay)
    except ResumeError as exc:
        raise click.ClickException(str(exc)) from None
    _finish(result)
