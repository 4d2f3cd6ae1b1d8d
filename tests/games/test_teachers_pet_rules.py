"""Teacher's Pet rules, each test quoting the rulebook line it comes from
(../shared/rulebooks/teachers-pet.txt) or the RULES.md decision it proves."""

from __future__ import annotations

from collections import Counter

import pytest

from p2ptable.engine.api import Action, Chance, IllegalAction, Simultaneous, Turn
from p2ptable.engine.frozen import replace
from p2ptable.engine.playout import play, random_chance, random_policy
from p2ptable.games.teachers_pet import GAME, scoring
from p2ptable.games.teachers_pet.cards import (
    ART_ROOM,
    CAFETERIA,
    CLASSROOM,
    GYMNASIUM,
    HALLWAY,
    LIBRARY,
    MUSIC_ROOM,
    NURSES_OFFICE,
    PLAY,
    PRINCIPALS_OFFICE,
    SET_POINTS,
    TEACHER,
    TEACHERS_LOUNGE,
)
from p2ptable.games.teachers_pet.state import all_play_cards
from tests.games.teachers_pet_helpers import (
    act,
    card,
    cards,
    finish_turns,
    legal,
    roll,
    school,
    set_up,
)

# -- the data ---------------------------------------------------------------------------


def test_the_decks_are_the_documented_reconstruction():
    # "Shuffle the Teacher Deck(4), ... and Play Deck(7)": the eight kinds of
    # Play card the rulebook describes, 80 cards (RULES.md).
    kinds = Counter(c.kind for c in PLAY)
    assert kinds == {
        "assignment": 28,
        "art": 8,
        "music": 8,
        "gift": 8,
        "bully": 8,
        "squeal": 6,
        "hall-pass": 8,
        "goody": 6,
    }
    assert {c.subject for c in PLAY if c.kind == "assignment"} == {
        "Math",
        "Reading",
        "Science",
        "History",
    }
    # "The more of a matching Subject you Turn In at once, the more Pet Points":
    # every extra card adds more than the one before.
    gains = [SET_POINTS[n + 1] - SET_POINTS[n] for n in range(1, len(SET_POINTS))]
    assert SET_POINTS[1] > 0 and gains == sorted(gains) and len(set(gains)) == len(gains)
    # 6 players x 7 cards leaves cards for Study.
    assert len(PLAY) >= 6 * 7 + 30


def test_thirty_five_teachers_are_exactly_enough():
    # "The Teacher Deck is made up of 35 Teacher Cards": 1 at set-up, 6 within
    # and 1 at the end of each of Days 1-4, 6 within Day 5.
    assert len(TEACHER) == 35 == 1 + 4 * (6 + 1) + 6
    rooms = {c.teacher: c.room for c in TEACHER}
    assert rooms == {
        "Homeroom Teacher": CLASSROOM,
        "Art Teacher": ART_ROOM,
        "Music Teacher": MUSIC_ROOM,
        "PE Teacher": GYMNASIUM,
        "Librarian": LIBRARY,
        "Lunch Lady": CAFETERIA,
    }


# -- set-up and the flow ----------------------------------------------------------------


def test_setup_first_player_teacher_pawns_and_seven_cards():
    # "Flip over the top card from the Teacher Deck ... Place all of the Players
    # Student Pawns in the School Room listed on the Active Teacher Card. Each
    # Player Draws Cards from the Play Deck until they have 7 Cards"; "Place your
    # Score Cube on the 5 Pet Points space".
    s = GAME.initial(4, {})
    step = GAME.pending(s)
    assert isinstance(step, Chance) and step.step.ranges == (4,)
    s = set_up(4, first=2, teacher_name="Librarian")
    assert s.phase == "turn" and s.current == 2 and s.first == 2
    assert s.rooms == (LIBRARY,) * 4 and s.points == (5,) * 4
    assert [len(h) for h in s.hands] == [7] * 4
    assert len(s.deck) == len(PLAY) - 28 and s.monitor == HALLWAY


