"""Who plays first in a rematch: the player after the last game's first player.

How it works
------------
Issue 26: a rematch is "a new game at the same table (a new game id, the
first player rotated)".  The seats of a rematch are those who came back, in
the order they sat down, with bots or nobody in the seats of those who did not:
so the rotation goes by name, not by seat number.  The last game's seats, from
the one after its first player round the table, are the rematch's *rotation*
(:func:`rotation_after`); the rematch's first player is the first of them who
is seated again (:func:`first_seat`), and the genesis names that seat with the
option ``first`` (engine/api.py: the game's setup then skips its roll).  When
nobody of the rotation came back (every seat is new), nothing is named and the
first player is drawn, as in any game.

The host tells every joiner the rotation in its challenge, and each seat
computes the genesis from it (lobby_frames.genesis_for), so a genesis whose
``first`` is not the rotation's does not match the roster and nobody signs it.
A seat of the last game also knows the rotation from its own replay and refuses
a host that tells it another one (joiner_lobby.py): the host cannot pick who
starts.  Someone new at the table takes the host's word, as for the options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2ptable.engine.api import FIRST

MAX_ROTATION = 16  # names: more than any game's seats


def rotation_after(names: Sequence[str], first: int) -> tuple[str, ...]:
    """The seats' ``names`` from the one after seat ``first``, round the table."""
    after = (first + 1) % len(names)
    return tuple(names[after:]) + tuple(names[:after])


def first_seat(rotation: Sequence[str], names: Sequence[str]) -> int | None:
    """The seat of the first of ``rotation`` among ``names`` (a name matches in
    any case, as the lobby compares them), or None if none of them sits here."""
    seats = {name.casefold(): seat for seat, name in enumerate(names)}
    for name in rotation:
        if name.casefold() in seats:
            return seats[name.casefold()]
    return None


def with_first(
    options: Mapping[str, str], rotation: Sequence[str], names: Sequence[str]
) -> dict[str, str]:
    """``options`` with the rotation's first player among ``names`` (none named
    without a rotation, or when nobody of it is seated)."""
    seat = first_seat(rotation, names) if rotation else None
    if seat is None:
        return dict(options)
    return {**options, FIRST: str(seat)}


def parse_rotation(value: object) -> tuple[str, ...]:
    """A rotation as a host's challenge carries it (absent: none); ValueError
    for anything but a short list of names."""
    if value is None:
        return ()
    if not (
        isinstance(value, list)
        and 0 < len(value) <= MAX_ROTATION
        and all(isinstance(n, str) and 0 < len(n) <= 32 and n.isprintable() for n in value)
    ):
        raise ValueError("a rotation is a list of up to 16 seat names")
    return tuple(value)
