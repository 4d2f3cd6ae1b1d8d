"""The strong Teacher's Pet bot: every action weighed, risk against reward.

How it works
------------
Like the greedy bot (``bots.py``) it reads only ``game.view(state, seat)`` and the
legal actions.  Unlike it, it values a hand by what it will still score, and an
action by how much it changes that, counting what it knows from the cards seen:

* **The school week ahead.**  Every Teacher card left is exactly one Period still
  to come (the 35 cards make the 35 Periods), and the face-up discards say which
  teachers have been, so it knows how many Homeroom, Art and Music Periods are
  left.  ``potential`` gives each Assignment set a Homeroom Period, each Art and
  Music card a Period of its teacher, Gifts and Bullies the turns left over, best
  first; what finds no turn scores half, late.  A card held is worth a little
  less than a card played (``KEEP``: it may be bullied away).  A set that will be
  turned in is worth the more cards of its subject it may still draw.
* **Study** is worth the average growth of that potential over the cards it has
  not seen (a Library Study twice that); a play, its Pet Points now less what
  the card was worth held; so it plays Art while the Art Teacher is there before
  a Gift that keeps, and holds a set while Homeroom Periods are left to grow it.
* **Risk.**  A sneak fails 3 times in 10 (never a cost into the Nurse's Office
  when ``nurse-catch=free``); the Monitor's own room is a certain catch (not from
  the Cafeteria when ``cafeteria=succeeds``); a pawn outside the expected room
  meets the Monitor's roll 1 time in 10 at the end of the Period.  A catch costs
  a Detention (5 Pet Points, or what is left above 0 with ``floor=zero``, and a
  lost turn), or only the Hall Pass it shows when it holds one.  A Move out is
  made when what the room offers on the next turn (Library: 2 cards; Teachers
  Lounge: the best Assignment to Cheat; Principal's Office: a Tattle on a rival
  outside the expected room; Gymnasium: a double Bully) beats two ordinary turns
  and the risk; it stays for it at the free Move only while that still pays.
* **Rivals.**  Bully, Squeal and Tattle are worth the harm done, all of it to the
  strongest rival (Pet Points and cards in hand), part of it to the others, and
  the chance that the target shows Goody Two-Shoes or a Hall Pass is read from
  how many of those cards it has not seen and how many the target holds.
* **Reactions, sets and the late plays**: as the greedy bot (always show the
  Hall Pass or Goody Two-Shoes, show a whole set, play everything late).

Ties are broken with the policy's own ``rng``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from p2ptable.engine.api import Action, Game
from p2ptable.engine.playout import Policy
from p2ptable.games.teachers_pet.cards import (
    ART_ROOM,
    CAFETERIA,
    GYMNASIUM,
    HALLWAY,
    LIBRARY,
    MUSIC_ROOM,
    NURSES_OFFICE,
    PLAY,
    PRINCIPALS_OFFICE,
    TEACHER,
    TEACHERS_LOUNGE,
    PlayCard,
    set_points,
)
from p2ptable.games.teachers_pet.state import DETENTION_POINTS

View = dict[str, Any]

#: a card held is worth this much of the same card played now (it may be taken)
KEEP = 0.9
#: a later turn a card needs could have done something else: what that costs
TURN_COST = 0.75
#: a Bully's use when a turn is free for it: a card taken, one the victim loses
BULLY_USE = 1.5
#: cards that score nothing but may save a Detention or a Bully, first copy and more
HALL_PASS_VALUE, GOODY_VALUE, SQUEAL_VALUE = 1.5, 0.8, 0.3
#: "Roll a 4 or higher" on the D10
SNEAK_FAILS = 0.3
#: the Monitor's D10 lands on a given room
MONITOR_ROLL = 0.1
#: the rivals' harm counted against the strongest rival, and against the others
LEADER_WEIGHT, OTHER_WEIGHT = 1.0, 0.4
#: the share of future turns a seat spends drawing (Study, and the Day's refills)
DRAW_SHARE = 0.3


@dataclass(frozen=True)
class Week:
    """The Periods still to come after this one, by the teacher who will hold them."""

    homeroom: int
    art: int
    music: int
    turns: int  # every Period still to come, less the turns the seat has to lose


def week_ahead(view: View) -> Week:
    """Every Teacher card not yet turned over is one Period still to come."""
    seen: Counter[str] = Counter(view["teacher_discard"])
    total = Counter(c.teacher for c in TEACHER)
    left = {name: total[name] - seen[name] for name in total}
    turns = max(0, view["teacher_deck_left"] - view["lost"][view["you"]])
    return Week(
        left.get("Homeroom Teacher", 0),
        left.get("Art Teacher", 0),
        left.get("Music Teacher", 0),
        turns,
    )


def unseen(view: View) -> list[PlayCard]:
    """The Play cards this seat has not seen: in the deck or in other hands."""
    known = {c["id"] for c in view["hand"]}
    known.update(c["id"] for c in view["discard"])
    known.update(c["id"] for c in view["shown"])
    known.update(card["id"] for _, card in view["passes"])
    return [c for c in PLAY if c.id not in known]


def _best_first(values: Iterable[float], slots: int) -> tuple[list[float], list[float]]:
    ordered = sorted(values, reverse=True)
    return ordered[:slots], ordered[slots:]


def potential(hand: list[PlayCard], week: Week, pool: list[PlayCard]) -> float:
    """What ``hand`` will still score: each card or set in a turn that can play
    it, best first; what finds none scores half, late."""
    value = 0.0
    subjects = Counter(c.subject for c in hand if c.kind == "assignment")
    sets = sorted(subjects.items(), key=lambda item: -set_points(item[1]))
    draws = DRAW_SHARE * week.turns
    pool_size = max(1, len(pool))
    left = Counter(c.subject for c in pool if c.kind == "assignment")
    for n, (subject, count) in enumerate(sets):
        if n < week.homeroom:
            grow = draws * left[subject] / pool_size
            more = set_points(min(count + 1, 7)) - set_points(count)
            played = KEEP * (set_points(count) + 0.5 * grow * more) - TURN_COST
            value += max(played, set_points(count) / 2)
        else:
            value += set_points(count) / 2
    used = min(len(sets), week.homeroom)
    for kind, periods in (("art", week.art), ("music", week.music)):
        kept, late = _best_first((c.points for c in hand if c.kind == kind), periods)
        value += sum(max(KEEP * p - TURN_COST, p / 2) for p in kept) + sum(late) / 2
        used += len(kept)
    free = max(0, week.turns - used)
    # Gifts and Bullies share the turns left: each takes one, the best gain first
    uses = [(c.points / 2, "gift", c.points) for c in hand if c.kind == "gift"]
    uses += [(BULLY_USE, "bully", 0) for c in hand if c.kind == "bully"]
    uses.sort(reverse=True)
    for n, (_, kind, points) in enumerate(uses):
        if n < free:
            full = KEEP * (points if kind == "gift" else BULLY_USE) - TURN_COST
            value += max(full, points / 2)
        elif kind == "gift":
            value += points / 2
    for kind, first in (("hall-pass", HALL_PASS_VALUE), ("goody", GOODY_VALUE)):
        copies = sum(1 for c in hand if c.kind == kind)
        value += first * min(copies, 1) + first / 3 * max(0, copies - 1)
    value += SQUEAL_VALUE * min(1, sum(1 for c in hand if c.kind == "squeal"))
    return value


class Reading:
    """One decision's reading of the view: the hand, the week, what a card is worth."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.me: int = view["you"]
        self.hand = [PLAY[c["id"]] for c in view["hand"]]
        self.week = week_ahead(view)
        self.pool = unseen(view)
        self.base = potential(self.hand, self.week, self.pool)
        self.draw = self._draw_value()

    def worth(self, hand: list[PlayCard]) -> float:
        """How much better ``hand`` is than the one held."""
        return potential(hand, self.week, self.pool) - self.base

    def without(self, *ids: int) -> list[PlayCard]:
        gone = list(ids)
        kept = []
        for card in self.hand:
            if card.id in gone:
                gone.remove(card.id)
            else:
                kept.append(card)
        return kept

    def _draw_value(self) -> float:
        """The average worth of one more card: from the discard pile when the Play
        Deck is empty (it becomes the new deck), else from the cards not seen."""
        view = self.view
        if not view["deck_left"]:
            source = [PLAY[c["id"]] for c in view["discard"]]
        else:
            source = self.pool
        if not source:
            return 0.0
        kinds = Counter((c.kind, c.subject, c.points) for c in source)
        total = 0.0
        for (kind, subject, points), n in kinds.items():
            sample = next(
                c for c in source if (c.kind, c.subject, c.points) == (kind, subject, points)
            )
            total += n * self.worth([*self.hand, sample])
        return max(0.0, total / len(source))

    # -- rivals -----------------------------------------------------------------------------

    def holds_chance(self, seat: int, kind: str) -> float:
        """The chance that ``seat`` holds at least one ``kind`` card, from how many
        of them this seat has not seen and how many cards ``seat`` holds."""
        if not self.pool:
            return 0.0
        share = sum(1 for c in self.pool if c.kind == kind) / len(self.pool)
        return 1 - (1 - share) ** self.view["hand_sizes"][seat]

    def weight(self, rival: int) -> float:
        """How much harm to ``rival`` is worth: all of it for the strongest."""
        view = self.view

        def threat(seat: int) -> float:
            return view["points"][seat] + self.draw * view["hand_sizes"][seat]

        rivals = [s for s in range(view["seats"]) if s != self.me]
        strongest = max(rivals, key=threat)
        return LEADER_WEIGHT if rival == strongest else OTHER_WEIGHT

    def detention_cost(self, seat: int) -> float:
        """5 Pet Points (only what is left above 0 with ``floor=zero``) and a turn."""
        points = DETENTION_POINTS
        if self.view["rulings"]["floor"] == "zero":
            points = min(points, max(0, self.view["points"][seat]))
        return points + self.draw

    def catch_cost(self) -> float:
        """What a catch costs this seat: the Hall Pass it shows, or a Detention."""
        if any(c.kind == "hall-pass" for c in self.hand):
            return HALL_PASS_VALUE
        return self.detention_cost(self.me)

    def outside_risk(self, room: int) -> float:
        """One Period outside the expected room in ``room``: the Monitor's roll,
        and a rival's Squeal or Tattle."""
        if room in (NURSES_OFFICE, self.view["expected"]):
            return 0.0
        rivals = self.view["seats"] - 1
        return (MONITOR_ROLL + 0.03 * rivals) * self.catch_cost()


