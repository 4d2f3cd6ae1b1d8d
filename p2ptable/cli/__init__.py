"""The ``p2ptable`` command line: parse, call the library, render, map errors.

Every command is a thin wrapper: the behaviour lives in the library (``sim``,
``replay.verify``, the games).  Domain errors become ``click.ClickException``
(printed as ``Error: ...``, exit 1) at this edge and nowhere else; what no command
expected is said in one line too, never as a traceback (``cli/app.py``, the
group, which also says how an interrupt and a closed pipe end a command).

The commands live in four modules, each registering its own on the group:
games.py (games, rules, sim), records.py (verify, show, export, replays),
tables.py (tables) and live.py (host, join, play, resume, watch).  The group
imports a module only when one of its commands runs (``app.COMMANDS``).
"""

from __future__ import annotations

from p2ptable.cli.app import main

__all__ = ["main"]

if __name__ == "__main__":  # pragma: no cover
    main()
