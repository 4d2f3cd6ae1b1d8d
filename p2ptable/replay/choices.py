"""Secret simultaneous choices in the log: commit, then reveal.

How it works (protocol/replay.md section 4, ``commits`` and ``choices``)
----------------------------------------------------------------------
When the rules ask several seats to choose at once (``engine.api.Simultaneous``),
the log takes two entries, each a bundle of every asked seat's ``part``: signed
in ``commits``; in ``choices`` (from protocol 3) the openings alone, each proved
by the signed commit it opens (:func:`signed_parts`):

=============  ==================================================================
entry          each asked seat's part ``msg``
=============  ==================================================================
``commits``    ``{"commit": c}``, ``c = H(domain, game id, p, seat, action, salt)``
               with ``p`` the commits entry's own index: one seat's choice,
               sealed; it shows nothing, and the seat is inside the hash, so a
               copy of another seat's commit is worth nothing
``choices``    ``{"action": text, "salt": s}``: the choice and the salt that open
               the seat's commit; it must open it, and the action must be one the
               rules list for that seat
=============  ==================================================================

Only when the ``choices`` entry is in does the state change: every choice is
applied, in seat order.  Until then no view can show a choice, because the state
holds none.  The salt is derived from the seat's signing key and ``p``
(:func:`salt_for`), so a seat that crashes and comes back makes the same commit
again (a second, different commit for one position is two signed parts for it:
equivocation, replay/evidence.py), and can find the action it committed to among
its legal actions (:func:`committed_action`).  A reveal that does not open its
seat's commit, as the seat signed and sent it, or one that opens it on an action
the rules refuse, is proof of cheating (:func:`part_problem`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from p2ptable.crypto.encoding import pack
from p2ptable.engine.api import Action, IllegalAction
from p2ptable.engine.frozen import replace
from p2ptable.replay.entries import Entry, MalformedEntry, bundled_parts
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import GenesisInfo
from p2ptable.replay.kinds import Kind
from p2ptable.replay.position import Applied, Expected, Position, advanced

if TYPE_CHECKING:
    from p2ptable.replay.seat_secrets import SeatSecrets

COMMIT_DOMAIN = b"p2ptable/commit/v1\x00"
SALT_DOMAIN = b"p2ptable/choice-salt/v1\x00"


def commitment(game_id: bytes, position: int, seat: int, action: str, salt: bytes) -> bytes:
    """The 32-byte commit to ``action`` by ``seat`` for the choice at ``position``."""
    return hashlib.sha256(COMMIT_DOMAIN + pack([game_id, position, seat, action, salt])).digest()


def salt_for(secrets: SeatSecrets, game_id: bytes, position: int) -> bytes:
    """Our salt for the choice at ``position``: secret until we reveal it, and the
    same after a crash (it depends on nothing but our key and the position)."""
    seed = secrets.key.seed
    return hashlib.sha256(SALT_DOMAIN + pack([seed, game_id, position])).digest()


def committed_action(
    legal: Sequence[Action], game_id: bytes, position: int, seat: int, salt: bytes, commit: bytes
) -> Action | None:
    """The one of ``legal`` that ``commit`` seals (a seat that came back after a
    crash finds its own choice again this way), or None."""
    for action in legal:
        if commitment(game_id, position, seat, action.text, salt) == commit:
            return action
    return None


def _commit_of(msg: object) -> bytes | None:
    if isinstance(msg, dict) and set(msg) == {"commit"}:
        value = msg["commit"]
        if isinstance(value, bytes) and len(value) == 32:
            return value
    return None


def _choice_of(msg: object) -> tuple[str, bytes] | None:
    if isinstance(msg, dict) and set(msg) == {"action", "salt"}:
        action, salt = msg["action"], msg["salt"]
        if isinstance(action, str) and isinstance(salt, bytes) and len(salt) == 32:
            return action, salt
    return None


def part_problem(
    info: GenesisInfo, position: Position, expected: Expected, seat: int, msg: object
) -> str | None:
    """What is wrong with ``seat``'s part (its ``msg``) of the pending ``commits``
    or ``choices`` entry, or None when it is right."""
    if seat not in expected.targets:
        return f"seat {seat} is not asked to choose"
    if expected.kind == Kind.COMMITS:
        return None if _commit_of(msg) is not None else "a commit part is {commit: 32 bytes}"
    choice = _choice_of(msg)
    if choice is None:
        return "a choice part is {action: text, salt: 32 bytes}"
    action_text, salt = choice
    commits = dict(position.commits or ())
    opening = commitment(info.game_id, position.commits_at, seat, action_text, salt)
    if commits.get(seat) != opening:
        return f"the choice {action_text!r} does not open seat {seat}'s commit"
    try:
        action = Action.parse(action_text)
    except ValueError as exc:
        return f"the choice {action_text!r} is not an action: {exc}"
    if action not in info.game.legal_actions(position.state, seat):
        return f"the choice {action_text!r} is not one the rules allow seat {seat}"
    return None


def signed_parts(info: GenesisInfo, kind: Kind) -> bool:
    """Whether the parts of a ``kind`` entry (commits or choices) carry their
    seats' signatures in the log.

    A commit must: it is the seat's word.  A choice, from protocol 3, need not:
    it opens its seat's signed commit, and the salt inside it was the seat's
    secret until the seat revealed it, so no one else could have made an
    opening, and an opening is the only one (SHA-256 is collision resistant).
    The log keeps the openings alone; a verifier checks each against its
    commit.  On the wire a reveal is still signed (net/parts.py): a reveal that
    opens nothing is then signed proof against its seat.  Dropping the check
    halves the signatures a secret choice costs every peer."""
    return kind == Kind.COMMITS or info.signed_choices


def _parts(
    info: GenesisInfo, position: Position, expected: Expected, index: int, entry: Entry
) -> list[Entry]:
    """The bundled parts, each checked (signature, then content); the bundle
    itself carries no signature: its parts are signed, except a ``choices``
    entry's from protocol 3 (:func:`signed_parts`)."""
    body = entry.body
    if entry.sigs:
        raise InvalidEntry(
            index, f"a {body['t']} entry carries no signatures (its parts are signed)"
        )
    try:
        parts = bundled_parts(body)
    except MalformedEntry as exc:
        raise InvalidEntry(index, str(exc)) from None
    if tuple(body["seats"]) != expected.targets:
        raise InvalidEntry(index, f"the seats asked to choose are {list(expected.targets)}")
    signed = signed_parts(info, expected.kind)
    for part in parts:
        seat = part.body["seat"]
        if not signed:
            if part.sigs:
                raise InvalidEntry(
                    index, "a choices entry holds each seat's opening alone, with no signature"
                )
        elif not part.sigs:
            raise InvalidEntry(index, f"a {body['t']} entry's parts are [message map, signature]")
        elif not info.signed_by(seat, part.sigs[0][1], part.body_bytes):
            raise InvalidEntry(index, f"the part of seat {seat} is not signed by it")
        problem = part_problem(info, position, expected, seat, part.body["msg"])
        if problem is not None:
            # A signed part is its seat's word.  An opening alone is only proof
            # against its seat when it does open the signed commit (and the rules
            # refuse what it opens): one that opens nothing may be anyone's edit.
            proved = signed or _opens(info, position, seat, part.body["msg"])
            raise InvalidEntry(
                index, f"the part of seat {seat}: {problem}", seat if proved else None
            )
    return parts


