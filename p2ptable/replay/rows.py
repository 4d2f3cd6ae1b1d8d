"""The registry of entry kinds: each kind is one row.

Theory of operation
-------------------
A kind of log entry is more than its ``"t"``: it has a body (a frozen type with
``to_body()``/``parse()``, replay/kinds.py), a check the ledger runs before it
appends one, a way a seat makes one, a way a live table gathers what it needs,
and words for the people reading the log.  Each of those used to be a table or
an ``if kind == ...`` chain of its own in another file; here they are the
columns of one row per kind, and the ledger, the live session's table of rounds
(net/rounds.py), ``sim``, the narratives and the authoring guards look them up:

========  ==============  =========================  =============  ======================
kind      body            ledger check (``handle``)  ``author``     ``live`` round
========  ==============  =========================  =============  ======================
genesis   GenesisBody     starts a ledger (genesis)  -              the genesis round
action    ActionBody      moves.action               author_action  MOVE: its seat, chosen
chance    ChanceBody      moves.chance               author_chance  CHANCE: every chain
shuffle   ShuffleBody     sealed_entries.shuffle     author_shuffle SHUFFLE: its seat, at once
escrow    EscrowBody      escrow_entries.escrow      author_escrow  ESCROW: its seat, at once
open      OpenBody        sealed_entries.open_cards  author_bundle  PARTS: every seat's part
secrets   SecretsBody     sealed_entries.secrets     author_bundle  PARTS: every seat's part
commits   CommitsBody     choices.commits            author_commits COMMITS: the asked, chosen
choices   ChoicesBody     choices.choices            author_choices CHOICES: the asked, at once
result    ResultBody      moves.result               author_result  RESULT: every signature
abort     AbortBody       the ledger's own (any      -              net/stopping.py
                          position; evidence.py)
departure DepartureBody   departure.departure (any   -              net/departure_round.py
                          position, ``anywhere``)
========  ==============  =========================  =============  ======================

The live round is named, not imported (``Live``): this layer is the log's, and
the network's layer (net/rounds.py) imports it, never the other way; a test
checks that every ``Live`` has its round there.  ``part`` has a body type but no
row: it is never an entry of its own, only what a seat signs for a bundle.

A new kind is one row: add its ``Kind`` and body type (replay/kinds.py), its
handler, its authoring function, its ``Live`` round (and the round in
net/rounds.py), its words, and the row below; a type checker and the tests
then find every place that must know it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from p2ptable.replay import authoring, choices, departure, escrow_entries, moves, sealed_entries
from p2ptable.replay.entries import Entry
from p2ptable.replay.genesis import GenesisInfo
from p2ptable.replay.kinds import (
    AbortBody,
    ActionBody,
    Body,
    ChanceBody,
    ChoicesBody,
    CommitsBody,
    DepartureBody,
    EscrowBody,
    GenesisBody,
    Kind,
    OpenBody,
    ResultBody,
    SecretsBody,
    ShuffleBody,
)
from p2ptable.replay.position import Applied, Expected, Position
from p2ptable.replay.seat_secrets import SeatSecrets

# The ledger's check of an entry matched to what it expects: what it did, and the
# position it leads to (nothing is changed; replay/ledger.py commits it).
Handler = Callable[
    [GenesisInfo, Position, int, Entry, dict[str, Any], Expected], tuple[Applied, Position]
]
# The entry made at once when every seat's secrets are at hand (sim.py, tests).
Author = Callable[[authoring.Log, Sequence[SeatSecrets], authoring.Choose], Entry]


class Live(Enum):
    """How a live table makes an entry of a kind: the round of net/rounds.py."""

    MOVE = "the seat to move signs it when its player chooses; the others wait for it"
    SHUFFLE = "the seat to shuffle signs it at once"
    ESCROW = "the seat to escrow its deck secret signs it at once"
    CHANCE = "every seat's next chain value, gathered by a collector or all"
    PARTS = "every seat's signed part, bundled by every peer"
    COMMITS = "every asked seat's signed commit, when its player chooses, bundled"
    CHOICES = "every asked seat's opening of its commit, at once, bundled"
    RESULT = "every seat's signature on the rules' result"


@dataclass(frozen=True)
class Words:
    """How a person reads an entry of a kind (ui/narrative.py).  ``column`` is
    what an event line prints before the phrase when the seat is not its
    subject; ``actor``: the seat is the phrase's subject ("Ana moves ...");
    ``one_seat``: the hidden cards it moved are the one named seat's."""

    column: str
    actor: bool = False
    one_seat: bool = False


