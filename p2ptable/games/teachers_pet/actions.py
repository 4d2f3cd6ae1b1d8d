"""A Teacher's Pet turn: the legal actions and what each does, with its windows.

How it works
------------
``turn_choices`` lists the actions of the seat whose turn it is: the ones that
show no card (Study, Move, Cheat, Tattle: the same on every peer) and, on the
seat's own peer, every way to play each card it holds.  Other peers cannot list
a hidden card, so ``check_turn`` accepts a play as a *claim* (the slot exists,
the card fits the action here and now) and the sealed deck's reveal proof checks
it.  The handlers resolve an action and end in ``flow``: a Move may roll to sneak
and be caught; Bully opens the victim's Goody Two-Shoes window, then blind picks
(chance picks the position, the victim hands the card over); Tattle opens the
target's Hall Pass window and, if it backfires, the accuser's; Turn In and the
late plays show a set one Assignment at a time (``add``, ``done``).  Every
constant below quotes the rulebook line it comes from; RULES.md says how the
open questions are settled, and ``s.rulings`` (the game's options, ``rulings.py``)
picks between the readings players may choose.
"""

from __future__ import annotations

from p2ptable.engine.api import Action, ChanceStep
from p2ptable.engine.frozen import replace
from p2ptable.engine.phases import ChancePhase, SeatPhase
from p2ptable.engine.reactions import reaction_phase
from p2ptable.games.teachers_pet.cards import (
    ART_ROOM,
    CAFETERIA,
    CLASSROOM,
    GYMNASIUM,
    HALLWAY,
    LIBRARY,
    MUSIC_ROOM,
    NURSES_OFFICE,
    PAWN_ROOMS,
    PLAY,
    PRINCIPALS_OFFICE,
    ROOMS,
    TEACHERS_LOUNGE,
)
from p2ptable.games.teachers_pet.flow import (
    catch,
    deal_next,
    detention,
    end_turn,
    found_in,
    hand_of,
    is_goody,
    is_pass,
    seat_name,
    show_pass,
)
from p2ptable.games.teachers_pet.state import TeachersPetState

State = TeachersPetState

#: "you must Roll a 4 or higher on the Dice": the D10, the only die the rulebook
#: names (RULES.md).
SNEAK = 4
#: "Library: ... the Study Standard Action lets you draw 2(3?) Cards": 2.
LIBRARY_STUDY = 2
#: "While in the Gymnasium the Bully Card lets you blindly take 2 Cards"
GYM_BULLY = 2
#: The card kinds that carry Pet Points and may be played "late" after Day 5.
SCORING_KINDS = frozenset({"art", "music", "gift", "assignment"})

# -- a turn: the legal actions --------------------------------------------------------------


def can_study(s: State) -> bool:
    """ "Standard Actions are always available for you to Perform on your Turns":
    Study draws what is left, nothing when nothing is (``study=with-cards``, the
    ruling before: only while a card is left to draw)."""
    return s.rulings.study == "always" or bool(s.deck or s.discard)


def _cheat_cards(s: State) -> list[int]:
    """One Assignment of each subject in the discard pile (the lowest id): which
    copy is taken makes no difference."""
    seen: dict[str, int] = {}
    for card in s.discard:
        c = PLAY[card]
        if c.kind == "assignment" and c.subject not in seen:
            seen[c.subject] = card
    return sorted(seen.values())


def tattle_targets(s: State, seat: int) -> list[int]:
    """ "accuse another Player of wrongly leaving the School Room on the Active
    Teacher Card": any other player (the accusation fails against one in the
    expected room), never one in the Nurse's Office; ``tattle=outside``, the
    ruling before: only a player outside the expected room."""
    unreachable = (NURSES_OFFICE, s.expected) if s.rulings.tattle == "outside" else (NURSES_OFFICE,)
    return [
        other for other in range(s.seats) if other != seat and s.rooms[other] not in unreachable
    ]


def bully_targets(s: State, seat: int) -> list[int]:
    """ "a Player in the same School Room as you" holding a card, not in the
    Nurse's Office (nobody there "can be targeted by any Actions")."""
    room = s.rooms[seat]
    if room == NURSES_OFFICE:
        return []
    return [
        other
        for other in range(s.seats)
        if other != seat and s.rooms[other] == room and s.hands[other]
    ]


