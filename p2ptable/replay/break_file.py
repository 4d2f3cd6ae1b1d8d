"""The table's agreed break, kept beside the replay: ``REPLAY.break``.

How it works: when every seat has signed a break (net/pause.py), each peer writes
the :class:`~p2ptable.replay.break_record.Agreement` here, durably (written whole, synced,
renamed: a crash leaves no half file), before it exits.  On resume the agreement
is read back and checked against the genesis's seat keys and our log
(:func:`spared_after_break`); a file that does not check is reported and
ignored (it only ever spares seats from being named as having abandoned, so a
forged one must not be believed), and ``verify`` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from p2ptable.replay.break_record import Agreement
from p2ptable.replay.ledger import Ledger
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


def spared_after_break(replay: Path, ledger: Ledger) -> tuple[frozenset[int], str | None]:
    """The seats a resumed peer must never name as having abandoned the game for
    an absence that began at the agreed break: every seat that has signed no
    entry of our log since the break's position.  With them, why a break file
    that is there is not believed (a forged or damaged one, or one for a
    position our log does not hold: then nobody is spared)."""
    keys = [seat.key for seat in ledger.seats]
    agreement, problem = read_agreement(replay, ledger.game_id, keys)
    if agreement is None:
        return frozenset(), problem
    at, head = agreement.position.at, agreement.position.head
    if at > ledger.next_index or ledger.hashes[at - 1] != head:
        return frozenset(), f"{break_path(replay).name}: its position is not in our log"
    back = {seat for entry in ledger.entries[at:] for seat, _ in entry.sigs}
    return frozenset(range(len(keys))) - back, None
