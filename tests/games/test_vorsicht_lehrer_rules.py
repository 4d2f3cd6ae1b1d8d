"""Vorsicht Lehrer! rules, each with the rulebook sentence it comes from."""

from __future__ import annotations

from dataclasses import replace

import pytest
from vorsicht_lehrer_helpers import (
    Dealt,
    Drawn,
    card,
    classroom,
    dice,
    play,
    slot_of,
    teacher,
    texts,
)

from p2ptable.engine.api import (
    Action,
    BadOptions,
    Chance,
    ChanceStep,
    GameOver,
    IllegalAction,
    Simultaneous,
    Turn,
)
from p2ptable.games.vorsicht_lehrer import GAME, rules
from p2ptable.games.vorsicht_lehrer.cards import SCHOOL, TEACHER
from p2ptable.games.vorsicht_lehrer.state import markers

CHEATING = card("Cheating")  # "Schwindeln": patience 9, negative 11, risk 12+
DAYDREAM = card("Daydreaming")  # patience 1, negative 2, risk 8+
WHISPER = card("Whispering")  # patience 2, negative 3, risk 9+
BLACKBOARD = teacher("To the blackboard!")  # patience 1, negative 8, risk 12+, star


# -- the cards --------------------------------------------------------------------------


def test_there_are_58_school_cards_and_20_teacher_cards():
    # "58 School cards (blue back)" / "20 Teacher's cards (blue back with teacher's symbol)"
    assert len(SCHOOL) == 58 and [c.id for c in SCHOOL] == list(range(58))
    assert len(TEACHER) == 20 and [c.id for c in TEACHER] == list(range(20))


def test_the_named_cards_have_the_rulebook_values():
    # Figure: "Schwindeln" ... "Patience points (the black box, value 9), Negative
    # points (the second box, value 11), and Risk throw (the third box, value 12+)."
    c = SCHOOL[CHEATING]
    assert (c.german, c.patience, c.negative, c.risk) == ("Schwindeln", 9, 11, 12)
    # Figure: "An die Tafel!" ... "Risk throw (... value 12+), Additional patience
    # points (the black box, value 1), and Negative points for all students (... 8)."
    t = TEACHER[BLACKBOARD]
    assert (t.german, t.patience, t.negative, t.risk, t.detention) == (
        "An die Tafel!",
        1,
        8,
        12,
        True,
    )
    # "The school teachers cards "Test" and "Inattentive Teacher" ... can not give the
    # students any negatives, and his patience is not overstretched."
    for name in ("Test", "Inattentive Teacher"):
        t = TEACHER[teacher(name)]
        assert (t.patience, t.negative, t.detention) == (0, 0, False)


def test_every_risk_number_can_be_thrown_with_three_dice():
    # "the player throws all 3 dice simultaneously"
    for c in (*SCHOOL, *TEACHER):
        if c.negative:
            assert 3 <= c.risk <= 18, c


# -- set-up -----------------------------------------------------------------------------


def test_two_to_six_players():
    # "6 Tokens (students)"
    for seats in range(2, 7):
        GAME.initial(seats, {})
    for seats in (1, 7):
        with pytest.raises(BadOptions):
            GAME.initial(seats, {})


def test_the_track_option_sets_the_end_field():
    assert GAME.initial(3, {}).track == 200
    assert GAME.initial(3, {"track": "100"}).track == 100
    assert markers(200) == (20, 40, 60, 80, 100, 120, 140, 160, 180)
    assert markers(100) == (20, 40, 60, 80)
    with pytest.raises(BadOptions):
        GAME.initial(3, {"track": "150"})


def test_first_player_is_a_fair_roll_and_each_seat_is_dealt_four_cards():
    # "The older player start the game" / "Each player has been assigned 4 start-up
    # cards." Ages are unknown to software: a fair roll over the seats.
    state = GAME.initial(3, {})
    assert GAME.pending(state) == Chance(ChanceStep("roll", "first-player", (3,)))
    state = GAME.resolve(state, (1,))
    seats = []
    while state.phase == "setup-deal":
        step = GAME.pending(state).step
        seats.append(step.seat)
        state = GAME.resolve(state, (0,))
    assert seats == [1, 2, 0] * 4
    assert [len(h) for h in state.hands] == [4, 4, 4]
    assert len(state.deck) == 58 - 12
    assert GAME.pending(state) == Turn(1)