def _open_actions(s: State) -> list[Action]:
    """The actions that show no hand card: the same on every peer."""
    seat = s.current
    assert seat is not None
    room = s.rooms[seat]
    actions = [Action("study")] if can_study(s) else []
    actions += [Action("move", (r,)) for r in PAWN_ROOMS if r != room]
    if room == TEACHERS_LOUNGE:
        actions += [Action("cheat", (card,)) for card in _cheat_cards(s)]
    if room == PRINCIPALS_OFFICE:
        actions += [Action("tattle", (target,)) for target in tattle_targets(s, seat)]
    return actions


def _card_actions(s: State, seat: int, slot: int, card: int) -> list[Action]:
    """What playing ``card`` from ``slot`` can be, for ``seat`` now."""
    kind = PLAY[card].kind
    room, expected = s.rooms[seat], s.expected
    if kind == "art" and room == ART_ROOM == expected:
        return [Action("work", (slot, card))]
    if kind == "music" and room == MUSIC_ROOM == expected:
        return [Action("work", (slot, card))]
    if kind == "gift" and room == expected:
        return [Action("work", (slot, card))]
    if kind == "bully":
        return [Action("work", (slot, card, t)) for t in bully_targets(s, seat)]
    if kind == "squeal":
        return [Action("work", (slot, card, r)) for r in range(1, len(ROOMS) + 1)]
    if kind == "assignment" and room == CLASSROOM == expected:
        return [Action("turn-in", (slot, card))]
    return []  # a Hall Pass or Goody Two-Shoes is a reaction only


def turn_choices(s: State) -> list[Action]:
    seat = s.current
    assert seat is not None
    plays = [
        action
        for slot, card in enumerate(s.hands[seat])
        if card is not None
        for action in _card_actions(s, seat, slot, card)
    ]
    return _open_actions(s) + plays


def claim(s: State, seat: int, action: Action) -> str | None:
    """Why the hand card ``action`` names (its first two args) cannot be at that
    slot, or None."""
    if len(action.args) < 2:
        return f"{action.verb} takes a slot and a card"
    slot, card = action.args[:2]
    hand = s.hands[seat]
    if not 0 <= slot < len(hand):
        return f"there is no slot {slot} in a hand of {len(hand)}"
    if not 0 <= card < len(PLAY):
        return f"there is no Play card {card}"
    known = hand[slot]
    if known is not None and known != card:  # unknown (None): its proof checks it
        return f"slot {slot} does not hold card {card}"
    return None


def check_turn(s: State, seat: int, action: Action) -> str | None:
    if action.verb not in ("work", "turn-in"):
        if action in _open_actions(s):
            return None
        return "legal now: " + ", ".join(a.text for a in _open_actions(s))
    why = claim(s, seat, action)
    if why is not None:
        return why
    slot, card = action.args[:2]
    if action not in _card_actions(s, seat, slot, card):
        return f"{PLAY[card].name} cannot be played so here and now"
    return None


# -- a turn: the actions ------------------------------------------------------------------


def _study(s: State, seat: int, action: Action) -> State:
    """ "Study: Draw 1 Card"; in the Library 2."""
    n = LIBRARY_STUDY if s.rooms[seat] == LIBRARY else 1
    return deal_next(replace(s, dealing=(seat,) * n, then="turn-end"))


def _move(s: State, seat: int, action: Action) -> State:
    """ "If the Hall Monitor is in the Hallway you must Roll a 4 or higher": not
    into the Active Teacher's room, not from the Cafeteria, and not into the
    Monitor's own room, which is a catch whatever the dice say."""
    room = action.args[0]
    if needs_sneak_roll(s, seat, room):
        return replace(s, phase="sneak", moving=room)
    # "While in the Cafeteria you may perform the Move Standard Action
    # successfully": never caught, into the Monitor's room too (``cafeteria=no-roll``,
    # the ruling before: no roll, but the Monitor's room is still a catch)
    safe = s.rooms[seat] == CAFETERIA and s.rulings.cafeteria == "succeeds"
    return _arrive(s, seat, room, watched=not safe)


def needs_sneak_roll(s: State, seat: int, room: int) -> bool:
    """Whether moving ``seat`` to ``room`` needs the sneak roll now."""
    return (
        room != s.expected
        and room != s.monitor
        and s.monitor_hallway
        and s.rooms[seat] != CAFETERIA
    )


