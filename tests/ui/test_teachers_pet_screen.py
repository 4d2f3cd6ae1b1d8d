"""The Teacher's Pet screen: what it shows, widths, colour, hidden hands, windows, menu words.

Every view here comes from the real rules: a school set up by chance resolved with
fixed outcomes (the first player, the teacher card drawn, the lowest card dealt each
time), then the hands and rooms a test needs (:func:`school`), then actions applied
and chance resolved with fixed outcomes, then ``GAME.view(state, seat)``.  The
screen sees only that view; the full state is used only to know what it must *not*
show.  Random playouts (seeded) cover every phase for the widths and the menu.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

import pytest

from p2ptable.engine.api import Action, Chance, GameOver, Simultaneous
from p2ptable.engine.frozen import replace
from p2ptable.games.teachers_pet import GAME, rules
from p2ptable.games.teachers_pet.cards import (
    ART_ROOM,
    CAFETERIA,
    CLASSROOM,
    GYMNASIUM,
    MUSIC_ROOM,
    NURSES_OFFICE,
    PLAY,
    PRINCIPALS_OFFICE,
    TEACHER,
    TEACHERS_LOUNGE,
)
from p2ptable.games.teachers_pet.state import TeachersPetState, all_play_cards
from p2ptable.games.teachers_pet.view import window_question
from p2ptable.ui import teachers_pet_screen as screen
from p2ptable.ui.screens import screens_for
from p2ptable.ui.style import MIN_RECENT_LINES, RECENT_LINES, strip_ansi

NAMES = ["Ada", "Ben", "Cleo"]
ADA, BEN, CLEO = 0, 1, 2


def card(name: str, n: int = 0) -> int:
    """The ``n``-th Play card called ``name`` ("Art 3", "Assignment (Math)")."""
    return [c.id for c in PLAY if c.name == name][n]


def teacher(name: str) -> int:
    return next(c.id for c in TEACHER if c.teacher == name)


def school(
    seats: int = 3,
    teacher_name: str = "Librarian",
    hands: Mapping[int, Sequence[int]] | None = None,
    rooms: Mapping[int, int] | None = None,
    **fields: object,
) -> TeachersPetState:
    """Day 1, Period 1, Ada's turn: set up by the rules (seat 0 first, the teacher
    named, the lowest card dealt each time), then the hands and rooms given; the
    cards for them come out of the deck or other hands, which the deck refills, so
    every card stays somewhere."""
    s = GAME.initial(seats, {})
    s = GAME.resolve(s, (0,))
    s = GAME.resolve(s, (s.teacher_deck.index(teacher(teacher_name)),))
    while s.phase == "deal":
        s = GAME.resolve(s, (0,))
    hands = dict(hands or {})
    wanted = {c for hand in hands.values() for c in hand}
    new_hands = []
    deck = sorted(set(s.deck) - wanted)
    for seat in range(seats):
        if seat in hands:
            new_hands.append(tuple(hands[seat]))
            deck += [c for c in s.hands[seat] if c not in wanted]
            continue
        kept = [c for c in s.hands[seat] if c not in wanted]
        while len(kept) < len(s.hands[seat]):
            kept.append(deck.pop(0))
        new_hands.append(tuple(kept))
    room_list = list(s.rooms)
    for seat, room in (rooms or {}).items():
        room_list[seat] = room
    s = replace(s, hands=tuple(new_hands), deck=tuple(sorted(deck)), rooms=tuple(room_list))
    s = replace(s, **fields)
    assert sorted(all_play_cards(s).elements()) == list(range(len(PLAY)))
    return s


def act(s: TeachersPetState, seat: int, text: str) -> TeachersPetState:
    return rules.apply(s, seat, Action.parse(text))


def render(s: TeachersPetState, seat: int | None, recent: Sequence[str] = (), **kw) -> str:
    return screen.render(GAME.view(s, seat), NAMES[: s.seats], recent, **kw)


def now_lines(out: str) -> str:
    """The "what happens now" sentence: the last paragraph of the screen."""
    return " ".join(out.split("\n\n")[-1].splitlines())


def without_hand(out: str) -> str:
    """The screen without its "Your hand" section."""
    parts = out.split("\n\n")
    return "\n\n".join(p for p in parts if not p.startswith("Your hand"))


ADA_HAND = [
    card("Hall Pass"),
    card("Assignment (Math)"),
    card("Gift 2"),
    card("Assignment (Math)", 1),
    card("Bully"),
    card("Assignment (Reading)"),
    card("Squeal"),
]


def busy_school() -> TeachersPetState:
    """Ada in the Library with the Librarian active; Ben in the Gymnasium with a Hall
    Pass in front; Cleo in the Nurse's Office owing a lost turn; the Monitor rolled 5
    and overlaps the Hallway and the Gymnasium."""
    ben_pass = card("Hall Pass", 7)
    s = school(
        hands={ADA: ADA_HAND},
        rooms={BEN: GYMNASIUM, CLEO: NURSES_OFFICE},
        monitor=GYMNASIUM,
        monitor_hallway=True,
        day=2,
        period=3,
        points=(12, 5, 0),
        lost=(0, 0, 1),
        detentions=(0, 1, 1),
    )
    deck = tuple(c for c in s.deck if c != ben_pass)
    s = replace(s, deck=deck, passes=((BEN, ben_pass),))
    return s.told("the Hall Monitor rolls 5: Gymnasium").told(
        "seat 1 is caught, but has a Hall Pass in front"
    )


# -- the screen ------------------------------------------------------------------------------


def test_turn_screen() -> None:
    recent = ["   40  chance    the Hall Monitor rolls 5: the Hallway and the Gymnasium"]
    out = render(busy_school(), ADA, recent, status=["Ben: no contact for 12 s"])
    expected = """\
