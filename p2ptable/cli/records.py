"""The commands about recorded games: verify, show, export, replays (games, rules
and sim, which record nothing yet, are cli/games.py)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from p2ptable.cli.app import cannot_write, main
from p2ptable.ui import text
from p2ptable.ui.narrative import event_line

if TYPE_CHECKING:  # imported by the commands that need them, to keep start-up quick
    from p2ptable.replay.catalog import Saved
    from p2ptable.ui.replay_viewer import Viewer


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(), metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report (also for a bad FILE).")
@click.option("--events", is_flag=True, help="Also list every verified entry.")
def verify(files: tuple[str, ...], as_json: bool, events: bool) -> None:
    """Re-check every signature, random value and rule in each replay FILE.

    Several files are checked at once, one per core, and reported in the order
    given (with --json: a list of reports, each naming its file).  Exit status 0
    when every file is valid, 1 when one is not.  The table's talk and its agreed
    break beside a file (FILE.talk, FILE.break) are checked too and said under
    its verdict, which they never change.
    """
    if len(files) == 1:
        lines, err, valid = _verify_rendered(files[0], as_json, events)
        if err:
            raise click.ClickException(err)
        for line in lines:  # one at a time: a reader that leaves ends us at once
            click.echo(line)
        sys.exit(0 if valid else 1)
    every_valid = True
    if as_json:
        click.echo("[")
    for n, (lines, err, valid) in enumerate(_verify_each(files, as_json, events)):
        every_valid = every_valid and valid
        if err:  # a file that could not be read: said, and the others still checked
            click.echo(f"Error: {err}", err=True)
            continue
        if as_json and n < len(files) - 1:
            lines[-1] += ","
        for line in lines:
            click.echo(line)
    if as_json:
        click.echo("]")
    sys.exit(0 if every_valid else 1)


def _verify_each(
    files: tuple[str, ...], as_json: bool, events: bool
) -> Iterator[tuple[list[str], str, bool]]:
    """Each file's rendered report, in the files' order, checked in worker processes
    (one per core: a replay's check is all CPU, and files are independent)."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    import p2ptable.replay.verify  # noqa: F401 - imported once here, not in every worker

    # Forking a process that runs threads can copy a lock another thread holds; the
    # command runs none, but a caller (a test runner) may: then start them afresh.
    method = "fork" if threading.active_count() == 1 and hasattr(os, "fork") else "spawn"
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=min(len(files), _cores()), mp_context=context)
    done = False
    try:
        yield from pool.map(
            partial(_verify_rendered, as_json=as_json, events=events, several=True), files
        )
        done = True
    finally:
        # Every file checked: the workers are joined (not joining them left the pool's
        # wake-up pipe to be closed under Python's exit).  Stopped early (Ctrl-C, a
        # closed pipe): the files not yet begun are dropped and nothing waits.
        pool.shutdown(wait=done, cancel_futures=not done)


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _verify_rendered(
    file: str, as_json: bool, events: bool, several: bool = False
) -> tuple[list[str], str, bool]:
    """``verify`` of one file, as text: (the lines to print, the error if it could
    not be read, whether it is valid).  Runs in a worker process when there are
    several."""
    from p2ptable.replay.verify import unreadable, unreadable_report, verify_file

    try:
        # One file: its shuffle proofs are checked on another core beside the pass;
        # several: each file has a core of its own already.
        report = verify_file(file, parallel=not several)
    except OSError as exc:
        # No file to judge: an error in words, or the JSON report of an invalid file.
        if not as_json:
            return [], unreadable(file, exc), False
        report = unreadable_report(file, exc)
    side = None
    if report.ledger is not None:  # the talk and the break beside it (replay/side_records.py)
        from p2ptable.replay.side_records import check_side_records

        side = check_side_records(Path(file), report.ledger)
    if as_json:
        data = report.to_json()
        if side is not None:
            data.update(side.to_json())
        if several:
            data = {"file": file, **data}
        return [json.dumps(data, indent=2, sort_keys=True)], "", report.valid
    lines = []
    if events and report.ledger is not None:
        names = [s.name for s in report.ledger.seats]
        lines += [event_line(applied, names) for applied in report.events]
    lines.append(text.verify_summary(file, report))
    lines += side.lines() if side is not None else []
    return lines, "", report.valid


