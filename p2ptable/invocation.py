"""How to run p2ptable again, in the words this person can type: for the hints a
game gives at its end ("To continue where you stopped: ... resume FILE").

``p2ptable`` when that name on the PATH is this program; otherwise the script as
it was typed (``.venv/bin/p2ptable``, the README's first command, which does not
activate the virtualenv), or the one beside this Python when run as a module, or
this Python with ``-m p2ptable``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

NAME = "p2ptable"


def command(*args: str) -> str:
    """The command line that runs p2ptable with ``args``, quoted for a shell."""
    return " ".join([_program(), *(shlex.quote(a) for a in args)])


def _program() -> str:
    typed = sys.argv[0] if sys.argv else ""
    beside = Path(sys.executable).parent / NAME
    if Path(typed).name == NAME:
        shown = typed  # run by its name or its path: shown as typed
    elif beside.is_file():
        shown = str(beside)  # ``python -m p2ptable``: the script of the same install
    else:
        return f"{shlex.quote(sys.executable)} -m {NAME}"
    found = shutil.which(NAME)
    if found is not None and _same(found, shown):
        return NAME
    return shlex.quote(shown)


def _same(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
