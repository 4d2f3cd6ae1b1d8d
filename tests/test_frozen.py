"""engine/frozen.replace: the rules' fast copy-with-changes of a frozen state.

Every peer applies every move, so the rules avoid dataclasses.replace's __init__;
this is the contract that makes that safe: the same value, the same refusals.
"""

from __future__ import annotations

import dataclasses

import pytest

from p2ptable.engine.frozen import replace
from p2ptable.games.pet_quartet.state import (
    Conductor,
    PetQuartetState,
    starting_conductors,
    starting_deck,
)


def state() -> PetQuartetState:
    return PetQuartetState(
        4, "standard", "basic", starting_deck(4, "standard"),
        starting_conductors(4, "standard"), ((),) * 4, "turn", current=1,
    )  # fmt: skip


def test_same_value_as_dataclasses_replace():
    s = state()
    fast = replace(s, phase="draw", current=2, last_card=7)
    slow = dataclasses.replace(s, phase="draw", current=2, last_card=7)
    assert fast == slow and hash(fast) == hash(slow)
    assert type(fast) is PetQuartetState


def test_the_original_is_untouched_and_the_copy_still_frozen():
    s = state()
    t = replace(s, phase="draw")
    assert s.phase == "turn" and t.phase == "draw"
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.phase = "over"  # type: ignore[misc]


def test_an_unknown_field_is_refused_like_dataclasses_replace():
    with pytest.raises(TypeError, match="no field colour"):
        replace(Conductor(), colour="red")


def test_a_class_with_post_init_is_refused():
    @dataclasses.dataclass(frozen=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            assert self.value >= 0

    with pytest.raises(TypeError, match="not a plain dataclass"):
        replace(Checked(1), value=-1)
