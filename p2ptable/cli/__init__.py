"""The ``p2ptable`` command line: parse, call the library, render, map errors.

Every command is a thin wrapper: the behaviour lives in the library (``sim``,
``replay.verify``, the games).  Domain errors become ``click.ClickException``
(printed as ``Error: ...``, exit 1) at this edge and nowhere else; what no command
expected is said in one line too (see ``_Commands``), never as a traceback.
"""

from __future__ import annotations

import os
import traceback
from pathlib import Path

import click

from p2ptable import __version__
from p2ptable.games import get_game


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


class _Commands(click.Group):
    """The group that never lets a traceback reach a person.

    Commands turn the errors they expect into ``click.ClickException``.  Anything
    else that escapes is either the machine's (a disk full, a file that vanished:
    an ``OSError``, said in one line) or a bug in p2ptable, said as one: the
    exception and where it was raised, in one line.  ``P2PTABLE_DEBUG=1`` lets the
    whole traceback through instead.
    """

    def invoke(self, ctx: click.Context):  # noqa: ANN201 - whatever the command returns
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, EOFError):
            raise
        except Exception as exc:
            if os.environ.get("P2PTABLE_DEBUG"):
                raise
            raise click.ClickException(_unexpected(exc)) from exc


def _unexpected(exc: Exception) -> str:
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    place = f"{Path(frame.filename).name}:{frame.lineno}"
    said = " ".join(str(exc).split())  # one line, whatever the exception holds
    return (
        f"unexpected {type(exc).__name__}: {said} (at {place}). This is a bug in p2ptable: "
        "please report it with the command you ran (P2PTABLE_DEBUG=1 shows the traceback)."
    )


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="p2ptable")
def main() -> None:
    """Serverless, cheat-proof card and dice games between peers on a LAN."""


# The commands live in two modules, registered on `main` when imported:
# records.py (games, rules, sim, verify, show, replays), tables.py (tables) and
# live.py (host, join, play, resume).
from p2ptable.cli import live, records, tables  # noqa: E402, F401

if __name__ == "__main__":  # pragma: no cover
    main()
