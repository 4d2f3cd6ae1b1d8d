"""Teacher's Pet's rulings of issue 23, each read from the rulebook's own words
(../shared/rulebooks/teachers-pet.txt) and each a game option: the default is the
rulebook's plain reading, the other choice the ruling p2ptable played before, which
a genesis without the option still gets (so older replays verify as they were
played).  RULES.md quotes the same sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2ptable.engine.api import IllegalAction
from p2ptable.engine.frozen import replace
from p2ptable.games.teachers_pet import GAME, scoring
from p2ptable.games.teachers_pet.cards import (
    ART_ROOM,
    CAFETERIA,
    CLASSROOM,
    LIBRARY,
    MUSIC_ROOM,
    NURSES_OFFICE,
    PRINCIPALS_OFFICE,
    SET_POINTS,
)
from p2ptable.games.teachers_pet.rulings import BEFORE, OPTIONS, Rulings
from p2ptable.replay.verify import verify_bytes
from tests.games.teachers_pet_helpers import act, card, cards, finish_turns, legal, roll, school

REPLAYS = Path(__file__).resolve().parents[2] / "replays"

# -- the options themselves ---------------------------------------------------------------


def test_every_ruling_is_an_option_whose_default_is_the_rulebooks_plain_reading():
    assert [spec.name for spec in GAME.options] == [spec.name for spec in OPTIONS]
    assert (
        {spec.name: spec.default for spec in GAME.options}
        == Rulings().options()
        == {
            "nurse-catch": "free",
            "study": "always",
            "late": "total",
            "tie": "shared",
            "floor": "none",
            "tattle": "anyone",
            "cafeteria": "succeeds",
        }
    )
    # a genesis without the options is read with the rulings of then
    assert BEFORE.options() == {spec.name: spec.before for spec in GAME.options}
    assert all(spec.before != spec.default for spec in GAME.options)
    assert GAME.initial(2, {}).rulings == Rulings()
    assert GAME.initial(2, BEFORE.options()).rulings == BEFORE


def test_a_replay_written_before_the_options_verifies_with_the_rulings_of_then():
    # Its genesis lists no option: verify reads it with every option's ``before``
    # value and re-checks every entry under them (its late plays were halved
    # card by card, its tie-break and floor were those of then).
    report = verify_bytes((REPLAYS / "teachers-pet-4p-rules-1.p2pt").read_bytes())
    assert report.valid and report.audited, report.error
    assert report.options == BEFORE.options()


def test_a_new_game_records_every_option_in_its_genesis():
    report = verify_bytes((REPLAYS / "teachers-pet-4p.p2pt").read_bytes())
    assert report.valid and report.audited, report.error
    assert report.options == Rulings().options()


# -- 1. a failed sneak is caught in the room it heads for ---------------------------------


def test_a_sneak_into_the_nurses_office_that_fails_costs_nothing():
    # "Nurse's Office: ... Being Caught by the Hall Monitor in the Nurse's Office
    # carries no penalty."  A pawn whose sneak fails is caught in the room it was
    # sneaking into: there, the catch costs nothing.
    s = act(school(2, hands={0: [card("gift")]}), 0, f"move {NURSES_OFFICE}")
    assert s.phase == "sneak"
    s = roll(s, 0)  # a 1 on the D10: caught
    assert s.phase == "turn" and s.current == 1
    assert s.rooms[0] == NURSES_OFFICE and s.detentions == (0, 0) and s.points[0] == 5
    assert "no penalty" in s.news[-1]


def test_a_failed_sneak_elsewhere_is_caught_in_that_room_and_gives_a_detention():
    # "If you are caught by the Hall Monitor, you are immediately moved to the
    # School Room shown on the Active Teacher Card and suffer a Detention."
    s = roll(act(school(2, hands={0: [card("gift")]}), 0, f"move {MUSIC_ROOM}"), 0)
    assert s.phase == "catch-window" and s.rooms[0] == MUSIC_ROOM
    s = act(s, 0, "pass")
    assert s.rooms[0] == CLASSROOM and s.detentions == (1, 0)


def test_nurse_catch_detention_is_the_ruling_of_older_replays():
    options = {"nurse-catch": "detention"}
    s = school(2, hands={0: [card("gift")]}, options=options)
    s = roll(act(s, 0, f"move {NURSES_OFFICE}"), 0)
    assert s.phase == "catch-window"
    assert act(s, 0, "pass").detentions == (1, 0)


# -- 2. Study is always on offer ---------------------------------------------------------


def test_study_is_legal_with_nothing_left_to_draw_and_draws_nothing():
    # "Standard Actions are always available for you to Perform on your Turns."
    s = replace(school(2), deck=(), discard=())
    assert "study" in legal(s, 0)
    after = act(s, 0, "study")
    assert after.hands[0] == s.hands[0] and after.phase == "turn" and after.current == 1
    assert "nothing left to draw" in after.news[-1]


def test_study_in_the_library_draws_what_is_left():
    s = school(2, rooms={0: LIBRARY})
    s = replace(s, deck=s.deck[:1], discard=())
    s = roll(act(s, 0, "study"), 0)
    assert len(s.hands[0]) == 8 and s.current == 1


def test_study_with_cards_is_the_ruling_of_older_replays():
    s = replace(school(2, options={"study": "with-cards"}), deck=(), discard=())
    assert "study" not in legal(s, 0)


# -- 3. late plays: the total is halved once ----------------------------------------------


def _late(options=None):
    art3, gift1, bully = card("art", points=3), card("gift", points=1), card("bully")
    maths = cards("assignment", 2, subject="Math")
    s = school(2, hands={0: [art3, gift1, bully, *maths]}, day=5, period=7, options=options)
    s = finish_turns(s, until_phase="late")
    return s, art3, gift1, maths


def test_the_total_of_the_cards_played_late_is_halved_once_rounded_down():
    # "you may play your remaining cards from your hand "late" to score half of the
    # number of Pet Points shown on the cards rounded down to the nearest whole
    # number": half of their total, rounded down once.
    s, art3, gift1, maths = _late()
    s = act(s, 0, f"late 0 {art3}")
    assert s.points[0] == 5 + 3 // 2
    s = act(s, 0, f"late 0 {gift1}")  # a Gift 1 late is worth something now
    assert s.points[0] == 5 + (3 + 1) // 2
    s = act(act(act(s, 0, f"late 1 {maths[0]}"), 0, f"add 1 {maths[1]}"), 0, "done")
    assert s.points[0] == 5 + (3 + 1 + SET_POINTS[2]) // 2 == 9
    s = act(s, 0, "finish")
    assert s.points[0] == 9 and s.late_total == 0 and s.current == 1


def test_late_per_card_is_the_ruling_of_older_replays():
    s, art3, gift1, maths = _late({"late": "per-card"})
    s = act(act(s, 0, f"late 0 {art3}"), 0, f"late 0 {gift1}")
    s = act(act(act(s, 0, f"late 1 {maths[0]}"), 0, f"add 1 {maths[1]}"), 0, "done")
    assert s.points[0] == 5 + 1 + 0 + SET_POINTS[2] // 2 == 8


# -- 4. rulings the rulebook does not make ------------------------------------------------


def test_players_tied_on_the_most_pet_points_share_the_victory():
    # "After Final Scores have been tallied, the Player with the most Pet Points is
    # the winner": nothing more; every player with the most shares the victory.
    shared = scoring.outcome((9, 9, 4), (2, 1, 0), "shared")
    assert shared.winners == (0, 1) and "share" in shared.explanation
    assert scoring.outcome((9, 9, 4), (2, 1, 0), "fewer-detentions").winners == (1,)


def test_a_detention_may_take_pet_points_below_zero():
    # "move down 5 Pet Points on the Pet Point Score Tracker": the rulebook has no
    # floor, so the score goes on down.
    s = school(2, hands={0: [card("gift")]}, points=(3, 5))
    s = act(roll(act(s, 0, f"move {ART_ROOM}"), 0), 0, "pass")
    assert s.points[0] == -2
    zero = school(2, hands={0: [card("gift")]}, points=(3, 5), options={"floor": "zero"})
    zero = act(roll(act(zero, 0, f"move {ART_ROOM}"), 0), 0, "pass")
    assert zero.points[0] == 0


def test_anyone_may_be_accused_and_the_accusation_fails_in_the_expected_room():
    # "While in the Principals Office you may accuse another Player of wrongly
    # leaving the School Room on the Active Teacher Card. If that Player's Pawn is in
    # a School Room that is not on the Active Teacher Card, then ... that Player
    # suffers a Detention."  "A Player cannot be targeted by Tattle if they are in
    # the Nurses Office."
    rooms = {0: PRINCIPALS_OFFICE, 1: CLASSROOM, 2: ART_ROOM, 3: NURSES_OFFICE}
    s = school(4, rooms=rooms)
    assert [a for a in legal(s, 0) if a.startswith("tattle")] == ["tattle 1", "tattle 2"]
    failed = act(s, 0, "tattle 1")  # seat 1 is where it is expected: nothing happens
    assert failed.phase == "turn" and failed.current == 1
    assert failed.detentions == (0, 0, 0, 0) and failed.rooms == s.rooms
    assert "fails" in failed.news[-1]
    # a Hall Pass in front of the accused turns nothing on the accuser: there was
    # no Detention for it to take "instead of the accused Player"
    hall_pass = card("hall-pass")
    passed = act(replace(s, passes=((1, hall_pass),)), 0, "tattle 1")
    assert passed.detentions == (0, 0, 0, 0) and passed.rooms[0] == PRINCIPALS_OFFICE
    outside = school(4, rooms=rooms, options={"tattle": "outside"})
    assert [a for a in legal(outside, 0) if a.startswith("tattle")] == ["tattle 2"]
    with pytest.raises(IllegalAction):
        act(outside, 0, "tattle 1")


def test_a_move_from_the_cafeteria_succeeds_into_the_monitors_room_too():
    # "Cafeteria: While in the Cafeteria you may perform the Move Standard Action
    # successfully without rolling a dice to Sneak past the Hall Monitor."
    fields = {"monitor": ART_ROOM, "monitor_hallway": True}
    s = act(school(2, rooms={0: CAFETERIA}, **fields), 0, f"move {ART_ROOM}")
    assert s.rooms[0] == ART_ROOM and s.phase == "turn" and s.current == 1
    assert s.detentions == (0, 0)
    old = school(2, rooms={0: CAFETERIA}, options={"cafeteria": "no-roll"}, **fields)
    old = act(old, 0, f"move {ART_ROOM}")
    assert old.phase == "catch-window" and old.windows == (0,)