def test_each_player_takes_one_action_per_period_clockwise():
    # "play proceeds to the Player on their left ... until play proceeds around
    # the table to the Player who went first."
    s = school(3, first=1)
    order = []
    for _ in range(3):
        order.append(s.current)
        s = finish_turns(act(s, s.current, "study"), until_phase="turn") if s.turn < 2 else s
    assert order[:2] == [1, 2]
    s = set_up(3, first=1)
    seen = []
    while s.phase != "monitor":
        if s.phase == "turn":
            seen.append(s.current)
            s = act(s, s.current, "study")
        else:
            s = roll(s, 0)
    assert seen == [1, 2, 0] and s.period == 2


def test_after_a_period_the_monitor_rolls_and_a_new_teacher_comes():
    # "move the Period Tracker Token 1 space forward ... Roll the D10 and move the
    # Hall Monitor Pawn so that the Pawn overlaps the Hallway and the School Room
    # number rolled. Turn over the top card from the Teacher Deck".
    s = finish_turns(school(2))
    step = GAME.pending(s)
    assert isinstance(step, Chance) and step.step.ranges == (10,)
    s = roll(s, 3)  # room 4, the Library: nobody there
    assert s.monitor == LIBRARY and s.monitor_hallway
    assert s.phase == "teacher"
    left = len(s.teacher_deck)
    s = roll(s, s.teacher_deck.index(next(c.id for c in TEACHER if c.room == ART_ROOM)))
    assert len(s.teacher_deck) == left - 1 and s.expected == ART_ROOM
    assert isinstance(GAME.pending(s), Simultaneous)


def _to_day_end(s):
    for _ in range(200):
        if s.period == 7 and s.phase == "monitor":
            raise AssertionError("no roll after Period 7")
        if s.day == 2:
            return s
        if s.phase == "turn":
            s = act(s, s.current, "study")
        elif s.phase == "free-move":
            for seat in sorted(GAME.pending(s).seats):
                s = act(s, seat, "stay")
        elif s.phase == "teacher":
            s = roll(s, 0)
        else:
            s = roll(s, 9)  # the Monitor rolls the Hallway: nobody caught
    raise AssertionError("the Day did not end")


def test_after_period_seven_the_day_ends_pawns_go_to_the_teacher_and_hands_fill_to_seven():
    # "After everyone has taken their Turn on the 7th Period, the School Day is
    # done ... move the Hall Monitor Pawn to the Hallway ... place all of the
    # Players Pawns in the new Active Teacher Cards School Room, and all Players
    # Draw Cards from the Play Deck until they have at least 7 Cards".
    s = school(2)
    s = replace(s, hands=(s.hands[0][:3], s.hands[1] + tuple(s.deck[:2])), deck=s.deck[2:])
    s = replace(s, period=7, monitor=GYMNASIUM, monitor_hallway=False)
    s = act(s, 0, "move 9")  # no roll: the Monitor is not in the Hallway
    s = act(s, 1, "move 7")
    assert s.phase == "teacher" and s.day == 2 and s.period == 1
    assert s.monitor == HALLWAY and s.monitor_hallway
    s = roll(s, 0)
    while s.phase == "deal":
        s = roll(s, 0)
    assert s.rooms == (s.expected, s.expected)
    assert [len(h) for h in s.hands] == [7, 9]  # at least 7: nobody discards


def test_the_game_lasts_five_days_and_uses_every_teacher():
    # "The Game is Played across 5 Days ... split up into 7 Periods"; "After the
    # 7th Period of the 5th Day is finished, the Day Tracker Token and the Period
    # Tracker Token are not moved."
    import random

    rng = random.Random(7)
    s = GAME.initial(3, {})
    turns = Counter()

    def counting(game, state, seat):
        if state.phase == "turn":
            turns[(state.day, state.period, seat)] += 1
        return random_policy(rng)(game, state, seat)

    final = play(GAME, s, lambda seat: counting, random_chance(rng))
    assert final.phase == "over" and final.day == 5 and final.period == 7
    assert not final.teacher_deck and len(final.teacher_discard) == 35
    assert max(turns.values()) == 1 and {d for d, _, _ in turns} == {1, 2, 3, 4, 5}


# -- Study ------------------------------------------------------------------------------


def test_study_draws_one_card_and_two_in_the_library():
    # "Study: Draw 1 Card"; "While in the Library the Study Standard Action lets
    # you draw 2(3?) Cards": 2 (RULES.md).
    s = school(2, teacher_name="Homeroom Teacher")
    after = finish_turns(act(s, 0, "study"), until_phase="turn")
    assert len(after.hands[0]) == 8
    s = school(2, rooms={0: LIBRARY})
    s = act(s, 0, "study")
    s = roll(s, 0)
    s = roll(s, 0)
    assert len(s.hands[0]) == 9 and s.current == 1