def test_every_deal_is_a_chance_step_over_the_sorted_deck():
    # "School and teacher cards are divided into two separate stacks, mixed and hidden"
    state = GAME.resolve(GAME.initial(2, {}), (0,))
    assert GAME.pending(state) == Chance(ChanceStep("deal", "deal", (58,), seat=0))
    after = GAME.resolve(state, (30,))
    assert after.hands[0] == (30,)
    assert 30 not in after.deck and list(after.deck) == sorted(after.deck)


# -- a turn -----------------------------------------------------------------------------


def test_the_play_action_names_the_card_and_its_slot():
    # "Active player on his turn must play a school card"
    state = classroom(3, hands={0: [DAYDREAM, WHISPER, CHEATING, card("Stink bomb")]})
    assert texts(GAME.legal_actions(state, 0)) == [
        f"play 0 {DAYDREAM}",
        f"play 1 {WHISPER}",
        f"play 2 {CHEATING}",
        "play 3 57",
    ]
    assert GAME.legal_actions(state, 1) == ()
    for bad in (f"play 0 {WHISPER}", f"play 4 {DAYDREAM}", "play 0 58", "play 0", "take"):
        with pytest.raises(IllegalAction, match="phase turn: seat 0"):
            GAME.apply(state, 0, Action.parse(bad))
    with pytest.raises(IllegalAction, match="seat 0's decision"):
        GAME.apply(state, 1, Action.parse(f"play 0 {state.hands[1][0]}"))


def test_an_unknown_card_at_a_slot_is_accepted_as_a_claim():
    # Sealed decks later: a peer that does not know a card holds None for it and the
    # claim "play <slot> <card>" is checked by a proof, not by the rules.
    state = classroom(2, hands={0: [DAYDREAM, WHISPER]})
    state = state.with_hand(0, (None, *state.hands[0][1:]))
    after = GAME.apply(state, 0, Action.parse(f"play 0 {CHEATING}"))
    assert after.patience == 9 and after.hands[0] == state.hands[0][1:]
    assert texts(GAME.legal_actions(state, 0))[0] == f"play 1 {WHISPER}"


def test_playing_a_card_moves_the_patience_pawn_by_its_patience():
    # "move the Patience pawn according to the number of the patience points"
    state = play(classroom(3, hands={0: [CHEATING]}, patience=3), f"0: play 0 {CHEATING}")
    assert state.patience == 12
    assert CHEATING in state.discard and CHEATING not in state.hands[0]
    assert state.phase == "choose" and texts(GAME.legal_actions(state, 0)) == ["take", "risk"]


def test_taking_moves_the_token_by_the_negative_points():
    # "either he collects the number of negative points indicated on the school card"
    state = play(classroom(3, hands={0: [CHEATING]}), f"0: play 0 {CHEATING}", "0: take")
    assert state.tokens == (11, 0, 0)


def test_a_successful_risk_throw_escapes_the_negative_points():
    # "If the sum of the numbers shown by dices is at least as high as the risk throw
    # number, it has escaped the negative points and do not move his colored token."
    state = play(classroom(3, hands={0: [CHEATING]}), f"0: play 0 {CHEATING}", "0: risk")
    assert GAME.pending(state) == Chance(ChanceStep("roll", "risk", (6, 6, 6), seat=0))
    state = play(state, dice(6, 5, 1))  # exactly 12
    assert state.tokens == (0, 0, 0) and state.last_throw == (6, 5, 1)


def test_the_rulebook_example_a_failed_risk_throw_costs_twice_the_negative_points():
    # "Player A plays the card "Schwindeln" ... the black patience pawn is moved 9
    # fields ... Since he has not reached the required number of 12 ... he has to move
    # 2 times 11, thus 22 negative points."
    state = play(classroom(3, hands={0: [CHEATING]}), f"0: play 0 {CHEATING}")
    assert state.patience == 9
    state = play(state, "0: risk", dice(6, 4, 1))  # 11
    assert state.tokens == (22, 0, 0)