Teacher's Pet | Day 2/5 Period 3/7 | Play Deck 58, discard 0 | Teacher Deck 34
--------------------------------------------------------------------------------
Active Teacher: Librarian: pawns are expected in the Library (4).

School Rooms  (T: the Active Teacher's, M: the Hall Monitor, pawns by number)
  1 Classroom                             6 Cafeteria
  2 Art Room                              7 Principal's Office
  3 Music Room                            8 Nurse's Office (safe)    3
  4 Library               T  1            9 Teachers Lounge
  5 Gymnasium             M  2           10 Hallway               M
Hall Monitor: overlaps the Hallway and the Gymnasium. Moves need a sneak roll
  (4+ on the D10), except to the Library or from the Cafeteria; entering the
  Gymnasium is a catch, no roll (not from the Cafeteria).

  Players      Pet Points  cards  Hall Pass  lost turns  Detentions
> 1 Ada (you)          12      7          -           -           0
  2 Ben                 5      7        yes           -           1
  3 Cleo                0      7          -           1           1

Your hand (7 cards)
  Assignment (Math) x2, Assignment (Reading), Gift 2, Bully, Squeal, Hall Pass

News
  Ben is caught, but has a Hall Pass in front

Recent
     40  chance    the Hall Monitor rolls 5: the Hallway and the Gymnasium

Your turn, in the Library: take one Action.
Ben: no contact for 12 s"""
    assert out == expected


def test_a_roll_the_events_show_is_not_news_again() -> None:
    # Issue 25: "the Hall Monitor rolls 2" sometimes shown twice, in the News and in
    # the events.  A roll the events do not show stays in the News.
    out = render(busy_school(), ADA, ["   38  Ada       studies"])
    assert "News\n  the Hall Monitor rolls 5: Gymnasium\n  Ben is caught" in out
    s = busy_school().told("the Hall Monitor rolls 5: Gymnasium")  # the same roll again
    recent = ["   40  chance    the Hall Monitor rolls 5: the Hallway and the Gymnasium"]
    out = render(s, ADA, recent)
    assert out.count("the Hall Monitor rolls 5") == 2  # the older one, and the event


def test_the_public_view_and_another_seat() -> None:
    out = render(busy_school(), None)
    assert "Your hand" not in out and "(you)" not in out
    assert out.endswith("Ada's turn, in the Library: take one Action.")
    ben = render(busy_school(), BEN)
    assert "> 1 Ada " in ben and "  2 Ben (you) " in ben
    assert "Your hand (7 cards)" in ben


def test_after_a_squeal_the_monitor_is_only_in_the_chosen_room() -> None:
    # "Squeal: Play from your Hand ... to move the Hall Monitor to any School Room
    # you choose" -- it leaves the Hallway (state.monitor_hallway).
    s = school(hands={ADA: [card("Squeal")]}, rooms={BEN: NURSES_OFFICE, CLEO: NURSES_OFFICE})
    s = act(s, ADA, f"work 0 {card('Squeal')} {ART_ROOM}")
    lines = render(s, BEN).splitlines()
    assert lines[6].startswith("  2 Art Room              M  ")
    assert lines[9].endswith("10 Hallway")  # no M: the Monitor left the Hallway
    assert "Hall Monitor: in the Art Room only (a Squeal sent it): no sneak rolls" in (
        " ".join(lines)
    )


def test_before_the_first_teacher_no_pawn_is_on_the_board() -> None:
    s = GAME.initial(3, {})
    out = render(s, ADA)
    assert "No Active Teacher yet." in out
    assert out.endswith("Setting up: choosing who goes first.")
    rows = [line.split() for line in out.splitlines()[5:10]]
    assert rows[3] == ["4", "Library", "9", "Teachers", "Lounge"]  # no pawn, no T
    assert "10 Hallway               M" in out  # "The Hall Monitor Pawn starts in the Hallway."


def test_a_set_being_turned_in_is_on_screen() -> None:
    # "Turn In a matching Set of at least 1 Assignment Card by showing them"
    math = [card("Assignment (Math)", n) for n in range(3)]
    s = school(teacher_name="Homeroom Teacher", hands={ADA: math})
    s = act(s, ADA, f"turn-in 0 {math[0]}")
    s = act(s, ADA, f"add 0 {math[1]}")
    out = render(s, CLEO)
    assert "Set shown by Ada: Assignment (Math) x2, 5 Pet Points if turned in now." in out
    assert out.endswith("Ada's turn: show more Math Assignments, or turn in the set.")
    view = GAME.view(s, ADA)
    words = [screen.describe_action_for_menu(view, a, NAMES) for a in GAME.legal_actions(s, ADA)]
    assert words == [
        "Show Assignment (Math) too (a set of 3: 9 Pet Points)",
        "Turn in the set shown: 2 Assignments, 5 Pet Points",
    ]


def test_a_late_set_scores_half() -> None:
    # "play your remaining cards from your hand 'late' to score half of the number of
    # Pet Points shown on the cards rounded down"
    math = [card("Assignment (Math)", n) for n in range(2)]
    s = school(hands={ADA: math}, day=5, period=7, phase="late", current=ADA)
    s = act(s, ADA, f"late 0 {math[0]}")
    view = GAME.view(s, ADA)
    assert view["late"] is True
    assert "Set shown by you (late: half points): Assignment (Math), 1 Pet Point" in (
        " ".join(render(s, ADA).splitlines())
    )
    words = [screen.describe_action_for_menu(view, a, NAMES) for a in GAME.legal_actions(s, ADA)]
    assert words == [
        "Show Assignment (Math) too (a set of 2: 2 Pet Points)",
        "Turn in the set shown: 1 Assignment, 1 Pet Point",
    ]


def test_the_free_move_names_who_is_asked_and_no_choice() -> None:
    # "all players may choose to immediately take a free Move to the School Room
    # shown on the Active Teacher Card": everyone not there, at once, in secret.
    s = school(rooms={CLEO: ART_ROOM}, phase="monitor", period=2, current=None)
    s = GAME.resolve(s, (CLASSROOM - 1,))  # the Monitor rolls 1: nobody is there
    s = GAME.resolve(s, (s.teacher_deck.index(teacher("Art Teacher")),))
    assert s.phase == "free-move"
    out = render(s, ADA)
    assert now_lines(out) == (
        "Everyone not in the Art Room decides at once, in secret, whether to take the "
        "free Move there: you and Ben. Nobody sees a choice until all are made."
    )
    assert "go" not in out.split() and "stay" not in out.split()
    assert words(s, BEN) == [
        "Take the free Move to the Art Room",
        "Stay in the Library",
    ]


def test_a_sneak_roll_says_where_the_pawn_heads() -> None:
    s = act(school(), ADA, f"move {MUSIC_ROOM}")
    assert s.phase == "sneak"
    assert now_lines(render(s, BEN)) == (
        "Ada's Move to the Music Room: the D10 is rolled, 4 or higher sneaks past the Hall Monitor."
    )


def bully_window() -> TeachersPetState:
    """Ada bullies Ben in the Gymnasium: "blindly take 2 Cards"."""
    s = school(hands={ADA: [card("Bully")]}, rooms={ADA: GYMNASIUM, BEN: GYMNASIUM})
    return act(s, ADA, f"work 0 {card('Bully')} {BEN}")


def test_a_bully_says_who_takes_from_whom() -> None:
    s = bully_window()
    assert now_lines(render(s, CLEO)) == (
        "Ada bullies Ben: show Goody Two-Shoes to cancel it, or let it happen?"
    )
    s = act(s, BEN, "pass")
    assert now_lines(render(s, CLEO)) == (
        "Ada bullies Ben: chance picks a card blindly from Ben's hand (2 still to take)."
    )
    assert now_lines(render(s, BEN)) == (
        "Ada bullies you: chance picks a card blindly from your hand (2 still to take)."
    )
    s = GAME.resolve(s, (3,))
    assert now_lines(render(s, ADA)) == "Ben hands the card chance picked to you."
    assert now_lines(render(s, BEN)) == "You hand the card chance picked to Ada."
    view = GAME.view(s, BEN)
    assert screen.describe_action_for_menu(view, Action("give", (3,)), NAMES) == (
        "Hand the card chance picked to Ada"
    )


# -- reaction windows read the same whether or not you hold the card ----------------------


def caught(hand: Sequence[int]) -> TeachersPetState:
    """Ada walks into the Monitor's Gymnasium (no sneak roll: a catch)."""
    s = school(hands={ADA: hand}, monitor=GYMNASIUM)
    return act(s, ADA, f"move {GYMNASIUM}")


def tattled(hand: Sequence[int]) -> TeachersPetState:
    """Cleo, in the Principal's Office, tattles on Ben in the Music Room."""
    s = school(hands={BEN: hand}, rooms={BEN: MUSIC_ROOM, CLEO: PRINCIPALS_OFFICE}, first=CLEO)
    s = replace(s, current=CLEO)
    return act(s, CLEO, f"tattle {BEN}")


def bullied(hand: Sequence[int]) -> TeachersPetState:
    s = school(hands={ADA: [card("Bully")], BEN: hand}, rooms={ADA: GYMNASIUM, BEN: GYMNASIUM})
    return act(s, ADA, f"work 0 {card('Bully')} {BEN}")


OTHER = [card("Art 2"), card("Assignment (Science)")]


@pytest.mark.parametrize(
    ("make", "seat", "reaction", "question"),
    [
        (caught, ADA, "Hall Pass",
         "The Hall Monitor caught you: show a Hall Pass, or take the Detention?"),
        (tattled, BEN, "Hall Pass",
         "Cleo tattles on you: show a Hall Pass, or take the Detention?"),
        (bullied, BEN, "Goody Two-Shoes",
         "Ada bullies you: show Goody Two-Shoes to cancel it, or let it happen?"),
    ],
)  # fmt: skip
def test_a_window_reads_the_same_with_or_without_the_card(make, seat, reaction, question) -> None:
    # "Some cards are played when it is not your Turn as a reaction": the window opens
    # for the seat whether or not it holds one (engine/reactions.py), and asks alike.
    holding = make([card(reaction), *OTHER])
    empty = make([card("Gift 1"), *OTHER])
    assert holding.phase.endswith("-window") and empty.phase == holding.phase
    with_card, without = render(holding, seat), render(empty, seat)
    assert now_lines(with_card) == now_lines(without) == question
    assert window_question(GAME.view(holding, seat), NAMES.__getitem__) == question
    assert without_hand(with_card) == without_hand(without)  # only the hand differs
    for other in range(3):
        if other != seat:
            assert render(holding, other) == render(empty, other)
    menu = [screen.describe_action_for_menu(GAME.view(holding, seat), a, NAMES)
            for a in GAME.legal_actions(holding, seat)]  # fmt: skip
    assert menu[1:] == [f"Show {reaction}"]


def test_a_backfired_tattle_asks_the_tattler() -> None:
    # "If the accused Player has a Hall Pass Card played in front of them, or plays
    # a Hall Pass Card ... the accusing Player ... suffers a Detention instead"
    s = tattled([card("Hall Pass"), *OTHER])
    s = act(s, BEN, f"react 0 {card('Hall Pass')}")
    assert s.phase == "tattler-window"
    question = "Your Tattle backfired: show a Hall Pass to cancel the Detention, or take it?"
    assert now_lines(render(s, CLEO)) == question
    assert now_lines(render(s, ADA)) == (
        "Cleo's Tattle backfired: show a Hall Pass to cancel the Detention, or take it?"
    )
    assert screen.describe_action_for_menu(GAME.view(s, CLEO), Action("pass"), NAMES) == (
        "Show nothing: take the Detention"
    )


# -- widths, colour, rows, hidden hands -------------------------------------------------------


def playout_states(seats: int, seed: int, every: int = 7) -> Iterator[TeachersPetState]:
    """Every ``every``-th state of a seeded random playout, to its end."""
    rng = random.Random(seed)
    s = GAME.initial(seats, {})
    step = 0
    while True:
        if step % every == 0 or s.phase == "over":
            yield s
        decision = GAME.pending(s)
        if isinstance(decision, GameOver):
            return
        if isinstance(decision, Chance):
            s = GAME.resolve(s, tuple(rng.randrange(r) for r in decision.step.ranges))
        elif isinstance(decision, Simultaneous):
            for seat in sorted(decision.seats):
                s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        else:
            s = GAME.apply(s, decision.seat, rng.choice(GAME.legal_actions(s, decision.seat)))
        step += 1


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_line_fits_80_columns(seats: int) -> None:
    names = [f"Player {n} with a very long name"[:32] for n in range(seats)]
    long = ["x" * 120] * 10
    for s in playout_states(seats, seats, every=11):
        for seat in (0, seats - 1, None):
            view = GAME.view(s, seat)
            plain = screen.render(view, names, long, long)
            coloured = screen.render(view, names, long, long, color=True)
            assert "\x1b" not in plain and "\x1b[" in coloured
            assert strip_ansi(coloured) == plain
            for line in plain.splitlines():
                assert len(line) <= 80 and line == line.rstrip(), line
            final = screen.render_final(view, names)
            assert "\x1b" not in final
            assert strip_ansi(screen.render_final(view, names, color=True)) == final
            for line in final.splitlines():
                assert len(line) <= 80 and line == line.rstrip(), line


def test_the_events_fill_the_rows_the_terminal_can_spare() -> None:
    events = [f"{n:5d}  Ada       event number {n}" for n in range(200)]
    view = GAME.view(busy_school(), ADA)
    shown = lambda out: [int(x.split()[-1]) for x in out.splitlines() if "event number" in x]  # noqa: E731
    assert shown(screen.render(view, NAMES, events)) == list(range(200 - RECENT_LINES, 200))
    fixed = len(screen.render(view, NAMES, [], ["status"]).splitlines())
    for rows in (fixed + 5, fixed + 20):
        out = screen.render(view, NAMES, events, ["status"], rows=rows)
        assert len(out.splitlines()) == rows
        assert shown(out) == list(range(200 - (rows - fixed - 2), 200))
    small = screen.render(view, NAMES, events, ["status"], rows=10)
    assert shown(small) == list(range(200 - MIN_RECENT_LINES, 200))


#: names also used in the screen's own words (the player table, the questions, news)
COMMON_WORDS = {"Hall Pass", "Goody Two-Shoes", "Bully", "Squeal"}


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_other_hands_are_never_rendered(seats: int) -> None:
    # "Each Player Draws Cards from the Play Deck until they have 7 Cards in their Hand":
    # only their owner sees them.
    names = [f"P{n}" for n in range(seats)]
    checked = 0
    for s in playout_states(seats, 100 + seats, every=5):
        if s.phase == "over":
            continue
        public = {c["name"] for c in GAME.view(s, None)["shown"]}
        for seat in (0, None):
            view = GAME.view(s, seat)
            own = {c["name"] for c in view["hand"] or [] if c is not None}
            hidden = (
                {
                    PLAY[c].name
                    for other in range(seats)
                    if other != seat
                    for c in s.hands[other]
                    if c is not None
                }
                - own
                - public
                - COMMON_WORDS
            )
            out = screen.render(view, names, [])
            for name in hidden:
                assert name not in out, (name, s.phase)
                checked += 1
    assert checked > 100


# -- the menu ------------------------------------------------------------------------------


def words(s: TeachersPetState, seat: int) -> list[str]:
    view = GAME.view(s, seat)
    return [screen.describe_action_for_menu(view, a, NAMES) for a in GAME.legal_actions(s, seat)]


def test_menu_words_for_a_turn_in_the_library() -> None:
    s = busy_school()
    assert words(s, ADA) == [
        "Study: draw 2 cards (Library)",
        "Move to the Classroom (sneak roll: 4+ on the D10)",
        "Move to the Art Room (sneak roll: 4+ on the D10)",
        "Move to the Music Room (sneak roll: 4+ on the D10)",
        "Move to the Gymnasium (the Hall Monitor is there!)",
        "Move to the Cafeteria (sneak roll: 4+ on the D10)",
        "Move to the Principal's Office (sneak roll: 4+ on the D10)",
        "Move to the Nurse's Office (sneak roll: 4+ on the D10; caught: no penalty)",
        "Move to the Teachers Lounge (sneak roll: 4+ on the D10)",
        "Play Gift 2: +2 Pet Points",
        *(f"Squeal: send the Hall Monitor to the {room}" for room in (
            "Classroom", "Art Room", "Music Room", "Library")),
        "Squeal: send the Hall Monitor to the Gymnasium (finds Ben)",
        *(f"Squeal: send the Hall Monitor to the {room}" for room in (
            "Cafeteria", "Principal's Office", "Nurse's Office", "Teachers Lounge", "Hallway")),
    ]  # fmt: skip


def test_menu_words_for_the_special_rooms() -> None:
    math = card("Assignment (Math)")
    # Cafeteria: "perform the Move Standard Action successfully without rolling"
    s = school(hands={ADA: [math]}, rooms={ADA: CAFETERIA})
    assert words(s, ADA)[1] == "Move to the Classroom"
    assert words(s, ADA)[0] == "Study: draw 1 card"
    # Teachers Lounge: "choose 1 Assignment Card, adding it to your Hand"
    s = school(rooms={ADA: TEACHERS_LOUNGE})
    s = replace(s, deck=tuple(c for c in s.deck if c != math), discard=(math,))
    assert words(s, ADA)[-1] == "Cheat: take Assignment (Math) from the discard pile"
    # Principal's Office: "accuse another Player of wrongly leaving the School Room"
    s = school(rooms={ADA: PRINCIPALS_OFFICE, BEN: ART_ROOM, CLEO: NURSES_OFFICE})
    assert words(s, ADA)[-1] == "Tattle on Ben (in the Art Room)"
    # ... "If that Player's Pawn is in a School Room that is not on the Active
    # Teacher Card": one where expected may be accused, and the menu says it fails
    s = school(rooms={ADA: PRINCIPALS_OFFICE, BEN: ART_ROOM})
    assert words(s, ADA)[-2:] == [
        "Tattle on Ben (in the Art Room)",
        "Tattle on Cleo (where expected: it fails)",
    ]
    # "Standard Actions are always available": Study with nothing left to draw
    s = replace(school(), deck=(), discard=())
    assert words(s, ADA)[0] == (
        "Study: nothing left to draw (the Play Deck and its discard pile are empty)"
    )
    # The Classroom with the Homeroom Teacher: Turn In Assignment.
    s = school(teacher_name="Homeroom Teacher", hands={ADA: [math]})
    assert words(s, ADA)[-1] == "Turn in Assignment (Math): start a set of Math Assignments"
    # Art with the Art Teacher, in the Art Room; a Bully outside the Gymnasium takes 1.
    s = school(teacher_name="Art Teacher", hands={ADA: [card("Art 3"), card("Bully")]})
    assert words(s, ADA)[-3:] == [
        "Play Art 3: +3 Pet Points",
        "Bully Ben: take 1 card blindly",
        "Bully Cleo: take 1 card blindly",
    ]
    s = school(hands={ADA: [card("Bully")]}, rooms={ADA: GYMNASIUM, BEN: GYMNASIUM})
    assert words(s, ADA)[-1] == "Bully Ben: take 2 cards blindly (Gymnasium)"


def test_menu_words_after_day_5() -> None:
    s = school(
        hands={ADA: [card("Music 3"), card("Assignment (History)"), card("Bully")]},
        day=5, period=7, phase="late", current=ADA,
    )  # fmt: skip
    assert words(s, ADA) == [
        "Play Music 3 late: +1 Pet Point",
        "Show Assignment (History) late: start a set (half points)",
        "Finish: play no more cards late",
    ]
    # "half of the number of Pet Points shown on the cards rounded down": the total
    # played late is halved once, so with 3 played late already a Music 3 adds 2
    assert words(replace(s, late_total=3), ADA)[0] == "Play Music 3 late: +2 Pet Points"
    per_card = replace(s, late_total=3, rulings=replace(s.rulings, late="per-card"))
    assert words(per_card, ADA)[0] == "Play Music 3 late: +1 Pet Point"


def test_the_sneak_words_agree_with_the_rules() -> None:
    # "If the Hall Monitor is in the Hallway you must Roll a 4 or higher": every Move
    # the menu marks needs the roll (the rules go to "sneak"), and no other.
    checked = 0
    for seats in (2, 4):
        for s in playout_states(seats, 7 + seats, every=1):
            if s.phase != "turn":
                continue
            seat = s.current
            view = GAME.view(s, seat)
            for action in GAME.legal_actions(s, seat):
                if action.verb != "move":
                    continue
                text = screen.describe_action_for_menu(view, action, NAMES)
                after = GAME.apply(s, seat, action)
                assert ("sneak roll" in text) == (after.phase == "sneak"), (text, s.monitor)
                if "Hall Monitor is there" in text:  # a catch, unless a Hall Pass is in front
                    assert (
                        after.phase == "catch-window"
                        or after.detentions != s.detentions
                        or s.has_pass(seat)
                    )
                checked += 1
    assert checked > 100


VERBS = {"study", "move", "work", "turn-in", "add", "done", "cheat", "tattle", "pass",
         "react", "give", "go", "stay", "late", "finish"}  # fmt: skip


def test_every_verb_is_worded() -> None:
    seen: set[str] = set()
    for seats in (2, 3, 4, 5, 6):
        for s in playout_states(seats, seats, every=1):
            decision = GAME.pending(s)
            if isinstance(decision, (Chance, GameOver)):
                continue
            deciders = (
                sorted(decision.seats) if isinstance(decision, Simultaneous) else [decision.seat]
            )
            for seat in deciders:
                view = GAME.view(s, seat)
                names = [f"P{n}" for n in range(seats)]
                for action in GAME.legal_actions(s, seat):
                    text = screen.describe_action_for_menu(view, action, names)
                    assert text != action.text and len(text) <= 76, (action, text)
                    seen.add(action.verb)
    assert seen == VERBS


def test_an_unknown_verb_is_shown_as_its_text() -> None:
    view = GAME.view(busy_school(), ADA)
    assert screen.describe_action_for_menu(view, Action("shout", (1,)), NAMES) == "shout 1"


# -- the end and the package ----------------------------------------------------------------


def test_final_screen_with_the_tie_break() -> None:
    # "the Player with the most Pet Points is the winner"; tied, the fewest Detentions
    # with the option tie=fewer-detentions (RULES.md).
    s = school(phase="over", current=None, points=(7, 7, 3), detentions=(2, 1, 0))
    s = replace(s, rulings=replace(s.rulings, tie="fewer-detentions"))
    expected = """\
Teacher's Pet | final Pet Points
--------------------------------------------------------------------------------
  Players              Pet Points  Detentions
  2 Ben        winner           7           1
  1 Ada (you)                   7           2
  3 Cleo                        3           0

Ben is the Teacher's Pet: 7 Pet Points like Ada, and the fewest Detentions (1)."""
    assert screen.render_final(GAME.view(s, ADA), NAMES) == expected
    assert render(s, ADA).endswith("The game is over.")


def test_final_screen_with_a_shared_victory_and_before_the_end() -> None:
    s = school(phase="over", current=None, points=(7, 7, 3), detentions=(2, 1, 0))
    out = screen.render_final(GAME.view(s, None), NAMES)
    # "the Player with the most Pet Points is the winner": tied, they share it
    assert out.endswith("Ada and Ben share the victory with 7 Pet Points each.")
    assert out.count("winner") == 2 and "seat" not in out
    assert screen.render_final(GAME.view(busy_school(), ADA), NAMES).endswith(
        "The game is not over yet."
    )


def test_the_terminal_gives_teachers_pet_these_screens() -> None:
    screens = screens_for("teachers-pet")
    assert screens.render is screen.render
    assert screens.render_final is screen.render_final
    assert screens.describe is screen.describe_action_for_menu
    assert screens.help == screen.HELP
    assert screen.HELP.startswith("Teacher's Pet\n")
    assert all(len(line) <= 80 for line in screen.HELP.splitlines())
