"""Files the commands write: never over a replay, never half a file.

A replay is the signed record of a game and often the only one: no command
writes over one, whatever it is asked (``--force`` included), and none writes
over the file it is reading, whatever name it is given (the same path spelt
otherwise, a link: the same file on disk).  Any other existing file is replaced
only when the caller says so (``force``, the commands' ``--force``).

How it works: :func:`check_output` says why a path may not be written, before
any work is done.  :func:`written_whole` hands out a temporary file in the same
folder; when the block ends, the checks are made again (a game may have begun
writing its replay there meanwhile) and the temporary file is renamed over the
name, so the output appears whole, at once.  An exception, an interrupt
(Ctrl-C) included, removes the temporary file: nothing half-written is left.
A replay is known by its first bytes (``logfile.MAGIC``), not by its name.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from p2ptable.replay.logfile import MAGIC


class OutputRefused(ValueError):
    """The output path may not be written; the message says why and what to do."""


def is_replay(path: Path) -> bool:
    """Whether ``path`` is a file that begins as a p2ptable replay does."""
    try:
        with open(path, "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)  # the same device and inode: links included
    except OSError:  # one of them is not there (yet): compare where they point
        return a.resolve() == b.resolve()


def check_output(
    path: Path,
    force: bool = False,
    reading: Sequence[Path] = (),
    replays: Sequence[Path] = (),
) -> None:
    """Refuse (:class:`OutputRefused`) to write ``path`` if it is a file being read
    (``reading``), the replay the command writes (``replays``), a folder, any
    p2ptable replay, or, unless ``force``, any other existing file."""
    for read in reading:
        if _same_file(path, read):
            raise OutputRefused(
                f"{path} is the replay being read: write the record to another file"
            )
    for replay in replays:
        if _same_file(path, replay):
            raise OutputRefused(f"{path} is this game's replay: choose another file")
    if path.is_dir():
        raise OutputRefused(f"cannot write {path}: it is a directory")
    if is_replay(path):
        raise OutputRefused(
            f"{path} is a p2ptable replay: no command writes over one (choose another file)"
        )
    if (path.exists() or path.is_symlink()) and not force:
        raise OutputRefused(f"{path} already exists: add --force to replace it")


@contextmanager
def written_whole(path: Path, force: bool = False, reading: Sequence[Path] = ()) -> Iterator[Path]:
    """A new, empty temporary file next to ``path`` to write the output to; renamed
    over ``path`` when the block ends (after :func:`check_output` once more), removed
    if it raises.  OSError (a missing folder, a full disk) comes through as it is."""
    path = Path(path)
    check_output(path, force, reading)
    part = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
    # Created as any new file is (the umask applies), so the renamed output is too.
    os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        yield part
        check_output(path, force, reading)
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