STEP_KEYS = "Enter/n next, b back, q quit"


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Show the table after entry N (0 is the genesis; default: the last entry).",
)
@click.option(
    "--seat",
    default=None,
    metavar="SEAT",
    help="Show what one seat saw: its number (the first seat is 1) or its name "
    "(default: what everyone saw).",
)
@click.option(
    "--step",
    is_flag=True,
    help=f"Page through the entries from --at (or the start): {STEP_KEYS}.",
)
@click.option(
    "--plain",
    is_flag=True,
    help="Print the table as text, no full-screen stepping (chosen by itself when the "
    "output is not a terminal or TERM=dumb).",
)
def show(file: Path, at: int | None, seat: str | None, step: bool, plain: bool) -> None:
    """Replay viewer: the table after any entry of a replay FILE (re-checked as it goes).

    On a terminal it opens the full-screen table at that entry: the arrows step."""
    from p2ptable.replay.verify import unreadable
    from p2ptable.ui.replay_viewer import ReplayError, Viewer, seat_index
    from p2ptable.ui.style import color_enabled

    color = color_enabled(os.environ, sys.stdout.isatty())
    try:
        viewer = Viewer(file, color=color)
    except OSError as exc:
        raise click.ClickException(unreadable(file, exc)) from None
    except ReplayError as exc:
        raise click.ClickException(f"the replay is invalid at {exc}") from None
    index = None
    if seat is not None:
        try:
            index = seat_index(seat, viewer.names)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--seat") from None
        unread = viewer.read_as(index)
        if unread is not None:
            click.echo(f"Note: {unread}.", err=True)
    if at is not None and at > viewer.last:
        raise click.BadParameter(
            f"{at} is past the end: the last entry of {file} is {viewer.last}", param_hint="--at"
        )
    target = viewer.last if at is None else at
    from p2ptable.frontends import full_screen

    if not step and full_screen(plain, person=True):
        from p2ptable.ui.tui.replay import ReplayApp

        app = ReplayApp(viewer, target, index)
        app.run()
        sys.exit(app.return_code or 0)
    try:
        if step:
            _step(viewer, index, at or 0)
            return
        screen = viewer.screen(target, index)
        if target == viewer.last:
            viewer.check_tail()
    except ReplayError as exc:
        if not step:  # what the file proves, up to its first bad entry
            _echo_frame(viewer.checked, viewer.screen(viewer.checked, index))
        raise click.ClickException(f"the replay is invalid at {exc}") from None
    _echo_frame(target, screen)


def _echo_frame(index: int, screen: str) -> None:
    click.echo(f"--- after entry {index} ---")
    click.echo(screen)


def _step(viewer: Viewer, seat: int | None, start: int) -> None:
    """Show one entry at a time and read a key after each: forward, back or quit.
    A terminal answers with single keys; piped input with lines (so tests and
    scripts can drive it).  q, the end of the input (Ctrl-D), or the last entry
    ends it; Ctrl-C interrupts it (exit status 130, as every command)."""
    index = start
    while True:
        _echo_frame(index, viewer.screen(index, seat))
        key = _read_key(f"entry {index} of {viewer.last} — {STEP_KEYS}")
        while key not in _STEPS:
            key = _read_key(f"keys: {STEP_KEYS}")
        move = _STEPS[key]
        if move == 0 or (move > 0 and index == viewer.last):
            if index == viewer.last:
                viewer.check_tail()  # a damaged tail is an error, even when paged to
            return
        index = max(0, index + move)


# Key (first character of a line, lower case; or a terminal's key) -> step.  Ctrl-C
# is an interrupt, as in every command (exit status 130, cli/__init__.py).
_STEPS = {"": 1, "n": 1, " ": 1, "\x1b[c": 1, "\x1b[b": 1, "b": -1, "p": -1, "\x1b[d": -1,
          "\x1b[a": -1, "q": 0, "\x04": 0}  # fmt: skip


