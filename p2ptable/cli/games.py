"""The commands about the games themselves: games (what can be played), rules
(a game's rulebook notes, through the pager) and sim (a whole game among bots,
written as a replay file)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from p2ptable.cli.app import _game_name, _options, cannot_write, main
from p2ptable.engine.api import RulesError
from p2ptable.games import all_games, get_game
from p2ptable.ui import text
from p2ptable.ui.narrative import event_line


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
@click.option(
    "--no-pager", is_flag=True, help="Print the page even when it is longer than the terminal."
)
def rules(game: str, no_pager: bool) -> None:
    """Show GAME's rules notes: how p2ptable settles what the rulebook leaves open.

    A page longer than the terminal goes through your pager ($PAGER, else less)."""
    page = get_game(_game_name(game)).rules_notes()
    if not no_pager and _longer_than_terminal(page):
        click.echo_via_pager(page)
    else:
        click.echo(page)


def _longer_than_terminal(page: str) -> bool:
    """Whether ``page`` would scroll off a terminal (never on a pipe: it is printed)."""
    import shutil

    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return False
    size = shutil.get_terminal_size()
    width = max(size.columns, 1)
    rows = sum(max(1, -(-len(line) // width)) for line in page.splitlines())  # wrapped
    return rows >= size.lines


@main.command()
@click.argument("game")
@click.option("--players", "-n", type=int, required=True, help="Number of seats.")
@click.option("--seed", required=True, help="Any text; the same seed gives the same file.")
@click.option(
    "--out",
    "-o",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    metavar="FILE",
    help="Where to write the replay. Its folder must exist; never over a replay.",
)
@click.option("--force", is_flag=True, help="Replace FILE if it exists (never a replay).")
@click.option("--variant", default=None, help="Game variant (see `p2ptable games`).")
@click.option("--scoring", default=None, help="Scoring rules (see `p2ptable games`).")
@click.option("--option", multiple=True, metavar="NAME=VALUE", help="Any other game option.")
@click.option(
    "--bots",
    default=None,
    metavar="KIND,...",
    help="Bot per seat, comma-separated: random or greedy (default greedy for all).",
)
@click.option(
    "--keep-going",
    is_flag=True,
    help="Escrow every seat's deck secret, as a table that goes on without a leaver does "
    "(hidden hands, 3 seats or more).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
def sim(
    game: str,
    players: int,
    seed: str,
    out: Path,
    variant: str | None,
    scoring: str | None,
    option: tuple[str, ...],
    force: bool,
    bots: str | None,
    keep_going: bool,
    quiet: bool,
) -> None:
    """Simulate a whole game of GAME between bots and write its signed replay.

    FILE appears when the game is over (an interrupted `sim` leaves none); an
    existing file is replaced only with --force, and a replay never."""
    from p2ptable.sim import simulate

    name = _game_name(game)
    bot_kinds = bots.split(",") if bots else None

    def show(applied, ledger) -> None:  # noqa: ANN001 - click-side callback
        if not quiet:
            click.echo(event_line(applied, [s.name for s in ledger.seats]))

    try:
        result = simulate(
            name,
            players,
            seed,
            out,
            options=_options(variant, scoring, option),
            bots=bot_kinds,
            on_entry=show,
            force=force,
            keep_going=keep_going,
        )
    except (RulesError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    except BrokenPipeError:
        raise  # the reader of the event lines went away (`| head`): the group says so
    except OSError as exc:
        raise click.ClickException(cannot_write(out, exc)) from None
    click.echo(text.result_lines(result.outcome, result.names))
    click.echo(f"Replay written to {result.path} ({result.entries} entries).")