def test_the_hand_is_refilled_to_four_after_the_turn():
    # "After that, you have to replenish your cards to four"
    state = play(classroom(3, hands={0: [DAYDREAM]}), f"0: play 0 {DAYDREAM}", "0: take")
    assert len(state.hands[0]) == 3
    assert GAME.pending(state) == Chance(ChanceStep("deal", "deal", (len(state.deck),), seat=0))
    new = state.deck[0]
    state = play(state, Dealt(new))
    assert state.hands[0][-1] == new and len(state.hands[0]) == 4


def test_play_passes_clockwise():
    # "then the next player in clockwise order continue with his turn."
    state = classroom(3, hands={2: [DAYDREAM]}, first=2)
    state = play(state, f"2: play 0 {DAYDREAM}", "2: take", (0,))
    assert GAME.pending(state) == Turn(0) and state.turn_start == 1


def test_an_empty_deck_is_replaced_by_the_shuffled_discards():
    # Not in the rulebook: when a card must be dealt from an empty deck, the discards
    # (the card just played included) are shuffled into a new deck.
    state = classroom(2, hands={0: [DAYDREAM]})
    old_discards = (card("Whispering", 3), card("Reading comics"))
    state = replace(state, deck=(), discard=old_discards)
    state = play(state, f"0: play 0 {DAYDREAM}", "0: take")
    assert state.phase == "refill" and state.discard == ()
    assert state.deck == tuple(sorted((*old_discards, DAYDREAM)))
    state = play(state, Dealt(DAYDREAM))
    assert state.hands[0][-1] == DAYDREAM


# -- teacher cards ----------------------------------------------------------------------


def _to_teacher(patience: int, seats: int = 3, tokens=None, play_card: int = CHEATING):
    """Seat 0 plays ``play_card`` from ``patience``, takes, is dealt a card."""
    state = classroom(seats, hands={0: [play_card]}, patience=patience, tokens=tokens)
    return play(state, slot_of(state, 0, play_card), "0: take", (0,))


def test_no_teacher_card_unless_a_marker_is_reached():
    # "the patience pawn is checked to see if has exactly reached or exceeded one of
    # the black markers on the game board (Field 20, 40, 60, etc)"
    state = _to_teacher(10)  # 10 -> 19
    assert state.patience == 19 and GAME.pending(state) == Turn(1)


def test_reaching_a_marker_exactly_reveals_a_teacher_card():
    # "has exactly reached or exceeded one of the black markers" / "Now, the top
    # teacher card is revealed."
    for start in (11, 19):  # 11 -> 20 exactly, 19 -> 28 past it
        state = _to_teacher(start)
        assert GAME.pending(state) == Chance(ChanceStep("draw", "teacher-card", (20,)))
    # starting on a marker does not count it again
    assert GAME.pending(_to_teacher(20)) == Turn(1)


def test_teacher_card_negatives_are_chosen_by_every_seat_at_once_then_carried_out_in_order():
    # "These negative points (2nd box) are given to all players ... unless each player
    # attempt a risk throw (3rd box)": every player decides for themselves on the
    # same card, so they decide at once (RULES.md, "Teacher cards": a secret
    # simultaneous choice); then, from the active player clockwise, each takes the
    # points or throws.
    state = classroom(3, hands={1: [CHEATING]}, first=1, patience=15)
    state = play(state, f"1: play 0 {CHEATING}", "1: take", (0,), Drawn(BLACKBOARD))
    assert state.patience == 25  # 15 + 9 + 1
    assert GAME.pending(state) == Simultaneous(frozenset({0, 1, 2}))
    for seat in range(3):
        assert texts(GAME.legal_actions(state, seat)) == ["take", "risk"]
    # The log applies the revealed choices together, in seat order.
    state = play(state, "0: risk", "1: take")
    assert GAME.pending(state) == Simultaneous(frozenset({2}))
    assert GAME.legal_actions(state, 0) == () and state.tokens == (0, 11, 0)  # nothing yet
    state = play(state, "2: risk")
    # Seat 1 (the active player) takes its 8, then seat 2 throws, then seat 0.
    assert state.tokens == (0, 11 + 8, 0)
    assert GAME.pending(state) == Chance(ChanceStep("roll", "risk", (6, 6, 6), seat=2))
    state = play(state, dice(1, 1, 1))
    assert GAME.pending(state) == Chance(ChanceStep("roll", "risk", (6, 6, 6), seat=0))
    state = play(state, dice(6, 6, 6))
    assert state.tokens == (0, 11 + 8, 16)
    assert GAME.pending(state) == Turn(2)  # the next turn; nobody was on a black field
    assert state.teacher_discard == (BLACKBOARD,) and BLACKBOARD not in state.teacher_deck
    assert state.chosen == () and state.deciding == ()


