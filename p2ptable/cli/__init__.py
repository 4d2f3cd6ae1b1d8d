"""The ``p2ptable`` command line: parse, call the library, render, map errors.

Every command is a thin wrapper: the behaviour lives in the library (``sim``,
``replay.verify``, the games).  Domain errors become ``click.ClickException``
(printed as ``Error: ...``, exit 1) at this edge and nowhere else.
"""

from __future__ import annotations

import click

from p2ptable import __version__
from p2ptable.engine.registry import get_game


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


# The commands live in two modules, registered on `main` when imported:
# records.py (games, rules, sim, verify, show) and live.py (host, join, play, resume).
from p2ptable.cli import live, records  # noqa: E402, F401

if __name__ == "__main__":  # pragma: no cover
    main()
