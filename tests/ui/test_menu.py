"""The grouped menu (ui/menu.py): headings, one line per distinct choice, no no-ops.

Issue 25: "Menus of 26 to 47 lines (nine 'Move to ...' lines, two identical sets
of Bully lines when you hold two Bully cards, a Squeal offered to the room the
Monitor already stands in)."  The menu changes; the rules do not: every legal
action can still be typed as its text.
"""

from __future__ import annotations

import re

import pytest

from p2ptable.engine.api import Action
from p2ptable.games.teachers_pet import GAME
from p2ptable.games.teachers_pet.cards import GYMNASIUM, HALLWAY, LIBRARY, PLAY
from p2ptable.ui import prompt
from p2ptable.ui.menu import Placed, build
from p2ptable.ui.teachers_pet_screen import squeal_changes_nothing
from tests.games.teachers_pet_helpers import cards, school
from tests.ui.test_teachers_pet_screen import playout_states

NAMES = ["Ada", "Ben", "Cleo", "Dan"]
ADA, BEN, CLEO = 0, 1, 2


def menu_of(s, seat: int = ADA):  # noqa: ANN001, ANN201
    view = GAME.view(s, seat)
    return prompt.menu_for("teachers-pet", view, GAME.legal_actions(s, seat), NAMES[: s.seats])


def two_bullies_in_the_gym():  # noqa: ANN201
    """Ada holds two Bully cards and two Squeals in the Gymnasium with Ben and Cleo;
    the Monitor was sent to the Library by a Squeal (so it is there only)."""
    hand = [*cards("bully", 2), *cards("squeal", 2)]
    return school(
        hands={ADA: hand},
        rooms={ADA: GYMNASIUM, BEN: GYMNASIUM, CLEO: GYMNASIUM},
        monitor=LIBRARY,
        monitor_hallway=False,
    )


def test_two_bully_cards_give_one_line_per_target() -> None:
    s = two_bullies_in_the_gym()
    legal = GAME.legal_actions(s, ADA)
    bullies = [a for a in legal if a.verb == "work" and PLAY[a.args[1]].kind == "bully"]
    assert len(bullies) == 4  # two cards, two targets: the rules list each
    menu = menu_of(s)
    (group,) = [g for g in menu.groups if g.title == "Bully"]
    assert [e.words for e in group.entries] == [
        "Ben: take 2 cards blindly (Gymnasium)",
        "Cleo: take 2 cards blindly (Gymnasium)",
    ]


def test_a_squeal_into_the_monitors_own_room_is_left_off_the_menu_only() -> None:
    s = two_bullies_in_the_gym()
    menu = menu_of(s)
    (group,) = [g for g in menu.groups if g.title.startswith("Squeal")]
    rooms = [e.action.args[2] for e in group.entries]
    assert LIBRARY not in rooms and len(rooms) == 9  # ten rooms, one card's worth
    hidden = next(
        a for a in GAME.legal_actions(s, ADA) if a.verb == "work" and a.args[2:] == (LIBRARY,)
    )
    # the rules still allow it, and its text still chooses it
    assert prompt.parse_choice(hidden.text, menu.actions, legal=GAME.legal_actions(s, ADA)) == (
        hidden
    )


def test_a_squeal_into_the_rolled_room_moves_the_monitor_out_of_the_hallway() -> None:
    s = two_bullies_in_the_gym()
    from p2ptable.engine.frozen import replace

    s = replace(s, monitor=LIBRARY, monitor_hallway=True)  # rolled: Hallway and Library
    view = GAME.view(s, ADA)
    assert not squeal_changes_nothing(view, LIBRARY)
    assert squeal_changes_nothing(view, HALLWAY) is False  # it leaves the Library
    s = replace(s, monitor=HALLWAY, monitor_hallway=True)
    assert squeal_changes_nothing(GAME.view(s, ADA), HALLWAY)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_squeal_left_off_changes_nothing_but_the_card(seed: int) -> None:
    """Checked against the rules themselves: a Squeal the menu leaves off keeps
    the Monitor, the rooms, the points, the Detentions and the lost turns; one it
    shows changes at least one of them."""
    checked = 0
    for s in playout_states(4, seed, every=1):
        if s.phase != "turn" or s.current is None:
            continue
        seat = s.current
        view = GAME.view(s, seat)
        for action in GAME.legal_actions(s, seat):
            if action.verb != "work" or PLAY[action.args[1]].kind != "squeal":
                continue
            after = GAME.apply(s, seat, action)
            kept = all(
                getattr(after, f) == getattr(s, f)
                for f in ("monitor", "monitor_hallway", "rooms", "points", "detentions", "lost")
            )
            assert squeal_changes_nothing(view, action.args[2]) == kept, (action, s.monitor)
            checked += 1
        if checked > 400:
            break
    assert checked > 0


def test_the_rooms_are_grouped_under_move_with_their_sneak_chance() -> None:
    s = school(rooms={ADA: GYMNASIUM}, monitor=HALLWAY, monitor_hallway=True)
    lines = menu_of(s).lines()
    assert any(line.startswith("Move to: 2) ") for line in lines)
    assert any("the Library (sneak 70 %)" in line for line in lines)
    # numbers stay: one per line chosen, counted from 1, in the order shown
    numbers = [int(n) for n in re.findall(r"(?:^|\s)(\d+)\) ", "\n".join(lines))]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(len(line) <= 80 for line in lines)


def test_the_longest_menus_are_shorter() -> None:
    """Over whole playouts, the menu never has more lines than before (headings
    included), and at the longest it is shorter."""
    longest_before = longest_after = 0
    for s in playout_states(4, 7, every=1):
        if s.phase != "turn" or s.current is None:
            continue
        legal = GAME.legal_actions(s, s.current)
        lines = menu_of(s, s.current).lines()
        longest_before = max(longest_before, len(legal))
        longest_after = max(longest_after, len(lines))
    assert longest_after < longest_before


def test_a_game_without_an_arranger_gets_one_line_per_distinct_wording() -> None:
    actions = [Action("play", (0, 5)), Action("play", (1, 6)), Action("take")]
    words = {"play": "play Cheating", "take": "take 3 negative points"}
    menu = build({}, actions, lambda a: words[a.verb], NAMES)
    assert menu.lines() == ["1) play Cheating", "2) take 3 negative points"]
    assert menu.actions == (actions[0], actions[2]) and menu.hidden == 1


def test_a_group_of_one_is_one_line_in_its_full_words() -> None:
    actions = [Action("move", (1,)), Action("study")]
    menu = build(
        {},
        actions,
        lambda a: "Move to the Classroom" if a.verb == "move" else "Study",
        NAMES,
        lambda v, a, w, n: Placed(
            "Move to" if a.verb == "move" else "", w.removeprefix("Move to ")
        ),
    )
    assert menu.lines() == ["1) Move to the Classroom", "2) Study"]
