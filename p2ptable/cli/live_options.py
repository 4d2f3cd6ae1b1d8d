"""The options the live commands (host, join, play, resume, watch) share, and
how a person's mistake becomes one ``Error:`` line: what a person typed wrong
(a port, an address, a code, a damaged replay) comes back from the library as
ValueError, LobbyError or ResumeError (``USER_ERRORS``), which ``_call`` turns
into a ClickException."""

from __future__ import annotations

import getpass
from collections.abc import Callable
from pathlib import Path

import click

from p2ptable.bots import BOT_KINDS
from p2ptable.cli.app import Seconds
from p2ptable.engine.api import RulesError
from p2ptable.net.lobby import LobbyError
from p2ptable.net.persistence import ResumeError

USER_ERRORS = (RulesError, ValueError, LobbyError, ResumeError)
PORT = click.IntRange(0, 65535)


def _bell_option(f: Callable) -> Callable:
    return click.option(
        "--no-bell",
        "no_bell",
        is_flag=True,
        help="Do not ring the terminal bell when it becomes your turn.",
    )(f)


def _plain_option(f: Callable) -> Callable:
    return click.option(
        "--plain",
        is_flag=True,
        help="The line mode: the screen printed line by line, no full-screen table "
        "(chosen by itself when the output is not a terminal or TERM=dumb).",
    )(f)


def _name_option(f: Callable) -> Callable:
    return click.option(
        "--name", default=None, help="Your name at the table (default: your login name)."
    )(f)


def _login_name() -> str:

    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = ""
    login = "".join(c for c in login if c.isprintable())[:32]
    return login.capitalize() if login else "Player"


def _bot_options(delay: float = 0.0) -> Callable:
    def decorate(f: Callable) -> Callable:
        f = click.option(
            "--stats",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            hidden=True,
            help="Write per-entry timestamps (JSON lines) for the latency benchmark.",
        )(f)
        f = click.option(
            "--bot-delay",
            type=Seconds(0, 60),
            default=delay,
            show_default=True,
            help="Seconds a bot waits before each move, so people can follow.",
        )(f)
        return click.option(
            "--bot",
            type=click.Choice(BOT_KINDS),
            default=None,
            help="Let a bot play this seat (no prompts); exit 0 when the game ends.",
        )(f)

    return decorate


def _replay_option(f: Callable) -> Callable:
    return click.option(
        "--replay",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Where to write your replay (default: a new file in your data directory).",
    )(f)


def _quiet_option(f: Callable) -> Callable:
    return click.option(
        "--quiet",
        "-q",
        is_flag=True,
        help="Print nothing but errors, for scripts and bots' seats (a host still prints "
        "what the others must type, and a person's seat its table).",
    )(f)


def _game_options(f: Callable) -> Callable:
    f = click.option(
        "--option", multiple=True, metavar="NAME=VALUE", help="Any other game option."
    )(f)
    f = click.option("--scoring", default=None, help="Scoring rules (see `p2ptable games`).")(f)
    return click.option("--variant", default=None, help="Game variant (see `p2ptable games`).")(f)


def _call(what: Callable, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
    try:
        return what(*args, **kwargs)
    except USER_ERRORS as exc:
        raise click.ClickException(str(exc)) from None
