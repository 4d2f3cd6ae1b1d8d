"""How a live game ends for the person at the seat: the question to play again
at the same table (asked of a person at a terminal), and the words and exit
status of every ending (finished, stopped, left, a break, a table that did not
fill, a host that did not answer)."""

from __future__ import annotations

import sys

import click

from p2ptable.invocation import command

_told: set = set()  # the replays whose place was said before the question to play again


def _again_wanted(result, quiet: bool, bot: str | None) -> bool:  # noqa: ANN001 - a PlayResult
    """Whether the person at this finished seat plays again at the same table
    (asked only of a person at a terminal; the replay is said first)."""
    from p2ptable import play

    if result.status != play.FINISHED or result.replay is None or quiet or bot is not None:
        return False
    if result.already_over or not sys.stdin.isatty():
        return False
    click.echo(f"Replay saved to {result.replay}")
    _told.add(result.replay)  # said: _finish does not say it again
    try:
        return click.confirm("Play again at this table?", default=False)
    except click.Abort:
        return False


def _finish(result, quiet: bool = False) -> None:  # noqa: ANN001 - a play.PlayResult
    """Say how the game ended, and exit with its status.  ``quiet`` (``-q``): nothing
    on the standard output; what a script must still know (that the seat left and
    how to continue, that the game was over already or stopped) on the standard
    error, and the replay's place not at all."""
    from p2ptable import play
    from p2ptable.ui.endings import stop_words
    from p2ptable.ui.text import result_lines

    if result.status == play.PAUSED:
        click.echo("\nThe table takes a break: every seat agreed; the game is saved.", err=quiet)
        if result.resume_hint:
            click.echo(f"To come back: {result.resume_hint}", err=quiet)
        sys.exit(play.PAUSED)
    if result.status == play.LEFT and result.left_for_good and result.outcome is not None:
        # Our peer stayed until every seat held our departure, and bots played the
        # game to its end meanwhile: it is over, nothing is left to watch.
        click.echo("\nYou left the table; a bot played for you, and the game is over.", err=quiet)
        if result.replay is not None and not quiet:
            click.echo(f"Replay saved to {result.replay}")
        sys.exit(play.LEFT)
    if result.status == play.LEFT and result.left_for_good:
        click.echo("\nYou left the table: a bot plays for you from now on.", err=quiet)
        if result.bots:  # they play on to the end by themselves (play._end_bots)
            click.echo("The bot peers you started play on to the end without you.", err=quiet)
        if result.resume_hint:
            click.echo(f"To watch the rest of the game: {result.resume_hint}", err=quiet)
        sys.exit(play.LEFT)
    if result.status == play.LEFT:
        click.echo("\nYou left the game.", err=quiet)
        if result.resume_hint:
            click.echo(f"To continue where you stopped: {result.resume_hint}", err=quiet)
        sys.exit(play.LEFT)
    if result.already_over:
        click.echo(f"This game is already over ({result.replay}).", err=quiet)
        if result.outcome is not None and not quiet:
            click.echo(result_lines(result.outcome, result.names))
    if result.stopped is not None:
        click.echo("\n" + stop_words(result.stopped, result.names), err=quiet)
    if result.replay is not None and not quiet:
        if result.replay not in _told:
            click.echo(f"Replay saved to {result.replay}")
        click.echo(f"Check it with: {command('verify', str(result.replay))}")
    if result.status == play.TIMED_OUT:
        raise click.ClickException("the table did not fill in time")
    if result.status == play.NO_ANSWER:
        raise click.ClickException("the host did not answer")
    if result.status == play.STOPPED and not result.already_over:
        sys.exit(play.STOPPED)
    sys.exit(0 if result.already_over else result.status)