# -- the actions of a turn ---------------------------------------------------------------------


def _move_risk(r: Reading, room: int) -> float:
    view = r.view
    here = view["rooms"][r.me]
    rulings = view["rulings"]
    safe = here == CAFETERIA and rulings["cafeteria"] == "succeeds"
    watched = room == view["monitor"] and room not in (view["expected"], NURSES_OFFICE, HALLWAY)
    if watched and not safe:
        return r.catch_cost()  # entering the Monitor's room is a catch
    rolls = (
        room not in (view["expected"], view["monitor"])
        and view["monitor_hallway"]
        and here != CAFETERIA
    )
    if not rolls or (room == NURSES_OFFICE and rulings["nurse-catch"] == "free"):
        return 0.0
    return SNEAK_FAILS * r.catch_cost()


def _tattle_value(r: Reading, target: int) -> float:
    view = r.view
    if view["rooms"][target] in (view["expected"], NURSES_OFFICE):
        return -r.draw  # "wrongly leaving" nothing: the Tattle fails, the turn is spent
    backfire = r.catch_cost()
    if any(owner == target for owner, _ in view["passes"]):
        return -backfire
    shows = r.holds_chance(target, "hall-pass")
    return (1 - shows) * r.weight(target) * r.detention_cost(target) - shows * backfire