def test_in_turn_teacher_choices_go_one_seat_after_another_as_before_protocol_2():
    # The rule of replays recorded before protocol 2 (teacher-choices=in-turn).
    state = classroom(3, hands={1: [CHEATING]}, first=1, patience=15, teacher_choices="in-turn")
    state = play(state, f"1: play 0 {CHEATING}", "1: take", (0,), Drawn(BLACKBOARD))
    assert state.patience == 25  # 15 + 9 + 1
    assert state.deciding == (1, 2, 0) and GAME.pending(state) == Turn(1)
    assert texts(GAME.legal_actions(state, 1)) == ["take", "risk"]
    assert GAME.legal_actions(state, 2) == ()
    state = play(state, "1: take")
    assert GAME.pending(state) == Turn(2)
    state = play(state, "2: risk")
    assert GAME.pending(state) == Chance(ChanceStep("roll", "risk", (6, 6, 6), seat=2))
    state = play(state, dice(1, 1, 1), "0: risk", dice(6, 6, 6))
    assert state.tokens == (0, 11 + 8, 16)
    assert GAME.pending(state) == Turn(2)  # the next turn; nobody was on a black field
    assert state.teacher_discard == (BLACKBOARD,) and BLACKBOARD not in state.teacher_deck


def _patient_teacher(monkeypatch, patience: int) -> int:
    """Make BLACKBOARD a card with ``patience`` extra patience points (none of the
    reconstructed cards has enough to reach a second marker)."""
    cards = list(rules.TEACHER)
    cards[BLACKBOARD] = replace(cards[BLACKBOARD], patience=patience)
    monkeypatch.setattr(rules, "TEACHER", tuple(cards))
    return BLACKBOARD


def test_teacher_card_patience_moves_the_pawn_without_a_chain_reaction(monkeypatch):
    # "Patience points are also indicated on the teacher cards. The black patience
    # thread is prompted accordingly." One teacher card per turn: the extra patience
    # reaching the next marker does not reveal a second one.
    shouts = teacher("The teacher shouts")  # patience 5
    state = classroom(2, hands={0: [CHEATING]}, patience=15)
    state = play(state, f"0: play 0 {CHEATING}", "0: take", (0,), Drawn(shouts))  # 24 -> 29
    state = play(state, "0: take", "1: take")
    assert state.patience == 29 and GAME.pending(state) == Turn(1)
    assert state.turn_start == 29  # the next turn counts markers from here
    _patient_teacher(monkeypatch, 20)
    state = classroom(2, hands={0: [CHEATING]}, patience=15)
    state = play(state, f"0: play 0 {CHEATING}", "0: take", (0,), Drawn(BLACKBOARD))
    state = play(state, "0: take", "1: take")  # 24 -> 44: past 40, but no second card
    assert state.patience == 44 and GAME.pending(state) == Turn(1)
    assert state.teacher_discard == (BLACKBOARD,)


def test_test_and_inattentive_teacher_give_nothing():
    # "The school teachers cards "Test" and "Inattentive Teacher" are lucky for
    # students: the teacher is so skilled that he can not give the students any
    # negatives, and his patience is not overstretched."
    for name in ("Test", "Inattentive Teacher"):
        state = play(_to_teacher(15, tokens=(20, 40, 0)), Drawn(teacher(name)))
        assert state.patience == 24 and state.tokens == (31, 40, 0)
        assert GAME.pending(state) == Turn(1)


def test_detention_moves_everyone_on_a_black_field_to_the_next():
    # "Anyone who is on a black field at this time has overstretched the teacher's
    # patience and has to go to the next black field (for example, from field 20 to
    # field 40)." The star applies after the negatives.
    state = classroom(4, hands={0: [DAYDREAM]}, patience=19, tokens=(18, 20, 32, 60))
    state = play(state, f"0: play 0 {DAYDREAM}", "0: take", (0,), Drawn(BLACKBOARD))
    # 18 + 2 = 20 before the card; the others 20, 32, 60
    state = play(state, "0: risk", "1: risk", "2: take", "3: risk")
    state = play(state, dice(6, 6, 6), dice(6, 6, 6), dice(6, 6, 6))
    assert state.tokens == (40, 40, 60, 80)