def _arrive(s: State, seat: int, room: int, watched: bool = True) -> State:
    """The pawn enters ``room``; entering the Monitor's room is a catch (unless
    the Move cannot be caught: ``watched`` False)."""
    s = s.with_room(seat, room)
    seen = watched and room == s.monitor
    caught = (seat,) if seen and seat in found_in(s, room, seat) else ()
    return catch(s, caught, then="turn-end")


def _sneak_step(s: State) -> ChanceStep:
    return ChanceStep("roll", "sneak", (10,), seat=s.current)


def _resolve_sneak(s: State, outcome: tuple[int, ...]) -> State:
    seat, room = s.current, s.moving
    assert seat is not None and room is not None
    roll = outcome[0] + 1
    if roll >= SNEAK:
        return _arrive(
            s.told(f"{seat_name(seat)} sneaks past the Hall Monitor ({roll})"), seat, room
        )
    # Caught in the room the pawn sneaks into, by that room's rule: in the Nurse's
    # Office "carries no penalty" (``nurse-catch=detention``, the ruling before: a
    # Detention wherever).  A Hall Pass shown lets the Move go through (RULES.md).
    s = s.with_room(seat, room)
    if s.rulings.nurse_catch == "free" and seat not in found_in(s, room, seat):
        return end_turn(
            s.told(
                f"{seat_name(seat)} is caught sneaking ({roll}) into the {ROOMS[room - 1]}: "
                "no penalty there"
            )
        )
    s = s.told(f"{seat_name(seat)} is caught sneaking ({roll})")
    return catch(s, (seat,), then="turn-end")


def discard_card(s: State, seat: int, slot: int, card: int) -> State:
    hand = s.hands[seat]
    s = s.with_hand(seat, hand[:slot] + hand[slot + 1 :])
    return replace(s, discard=tuple(sorted((*s.discard, card))))


def _work(s: State, seat: int, action: Action) -> State:
    """ "Work: Play 1 Card. Reveal the Card, ... resolve its effect, then place it
    in the Play Deck Discard Pile." """
    slot, card = action.args[:2]
    s = discard_card(s, seat, slot, card)
    kind = PLAY[card].kind
    if kind in ("art", "music", "gift"):
        return end_turn(s.with_points(seat, s.points[seat] + PLAY[card].points))
    if kind == "squeal":
        room = action.args[2]
        s = replace(s, monitor=room, monitor_hallway=room == HALLWAY)
        return catch(s, found_in(s, room, seat), then="turn-end")
    assert kind == "bully"
    victim = action.args[2]
    take = GYM_BULLY if s.rooms[seat] == GYMNASIUM else 1
    s = replace(s, bully=(seat, victim, min(take, len(s.hands[victim]))))
    return replace(s, phase="bully-window", window="bully", windows=(victim,))


def _bully_passes(s: State, seat: int) -> State:
    return _next_pick(replace(s, windows=(), window=""))


def _bully_stopped(s: State, seat: int, slot: int, card: int) -> State:
    s = discard_card(replace(s, windows=(), window=""), seat, slot, card)
    return end_turn(s.told(f"{seat_name(seat)} shows Goody Two-Shoes: the Bully is cancelled"))


def _next_pick(s: State) -> State:
    assert s.bully is not None
    taker, victim, left = s.bully
    if left and s.hands[victim]:
        return replace(s, phase="pick")
    return end_turn(s)


def _pick_step(s: State) -> ChanceStep:
    assert s.bully is not None
    victim = s.bully[1]
    return ChanceStep("pick", "bully", (len(s.hands[victim]),), seat=victim)


def _resolve_pick(s: State, outcome: tuple[int, ...]) -> State:
    return replace(s, phase="give", picked=outcome[0])


def _give_choices(s: State) -> list[Action]:
    assert s.picked is not None  # the blind pick that led here (_resolve_pick)
    return [Action("give", (s.picked,))]


def _give(s: State, seat: int, action: Action) -> State:
    """The victim hands over the card chance picked; it goes last into the
    taker's hand, as the sealed deck puts it."""
    assert s.bully is not None and s.picked is not None
    taker, victim, left = s.bully
    hand = s.hands[victim]
    card = hand[s.picked]
    s = s.with_hand(victim, hand[: s.picked] + hand[s.picked + 1 :])
    s = s.with_hand(taker, (*s.hands[taker], card))
    return _next_pick(replace(s, bully=(taker, victim, left - 1), picked=None))