def test_an_empty_play_deck_is_replaced_by_the_discard_pile():
    # "when it runs out, the Play Deck Discard Pile becomes a new sealed deck"
    s = school(2)
    s = replace(s, discard=tuple(sorted(s.deck)), deck=())
    s = act(s, 0, "study")
    assert s.phase == "deal" and len(s.deck) == len(PLAY) - 14 and not s.discard
    # with both empty, Study draws nothing: test_teachers_pet_rulings.py


# -- Move and the sneak roll ------------------------------------------------------------


def test_moving_to_the_expected_room_needs_no_roll():
    # "If you wish to Move to a School Room that is not on the Active Teacher Card
    # while the Hall Monitor is in the Hallway, you must Roll".
    s = school(2, teacher_name="Librarian", rooms={0: ART_ROOM})
    s = act(s, 0, f"move {LIBRARY}")
    assert s.rooms[0] == LIBRARY and s.phase == "turn" and s.current == 1


def test_a_sneak_roll_of_four_or_more_gets_through():
    # "you must Roll a 4 or higher on the Dice": the D10 (RULES.md).
    s = act(school(2), 0, f"move {ART_ROOM}")
    step = GAME.pending(s)
    assert isinstance(step, Chance) and step.step.kind == "roll" and step.step.ranges == (10,)
    through = roll(s, 3)  # shows 4
    assert through.rooms[0] == ART_ROOM and through.points[0] == 5 and through.current == 1


def test_a_failed_sneak_is_a_catch_and_a_hall_pass_lets_the_move_through():
    # "If you are caught by the Hall Monitor, you are immediately moved to the
    # School Room shown on the Active Teacher Card and suffer a Detention"; "A Hall
    # Pass permits you to Move through the School without getting in trouble".
    hall_pass = card("hall-pass")
    s = act(school(2, hands={0: [hall_pass, card("gift")]}), 0, f"move {ART_ROOM}")
    caught = roll(s, 2)  # shows 3
    assert caught.phase == "catch-window" and caught.windows == (0,)
    detained = act(caught, 0, "pass")
    assert detained.rooms[0] == CLASSROOM and detained.points[0] == 0 and detained.lost[0] == 1
    shown = act(caught, 0, f"react 0 {hall_pass}")
    assert shown.rooms[0] == ART_ROOM and shown.points[0] == 5 and shown.passes == ((0, hall_pass),)


def test_from_the_cafeteria_no_roll_is_needed():
    # "While in the Cafeteria you may perform the Move Standard Action successfully
    # without rolling a dice to Sneak past the Hall Monitor."
    s = act(school(2, rooms={0: CAFETERIA}), 0, f"move {ART_ROOM}")
    assert s.rooms[0] == ART_ROOM and s.current == 1


def test_moving_into_the_monitors_room_is_a_catch():
    # "If you Move through or enter into a School Room that the Hall Monitor is in"
    s = school(2, monitor=ART_ROOM, monitor_hallway=True)
    s = act(s, 0, f"move {ART_ROOM}")  # no roll: caught whatever the dice say
    assert s.phase == "catch-window" and s.rooms[0] == ART_ROOM
    nurse = act(school(2, monitor=NURSES_OFFICE), 0, f"move {NURSES_OFFICE}")
    assert nurse.phase == "turn" and nurse.rooms[0] == NURSES_OFFICE  # no penalty there


def test_after_a_squeal_nobody_needs_to_sneak():
    # "while the Hall Monitor is in the Hallway": after a Squeal it is only in
    # the room it was sent to (RULES.md).
    s = school(2, monitor=GYMNASIUM, monitor_hallway=False)
    s = act(s, 0, f"move {ART_ROOM}")
    assert s.rooms[0] == ART_ROOM and s.current == 1


# -- Detention --------------------------------------------------------------------------