def test_detention_from_the_last_marker_reaches_the_end_field():
    state = classroom(2, hands={0: [DAYDREAM]}, patience=19, tokens=(0, 180))
    state = play(state, f"0: play 0 {DAYDREAM}", "0: take", (0,), Drawn(BLACKBOARD))
    state = play(state, "0: take", "1: risk", dice(6, 6, 6))
    assert state.tokens == (2 + 8, 200) and GAME.pending(state) == GameOver()  # the star


def test_an_empty_teacher_deck_is_replaced_by_the_teacher_discards():
    # Not in the rulebook (with 20 cards and at most 9 markers it cannot happen on
    # these tracks): the discarded teacher cards become the new teacher deck.
    state = classroom(2, hands={0: [CHEATING]}, patience=15)
    state = replace(state, teacher_deck=(), teacher_discard=tuple(range(19, -1, -1)))
    state = play(state, f"0: play 0 {CHEATING}", "0: take", (0,))
    assert state.teacher_deck == tuple(range(20)) and state.teacher_discard == ()
    assert GAME.pending(state) == Chance(ChanceStep("draw", "teacher-card", (20,)))


# -- the end ----------------------------------------------------------------------------


def test_the_game_ends_when_the_patience_pawn_reaches_the_end_field():
    # "The game ends immediately, as soon as the patience thread or a colored token
    # has moved on or over the field "Cautionary Teacher""
    state = classroom(2, hands={0: [CHEATING]}, patience=191, tokens=(5, 9))
    state = play(state, f"0: play 0 {CHEATING}")
    assert state.patience == 200 and GAME.pending(state) == GameOver()
    assert state.tokens == (5, 9)  # no negatives for the card that ended it
    assert GAME.outcome(state).winners == (0,)


def test_the_teacher_cards_patience_can_end_the_game(monkeypatch):
    _patient_teacher(monkeypatch, 20)
    state = classroom(2, hands={0: [CHEATING]}, patience=75, track="100")
    state = play(state, f"0: play 0 {CHEATING}", "0: take", (0,), Drawn(BLACKBOARD))
    assert state.patience == 104 and GAME.pending(state) == GameOver()


def test_the_game_ends_when_a_token_reaches_the_end_field():
    # "... or a colored token has moved on or over the field": even in the middle of
    # carrying out the teacher card's choices.
    state = classroom(3, hands={0: [CHEATING]}, patience=15, tokens=(0, 195, 190))
    state = play(state, f"0: play 0 {CHEATING}", "0: take", (0,), Drawn(BLACKBOARD))
    state = play(state, "0: take", "1: take", "2: take")
    assert GAME.pending(state) == GameOver()
    assert state.tokens == (19, 203, 190)  # seat 2's points were never given
    state = classroom(2, hands={0: [CHEATING]}, tokens=(190, 0))
    assert GAME.pending(play(state, f"0: play 0 {CHEATING}", "0: take")) == GameOver()


def test_points_beyond_the_end_field_decay():
    # "(remaining points decay)"
    state = classroom(2, hands={0: [CHEATING]}, tokens=(190, 0))
    state = play(state, f"0: play 0 {CHEATING}", "0: risk", dice(1, 1, 1))
    assert state.tokens == (212, 0)
    assert GAME.outcome(state).scores == (200, 0)


def test_fewest_negative_points_wins_and_ties_share():
    # "It is now determined who has the least negative points and thus leaves the
    # class as best student."
    state = classroom(3, hands={0: [CHEATING]}, patience=195, tokens=(40, 30, 30))
    state = play(state, f"0: play 0 {CHEATING}")
    outcome = GAME.outcome(state)
    assert outcome.scores == (40, 30, 30) and outcome.winners == (1, 2)
    assert outcome.explanation == (
        "seat 1 and seat 2 share the victory with the fewest negative points (30)"
    )
    assert GAME.outcome(classroom(2)) is None


def test_a_short_game_ends_at_100():
    state = classroom(2, hands={0: [CHEATING]}, patience=91, track="100")
    assert GAME.pending(play(state, f"0: play 0 {CHEATING}")) == GameOver()
