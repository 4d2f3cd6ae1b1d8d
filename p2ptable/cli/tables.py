"""`p2ptable tables`, and the pick `join` offers when no address is typed.

Both listen for the tables announced on the LAN for a few seconds
(net/discovery.py) and print them (ui/table_list.py).  Nothing connects
anywhere: `join` goes to a table only once the person picked it, and is handed
the picked table's id too, to check against the host's own in the handshake
(net/arrival.py says so when they differ).  Two addresses that claim one table
are both shown, marked, and Enter then picks nothing.  A network
that filters multicast shows no tables, with the hint to type the address the
host printed; `join` then exits 2 (a usage error) instead of waiting.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click

from p2ptable.cli.app import Seconds, main

MAX_TRIES = 10  # wrong answers at the menu before `join` gives up
WAIT = Seconds(0.5, 60)


def wait_option(f):  # noqa: ANN001, ANN201
    return click.option(
        "--wait",
        type=WAIT,
        default=3.0,
        show_default=True,
        help="Seconds to listen for tables announced on the network.",
    )(f)


def interface_option(f):  # noqa: ANN001, ANN201
    return click.option(
        "--interface",
        "interfaces",
        metavar="ADDRESS",
        multiple=True,
        help="Listen only on the network card with this IPv4 address (default: all).",
    )(f)


def _interfaces(values: Sequence[str]) -> list[str]:
    from p2ptable.net.announce_record import usable_address

    for value in values:
        if usable_address(value) != value:
            raise click.BadParameter(
                f"expected this machine's IPv4 address, such as 192.168.1.20, not {value!r}",
                param_hint="--interface",
            )
    return list(values)


def _heard(wait: float, interfaces: Sequence[str]):  # noqa: ANN202 - a discovery.Heard
    from p2ptable.net import discovery

    return discovery.listen(wait, _interfaces(interfaces))


@main.command()
@wait_option
@interface_option
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON, one list.")
def tables(wait, interfaces, as_json):  # noqa: ANN001, ANN201
    """List the open tables announced on this network (for `p2ptable join`)."""
    from p2ptable.ui.table_list import table_lines

    heard = _heard(wait, interfaces)
    if as_json:
        click.echo(json.dumps([_as_dict(t) for t in heard.tables], indent=1))
        return
    if heard.problem:
        click.echo(f"Note: {heard.problem}.")
    for line in table_lines(heard.tables, wait):
        click.echo(line)
    if any(t.announcement.open for t in heard.tables):
        click.echo("Join one with: p2ptable join (and pick it from the list)")
    if any(t.announcement.watch for t in heard.tables):
        click.echo("Watch one with: p2ptable watch (and pick it from the list)")


def _as_dict(table) -> dict:  # noqa: ANN001 - a HeardTable
    ad = table.announcement
    return {
        "host": ad.host,
        "game": ad.game,
        "options": dict(ad.options),
        "seats_taken": ad.taken,
        "seats": ad.seats,
        "spectators": ad.watch,
        "keep_going": ad.keep,
        "address": table.where,
        "table": ad.table_id,
        "heard_after": round(table.heard_after, 4),
        "conflict": list(table.conflicts),
    }


def pick_table(wait: float, interfaces: Sequence[str], watching: bool = False):  # noqa: ANN201
    """The table the person picks from those heard (a HeardTable: ``where`` is
    HOST:PORT): the open ones for `join`, those that admit spectators for
    `watch`.  Enter picks the first unless one is in conflict.  No table heard:
    the hint, and exit 2.  q, or too many wrong answers: exit 2."""
    from p2ptable.net.listing import ambiguous
    from p2ptable.ui.table_list import (
        PICK_PROMPT,
        PICK_PROMPT_AMBIGUOUS,
        Invalid,
        Quit,
        parse_pick,
        table_lines,
    )

    heard = _heard(wait, interfaces)
    if heard.problem:
        click.echo(f"Note: {heard.problem}.", err=True)
    found = [t for t in heard.tables if (t.announcement.watch if watching else t.announcement.open)]
    lines = table_lines(found, wait, numbered=True, watching=watching)
    if not found:
        click.echo(lines[0], err=True)
        sys.exit(2)
    for line in lines:
        click.echo(line)
    unclear = ambiguous(found)
    for _ in range(MAX_TRIES):
        prompt = PICK_PROMPT_AMBIGUOUS if unclear else PICK_PROMPT
        typed = click.prompt(prompt, default="", show_default=False)
        picked = parse_pick(typed, len(found), unclear)
        if isinstance(picked, Quit):
            sys.exit(2)
        if isinstance(picked, Invalid):
            click.echo(picked.message)
            continue
        return found[picked]
    click.echo("No table picked.", err=True)
    sys.exit(2)