@dataclass(frozen=True)
class Row:
    """One kind of entry: everything every layer needs to know of it."""

    kind: Kind
    body: type[Body]
    handle: Handler | None  # None: the ledger's own (a genesis starts it; an abort)
    author: Author | None  # None: not made by the seats at a table's turn
    live: Live | None  # None: made outside the table of rounds
    words: Words
    # Synced to disk by every seat, not only its author: a commits entry holds
    # every asked seat's signed commit (net/session.py, Write.durable).
    synced: bool = False
    # Checked at any position, before what the ledger expects next (a seat
    # that left: replay/departure.py), as an abort is.
    anywhere: bool = False


ROWS: Mapping[Kind, Row] = {
    row.kind: row
    for row in (
        Row(Kind.GENESIS, GenesisBody, None, None, None, Words("genesis")),
        Row(
            Kind.ACTION,
            ActionBody,
            moves.action,
            authoring.author_action,
            Live.MOVE,
            Words("action", actor=True, one_seat=True),
        ),
        Row(
            Kind.CHANCE,
            ChanceBody,
            moves.chance,
            authoring.author_chance,
            Live.CHANCE,
            Words("chance"),
        ),
        Row(
            Kind.SHUFFLE,
            ShuffleBody,
            sealed_entries.shuffle,
            authoring.author_shuffle,
            Live.SHUFFLE,
            Words("shuffle", actor=True),
        ),
        Row(
            Kind.ESCROW,
            EscrowBody,
            escrow_entries.escrow,
            authoring.author_escrow,
            Live.ESCROW,
            Words("escrow", actor=True),
        ),
        Row(
            Kind.OPEN,
            OpenBody,
            sealed_entries.open_cards,
            authoring.author_bundle,
            Live.PARTS,
            Words("deal", one_seat=True),  # the phrase names the receivers already
        ),
        Row(
            Kind.SECRETS,
            SecretsBody,
            sealed_entries.secrets,
            authoring.author_bundle,
            Live.PARTS,
            Words("secrets"),
        ),
        Row(
            Kind.COMMITS,
            CommitsBody,
            choices.commits,
            authoring.author_commits,
            Live.COMMITS,
            Words("commits"),
            synced=True,
        ),
        Row(
            Kind.CHOICES,
            ChoicesBody,
            choices.choices,
            authoring.author_choices,
            Live.CHOICES,
            Words("choices"),
        ),
        Row(
            Kind.RESULT,
            ResultBody,
            moves.result,
            authoring.author_result,
            Live.RESULT,
            Words("result"),
        ),
        Row(Kind.ABORT, AbortBody, None, None, None, Words("abort")),
        Row(
            Kind.DEPARTURE,
            DepartureBody,
            departure.departure,
            None,
            None,
            Words("departure", actor=True),
            synced=True,  # every staying seat's signed share: what rebuilds the leaver
            anywhere=True,
        ),
    )
}


def handlers() -> dict[Kind, Handler]:
    """The ledger's column: the check of each kind it matches to ``expected()``."""
    return {kind: row.handle for kind, row in ROWS.items() if row.handle is not None}


def anywhere() -> frozenset[Kind]:
    """The kinds the ledger checks at any position, before what it expects."""
    return frozenset(kind for kind, row in ROWS.items() if row.anywhere)


def row_of(kind: str) -> Row:
    """The row of ``kind`` (a Kind, or a decoded body's ``"t"``); KeyError if none."""
    return ROWS[kind]  # type: ignore[index]
