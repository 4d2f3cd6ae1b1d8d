"""The ``p2ptable`` command line: parse, call the library, render, map errors.

Every command is a thin wrapper: the behaviour lives in the library (``sim``,
``replay.verify``, the games).  Domain errors become ``click.ClickException``
(printed as ``Error: ...``, exit 1) at this edge and nowhere else.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from p2ptable import __version__
from p2ptable.engine.api import RulesError
from p2ptable.engine.registry import all_games, get_game
from p2ptable.net.lobby import LobbyError
from p2ptable.ui import text


def _game_name(value: str) -> str:
    try:
        return get_game(value).name
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0])) from None


def _options(variant: str | None, scoring: str | None, option: tuple[str, ...]) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in option:
        name, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--option")
        options[name] = value
    if variant is not None:
        options["variant"] = variant
    if scoring is not None:
        options["scoring"] = scoring
    return options


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="p2ptable")
def main() -> None:
    """Serverless, cheat-proof card and dice games between peers on a LAN."""


@main.command()
def games() -> None:
    """List the games and their options."""
    for game in all_games().values():
        click.echo(f"{game.name}  ({game.title}, {game.min_seats}-{game.max_seats} players)")
        for spec in game.options:
            flag = (
                f"--{spec.name} "
                if spec.name in ("variant", "scoring")
                else f"--option {spec.name}="
            )
            click.echo(f"    {flag}{'|'.join(spec.choices)}  (default {spec.default})")
        if getattr(game, "hidden_hands", False):
            click.echo("    (hidden hands, dealt from a sealed deck)")


@main.command()
@click.argument("game")
def rules(game: str) -> None:
    """Show GAME's rules notes: how p2ptable settles what the rulebook leaves open."""
    click.echo(get_game(_game_name(game)).rules_notes())


@main.command()
@click.argument("game")
@click.option("--players", "-n", type=int, required=True, help="Number of seats.")
@click.option("--seed", required=True, help="Any text; the same seed gives the same file.")
@click.option("--out", "-o", "out", type=click.Path(dir_okay=False), required=True)
@click.option("--variant", default=None, help="Game variant (see `p2ptable games`).")
@click.option("--scoring", default=None, help="Scoring rules (see `p2ptable games`).")
@click.option("--option", multiple=True, metavar="NAME=VALUE", help="Any other game option.")
@click.option(
    "--bots",
    default=None,
    metavar="KIND,...",
    help="Bot per seat, comma-separated: random or greedy (default greedy for all).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
def sim(
    game: str,
    players: int,
    seed: str,
    out: str,
    variant: str | None,
    scoring: str | None,
    option: tuple[str, ...],
    bots: str | None,
    quiet: bool,
) -> None:
    """Simulate a whole game of GAME between bots and write its signed replay."""
    from p2ptable.sim import simulate

    name = _game_name(game)
    bot_kinds = bots.split(",") if bots else None

    def show(applied, ledger) -> None:  # noqa: ANN001 - click-side callback
        if not quiet:
            click.echo(text.event_line(applied, ledger))

    try:
        result = simulate(
            name,
            players,
            seed,
            out,
            options=_options(variant, scoring, option),
            bots=bot_kinds,
            on_entry=show,
        )
    except (RulesError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(text.result_lines(result.outcome, result.names))
    click.echo(f"Replay written to {result.path} ({result.entries} entries).")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.option("--events", is_flag=True, help="Also list every verified entry.")
def verify(file: str, as_json: bool, events: bool) -> None:
    """Re-check every signature, random value and rule in a replay FILE.

    Exit status 0 when the file is valid, 1 when it is not.
    """
    from p2ptable.replay.verify import verify_file

    report = verify_file(Path(file))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        if events and report.ledger is not None:
            for applied in report.events:
                click.echo(text.event_line(applied, report.ledger))
        click.echo(text.verify_summary(file, report))
    sys.exit(0 if report.valid else 1)


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--at", "at", type=int, default=None, help="Show the table after entry N.")
@click.option("--seat", type=int, default=None, help="Show what seat N saw (default: public).")
@click.option("--step", is_flag=True, help="Show every entry in turn (Enter for the next).")
def show(file, at, seat, step):  # noqa: ANN001, ANN201
    """Replay viewer: the table after any entry of a replay FILE (re-checked as it goes)."""
    from p2ptable.ui.replay_viewer import ReplayError, frames
    from p2ptable.ui.style import color_enabled

    color = color_enabled(os.environ, sys.stdout.isatty())
    shown = None
    try:
        for frame in frames(file, seat=seat, color=color):
            if step:
                click.echo(f"--- after entry {frame.index} ---")
                click.echo(frame.screen)
                if sys.stdin.isatty() and click.getchar() in ("q", "Q"):
                    return
            shown = frame
            if at is not None and frame.index >= at:
                break
    except ReplayError as exc:
        if shown is not None and not step:
            click.echo(f"--- after entry {shown.index} ---")
            click.echo(shown.screen)
        raise click.ClickException(f"the replay is invalid at {exc}") from None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--seat") from None
    if not step and shown is not None:
        click.echo(f"--- after entry {shown.index} ---")
        click.echo(shown.screen)


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


if __name__ == "__main__":  # pragma: no cover
    main()