def _bully_value(r: Reading, victim: int, take: int) -> float:
    take = min(take, r.view["hand_sizes"][victim])
    stopped = r.holds_chance(victim, "goody")
    return (1 - stopped) * take * r.draw * (1 + r.weight(victim))


def _special(r: Reading, room: int) -> float:
    """What ``room`` offers on a turn there, more than an ordinary turn (Study)."""
    view = r.view
    if room == view["expected"]:
        return 0.0
    if room == LIBRARY:
        return r.draw  # 2 cards instead of 1
    if room == TEACHERS_LOUNGE:
        cheats = [PLAY[c["id"]] for c in view["discard"] if c["kind"] == "assignment"]
        return max((r.worth([*r.hand, c]) for c in cheats), default=0.0) - r.draw
    if room == PRINCIPALS_OFFICE:
        rivals = [s for s in range(view["seats"]) if s != r.me]
        # a rival outside now may come back at the free Move: count half of it
        return max((0.5 * _tattle_value(r, s) for s in rivals), default=0.0) - r.draw
    if room == GYMNASIUM and any(c.kind == "bully" for c in r.hand):
        rivals = [s for s in range(view["seats"]) if s != r.me and view["hand_sizes"][s]]
        return max((_bully_value(r, s, 2) - r.draw for s in rivals), default=0.0)
    return -r.draw  # nothing here that a turn in the expected room does not do better


