"""The ledger's handlers of the entries every game has: ``action``, ``chance`` and
``result`` (one column of the registry, replay/rows.py; the sealed kinds' are in
replay/sealed_entries.py, the secret choices' in replay/choices.py).

Each takes the genesis facts, the current position and the entry (already matched
to the ledger's ``expected()``: its index, link and kind), and returns what the
entry did and the next position, changing nothing: the ledger commits the
position once every check has passed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from p2ptable.crypto.signing import verify_signature
from p2ptable.engine.api import Action, Game, IllegalAction
from p2ptable.engine.frozen import replace
from p2ptable.randomness.chain import check_preimage
from p2ptable.randomness.derive import derive_outcome
from p2ptable.replay import sealed_entries
from p2ptable.replay.entries import Entry, signed_message
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import GenesisInfo, check_author
from p2ptable.replay.kinds import Kind
from p2ptable.replay.position import Applied, Expected, Position, advanced, applied


def action(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    seat = body["seat"]
    if seat != expected.seat:
        raise InvalidEntry(index, f"seat {seat} acted out of turn (seat {expected.seat} to act)")
    check_author(info, index, entry, seat, position.book.gone if position.book else ())
    by_clock = _clock_move(info, index, body, seat)
    if position.book is not None and seat in position.book.gone:
        by_clock = f" (the bot playing for seat {seat})"  # its stand-in (replay/stand_in.py)
    game, state = info.game, position.state
    try:
        action = parse_action(body["action"])
        new_state = game.apply(state, seat, action)
    except (ValueError, IllegalAction) as exc:
        raise InvalidEntry(index, f"illegal action {body['action']!r}: {exc}", seat) from None
    book = position.book
    if book is None and "reveal" not in body and "transfer" not in body:
        # Described only once the action is known to be legal (describe may assume it).
        after = advanced(new_state, position.chain_tips, position.chance_steps, None)
        return applied(index, _ACTION, seat, _words(game, state, seat, action, by_clock)), after
    book, new_state = sealed_entries.hand_card_proofs(
        game, book, state, new_state, seat, action, body, index
    )
    after = sealed_entries.settle(game, new_state, book, position.chain_tips, position.chance_steps)
    return applied(index, _ACTION, seat, _words(game, state, seat, action, by_clock)), after


def _words(
    game: Game[Any], state: Any, seat: int, action: Action, by_clock: str
) -> Callable[[], str]:
    """An action's words for its ``Applied``, worked out when they are read (the
    rules' states are immutable, so ``state`` is still the one it was taken in)."""
    return lambda: game.describe(state, seat, action) + by_clock


def _clock_move(info: GenesisInfo, index: int, body: dict[str, Any], seat: int) -> str:
    """The words of a move the seat's clock made (nothing for one its player
    chose).  Only the seat signs its action, so only it can say its clock moved;
    a table without a clock has no clock moves, and "not by the clock" is said
    by leaving the field out, so every move has one encoding."""
    if "clock" not in body:
        return ""
    if body["clock"] is not True:
        raise InvalidEntry(index, "an action's clock field is true or absent", seat)
    if info.clock is None:
        raise InvalidEntry(index, "a clock move at a table without a clock", seat)
    return f" (the clock moved for seat {seat})"


def chance(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    step, number = expected.chance, expected.step_number
    assert step is not None and number is not None
    if body["step"] != number:
        raise InvalidEntry(index, f"chance step {body['step']}, expected {number}")
    if body["purpose"] != step.purpose:
        raise InvalidEntry(index, f"purpose {body['purpose']!r}, expected {step.purpose!r}")
    if number >= info.chain_len:
        raise InvalidEntry(index, f"randomness chains exhausted ({info.chain_len} steps)")
    n = len(info.seats)
    pre = body["pre"]
    if entry.sigs:
        raise InvalidEntry(index, "a chance entry carries no signatures (its chains prove it)")
    if len(pre) != n:
        raise InvalidEntry(index, f"needs one preimage per seat ({n}), has {len(pre)}")
    tips = position.chain_tips
    gone = position.book.gone if position.book is not None else ()
    for seat, value in enumerate(pre):
        if seat in gone:  # a seat that left adds nothing: the others make it fair
            if value is not None:
                raise InvalidEntry(index, f"seat {seat} left: its item of pre is nil")
            continue
        if not isinstance(value, bytes):
            raise InvalidEntry(index, f"preimage of seat {seat} is not bytes")
        if not check_preimage(tips[seat], value):
            raise InvalidEntry(index, f"the value for seat {seat} is not on its chain")
    if gone:
        values = [value for value in pre if value is not None]
        outcome = derive_outcome(info.game_id, number, step.purpose, values, step.ranges)
        pre = [tips[s] if value is None else value for s, value in enumerate(pre)]
    else:
        outcome = derive_outcome(info.game_id, number, step.purpose, pre, step.ranges)
    if tuple(body["outcome"]) != outcome:
        raise InvalidEntry(index, f"recorded outcome {body['outcome']} != derived {list(outcome)}")
    game, state = info.game, position.state
    after = sealed_entries.settle(
        game, game.resolve(state, outcome), position.book, tuple(pre), position.chance_steps + 1
    )
    return applied(index, _CHANCE, step.seat, partial(game.describe_chance, state, outcome)), after


def result(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    outcome = expected.outcome
    assert outcome is not None
    if list(body["scores"]) != list(outcome.scores) or list(body["winners"]) != list(
        outcome.winners
    ):
        raise InvalidEntry(
            index,
            f"recorded result scores={body['scores']} winners={body['winners']} differs "
            f"from the rules: scores={list(outcome.scores)} winners={list(outcome.winners)}",
        )
    gone = position.book.gone if position.book is not None else ()
    staying = [seat for seat in range(len(info.seats)) if seat not in gone]
    if [seat for seat, _ in entry.sigs] != staying:
        raise InvalidEntry(index, "the result needs one signature from each seat, in order")
    message = signed_message(info.game_id, entry.body_bytes)  # one message, every seat
    for seat, sig in entry.sigs:
        if not verify_signature(info.seats[seat].key, sig, message):
            raise InvalidEntry(index, f"bad result signature (claimed by seat {seat})")
    return Applied(index, Kind.RESULT, None, outcome.explanation), replace(position, result=outcome)


# Kind members bound once: on Python 3.11 a member looked up through its enum
# class costs several times the comparison, and every peer runs this for every entry.
_ACTION, _CHANCE = Kind.ACTION, Kind.CHANCE

# Action.parse, remembered: a game has a few dozen distinct action texts and every
# peer parses every move.  Actions are frozen values, so sharing one is safe; only
# texts that parse are kept, and the table is emptied before it grows large.
_ACTIONS: dict[str, Action] = {}
_ACTIONS_MAX = 1024


def parse_action(text: str) -> Action:
    """``Action.parse(text)``, remembered (above): what the ledger applies."""
    action = _ACTIONS.get(text)
    if action is None:
        action = Action.parse(text)
        if len(_ACTIONS) >= _ACTIONS_MAX:
            _ACTIONS.clear()
        _ACTIONS[text] = action
    return action