def test_a_detention_moves_the_pawn_costs_five_points_and_a_turn():
    # "If you suffer a Detention, you are Moved to the Active Teacher's School
    # Room, lose a Turn, and move down 5 Pet Points".
    s = school(2, rooms={1: ART_ROOM}, points=(9, 9))
    s = replace(s, hands=(s.hands[0], ()))  # nothing to show
    s = act(s, 0, f"move {MUSIC_ROOM}")
    s = roll(s, 0)
    s = act(s, 0, "pass")
    assert s.rooms[0] == CLASSROOM and s.points[0] == 4 and s.lost[0] == 1
    assert s.detentions == (1, 0)
    s = act(s, 1, "study")
    s = roll(s, 0)
    s = finish_turns(s, until_phase="monitor")
    s = roll(s, 9)
    homeroom = next(i for i, c in enumerate(s.teacher_deck) if TEACHER[c].room == CLASSROOM)
    s = act(roll(s, homeroom), 1, "stay")  # the Homeroom Teacher again; seat 1 stays
    assert s.current == 1 and s.lost[0] == 0  # seat 0's turn was lost


def test_with_floor_zero_pet_points_never_go_below_zero():
    # "move down 5 Pet Points on the Pet Point Score Tracker": ``floor=zero``, the
    # ruling before the option, reads the track as having no space below 0
    # (RULES.md; without the option: test_teachers_pet_rulings.py).
    s = school(2, hands={0: [card("gift")]}, points=(3, 5), options={"floor": "zero"})
    s = act(roll(act(s, 0, f"move {ART_ROOM}"), 0), 0, "pass")
    assert s.points[0] == 0


def test_two_detentions_cost_two_turns():
    s = school(2, hands={0: [], 1: [card("squeal")]}, rooms={0: ART_ROOM, 1: CLASSROOM})
    s = replace(s, lost=(1, 0))
    s = act(s, 0, "study")
    s = roll(s, 0)
    assert s.lost[0] == 1


# -- the Hall Monitor's roll ------------------------------------------------------------


def test_the_monitor_roll_catches_players_outside_the_old_teachers_room():
    # "If the Hall Monitor catches you ... while outside of the School Room listed
    # on the Active Teacher Card then you suffer a Detention"; the catch comes
    # before the new teacher (RULES.md).
    s = finish_turns(school(3, rooms={1: ART_ROOM, 2: ART_ROOM}))
    s = roll(s, ART_ROOM - 1)
    assert s.phase == "catch-window" and s.windows == (1, 2)
    s = act(act(s, 1, "pass"), 2, "pass")
    assert s.detentions == (0, 1, 1) and s.rooms == (CLASSROOM,) * 3
    assert s.phase == "teacher"


def test_nobody_is_penalised_in_the_nurses_office():
    # "Being Caught by the Hall Monitor in the Nurse's Office carries no penalty."
    s = finish_turns(school(2, rooms={1: NURSES_OFFICE}))
    s = roll(s, NURSES_OFFICE - 1)
    assert s.detentions == (0, 0) and s.rooms[1] == NURSES_OFFICE and s.phase == "teacher"


def test_several_players_caught_are_asked_clockwise_from_the_first_player():
    s = school(4, first=2, rooms={0: ART_ROOM, 1: ART_ROOM, 3: ART_ROOM})
    s = finish_turns(s)
    s = roll(s, ART_ROOM - 1)
    assert s.phase == "catch-window" and s.windows == (3, 0, 1)
    assert GAME.pending(s) == Turn(3)


# -- the Hall Pass ----------------------------------------------------------------------


def test_a_shown_hall_pass_protects_until_the_end_of_the_period():
    # "you may Reveal and place the Hall Pass Card face-up in front of you ... to
    # remain in the School Room avoiding the Detention. At the end of the Period,
    # discard the Hall Pass Card": against every catch until then (RULES.md).
    hall_pass, squeal = card("hall-pass"), card("squeal")
    s = school(2, hands={0: [hall_pass, card("gift")], 1: [squeal]})
    s = roll(act(s, 0, f"move {ART_ROOM}"), 1)  # caught sneaking
    s = act(s, 0, f"react 0 {hall_pass}")
    assert s.passes == ((0, hall_pass),) and s.rooms[0] == ART_ROOM and s.current == 1
    s = act(s, 1, f"work 0 {squeal} {ART_ROOM}")  # the Monitor finds seat 0 again
    assert s.phase == "monitor" and s.detentions == (0, 0) and s.rooms[0] == ART_ROOM
    assert "is caught, but has a Hall Pass in front" in s.news[-2]