def turn_in(s: State, seat: int, action: Action) -> State:
    """The first Assignment of a set shown; the rest follow one by one (``add``)."""
    slot, card = action.args
    hand = s.hands[seat]
    s = s.with_hand(seat, hand[:slot] + hand[slot + 1 :])
    return replace(s, phase="turn-in", shown=(card,), late=s.phase == "late")


def _cheat(s: State, seat: int, action: Action) -> State:
    """ "choose 1 Assignment Card, adding it to your Hand": a known card goes last
    into a hidden hand (the sealed deck takes it in too, ``hand_card_taken``)."""
    card = action.args[0]
    index = s.discard.index(card)
    s = replace(s, discard=s.discard[:index] + s.discard[index + 1 :])
    return end_turn(s.with_hand(seat, (*s.hands[seat], card)))


def _tattle(s: State, seat: int, action: Action) -> State:
    """ "If that Player's Pawn is in a School Room that is not on the Active Teacher
    Card, then ... that Player suffers a Detention": a player in the expected room
    was not "wrongly leaving" it, and the accusation fails; a Hall Pass has no
    Detention there to turn on the accuser "instead of the accused Player"."""
    target = action.args[0]
    if s.rooms[target] == s.expected:
        return end_turn(s.told(f"{seat_name(target)} is where expected: the Tattle fails"))
    s = replace(s, tattle=(seat, target))
    if s.has_pass(target):
        return _tattle_backfires(s.told(f"{seat_name(target)} has a Hall Pass in front"))
    if not s.hands[target]:
        return end_turn(detention(s, target))
    return replace(s, phase="tattle-window", window="tattle", windows=(target,))


def _tattle_holds(s: State, seat: int) -> State:
    return end_turn(detention(replace(s, windows=(), window=""), seat))


def _tattle_nullified(s: State, seat: int, slot: int, card: int) -> State:
    s = show_pass(replace(s, windows=(), window=""), seat, slot, card)
    return _tattle_backfires(s.told(f"{seat_name(seat)} shows a Hall Pass"))


def _tattle_backfires(s: State) -> State:
    """ "the accusing Player ... suffers a Detention instead ... If the accusing
    Player also has a Hall Pass Card placed in front of themself, or reveals a Hall
    Pass Card ... the Detention ... is canceled"."""
    assert s.tattle is not None
    accuser = s.tattle[0]
    if s.has_pass(accuser):
        return end_turn(s.told(f"{seat_name(accuser)}'s Hall Pass cancels the Detention"))
    if not s.hands[accuser]:
        return end_turn(detention(s, accuser))
    return replace(s, phase="tattler-window", window="tattler", windows=(accuser,))


def _tattler_passes(s: State, seat: int) -> State:
    return end_turn(detention(replace(s, windows=(), window=""), seat))


def _tattler_shows(s: State, seat: int, slot: int, card: int) -> State:
    s = show_pass(replace(s, windows=(), window=""), seat, slot, card)
    return end_turn(s.told(f"{seat_name(seat)} shows a Hall Pass: the Detention is cancelled"))


# -- the phases of a turn (rules.TABLE lists them) --------------------------------------


def _window_seat(s: State) -> int:
    return s.windows[0]


TURN = SeatPhase(
    turn_choices,
    {
        "study": _study,
        "move": _move,
        "work": _work,
        "turn-in": turn_in,
        "cheat": _cheat,
        "tattle": _tattle,
    },
    check_turn,
)
SNEAK_ROLL = ChancePhase(_sneak_step, _resolve_sneak)
TATTLE_WINDOW = reaction_phase(_window_seat, hand_of, is_pass, _tattle_holds, _tattle_nullified)
TATTLER_WINDOW = reaction_phase(_window_seat, hand_of, is_pass, _tattler_passes, _tattler_shows)
BULLY_WINDOW = reaction_phase(_window_seat, hand_of, is_goody, _bully_passes, _bully_stopped)
PICK = ChancePhase(_pick_step, _resolve_pick)
GIVE = SeatPhase(_give_choices, {"give": _give}, forced=True)
