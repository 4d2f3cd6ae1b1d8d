"""A genesis that names the first player (the option ``first``, a rematch's).

protocol/replay.md section 4: ``options`` may carry ``first``, the seat that
plays first, written only in a rematch's genesis.  It is part of the body every
seat signs, so it is checked as any option is (a seat of the table, in its one
spelling) and `verify` replays the game from a setup that honours it: no entry
draws the first player, and a ``first`` changed after the signing breaks every
signature.
"""

from __future__ import annotations

import pytest

from p2ptable.engine.api import FIRST, FIRST_PLAYER
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.verify import verify_file
from p2ptable.sim import simulate

from .test_ledger_genesis import OPTIONS, genesis, genesis_fields, secrets, signed_genesis


def test_a_named_first_player_moves_first_and_no_entry_draws_one():
    ledger = Ledger(genesis(3, options={**OPTIONS, FIRST: "2"}))
    assert ledger.options == {**OPTIONS, FIRST: "2"}
    expected = ledger.expected()
    assert (expected.kind, expected.seat) == ("action", 2)


@pytest.mark.parametrize("value", ["3", "x", "01"])
def test_a_first_that_is_no_seat_of_the_table_is_a_genesis_error(value):
    with pytest.raises(InvalidEntry, match="genesis: option first must be") as info:
        Ledger(genesis(3, options={**OPTIONS, FIRST: value}))
    assert info.value.index == 0 and info.value.culprit is None


def test_a_first_changed_after_every_seat_signed_breaks_the_signatures():
    seats = secrets(3)
    keys = [s.key for s in seats]
    signed = signed_genesis(genesis_fields(seats, options={**OPTIONS, FIRST: "1"}), keys)
    forged = signed_genesis(genesis_fields(seats, options={**OPTIONS, FIRST: "0"}), keys)
    spliced = Entry(forged.body_bytes, signed.sigs)
    with pytest.raises(InvalidEntry, match="bad signature from seat 0"):
        Ledger(spliced)


@pytest.mark.parametrize("game", ["pet-quartet", "teachers-pet", "vorsicht-lehrer"])
def test_a_whole_game_with_a_named_first_player_verifies(tmp_path, game):
    path = tmp_path / "game.p2pt"
    simulate(game, 3, "first", path, options={FIRST: "1"})
    report = verify_file(path)
    assert report.valid, report.error
    assert report.options[FIRST] == "1"
    assert report.ledger is not None
    purposes = {e.body.get("purpose") for e in report.ledger.entries[1:]}
    assert FIRST_PLAYER not in purposes