def test_hall_passes_in_front_are_discarded_after_the_last_turn_of_the_period():
    hall_pass = card("hall-pass")
    s = school(2, hands={0: [card("gift")]}, rooms={0: ART_ROOM})
    s = replace(s, passes=((0, hall_pass),))
    s = finish_turns(s)
    assert not s.passes and hall_pass in s.discard


def test_a_window_opens_whether_or_not_the_player_holds_a_hall_pass():
    # Who is asked depends on public state only (engine/reactions.py).
    with_pass = school(2, hands={0: [card("hall-pass")]})
    without = school(2, hands={0: [card("gift")]})
    for s in (with_pass, without):
        s = roll(act(s, 0, f"move {ART_ROOM}"), 0)
        assert s.phase == "catch-window" and GAME.pending(s) == Turn(0)
        assert "pass" in legal(s, 0)


# -- the free Move ----------------------------------------------------------------------


def test_the_free_move_is_chosen_at_once_in_secret_and_applied_together():
    # "all players may choose to immediately take a free Move to the School Room
    # shown on the Active Teacher Card".
    s = finish_turns(school(3, rooms={1: ART_ROOM}))
    s = roll(s, 9)
    s = roll(s, s.teacher_deck.index(next(c.id for c in TEACHER if c.room == ART_ROOM)))
    decision = GAME.pending(s)
    assert decision == Simultaneous(frozenset({0, 2}))  # seat 1 is there already
    s = act(s, 2, "go")
    assert s.rooms[2] == CLASSROOM  # nothing applied before the last choice
    s = act(s, 0, "stay")
    assert s.rooms == (CLASSROOM, ART_ROOM, ART_ROOM) and s.phase == "turn"
    assert s.detentions == (0, 0, 0)  # the free Move is never caught


def test_a_player_who_lost_a_turn_still_takes_the_free_move():
    s = finish_turns(replace(school(2), lost=(0, 1)))
    s = roll(s, 9)
    s = roll(s, s.teacher_deck.index(next(c.id for c in TEACHER if c.room == LIBRARY)))
    assert GAME.pending(s) == Simultaneous(frozenset({0, 1}))


# -- Work -------------------------------------------------------------------------------


def test_art_and_music_score_only_in_their_room_with_their_teacher():
    # "Art Cards can only be played while the Active Teacher is the Art Teacher and
    # you are in the Art Room. Use the Work Standard Action to Play an Art Card and
    # score its Pet Point value."
    art = card("art", points=3)
    s = school(2, teacher_name="Art Teacher", hands={0: [art]})
    assert f"work 0 {art}" in legal(s, 0)
    s = act(s, 0, f"work 0 {art}")
    assert s.points[0] == 8 and art in s.discard
    wrong = school(2, teacher_name="Art Teacher", hands={0: [art]}, rooms={0: MUSIC_ROOM})
    assert f"work 0 {art}" not in legal(wrong, 0)
    with pytest.raises(IllegalAction):
        act(wrong, 0, f"work 0 {art}")
    music = card("music")
    assert f"work 0 {music}" not in legal(school(2, teacher_name="Art Teacher",
                                                   hands={0: [music]}), 0)  # fmt: skip


def test_a_gift_scores_in_the_active_teachers_room():
    # "Gift Cards can be played on your Turn to gain Pet Points while in the Active
    # Teachers School Room".
    gift = card("gift", points=2)
    s = act(school(2, hands={0: [gift]}), 0, f"work 0 {gift}")
    assert s.points[0] == 7
    away = school(2, hands={0: [gift]}, rooms={0: LIBRARY})
    assert not any(a.startswith("work") for a in legal(away, 0))


def test_hall_pass_and_goody_two_shoes_are_not_played_on_a_turn():
    s = school(2, hands={0: [card("hall-pass"), card("goody")]})
    assert not any(a.startswith("work") for a in legal(s, 0))


