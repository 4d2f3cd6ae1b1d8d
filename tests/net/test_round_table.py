"""The session's table of rounds is the registry's (replay/rows.py): every kind a
ledger can expect has the round its row names, and every row's round exists.

Issue 24: "`ledger`, the table of rounds, `sim`, authoring guards and
`Session.my_turn`/`submit` all look up that one registry"."""

from __future__ import annotations

from p2ptable.net.choice_rounds import ChoicesRound, CommitsRound
from p2ptable.net.parts import PartsRound, SealedPartsRound
from p2ptable.net.rounds import (
    ActionRound,
    ChanceRound,
    EscrowRound,
    Idle,
    ResultRound,
    ShuffleRound,
    each_round,
    make_rounds,
)
from p2ptable.replay.kinds import BODIES, Kind
from p2ptable.replay.rows import ROWS, Live, handlers


def test_every_kind_but_the_part_is_a_row_and_every_row_has_its_body_type():
    # A part and a share are signed by one seat for a bundle, never entries alone.
    assert set(ROWS) == set(BODIES) - {Kind.PART, Kind.SHARE}
    assert set(BODIES) | {Kind.NONE} == set(Kind)
    for kind, row in ROWS.items():
        assert row.kind is kind and row.body is BODIES[kind] and row.body.kind is kind


def test_every_kind_the_ledger_expects_has_its_handler_author_and_round():
    table = make_rounds()
    expected = {kind for kind, row in ROWS.items() if row.live is not None}
    assert set(table) == expected | {Kind.NONE}
    # A departure comes at any position (replay/departure.py), as an abort does:
    # it has a handler but no round of the table (net/departure_round.py makes it).
    anywhere = {kind for kind, row in ROWS.items() if row.anywhere}
    assert anywhere == {Kind.DEPARTURE}
    assert set(handlers()) == expected | anywhere
    assert all(ROWS[kind].author is not None for kind in expected)
    assert {ROWS[kind].live for kind in expected} == set(Live)  # every round is used


def test_each_row_gets_the_round_its_live_column_names():
    table = make_rounds()
    kinds = {
        Kind.ACTION: ActionRound,
        Kind.SHUFFLE: ShuffleRound,
        Kind.ESCROW: EscrowRound,
        Kind.CHANCE: ChanceRound,
        Kind.OPEN: SealedPartsRound,
        Kind.SECRETS: SealedPartsRound,
        Kind.COMMITS: CommitsRound,
        Kind.CHOICES: ChoicesRound,
        Kind.RESULT: ResultRound,
        Kind.NONE: Idle,
    }
    assert {kind: type(round_) for kind, round_ in table.items()} == kinds
    assert table[Kind.OPEN] is table[Kind.SECRETS]  # one round for the sealed parts
    # The three parts rounds share one store of parts, which the session ticks
    # and hands every part message to, once.
    store = table[Kind.COMMITS].parts
    assert isinstance(store, PartsRound)
    assert all(table[k].parts is store for k in (Kind.OPEN, Kind.CHOICES))
    rounds = each_round(table)
    assert [r for r in rounds if r.message == "part"] == [store]
    assert len(rounds) == len(set(rounds))


def test_only_a_commit_is_chosen_together_with_other_seats():
    table = make_rounds()
    together = [kind for kind, round_ in table.items() if round_.together]
    assert together == [Kind.COMMITS]
