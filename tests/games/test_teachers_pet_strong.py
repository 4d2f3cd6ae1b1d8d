"""The strong Teacher's Pet bot: weighs a play against what the card is worth held,
a Move against its risk, and beats the greedy bot."""

from __future__ import annotations

import random

import pytest
from teachers_pet_helpers import act, card, cards, finish_turns, roll, school, teacher
from test_teachers_pet_bots import hidden_from

from p2ptable.bots import make_bot
from p2ptable.engine.api import Action
from p2ptable.engine.frozen import replace
from p2ptable.engine.playout import play, random_chance, random_policy
from p2ptable.games.teachers_pet import GAME, PACKAGE
from p2ptable.games.teachers_pet.bots import greedy_policy
from p2ptable.games.teachers_pet.cards import (
    ART_ROOM,
    CLASSROOM,
    GYMNASIUM,
    NURSES_OFFICE,
    PLAY,
    PRINCIPALS_OFFICE,
    TEACHER,
    TEACHERS_LOUNGE,
)
from p2ptable.games.teachers_pet.strong import Reading, strong_policy, week_ahead


def bot_action(state, seat: int, seed: int = 0) -> Action:
    return strong_policy(random.Random(seed))(GAME, state, seat)


def late_in_the_week(s, *coming: str):
    """``s`` on Day 5 with only the Periods of the teachers named still to come
    (their cards the Teacher Deck), every other Teacher card turned over, the
    Active Teacher's last."""
    active = s.teacher_discard[-1]
    deck, rest = [], []
    for c in sorted(set(range(35)) - {active}):
        if coming and len(deck) < len(coming) and TEACHER[c].teacher in coming[len(deck) :]:
            deck.append(c)
        else:
            rest.append(c)
    assert sorted(TEACHER[c].teacher for c in deck) == sorted(coming)
    period = 7 - len(coming)
    return replace(
        s, teacher_deck=tuple(deck), teacher_discard=(*rest, active), day=5, period=period
    )


