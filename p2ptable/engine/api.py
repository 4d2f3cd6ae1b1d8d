"""The game-agnostic rules API every game implements.

How it works
------------
A game is a *value* (its state, an immutable dataclass) plus pure functions on it,
in the style of OpenSpiel and python-chess:

* ``pending(state)`` says what happens next: one seat must act (:class:`Turn`),
  several seats choose at once and in secret (:class:`Simultaneous`), chance must
  be resolved (:class:`Chance`), or the game is over (:class:`GameOver`).
* ``legal_actions(state, seat)`` lists the :class:`Action` values that seat may take.
* ``apply(state, seat, action)`` returns the next state; an illegal action raises
  :class:`IllegalAction`.
* ``resolve(state, outcome)`` returns the next state after a chance step.  The game
  never draws a random number itself: a :class:`ChanceStep` describes the step as a
  tuple of ranges, and *whoever drives the game* supplies one integer per range
  (the fairness layer in a real game, a fixed list in a test).
* ``view(state, seat)`` is everything ``seat`` may see; ``view(state, None)`` is the
  public view.  Screens, bots and messages are built from views only.
* ``outcome(state)`` gives the scores and winners once the game is over.

A game with hidden hands (``hidden_hands = True``) also implements
:class:`HiddenHands`: its ``"deal"`` chance steps are answered by a sealed deck
(p2ptable.sealed) instead of a shared random index, so each peer's state holds
``None`` for every card it may not see.

Nothing here does I/O, reads a clock or calls a random generator.  The replay
format and the network session import this module; this module imports neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

Seat = int
S = TypeVar("S")


class RulesError(Exception):
    """Base class for errors raised by the rules."""


class IllegalAction(RulesError):
    """The action is not legal for this seat in this state.

    Whether that is our bug, the user's typo or a cheating peer is decided by the
    caller, who knows where the action came from.
    """


class BadOptions(RulesError):
    """The options asked for do not make a valid game (e.g. Duet with 4 players)."""


@dataclass(frozen=True, order=True)
class Action:
    """A move: a verb and a few integer or text arguments.

    The text form (``"place 2"``, ``"take 0"``, ``"pass"``) is what the replay log
    stores and what a person reads, so ``Action.parse(a.text) == a`` always holds.
    """

    verb: str
    args: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        return " ".join([self.verb, *(str(a) for a in self.args)])

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: str) -> Action:
        parts = text.split()
        if not parts or not parts[0].replace("-", "").isalpha():
            raise ValueError(f"not an action: {text!r}")
        try:
            args = tuple(int(p) for p in parts[1:])
        except ValueError:
            raise ValueError(f"action arguments must be integers: {text!r}") from None
        action = cls(parts[0], args)
        if action.text != text:
            raise ValueError(f"action text is not in canonical form: {text!r}")
        return action


@dataclass(frozen=True)
class ChanceStep:
    """A pending chance event, described so that any driver can resolve it.

    ``ranges`` has one entry per integer the outcome needs; each outcome integer is
    uniform in ``[0, range)``.  Rolling 3d6 is ``ranges=(6, 6, 6)``; drawing face up
    from a 40-card deck is ``ranges=(40,)`` (an index into the deck's canonical,
    sorted order, so the deck has no order until a card is drawn); picking 3 of 6
    tiles without replacement is ``ranges=(6, 5, 4)``.

    ``kind`` is one of ``roll``, ``draw`` (face up), ``deal`` (face down to
    ``seat``), ``pick`` (a blind pick from ``seat``'s hidden hand), ``shuffle`` (an
    ordering, as successive picks).  ``purpose`` is a short name bound into the
    randomness derivation (domain separation) and shown to people.
    """

    kind: str
    purpose: str
    ranges: tuple[int, ...]
    seat: Seat | None = None

    def check(self, outcome: tuple[int, ...]) -> None:
        """Raise ValueError unless ``outcome`` fits this step."""
        if len(outcome) != len(self.ranges):
            raise ValueError(
                f"{self.purpose}: expected {len(self.ranges)} values, got {len(outcome)}"
            )
        for value, size in zip(outcome, self.ranges, strict=True):
            if not (isinstance(value, int) and 0 <= value < size):
                raise ValueError(f"{self.purpose}: value {value!r} outside [0, {size})")


@dataclass(frozen=True)
class Turn:
    """One seat must choose an action (possibly out of turn, e.g. a reaction).

    ``forced``: the rules, not the player, decide: the seat has exactly one legal
    action (handing over the card a blind pick chose, say).  Its peer makes it at
    once without asking anyone, and a seat that does not is withholding."""

    seat: Seat
    forced: bool = False


@dataclass(frozen=True)
class Simultaneous:
    """Each seat in ``seats`` must choose an action; nobody sees the others' choice
    until all have chosen.  ``seats`` shrinks as choices are applied."""

    seats: frozenset[Seat]


def chooser(decision: Turn | Simultaneous) -> Seat:
    """The seat that acts next in one process that plays every seat (a playout, a
    test): the seat to move, or for a simultaneous choice the lowest seat still
    to choose, in the order the log applies the revealed choices."""
    return decision.seat if isinstance(decision, Turn) else min(decision.seats)


@dataclass(frozen=True)
class Chance:
    """A chance step must be resolved before anything else happens."""

    step: ChanceStep


@dataclass(frozen=True)
class GameOver:
    """Nothing is pending: ``outcome(state)`` is available."""


Decision = Turn | Simultaneous | Chance | GameOver


@dataclass(frozen=True)
class Outcome:
    """Final result.  ``winners`` has several seats for a shared victory.

    ``explanation`` says in words how the winner was decided (the tie-break used),
    so screens and ``verify`` can show it without knowing the game.
    """

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    explanation: str = ""
    lower_is_better: bool = False  # e.g. negative points: rank the fewest first

    def to_view(self) -> dict[str, Any]:
        """The outcome as view data (the ``outcome`` of a game's view)."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, allowed values and default.  ``legacy`` is the
    value a replay of protocol 1, written before the option existed, played
    with (replay/genesis.py reads such a genesis with it).  ``before`` is the
    value a genesis of any protocol that does not list the option played with:
    the rule of the game before the option came (a game that gains an option
    names it, so that its older replays still verify under their own rules)."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str = ""
    legacy: str | None = None
    before: str | None = None


@runtime_checkable
class Game(Protocol[S]):
    """What every registered game provides.  See the module docstring.

        Optional (callers check with ``getattr``, so they are not declared here):

    * ``takes_first``: true for a game whose setup honours the :data:`FIRST` option
      (the seat that plays first, named in a rematch's genesis) instead of its
      ``"first-player"`` chance step; :func:`normalize_options` refuses the option
      for any other game.

        * ``moment(state)``: when in the game ``state`` stands, for the numbered lines
          of a game's record (``p2ptable export``): "Day 2, Period 3", "Round 3".  The
          state is the one an entry was made in (before it is applied).  A game whose
          time has no natural name leaves it out and its lines have no prefix.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...]

    def initial(self, seats: int, options: Mapping[str, str]) -> S: ...

    def pending(self, state: S) -> Decision: ...

    def legal_actions(self, state: S, seat: Seat) -> tuple[Action, ...]: ...

    def apply(self, state: S, seat: Seat, action: Action) -> S: ...

    def resolve(self, state: S, outcome: tuple[int, ...]) -> S: ...

    def view(self, state: S, seat: Seat | None) -> dict[str, Any]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def describe(self, state: S, seat: Seat, action: Action) -> str:
        """A short phrase for a log line, without the subject: "places it under B"."""
        ...

    def describe_chance(self, state: S, outcome: tuple[int, ...]) -> str:
        """A short phrase for a resolved chance step, e.g. "draws a 7"; ``state`` is
        the state *before* the outcome is applied."""
        ...

    def rules_notes(self) -> str: ...


@runtime_checkable
class HiddenHands(Protocol[S]):
    """What a game with hidden hands adds, so that a sealed deck can carry its cards.

    * ``face_down(state)``: the cards of the face-down deck as the rules see them,
      top first; ``None`` for a card this state does not know.  When the sealed deck
      is empty and this is not, these cards (all known) are put into it and shuffled.
    * ``deal_from_sealed(state, card)``: resolve the pending ``"deal"`` chance step
      with the card the sealed deck dealt: its id when this peer may see it (the
      receiver, or anyone for a face-up draw), ``None`` otherwise.
    * ``hand_card_played(state, seat, action)``: ``(slot, card)`` when the (legal)
      action shows the hand card at ``slot``, claimed to be ``card``; ``None`` when
      it shows none.  The sealed deck proves the claim.
    * ``hand_card_given(state, seat, action)``: ``(slot, to)`` when the action hands
      the card at ``slot`` face down to seat ``to`` (Teacher's Pet's Bully: the taker
      picked the slot, the victim gives); ``None`` otherwise.  The rules put the card
      last in ``to``'s hand, as the sealed deck does, and the sealed deck proves it is
      the same card.
    * ``given_card_seen(state, seat, card)``: this state learns that the card just
      given to ``seat`` (the last of its hand) is ``card`` (the taker's own peer).
    * ``hand_card_taken(state, seat, action)`` (optional): the card the action
      takes face up (from a discard pile, say) into ``seat``'s hand, where the
      rules put it last, or ``None``; the sealed deck puts it there too, so that
      the seat can later play it with a reveal proof like a dealt card.
    * ``hand_shuffled(state, seat, hand)`` (only a game with ``"pick"`` chance
      steps): ``seat`` shuffled its hand before a blind pick from it; ``hand`` is
      its new order as this state may see it (the cards for the seat's own peer,
      ``None`` each for everyone else, who must forget where its cards were).
    * ``card_name(card)`` (optional): the card as a log phrase names it ("Gift 2"),
      for a reader who may know a hidden card (a seat's own, or every card of an
      audited log: ``p2ptable export``); without it a card reads as "card 12".
    """

    hidden_hands: bool

    def face_down(self, state: S) -> tuple[int | None, ...]: ...

    def deal_from_sealed(self, state: S, card: int | None) -> S: ...

    def hand_card_played(self, state: S, seat: Seat, action: Action) -> tuple[int, int] | None: ...

    def hand_card_given(self, state: S, seat: Seat, action: Action) -> tuple[int, int] | None: ...

    def given_card_seen(self, state: S, seat: Seat, card: int) -> S: ...


# The genesis option of a rematch (p2ptable/rematch.py): the seat that plays
# first, as a seat number ("0", "1", ...).  Unlike the game's own options it has
# no default and is written only when given, so every genesis without it (every
# game that is not a rematch, every golden replay) is exactly as before, and its
# game draws the first player by chance (the step of purpose FIRST_PLAYER).
FIRST = "first"
FIRST_PLAYER = "first-player"


def first_option(game: Game[Any], seats: int, value: object) -> str:
    """``value`` as the :data:`FIRST` option of ``game`` at ``seats`` seats: a
    seat number in its one spelling; BadOptions if it is not one, or if the game
    does not take it."""
    if not getattr(game, "takes_first", False):
        raise BadOptions(f"{game.name} has no option {FIRST!r}")
    if not (isinstance(value, str) and value.isdigit() and str(int(value)) == value):
        raise BadOptions(f"option {FIRST} must be a seat number, not {value!r}")
    if not 0 <= int(value) < seats:
        raise BadOptions(f"option {FIRST} must be a seat 0 to {seats - 1}, not {value}")
    return value


def normalize_options(game: Game[Any], seats: int, options: Mapping[str, str]) -> dict[str, str]:
    """Fill defaults and reject unknown names or values (a user-input error);
    :data:`FIRST` is kept only when given."""
    if not game.min_seats <= seats <= game.max_seats:
        raise BadOptions(
            f"{game.name} takes {game.min_seats} to {game.max_seats} players, not {seats}"
        )
    known = {spec.name: spec for spec in game.options}
    for name in options:
        if name not in known and name != FIRST:
            raise BadOptions(
                f"{game.name} has no option {name!r} (known: {', '.join(known) or 'none'})"
            )
    result = {}
    for spec in game.options:
        value = options.get(spec.name, spec.default)
        if value not in spec.choices:
            raise BadOptions(
                f"option {spec.name} must be one of {', '.join(spec.choices)}, not {value!r}"
            )
        result[spec.name] = value
    if FIRST in options:
        result[FIRST] = first_option(game, seats, options[FIRST])
    return result
