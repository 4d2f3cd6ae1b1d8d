"""The commands that play live: host, join, play, resume and watch (their shared
options are cli/live_options.py, the table and code cli/table_and_code.py, the
words of an ending cli/live_endings.py).

Each parses, calls :mod:`p2ptable.play`, and says how the game ended: the
scores, the words that stopped it, or the command that continues it.  What a
person typed wrong (a port, an address, a code, a damaged replay) comes back as
ValueError, LobbyError or ResumeError and is printed as one ``Error:`` line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from p2ptable.bots import BOT_KINDS
from p2ptable.cli.app import Seconds, _game_name, _options, main
from p2ptable.cli.live_endings import _again_wanted, _finish, _told
from p2ptable.cli.live_options import (
    PORT,
    USER_ERRORS,
    _bell_option,
    _bot_options,
    _call,
    _game_options,
    _login_name,
    _name_option,
    _plain_option,
    _quiet_option,
    _replay_option,
)
from p2ptable.cli.table_and_code import CODE_TRIES, _table_and_code, ask_code
from p2ptable.cli.tables import interface_option, wait_option
from p2ptable.invocation import command
from p2ptable.net.lobby import WrongCode


@main.command()
@click.argument("game")
@click.option("--seats", type=int, required=True, help="Number of players, you included.")
@_name_option
@_game_options
@click.option(
    "--port",
    type=PORT,
    default=47001,
    show_default=True,
    help="Port the others connect to (0 picks a free one).",
)
@click.option("--code", default=None, help="Join code (default: a random one).")
@click.option(
    "--advertise",
    default=None,
    help="The address others reach you at: an IPv4 address of one of this machine's "
    "network cards (default: guessed from them).",
)
@click.option(
    "--no-announce",
    is_flag=True,
    help="Do not announce the table on the network (`p2ptable tables` will not list it).",
)
@click.option(
    "--spectators",
    is_flag=True,
    help="Let people with the code watch the game without a seat (`p2ptable watch`).",
)
@click.option(
    "--spectators-talk",
    is_flag=True,
    help="Let spectators write in a channel of their own, which seats can hide "
    "(needs --spectators).",
)
@click.option(
    "--hide-spectators",
    is_flag=True,
    help="Start with the spectators' channel hidden (`show spectators` shows it).",
)
@click.option(
    "--bots",
    type=click.IntRange(0, 5),
    default=0,
    show_default=True,
    help="Fill this many seats with bot peers run beside you; people join the rest.",
)
@click.option(
    "--opponents",
    type=click.Choice(BOT_KINDS),
    default=None,
    help="Which bot fills the --bots seats (default: the game's best opponent for a person).",
)
@click.option(
    "--keep-going/--no-keep-going",
    default=False,
    show_default=True,
    help="Escrow every deck secret among the other seats, so the table could go on "
    "without a player who leaves; then all the other players together could read a hand "
    "(hidden hands, 3 seats or more).",
)
@click.option(
    "--clock",
    type=click.IntRange(1, 24 * 3600),
    default=None,
    metavar="SECONDS",
    help="A limit per decision: when a person's time is up, their peer makes the move "
    "of the game's default bot (default: no clock).",
)
@_replay_option
@_quiet_option
@_bot_options()
@_bell_option
@_plain_option
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
    no_announce,
    spectators,
    spectators_talk,
    hide_spectators,
    bots,
    opponents,
    keep_going,
    clock,
    replay,
    quiet,
    bot,
    bot_delay,
    stats,
    no_bell,
    plain,
):  # noqa: ANN001, ANN201
    """Open a table for GAME and print what the others must type."""
    from p2ptable import play

    result = _call(
        play.host,
        _game_name(game),
        seats,
        _login_name() if name is None else name,
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
        listed=not no_announce,
        spectators=spectators,
        bell=not no_bell,
        plain=plain,
        bots=bots,
        bot_kind=opponents,
        keep_going=keep_going,
        clock=clock,
        spectators_talk=spectators_talk,
        hide_spectators=hide_spectators,
    )
    hosting = {"listed": not no_announce, "spectators": spectators, "keep_going": keep_going}
    hosting.update(bots=bots, bot_kind=opponents, spectators_talk=spectators_talk)
    again = _again(result, quiet, bot, bot_delay, not no_bell, plain, hide_spectators, **hosting)
    _finish(again, quiet)


@main.command()
@click.argument("address", required=False)
@click.option("--code", default=None, help="The join code the host printed (default: asked for).")
@_name_option
@click.option(
    "--port",
    type=PORT,
    default=0,
    help="Port the other players reach you on (default: any free one; fix it for a firewall).",
)
@click.option(
    "--timeout",
    type=Seconds(1, 3600),
    default=15.0,
    show_default=True,
    help="Seconds to wait for the host to answer before giving up.",
)
@_replay_option
@_quiet_option
@_bot_options()
@_bell_option
@_plain_option
@click.option(
    "--hide-spectators",
    is_flag=True,
    help="Start with the spectators' channel hidden (`show spectators` shows it).",
)
@click.option(
    "--lifeline", is_flag=True, hidden=True, help="Leave when stdin closes (play's bots)."
)
@wait_option
@interface_option
def join(
    address,
    code,
    name,
    port,
    timeout,
    replay,
    quiet,
    bot,
    bot_delay,
    stats,
    no_bell,
    plain,
    hide_spectators,
    lifeline,
    wait,
    interfaces,
):  # noqa: ANN001, ANN201
    """Join the table at ADDRESS (HOST:PORT, as the host printed it).

    Without ADDRESS, lists the tables announced on this network and lets you
    pick one. Without --code, asks for it."""
    from p2ptable import checks, play

    name = _login_name() if name is None else name
    _call(checks.check_name, name)  # before listening or asking: a typo is said at once
    asked = code is None
    address, code, listed = _table_and_code(address, code, wait, interfaces, watching=False)
    for tries in range(1, CODE_TRIES + 1):
        try:
            result = play.join(
                address,
                code,
                name,
                listed_table=listed,
                bot=bot,
                replay=replay,
                quiet=quiet,
                bot_delay=bot_delay,
                stats=stats,
                port=port,
                connect_timeout=timeout,
                lifeline=lifeline,
                say=click.echo,
                bell=not no_bell,
                plain=plain,
                hide_spectators=hide_spectators,
            )
            break
        except WrongCode as exc:
            # A code typed at the question and refused by the host is asked
            # again, as a code of the wrong form is; given on the line, it ends.
            if not asked or tries == CODE_TRIES:
                raise click.ClickException(str(exc)) from None
            click.echo(f"Error: {exc}", err=True)
            code = ask_code()
        except USER_ERRORS as exc:
            raise click.ClickException(str(exc)) from None
    _finish(_again(result, quiet, bot, bot_delay, not no_bell, plain, hide_spectators), quiet)


@main.command(name="play")
@click.argument("game")
@click.option(
    "--bots",
    type=int,
    default=3,
    show_default=True,
    help="How many bot opponents.",
)
@_name_option
@_game_options
@click.option(
    "--opponents",
    type=click.Choice(BOT_KINDS),
    default=None,
    help="Which bot plays the other seats (default: the game's best opponent for a "
    "person: strong for Teacher's Pet, greedy for the others).",
)
@_replay_option
@_quiet_option
@_bot_options(delay=0.5)
@_bell_option
@_plain_option
def play_cmd(
    game,
    bots,
    name,
    variant,
    scoring,
    option,
    opponents,
    replay,
    quiet,
    bot,
    bot_delay,
    stats,
    no_bell,
    plain,
):  # noqa: ANN001, ANN201
    """Play GAME against local bot peers (separate processes on loopback).

    With --bot, a bot takes your seat too and you watch the game. At the end it
    offers to play again, against new bots of the same kind."""
    from p2ptable import play

    result = _call(
        play.play,
        _game_name(game),
        bots,
        _login_name() if name is None else name,
        _options(variant, scoring, option),
        bot_kind=opponents,
        you=bot,
        replay=replay,
        quiet=quiet,
        bot_delay=bot_delay,
        bell=not no_bell,
        plain=plain,
    )
    _finish(_again(result, quiet, bot, bot_delay, not no_bell, plain), quiet)


def _again(result, quiet, bot, delay, bell, plain, hide=False, **hosting):  # noqa: ANN001, ANN003, ANN202
    """Play again at the same table while the person at this finished seat
    wants to (p2ptable/rematch.py), and return the last game's result: the host
    opens its table again (with ``hosting``, else with as many new bot peers of
    the same kinds as the last game had), a seat goes back to its host."""
    from p2ptable import rematch

    while _again_wanted(result, quiet, bot):
        common = {"bot": bot, "quiet": quiet, "bot_delay": delay, "bell": bell, "plain": plain}
        common["hide_spectators"] = hide
        if _call(rematch.read_again, result.replay).seat != 0:
            click.echo("Waiting for the host to open the table again...")
            result = _call(rematch.join_again, result.replay, say=click.echo, **common)
            continue
        bots = {"bots": len(result.bots), "bot_kind": (result.bots or (None,))[0]}
        result = _call(
            rematch.host_again, result.replay, announce=click.echo, **(hosting or bots), **common
        )
    return result


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--port",
    type=PORT,
    default=None,
    help="Listen on this port instead of the one the game started on (if that one is taken).",
)
@_quiet_option
@_bot_options()
@_bell_option
@_plain_option
@click.option(
    "--lifeline", is_flag=True, hidden=True, help="Leave when stdin closes (play's bots)."
)
def resume(file, port, quiet, bot, bot_delay, stats, no_bell, plain, lifeline):  # noqa: ANN001, ANN201
    """Rejoin a running game from your replay FILE after your process died.

    A game started with `play` comes back with its bots; one that then finishes
    offers to play again at the same table, as `host` and `join` do."""
    from p2ptable import play

    result = _call(
        play.resume, file, bot=bot, quiet=quiet, bot_delay=bot_delay, port=port,
        lifeline=lifeline, announce=(lambda _: None) if quiet else click.echo,
        bell=not no_bell,
        plain=plain,
    )  # fmt: skip
    # A game that finishes here may be played again, as at `host` and `join`.
    _finish(_again(result, quiet, bot, bot_delay, not no_bell, plain), quiet)


@main.command()
@click.argument("address", required=False)
@click.option("--code", default=None, help="The join code the host printed.")
@click.option("--name", default=None, help="Your name as a spectator (default: your login name).")
@click.option(
    "--timeout",
    type=Seconds(1, 3600),
    default=15.0,
    show_default=True,
    help="Seconds to wait for the host to answer.",
)
@_replay_option
@_quiet_option
@wait_option
@interface_option
@_plain_option
def watch(address, code, name, timeout, replay, quiet, wait, interfaces, plain):  # noqa: ANN001, ANN201
    """Watch the game at ADDRESS without a seat, checking every move as it happens.

    The table must be opened with `host --spectators`. You see what everyone may
    see, never a hand, and keep a replay identical to the players'. Without
    ADDRESS, lists the tables announced on this network and lets you pick one."""
    from p2ptable import checks, frontends
    from p2ptable import watch as watching

    name = _login_name() if name is None else name
    _call(checks.check_name, name)
    _call(checks.check_new_replay, replay)
    address, code, listed = _table_and_code(address, code, wait, interfaces, watching=True)
    result = _call(
        watching.watch,
        address,
        code,
        name,
        listed_table=listed,
        replay=replay,
        quiet=quiet,
        connect_timeout=timeout,
        full_screen=frontends.full_screen(plain, person=True),
    )
    if result.status == watching.LEFT:
        click.echo("\nYou stopped watching.", err=quiet)
    if result.replay is not None and not quiet:
        if result.replay not in _told:
            click.echo(f"Replay saved to {result.replay}")
        click.echo(f"Check it with: {command('verify', str(result.replay))}")
    if result.status == watching.LEFT:
        sys.exit(watching.LEFT)
    if result.status != watching.WATCHED:
        raise click.ClickException(result.message)