def _opens(info: GenesisInfo, position: Position, seat: int, msg: object) -> bool:
    """Whether ``msg`` is an opening of seat's commit in the pending choice."""
    choice = _choice_of(msg)
    if choice is None:
        return False
    opening = commitment(info.game_id, position.commits_at, seat, choice[0], choice[1])
    return dict(position.commits or ()).get(seat) == opening


def commits(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    parts = _parts(info, position, expected, index, entry)
    sealed = tuple((p.body["seat"], _commit_of(p.body["msg"])) for p in parts)
    names = _listed([info.seats[s].name for s, _ in sealed])
    after = advanced(position.state, position.chain_tips, position.chance_steps, position.book)
    after = _with_commits(after, sealed, index)  # type: ignore[arg-type]
    said = "chooses in secret" if len(sealed) == 1 else "choose, each in secret"
    return Applied(index, Kind.COMMITS, None, f"{names} {said}"), after


def choices(
    info: GenesisInfo,
    position: Position,
    index: int,
    entry: Entry,
    body: dict[str, Any],
    expected: Expected,
) -> tuple[Applied, Position]:
    parts = _parts(info, position, expected, index, entry)
    game, state = info.game, position.state
    said = []
    chosen = [(p.body["seat"], p.body["msg"]["action"]) for p in parts]
    chosen = sorted(chosen + list(expected.stand_ins))  # a gone seat's stand-in's too
    for seat, text in chosen:  # the choices are applied together, in seat order
        action = Action.parse(text)
        said.append(f"{info.seats[seat].name} {game.describe(state, seat, action)}")
        try:
            state = game.apply(state, seat, action)
        except IllegalAction as exc:  # the rules listed it: their bug, not the seat's
            raise InvalidEntry(index, f"the rules refused seat {seat}'s choice: {exc}") from None
    after = advanced(state, position.chain_tips, position.chance_steps, position.book)
    return Applied(index, Kind.CHOICES, None, "; ".join(said)), after


def _listed(names: list[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cleo``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _with_commits(position: Position, sealed: tuple[tuple[int, bytes], ...], at: int) -> Position:
    return replace(position, commits=sealed, commits_at=at)