def test_squeal_moves_the_monitor_and_catches_everyone_there():
    # "Squeal: ... move the Hall Monitor to any School Room you choose. If the Hall
    # Monitor enters a School Room that is not the Active Teachers School Room and
    # finds Player Pawns there, all of those Players suffer a Detention."
    squeal = card("squeal")
    s = school(3, hands={0: [squeal], 1: [], 2: []}, rooms={0: LIBRARY, 1: LIBRARY, 2: ART_ROOM})
    s = act(s, 0, f"work 0 {squeal} {LIBRARY}")
    assert s.monitor == LIBRARY and not s.monitor_hallway
    assert s.detentions == (1, 1, 0)  # the player who squealed too
    safe = school(3, hands={0: [squeal]}, rooms={1: CLASSROOM})
    safe = act(safe, 0, f"work 0 {squeal} {CLASSROOM}")
    assert safe.detentions == (0, 0, 0)


# -- Bully ------------------------------------------------------------------------------


def test_bully_takes_one_card_by_a_blind_pick_and_the_victim_gives_it():
    # "choose a Player in the same School Room as you and blindly take 1 Card from
    # their Hand": chance picks the position, never the victim.
    bully = card("bully")
    victim_hand = [card("gift", points=1), card("art"), card("music")]
    s = school(2, hands={0: [bully], 1: victim_hand})
    s = act(s, 0, f"work 0 {bully} 1")
    assert s.phase == "bully-window" and GAME.pending(s) == Turn(1)
    s = act(s, 1, "pass")
    step = GAME.pending(s)
    assert isinstance(step, Chance) and step.step.kind == "pick" and step.step.seat == 1
    assert step.step.ranges == (3,)
    s = roll(s, 2)
    assert GAME.pending(s) == Turn(1, forced=True) and legal(s, 1) == ["give 2"]
    with pytest.raises(IllegalAction):
        act(s, 1, "give 0")
    s = act(s, 1, "give 2")
    assert s.hands[0] == (victim_hand[2],) and s.hands[1] == tuple(victim_hand[:2])
    assert s.current == 1 and s.phase == "turn"


def test_bully_in_the_gymnasium_takes_two_or_all_a_single_card():
    # "While in the Gymnasium the Bully Card lets you blindly take 2 Cards"
    bully = card("bully")
    s = school(2, teacher_name="PE Teacher", hands={0: [bully], 1: cards("art", 3)})
    s = act(act(s, 0, f"work 0 {bully} 1"), 1, "pass")
    s = act(roll(s, 0), 1, "give 0")
    s = act(roll(s, 0), 1, "give 0")
    assert len(s.hands[0]) == 2 and len(s.hands[1]) == 1 and s.current == 1
    one = school(2, teacher_name="PE Teacher", hands={0: [bully], 1: [card("art")]})
    one = act(act(one, 0, f"work 0 {bully} 1"), 1, "pass")
    one = act(roll(one, 0), 1, "give 0")
    assert len(one.hands[0]) == 1 and one.hands[1] == () and one.current == 1
    empty = school(2, teacher_name="PE Teacher", hands={0: [bully], 1: []})
    assert not any(a.startswith("work") for a in legal(empty, 0))


def test_goody_two_shoes_cancels_a_bully():
    # "If you are the Target of a Bully Card, immediately Reveal and then Discard
    # the Goody Two-Shoes Card from your Hand to cancel the effect."
    bully, goody = card("bully"), card("goody")
    s = school(2, hands={0: [bully], 1: [card("art"), goody]})
    s = act(s, 0, f"work 0 {bully} 1")
    assert f"react 1 {goody}" in legal(s, 1)
    s = act(s, 1, f"react 1 {goody}")
    assert s.hands[0] == () and s.hands[1] == (card("art"),)
    assert goody in s.discard and bully in s.discard and s.current == 1


def test_nobody_in_the_nurses_office_can_be_targeted():
    # "While in the Nurse's Office you cannot be targeted by any Actions."
    s = school(2, hands={0: [card("bully")]}, rooms={0: NURSES_OFFICE, 1: NURSES_OFFICE})
    assert not any(a.startswith("work") for a in legal(s, 0))
    t = school(2, rooms={0: PRINCIPALS_OFFICE, 1: NURSES_OFFICE})
    assert not any(a.startswith("tattle") for a in legal(t, 0))


# -- Turn In ----------------------------------------------------------------------------