def _move(r: Reading, action: Action) -> float:
    room = action.args[0]
    view = r.view
    risk = _move_risk(r, room)
    here = view["rooms"][r.me]
    if room == view["expected"]:
        return r.outside_risk(here) + 0.5 * r.draw - risk
    # this turn goes, the next one is the room's, and the pawn is out for a Period
    return _special(r, room) - r.draw - risk - r.outside_risk(room)


def _work(r: Reading, action: Action) -> float:
    slot, card_id = action.args[:2]
    card = PLAY[card_id]
    rest = r.worth(r.without(card_id))
    view = r.view
    if card.kind in ("art", "music", "gift"):
        return card.points + rest
    if card.kind == "bully":
        take = 2 if view["rooms"][r.me] == GYMNASIUM else 1
        return _bully_value(r, action.args[2], take) + rest
    assert card.kind == "squeal"
    room = action.args[2]
    if room in (HALLWAY, NURSES_OFFICE, view["expected"]):
        return rest  # nobody is caught there
    total = rest
    for seat, where in enumerate(view["rooms"]):
        if where != room or any(owner == seat for owner, _ in view["passes"]):
            continue
        if seat == r.me:
            total -= r.catch_cost()
        else:
            shows = r.holds_chance(seat, "hall-pass")
            total += (1 - shows) * r.weight(seat) * r.detention_cost(seat)
    return total


def _turn_in(r: Reading, action: Action) -> float:
    subject = PLAY[action.args[1]].subject
    mine = [c.id for c in r.hand if c.kind == "assignment" and c.subject == subject]
    return set_points(len(mine)) + r.worth(r.without(*mine))


def _cheat(r: Reading, action: Action) -> float:
    return r.worth([*r.hand, PLAY[action.args[0]]])


def _study(r: Reading, action: Action) -> float:
    return r.draw * (2 if r.view["rooms"][r.me] == LIBRARY else 1)


TURN = {
    "study": _study,
    "move": _move,
    "work": _work,
    "turn-in": _turn_in,
    "cheat": _cheat,
    "tattle": lambda r, action: _tattle_value(r, action.args[0]),
}


def _best_play_there(r: Reading) -> float:
    """What the best card play in the new teacher's room beats a Study by."""
    view = r.view
    expected = view["expected"]
    best = 0.0
    subjects = Counter(c.subject for c in r.hand if c.kind == "assignment")
    homeroom = view["teacher"] is not None and view["teacher"]["teacher"] == "Homeroom Teacher"
    for card in r.hand:
        playable = (
            card.kind == "gift"
            or (card.kind == "art" and expected == ART_ROOM)
            or (card.kind == "music" and expected == MUSIC_ROOM)
        )
        if playable:
            best = max(best, card.points + r.worth(r.without(card.id)) - r.draw)
        elif card.kind == "assignment" and homeroom:
            mine = [c.id for c in r.hand if c.subject == card.subject]
            value = set_points(subjects[card.subject]) + r.worth(r.without(*mine))
            best = max(best, value - r.draw)
    return best


def _free_move(r: Reading, action: Action) -> float:
    """Go to the new teacher's room, unless the room the pawn is in still pays
    for a Period outside (it moved there for it) more than the best play there."""
    if action.verb == "go":
        return 0.0
    here = r.view["rooms"][r.me]
    return _special(r, here) - r.outside_risk(here) - _best_play_there(r)


def score(view: View, action: Action) -> float:
    phase = view["phase"]
    if phase in ("catch-window", "tattle-window", "tattler-window", "bully-window"):
        return 1.0 if action.verb == "react" else 0.0
    if phase == "turn-in":
        return 1.0 if action.verb == "add" else 0.0
    if phase == "late":
        return 1.0 if action.verb == "late" else 0.0
    reading = Reading(view)
    if phase == "free-move":
        return _free_move(reading, action)
    return TURN[action.verb](reading, action)


def strong_policy(rng: random.Random) -> Policy:
    """A policy for ``engine.playout.play``, on the seat's own view."""

    def policy(game: Game, state: Any, seat: int) -> Action:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        view = game.view(state, seat)
        if view["phase"] == "turn":
            reading = Reading(view)
            scored = [(TURN[a.verb](reading, a), a) for a in legal]
        elif view["phase"] == "free-move":
            reading = Reading(view)
            scored = [(_free_move(reading, a), a) for a in legal]
        else:
            scored = [(score(view, a), a) for a in legal]
        best = max(value for value, _ in scored)
        return rng.choice([a for value, a in scored if value >= best - 1e-9])

    return policy


__all__ = ["potential", "score", "strong_policy", "week_ahead"]
