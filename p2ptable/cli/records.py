"""The commands about games and their records: games, rules, sim, verify, show."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from p2ptable.cli import _game_name, _options, main
from p2ptable.engine.api import RulesError
from p2ptable.engine.registry import all_games, get_game
from p2ptable.ui import text


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