def test_turn_in_scores_a_matching_set_by_its_size():
    # "Turn In a matching Set of at least 1 Assignment Card by showing them,
    # Scoring their combined Pet Point value, then putting them in the Play Deck
    # Discard Pile."
    maths = cards("assignment", 3, subject="Math")
    reading = card("assignment", subject="Reading")
    s = school(2, hands={0: [maths[0], reading, maths[1], maths[2]]})
    s = act(s, 0, f"turn-in 0 {maths[0]}")
    assert s.phase == "turn-in" and s.shown == (maths[0],)
    assert f"add 0 {reading}" not in legal(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, f"add 0 {reading}")
    s = act(s, 0, f"add 1 {maths[1]}")
    s = act(s, 0, f"add 1 {maths[2]}")
    s = act(s, 0, "done")
    assert s.points[0] == 5 + SET_POINTS[3] and s.hands[0] == (reading,)
    assert set(maths) <= set(s.discard) and s.current == 1


def test_turn_in_needs_the_classroom_and_the_homeroom_teacher():
    # "This Special Action can only be taken if your Pawn is in the Classroom while
    # the Active Teacher is the Homeroom Teacher."
    a = card("assignment")
    assert any(x.startswith("turn-in") for x in legal(school(2, hands={0: [a]}), 0))
    art_teacher = school(2, teacher_name="Art Teacher", hands={0: [a]}, rooms={0: CLASSROOM})
    assert not any(x.startswith("turn-in") for x in legal(art_teacher, 0))


# -- Cheat ------------------------------------------------------------------------------


def test_cheat_takes_an_assignment_from_the_discard_pile():
    # "Cheat: Look through the Play Deck Discard Pile and choose 1 Assignment Card,
    # adding it to your Hand."
    math, art = card("assignment", subject="Math"), card("art")
    s = school(2, hands={0: []}, rooms={0: TEACHERS_LOUNGE})
    s = replace(
        s, discard=tuple(sorted((math, art))), deck=tuple(c for c in s.deck if c not in (math, art))
    )
    assert [a for a in legal(s, 0) if a.startswith("cheat")] == [f"cheat {math}"]
    s = act(s, 0, f"cheat {math}")
    assert s.hands[0] == (math,) and s.discard == (art,)
    assert GAME.hand_card_taken(s, 0, Action("cheat", (math,))) == math


def test_cheat_is_not_offered_without_an_assignment_in_the_pile():
    s = school(2, rooms={0: TEACHERS_LOUNGE})
    s = replace(s, discard=(card("art"),))
    assert not any(a.startswith("cheat") for a in legal(s, 0))


# -- Tattle -----------------------------------------------------------------------------


def _tattle_school(target_hand, accuser_hand=(), **fields):
    return school(2, hands={0: list(accuser_hand), 1: list(target_hand)},
                  rooms={0: PRINCIPALS_OFFICE, 1: ART_ROOM}, **fields)  # fmt: skip


def test_tattle_gives_the_accused_a_detention():
    # "If that Player's Pawn is in a School Room that is not on the Active Teacher
    # Card, then that Player's Pawn is immediately Moved back ... and that Player
    # suffers a Detention."
    s = act(_tattle_school([card("gift")]), 0, "tattle 1")
    assert s.phase == "tattle-window" and GAME.pending(s) == Turn(1)
    s = act(s, 1, "pass")
    assert s.detentions == (0, 1) and s.rooms[1] == CLASSROOM and s.rooms[0] == PRINCIPALS_OFFICE


def test_a_hall_pass_turns_a_tattle_on_the_accuser():
    # "If the accused Player ... plays a Hall Pass Card from their Hand by revealing
    # and then placing it in front of them, then the accusing Player's Pawn is
    # immediately Moved back ... and suffers a Detention instead".
    hall_pass = card("hall-pass")
    s = act(_tattle_school([hall_pass]), 0, "tattle 1")
    s = act(s, 1, f"react 0 {hall_pass}")
    assert s.has_pass(1) and s.detentions == (1, 0) and s.rooms[0] == CLASSROOM
    in_front = act(_tattle_school([], passes=((1, hall_pass),)), 0, "tattle 1")
    assert in_front.detentions == (1, 0)


def test_the_accusers_own_hall_pass_cancels_the_backfire():
    # "If the accusing Player also has a Hall Pass Card placed in front of
    # themself, or reveals a Hall Pass Card ..., then the Detention they would have
    # suffered is canceled and they remain in the Principals Office."
    passes = cards("hall-pass", 2)
    s = act(_tattle_school([passes[0]], [passes[1]]), 0, "tattle 1")
    s = act(s, 1, f"react 0 {passes[0]}")
    assert s.phase == "tattler-window" and GAME.pending(s) == Turn(0)
    s = act(s, 0, f"react 0 {passes[1]}")
    assert s.detentions == (0, 0) and s.rooms[0] == PRINCIPALS_OFFICE


