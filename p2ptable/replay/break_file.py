"""The table's agreed break, kept beside the replay: ``REPLAY.break``.

How it works: when every seat has signed a break (net/pause.py), each peer writes
the :class:`~p2ptable.net.pause.Agreement` here, durably (written whole, synced,
renamed: a crash leaves no half file), before it exits.  On resume the agreement
is read back and checked against the genesis's seat keys; a file that does not
check is reported and ignored (it only ever spares seats from being named as
having abandoned, so a forged one must not be believed), and ``verify`` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from p2ptable.net.pause import Agreement
from p2ptable.replay.logfile import write_durably

SUFFIX = ".break"


def break_path(replay: Path) -> Path:
    return replay.with_name(replay.name + SUFFIX)


def keep_agreement(replay: Path, agreement: Agreement) -> Path:
    path = break_path(replay)
    write_durably(path, agreement.to_bytes())
    return path


def read_agreement(
    replay: Path, game_id: bytes, keys: Sequence[bytes]
) -> tuple[Agreement | None, str | None]:
    """The agreement beside ``replay`` (None if there is none), and why a file
    that is there could not be believed (None if it could)."""
    path = break_path(replay)
    if not path.exists():
        return None, None
    try:
        return Agreement.from_bytes(path.read_bytes(), game_id, keys), None
    except (OSError, ValueError) as exc:
        return None, f"{path.name}: {exc}"
