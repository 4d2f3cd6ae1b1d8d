"""Teacher's Pet's words for an action come from one row per verb
(games/teachers_pet/verb_words.py): the log's phrase and the menu's offer.
Every legal action met in random playouts has both, in its own words (never
the bare action text a malformed action falls back to)."""

from __future__ import annotations

import random

import pytest

from p2ptable.engine.api import Action, GameOver, Simultaneous, Turn, chooser
from p2ptable.engine.playout import random_chance
from p2ptable.games.teachers_pet import GAME
from p2ptable.games.teachers_pet.verb_words import VERBS
from p2ptable.games.teachers_pet.view import describe
from p2ptable.ui.teachers_pet_menu import describe_action_for_menu

MAX_STEPS = 5_000


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_action_has_log_and_menu_words_from_its_verbs_row(seed):
    rng = random.Random(seed)
    chance = random_chance(rng)
    state = GAME.initial(3 + seed % 4, {})
    names = [f"P{n}" for n in range(6)]
    seen: set[str] = set()
    for _ in range(MAX_STEPS):
        decision = GAME.pending(state)
        if isinstance(decision, GameOver):
            break
        if not isinstance(decision, Turn | Simultaneous):
            state = GAME.resolve(state, chance(decision.step))
            continue
        seat = chooser(decision)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        for action in legal:
            assert action.verb in VERBS, action
            assert describe(state, seat, action) != action.text, action
            assert describe_action_for_menu(view, action, names) != action.text, action
            seen.add(action.verb)
        state = GAME.apply(state, seat, rng.choice(legal))
    assert {"study", "move", "work"} <= seen


def test_a_malformed_action_is_said_as_its_text_in_both():
    state = GAME.initial(3, {})
    view = GAME.view(state, 0)
    for text in ("move", "late 1", "dance 3"):
        action = Action.parse(text)
        assert describe(state, 0, action) == action.text
        assert describe_action_for_menu(view, action, ["A", "B", "C"]) == action.text