def test_with_tattle_outside_only_players_outside_the_expected_room_can_be_accused():
    # "accuse another Player of wrongly leaving the School Room on the Active
    # Teacher Card"; "A Player cannot be targeted by Tattle if they are in the
    # Nurses Office."  ``tattle=outside``, the ruling before the option (without
    # it: test_teachers_pet_rulings.py).
    rooms = {0: PRINCIPALS_OFFICE, 1: CLASSROOM, 2: ART_ROOM}
    s = school(3, rooms=rooms, options={"tattle": "outside"})
    assert [a for a in legal(s, 0) if a.startswith("tattle")] == ["tattle 2"]
    with pytest.raises(IllegalAction):
        act(s, 0, "tattle 1")


# -- the end ----------------------------------------------------------------------------


def test_late_plays_score_half_rounded_down():
    # "you may play your remaining cards from your hand 'late' to score half of
    # the number of Pet Points shown on the cards rounded down"; card by card
    # with ``late=per-card`` (the total halved once: test_teachers_pet_rulings.py).
    art3, gift1, bully = card("art", points=3), card("gift", points=1), card("bully")
    maths = cards("assignment", 2, subject="Math")
    hands = {0: [art3, gift1, bully, *maths]}
    s = school(2, hands=hands, day=5, period=7, options={"late": "per-card"})
    s = finish_turns(s, until_phase="late")
    assert s.current == 0
    assert f"late 2 {bully}" not in legal(s, 0)
    s = act(s, 0, f"late 0 {art3}")  # 3 // 2 = 1
    s = act(s, 0, f"late 0 {gift1}")  # 1 // 2 = 0
    s = act(s, 0, f"late 1 {maths[0]}")
    s = act(s, 0, f"add 1 {maths[1]}")
    s = act(s, 0, "done")  # a set of 2: 5 // 2 = 2
    assert s.points[0] == 5 + 1 + 0 + 2 and s.phase == "late"
    s = act(s, 0, "finish")
    assert s.phase == "late" and s.current == 1
    s = act(s, 1, "finish")
    assert s.phase == "over"


def test_with_tie_fewer_detentions_ties_go_to_fewer_detentions_then_are_shared():
    # "the Player with the most Pet Points is the winner"; ``tie=fewer-detentions``,
    # the ruling before the option (RULES.md).
    rule = "fewer-detentions"
    assert scoring.outcome((9, 9, 4), (2, 1, 0), rule).winners == (1,)
    assert scoring.outcome((9, 9, 4), (1, 1, 0), rule).winners == (0, 1)
    assert scoring.outcome((3, 9, 4), (5, 5, 0), rule).winners == (1,)


# -- hidden cards -----------------------------------------------------------------------


def test_another_seats_card_play_is_accepted_as_a_claim():
    # Between peers other hands are None: a play is a claim the sealed deck proves.
    gift = card("gift")
    s = school(2, teacher_name="Homeroom Teacher")
    hidden = s.with_hand(0, (None,) * 7)
    assert not any(a.startswith("work") for a in legal(hidden, 0))
    after = act(hidden, 0, f"work 3 {gift}")
    assert after.points[0] == 5 + PLAY[gift].points and len(after.hands[0]) == 6
    assert GAME.hand_card_played(hidden, 0, Action("work", (3, gift))) == (3, gift)
    with pytest.raises(IllegalAction):  # a Hall Pass is never Work, claimed or not
        act(hidden, 0, f"work 3 {card('hall-pass')}")
    with pytest.raises(IllegalAction):
        act(hidden, 0, f"work 9 {gift}")


def test_every_random_playout_keeps_every_card():
    import random

    for seed in range(8):
        rng = random.Random(seed)
        seats = 2 + seed % 5
        policy = random_policy(rng)
        final = play(
            GAME, GAME.initial(seats, {}), {s: policy for s in range(seats)}, random_chance(rng)
        )
        assert final.phase == "over"
        assert all_play_cards(final) == Counter(range(len(PLAY)))
