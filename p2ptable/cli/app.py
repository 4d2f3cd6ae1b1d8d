"""The ``p2ptable`` command group itself: the group that turns every error into
one line and every interrupt into exit status 130, and what its commands share
(the game and option arguments).  The commands are registered on :data:`main`
by their modules (``cli/games.py``, ``cli/live.py``, ``cli/records.py``,
``cli/tables.py``), which import this one.  A module is imported only when one of
its commands runs (:data:`COMMANDS` names the module of each), so ``verify`` does
not pay for the network and the screens at start-up; ``--help`` imports them all to
list every command with its help.  The modules are named by string, so nothing here
imports a command (no import circle).

Every command ends the same way when it is interrupted (Ctrl-C: exit status 130,
as shells report SIGINT, never click's "Aborted!" and 1, which for ``verify``
means INVALID), when the input ends at one of its questions (the join code: an
error, "the input ended before an answer", never a bare "Aborted!") and when the
reader of its output goes away (``verify --events | head -1``: exit 141, as
shells report SIGPIPE, with nothing on the standard error; the output was cut
short, so the status is neither verify's 0 nor its 1).
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
from collections.abc import MutableMapping
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


class Seconds(click.FloatRange):
    """A number of seconds in a range, and a number: click's FloatRange lets "nan"
    through (no comparison with nan is ever true)."""

    def convert(self, value, param, ctx):  # noqa: ANN001, ANN201 - click's signature
        import math

        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number of seconds.", param, ctx)
        return number


#: Which module registers each command: imported when the command is looked up.
COMMANDS = {
    "export": "p2ptable.cli.records",
    "games": "p2ptable.cli.games",
    "host": "p2ptable.cli.live",
    "join": "p2ptable.cli.live",
    "play": "p2ptable.cli.live",
    "replays": "p2ptable.cli.records",
    "resume": "p2ptable.cli.live",
    "rules": "p2ptable.cli.games",
    "show": "p2ptable.cli.records",
    "sim": "p2ptable.cli.games",
    "tables": "p2ptable.cli.tables",
    "verify": "p2ptable.cli.records",
    "watch": "p2ptable.cli.live",
}


class _Commands(click.Group):
    """The group that never lets a traceback reach a person.

    Commands turn the errors they expect into ``click.ClickException``.  Anything
    else that escapes is either the machine's (a disk full, a file that vanished:
    an ``OSError``, said in one line) or a bug in p2ptable, said as one: the
    exception and where it was raised, in one line.  ``P2PTABLE_DEBUG=1`` lets the
    whole traceback through instead.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(COMMANDS[cmd_name])
        return super().get_command(ctx, cmd_name)

    def loaded(self) -> MutableMapping[str, click.Command]:
        """Every command, each module imported: for whatever walks them all."""
        for module in sorted(set(COMMANDS.values())):
            importlib.import_module(module)
        return self.commands

    def invoke(self, ctx: click.Context):  # noqa: ANN201 - whatever the command returns
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _interrupted()
        except click.Abort as exc:
            # click.prompt turns Ctrl-C and the end of the input alike into Abort,
            # the one it caught kept as the context.  The end of the input is no
            # interrupt: a question left without an answer, said as an error (never
            # click's bare "Aborted!").
            if isinstance(exc.__context__, KeyboardInterrupt):
                _interrupted()
            if isinstance(exc.__context__, EOFError):
                click.echo(err=True)  # the question's line is left open
                raise click.ClickException("the input ended before an answer") from None
            raise
        except BrokenPipeError:
            _pipe_closed()
        except (click.ClickException, click.exceptions.Exit, EOFError):
            raise
        except Exception as exc:
            if os.environ.get("P2PTABLE_DEBUG"):
                raise
            raise click.ClickException(_unexpected(exc)) from exc


INTERRUPTED = 130  # 128 + SIGINT: what a shell reports for a program Ctrl-C stopped
PIPE_CLOSED = 141  # 128 + SIGPIPE: what it reports for one whose reader went away


def _interrupted() -> None:
    click.echo(err=True)  # the terminal echoed "^C": end that line
    raise click.exceptions.Exit(INTERRUPTED)


def _pipe_closed() -> None:
    """The reader of our output is gone: stop, saying nothing (there is nobody to
    tell), and send what is still buffered for the standard output nowhere, so
    that flushing it at exit does not fail again (the recipe of Python's docs for
    SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's buffer): nothing will be flushed to it
    raise click.exceptions.Exit(PIPE_CLOSED)


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


def cannot_write(path: Path, exc: OSError) -> str:
    """Why ``path`` could not be written.  A missing folder is not created: a typo
    in a folder name should be an error, not a new folder (as with cp or tar)."""
    folder = path.parent
    if not folder.exists():
        return f"cannot write {path}: the folder {folder} does not exist (create it first)"
    if not folder.is_dir():
        return f"cannot write {path}: {folder} is not a folder"
    return f"cannot write {path}: {exc.strerror or exc}"