def test_strong_is_the_packages_bot_and_plays_default_opponent():
    assert PACKAGE.bots["strong"] is strong_policy and PACKAGE.opponent == "strong"
    bot = make_bot(GAME, "strong", random.Random(0))
    assert bot.__qualname__.startswith("strong_policy")


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_it_plays_legally_from_its_own_view_only(seats):
    """Whole games beside greedy and random seats: every action is legal and the
    same when every other hand and the deck are unknown (it never reads them)."""
    decisions = 0

    def checked(seat: int):
        def policy(game, state, seat_):
            nonlocal decisions
            decisions += 1
            action = bot_action(state, seat, decisions)
            assert action in game.legal_actions(state, seat)
            assert bot_action(hidden_from(state, seat), seat, decisions) == action
            return action

        return policy

    rng = random.Random(seats)
    others = (greedy_policy, random_policy)
    policies = {
        s: checked(s) if s % 2 == 0 else others[s // 2 % 2](random.Random(rng.random()))
        for s in range(seats)
    }
    final = play(GAME, GAME.initial(seats, {}), policies, random_chance(rng))
    assert GAME.outcome(final) is not None and decisions > 50


def test_it_counts_the_periods_left_by_teacher_from_the_cards_seen():
    # Every Teacher card not yet turned over is a Period still to come.
    s = school(2)  # the Homeroom Teacher is the first card
    week = week_ahead(GAME.view(s, 0))
    assert (week.homeroom, week.art, week.music, week.turns) == (9, 5, 5, 34)
    lost = week_ahead(GAME.view(replace(s, lost=(2, 0)), 0))
    assert lost.turns == 32


def test_it_plays_art_while_the_art_teacher_is_there_before_a_gift_that_keeps():
    # No Art Teacher is left to come: the Art card now, or half of it late; the
    # Gift scores in any room, on one of the turns left.
    art, gift = card("art", points=3), card("gift", points=2)
    s = school(2, "Art Teacher", hands={0: [gift, art]})
    s = late_in_the_week(s, "Librarian", "Lunch Lady")
    assert week_ahead(GAME.view(s, 0)).art == 0
    assert bot_action(s, 0) == Action("work", (1, art))


def test_with_nothing_worth_playing_now_it_studies():
    s = school(2, "Librarian", hands={0: [card("hall-pass"), card("art")]})
    assert bot_action(s, 0) == Action("study")


def test_it_never_walks_into_the_monitors_room_without_reason():
    s = school(2, hands={0: [card("gift", points=1)]}, monitor=GYMNASIUM)
    reading = Reading(GAME.view(s, 0))
    from p2ptable.games.teachers_pet.strong import _move

    assert _move(reading, Action("move", (GYMNASIUM,))) < reading.draw
    assert bot_action(s, 0).args != (GYMNASIUM,)


def test_it_squeals_the_monitor_onto_a_rival_outside_the_expected_room():
    squeal = card("squeal")
    s = school(2, hands={0: [squeal, card("hall-pass")], 1: [card("art")]}, rooms={1: ART_ROOM})
    assert bot_action(s, 0) == Action("work", (0, squeal, ART_ROOM))


def test_in_the_principals_office_it_tattles_on_a_rival_outside_never_on_one_inside():
    rooms = {0: PRINCIPALS_OFFICE, 1: ART_ROOM, 2: CLASSROOM}
    s = school(3, hands={0: [card("hall-pass")], 1: [card("art")]}, rooms=rooms, points=(5, 20, 9))
    assert bot_action(s, 0) == Action("tattle", (1,))
    inside = replace(s, rooms=(PRINCIPALS_OFFICE, NURSES_OFFICE, CLASSROOM))
    assert bot_action(inside, 0).verb != "tattle"  # seat 2's Tattle would fail


def test_it_goes_to_the_teachers_lounge_for_an_assignment_that_grows_a_big_set():
    # Late in the week a Study is worth little, and a fifth Math Assignment grows
    # a set of 4 (14 Pet Points) to 5 (20) with Homeroom Periods still to come; the
    # Monitor is not in the Hallway (a Squeal sent it away): no sneak roll.
    maths = cards("assignment", 5, "Math")
    s = school(2, "PE Teacher", hands={0: maths[:4]}, monitor=CLASSROOM, monitor_hallway=False)
    s = replace(s, discard=(maths[4],), deck=tuple(c for c in s.deck if c != maths[4]))
    s = late_in_the_week(s, "Homeroom Teacher", "Homeroom Teacher", "Lunch Lady")
    assert bot_action(s, 0) == Action("move", (TEACHERS_LOUNGE,))
    there = replace(s, rooms=(TEACHERS_LOUNGE, s.rooms[1]))
    assert bot_action(there, 0) == Action("cheat", (maths[4],))


def test_at_the_free_move_it_goes_unless_its_room_still_pays():
    s = finish_turns(school(3))
    s = roll(s, 9)
    s = roll(s, s.teacher_deck.index(teacher("Art Teacher")))
    assert s.phase == "free-move"
    assert bot_action(s, 0) == Action("go")


def test_reactions_always_show_the_card():
    hall_pass = card("hall-pass")
    s = roll(act(school(2, hands={0: [hall_pass, card("bully")]}), 0, "move 5"), 0)
    assert s.phase == "catch-window"
    assert bot_action(s, 0) == Action("react", (0, hall_pass))


def test_after_day_five_it_plays_every_card_that_scores():
    keep = [card("hall-pass"), card("bully")]
    scoring = [*cards("assignment", 2, "Science"), card("art"), card("gift", points=2)]
    s = school(2, hands={0: [keep[0], *scoring, keep[1]]}, day=5, period=7)
    s = replace(s, phase="late", current=0)
    while s.current == 0:
        s = GAME.apply(s, 0, bot_action(s, 0))
    assert s.hands[0] == tuple(keep)
    assert s.points[0] == 5 + (5 + PLAY[scoring[2]].points + 2) // 2


def test_it_beats_the_greedy_bot():
    """20 seeded 2-seat games, the seats alternating: a bot as good as greedy would
    win about 10 (scripts/bot_winrate.py measures it at length: README, Bots)."""
    wins = 0.0
    for number in range(20):
        rng = random.Random(number)
        me = number % 2
        policies = {
            s: (strong_policy if s == me else greedy_policy)(random.Random(rng.random()))
            for s in range(2)
        }
        final = play(GAME, GAME.initial(2, {}), policies, random_chance(rng))
        outcome = GAME.outcome(final)
        if me in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins >= 14


def test_the_win_rate_script_measures_one_bot_against_another():
    # scripts/bot_winrate.py (README, Bots): a smoke run of what made the figures.
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "bot_winrate.py"
    spec = importlib.util.spec_from_file_location("bot_winrate", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    rate = script.win_rate("teachers-pet", 2, {}, 2, 1, "strong", "greedy")
    assert 0.0 <= rate <= 1.0
