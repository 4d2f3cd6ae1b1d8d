"""The values the ledger works with: where a log stands, what must come next, what
an entry did, and why a game halted.

How it works
------------
Everything an accepted entry changes, besides the list of entries and their
hashes, is one frozen :class:`Position`: the rules' state, the seats' randomness
chain tips, the number of chance steps taken, the sealed deck (a frozen
``SealedBook``, or None), and the ``result`` or the :class:`Halt` that ended the
game.  A handler computes the next position from the current one and returns it;
the ledger commits it with one assignment once every check has passed.  A refused
entry therefore leaves nothing to undo, and asking whether an entry would be
refused is running the checks and dropping the answer.

These values live apart from ``replay/ledger.py`` so that the modules the ledger
calls (``replay/sealed_entries.py``, ``replay/evidence.py``) can name them without
importing the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from p2ptable.engine.api import ChanceStep, Outcome
from p2ptable.replay.kinds import Kind, Reason

if TYPE_CHECKING:
    from p2ptable.replay.sealed_book import SealedBook


_new = object.__new__
_set = object.__setattr__  # a frozen class's own __setattr__ refuses everything


@dataclass(frozen=True)
class Expected:
    """What the next entry must be: ``kind`` and, for an action, the ``seat``;
    for a chance entry the ``step`` and its number; for a result the ``outcome``."""

    kind: Kind  # an entry's kind, or Kind.NONE after the end
    seat: int | None = None
    chance: ChanceStep | None = None
    step_number: int | None = None
    outcome: Outcome | None = None
    # an open: the seat each card goes to; commits and choices: the seats asked
    targets: tuple[int | None, ...] = ()
    forced: bool = False  # an action the rules decide (engine.api.Turn.forced)
    hand: bool = False  # a shuffle of the seat's own hand, before a blind pick
    # choices: each gone seat's secret choice, made by its stand-in (seat,
    # action text; replay/stand_in.py), applied with the asked seats' own
    stand_ins: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class Halt:
    """The game was stopped by an ``abort`` entry.  ``proved`` is True when the
    entry carries evidence that every verifier re-checks (equivocation: two
    different moves signed by the culprit for one position); False when it is the
    detecting seat's signed account (withholding, abandoning), which names an
    *accused* seat but proves nothing about it.

    (Named ``Stopped`` before; the session's event of the same name,
    ``net/events.Stopped``, is built from it.)"""

    index: int
    reason: Reason
    culprit: int
    detector: int | None  # the signer of an old-style abort; None for an agreed one
    detail: str
    proved: bool


@dataclass(frozen=True)
class Applied:
    """What an accepted entry did, for screens and narratives.

    The ``text`` of a move or a chance step is worked out when it is first read
    (:func:`applied`): every peer applies every move, and a bot's peer never
    reads it."""

    index: int
    kind: Kind
    seat: int | None
    text: str

    def __getattr__(self, name: str) -> str:
        # Only for an attribute not in __dict__: the text of :func:`applied`, once.
        describe = self.__dict__.get("_describe")
        if name != "text" or describe is None:
            raise AttributeError(name)
        text: str = describe()  # pure: two threads reading it at once agree
        self.__dict__["text"] = text
        self.__dict__.pop("_describe", None)  # and the state it read is let go
        return text


def applied(index: int, kind: Kind, seat: int | None, describe: Callable[[], str]) -> Applied:
    """``Applied(index, kind, seat, describe())`` for the entries of every move
    (actions and chance steps), built as :func:`advanced` builds a position; the
    text is described when first read (the rules' states it reads are immutable)."""
    value = _new(Applied)
    _set(value, "__dict__", {"index": index, "kind": kind, "seat": seat, "_describe": describe})
    return value


@dataclass(frozen=True)
class Position:
    """Where a log stands after its last accepted entry (see the module docstring).

    A plain frozen dataclass: ``engine.frozen.replace`` makes the rare ones (a
    shuffle, the result, a halt), :func:`advanced` the one every move makes."""

    state: Any
    chain_tips: tuple[bytes, ...]
    chance_steps: int
    book: SealedBook | None
    result: Outcome | None = None
    stopped: Halt | None = None
    # A secret simultaneous choice under way: every asked seat's commit, and the
    # index of the commits entry that holds them (replay/choices.py).
    commits: tuple[tuple[int, bytes], ...] | None = None
    commits_at: int = -1


def advanced(
    state: Any, chain_tips: tuple[bytes, ...], chance_steps: int, book: SealedBook | None
) -> Position:
    """``Position(state, chain_tips, chance_steps, book)``, the position after an
    action, chance or open entry (the game goes on: no result, no halt).

    Every peer makes one for every move, and a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__``; filling the instance dictionary in
    one go, as ``engine/frozen.py`` does, is the same value in about half the time
    (and keeps ``append`` as fast as when the ledger changed its fields in place)."""
    position = _new(Position)
    _set(
        position,
        "__dict__",
        {
            "state": state,
            "chain_tips": chain_tips,
            "chance_steps": chance_steps,
            "book": book,
            "result": None,
            "stopped": None,
            "commits": None,
            "commits_at": -1,
        },
    )
    return position