def _read_key(prompt: str) -> str:
    if sys.stdin.isatty():
        click.echo(prompt + " ", nl=False)
        try:
            key = click.getchar()
        except EOFError:  # Ctrl-D: the end of the input, as on a pipe
            key = "q"
        click.echo()
        key = key.lower()
        return "" if key in ("\r", "\n") else key
    click.echo(prompt)
    line = sys.stdin.readline()
    if not line:  # the end of the input: stop
        return "q"
    return line.strip().lower()[:1]


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "html"]),
    default="text",
    show_default=True,
    help="A header of tag pairs and one numbered line per entry, the same as JSON, or "
    "one self-contained HTML page that draws the table at every entry and re-checks "
    "every signature and link in the browser.",
)
@click.option(
    "--seat",
    default=None,
    metavar="SEAT",
    help="Name the hidden cards one seat saw: its number (the first seat is 1) or its "
    "name (default: every card of an audited log, none of any other).",
)
@click.option(
    "--out",
    "-o",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Write the record to FILE instead of the standard output (never over a replay).",
)
@click.option("--force", is_flag=True, help="Replace the --out FILE if it exists (never a replay).")
def export(file: Path, fmt: str, seat: str | None, out: Path | None, force: bool) -> None:
    """Write a replay FILE as a record a person can read, in the spirit of PGN.

    A header of tag pairs (game, options, seats, result, the log's head hash, the
    command that verifies it), then one numbered line per entry in words.  The file
    is verified first and refused, with verify's reason, unless every entry checks
    out; the record is derived from the signed log and is not a replay itself.
    """
    from p2ptable.replay.outputs import OutputRefused, check_output, written_whole
    from p2ptable.replay.verify import unreadable
    from p2ptable.ui.record import Ending, RecordRefused, check, record
    from p2ptable.ui.replay_viewer import seat_index

    try:
        if out is not None:  # said before the work, and checked again at the end
            check_output(out, force, reading=[file])
    except OutputRefused as exc:
        raise click.ClickException(str(exc)) from None
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise click.ClickException(unreadable(file, exc)) from None
    try:
        checked = check(str(file), data)
        index = None
        if seat is not None:
            try:
                index = seat_index(seat, checked.names)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--seat") from None
        if fmt == "html":  # a seat's own secrets file may stand in for the audit's
            from p2ptable.ui.html_page import page

            written = page(checked, index)
        else:
            made = record(checked, index)
            if fmt == "json":
                written = json.dumps(made.to_json(), indent=2, ensure_ascii=False)
            else:
                written = made.to_text()
    except RecordRefused as exc:
        raise click.ClickException(str(exc)) from None
    if out is None:
        click.echo(written)
    else:
        try:
            with written_whole(out, force, reading=[file]) as part:
                part.write_text(written + "\n", encoding="utf-8")
        except OutputRefused as exc:
            raise click.ClickException(str(exc)) from None
        except OSError as exc:
            raise click.ClickException(cannot_write(out, exc)) from None
    if checked.ends != Ending.RESULT and fmt == "html":
        click.echo(f"Note: the game is {checked.ends}; the page goes as far as the log.", err=True)
    elif checked.ends != Ending.RESULT:  # said in the header too; here for a record sent to a file
        click.echo(f"Note: {made.result}; the record goes as far as the log.", err=True)


@main.command()
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="FOLDER",
    help="List the replays in FOLDER instead of your data directory.",
)
def replays(folder: Path | None) -> None:
    """List your saved replays, newest first: date, game, players, how it ended.

    The files are read, not verified: check one with `p2ptable verify FILE`.
    """
    from p2ptable.net.persistence import data_dir
    from p2ptable.replay.catalog import list_replays

    where = folder if folder is not None else data_dir()
    try:
        saved = list_replays(where)
    except FileNotFoundError:
        if folder is not None:
            raise click.BadParameter(f"no such folder: {folder}", param_hint="--dir") from None
        saved = []  # nothing played yet: the folder is made by the first game
    except OSError as exc:
        raise click.ClickException(f"cannot list {where}: {exc.strerror or exc}") from None
    if not saved:
        click.echo(f"No replays in {where}.")
        return
    click.echo(f"Replays in {where}, newest first (read, not verified):")
    for item in saved:
        click.echo(_saved_line(item))
        click.echo(f"    {item.path}")


def _saved_line(item: Saved) -> str:
    import time

    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(item.modified)) if item.modified else "?"
    game = item.game or "?"
    players = ", ".join(item.players) or "-"
    entries = f"  ({item.entries} entries)" if item.entries else ""
    return f"{when}  {game:<15}  {players:<22}  {item.ended}{entries}"
