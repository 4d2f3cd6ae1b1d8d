"""Writing entries as a seat: what a seat holds in secret and how it signs.

The ledger checks entries; this module makes them.  A seat's secrets are its
Ed25519 key, its randomness chain, its link key and (for games with hidden hands)
its deck secret.  Every function here reads the ledger only to
learn the next index, the previous hash and what is expected, so an entry made
here is exactly what :meth:`Ledger.append` accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from p2ptable.engine.api import Action, Game, normalize_options
from p2ptable.games import get_game
from p2ptable.randomness.derive import derive_outcome
from p2ptable.replay import choices, escrow_entries
from p2ptable.replay.entries import (
    PROTOCOL,
    Entry,
    game_id_of,
    part_body,
    sign_body,
    signed_message,
)
from p2ptable.replay.genesis import SeatInfo, escrows_at, sealed_rules
from p2ptable.replay.kinds import (
    ActionBody,
    ChanceBody,
    ChoicesBody,
    CommitsBody,
    EscrowBody,
    GenesisBody,
    Kind,
    OpenBody,
    PartBody,
    ResultBody,
    SecretsBody,
    ShuffleBody,
)
from p2ptable.replay.position import Expected, Position
from p2ptable.replay.sealed_book import SealedBook, sealed_rand

# Re-exported: callers make their seats with ``authoring.SeatSecrets``.
from p2ptable.replay.seat_secrets import SeatSecrets as SeatSecrets
from p2ptable.sealed import deck
from p2ptable.sealed.errors import SealedDeckError
from p2ptable.sealed.group import Rand
from p2ptable.sealed.messages import ShuffleMessage, message_from_value


class Log(Protocol):
    """What authoring reads of a log (``replay/ledger.Ledger`` has it all): the
    next index, the previous hash, what is expected, and the state it is for."""

    @property
    def game(self) -> Game[Any]: ...
    @property
    def game_id(self) -> bytes: ...
    @property
    def seats(self) -> Sequence[SeatInfo]: ...
    @property
    def next_index(self) -> int: ...
    @property
    def head(self) -> bytes: ...
    @property
    def state(self) -> Any: ...
    @property
    def book(self) -> SealedBook | None: ...
    @property
    def position(self) -> Position: ...
    def expected(self) -> Expected: ...
    def signed_parts(self, kind: Kind) -> bool: ...


def genesis_body(
    game: str,
    options: Mapping[str, str],
    names: Sequence[str],
    keys: Sequence[bytes],
    chain_heads: Sequence[bytes],
    links: Sequence[bytes],
    chain_len: int,
    nonce: bytes,
    decks: Sequence[dict[str, Any]] | None = None,
    keep_going: bool = False,
    clock: int | None = None,
    spectators_talk: bool = False,
) -> bytes:
    """``decks``: each seat's deck key field (``SeatSecrets.deck_key``), for games
    with hidden hands only.  ``keep_going``: the table's wish to go on without a
    seat that leaves, written only where it applies (``escrows_at``); ``clock``:
    the table's seconds per decision, if any; ``spectators_talk``: spectators
    may write in their own channel (written only when true)."""
    seats: list[dict[str, Any]] = [
        {"name": name, "key": key, "chain": head, "link": link}
        for name, key, head, link in zip(names, keys, chain_heads, links, strict=True)
    ]
    for seat, deck_key in zip(seats, decks or (), strict=decks is not None):
        seat["deck"] = deck_key
    keeps = True if keep_going and escrows_at(get_game(game), len(seats)) else None
    talk = True if spectators_talk else None
    body = GenesisBody(PROTOCOL, game, dict(options), seats, chain_len, nonce, keeps, clock, talk)
    return body.encode()


def local_genesis(
    game: str,
    options: Mapping[str, str],
    names: Sequence[str],
    seats: Sequence[SeatSecrets],
    chain_len: int,
    nonce: bytes,
    keep_going: bool = False,
) -> Entry:
    """The genesis of a table whose every seat's secrets are here (simulations and
    tests), signed by all; deck keys are included when the game has hidden hands."""
    rules = get_game(game)
    hidden = getattr(rules, "hidden_hands", False)
    body = genesis_body(
        game,
        normalize_options(rules, len(seats), options),  # every option, explicitly
        names,
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [s.link_public for s in seats],
        chain_len,
        nonce,
        [s.deck_key(nonce) for s in seats] if hidden else None,
        keep_going,
    )
    return assemble_genesis(body, [sign_genesis(body, s) for s in seats])


def sign_genesis(body_bytes: bytes, secrets: SeatSecrets) -> bytes:
    """This seat's signature on a genesis body (after checking it, in a live game)."""
    return secrets.key.sign(signed_message(game_id_of(body_bytes), body_bytes))


def assemble_genesis(body_bytes: bytes, signatures: Sequence[bytes]) -> Entry:
    return Entry(body_bytes, tuple(enumerate(signatures)))


def _rand(ledger: Log, secrets: SeatSecrets, purpose: str) -> Rand:
    return sealed_rand(secrets.deck, ledger.game_id, ledger.head, purpose)


def action_entry(
    ledger: Log, seat: int, secrets: SeatSecrets, action: Action, clock: bool = False
) -> Entry:
    """Our action, with the proof of the hand card it plays in a hidden-hand game;
    ``clock``: our clock ran out and the default bot chose it (bots/clock.py)."""
    body = action_body(ledger, seat, secrets.deck, action, clock)
    return sign_body(ledger.game_id, body.encode(), {seat: secrets.key})


def action_body(
    ledger: Log, seat: int, deck_secret: int, action: Action, clock: bool = False
) -> ActionBody:
    """The body of seat's action, its proofs made with its ``deck_secret`` (ours,
    or a gone seat's rebuilt one: replay/stand_in.py)."""
    reveal = transfer = None
    if ledger.book is not None:
        rules = sealed_rules(ledger.game)
        given = rules.hand_card_given(ledger.state, seat, action)
        if given is not None:
            rand = sealed_rand(deck_secret, ledger.game_id, ledger.head, f"transfer {action.text}")
            transfer = ledger.book.make_transfer(seat, deck_secret, given[0], given[1], rand)
        shown = rules.hand_card_played(ledger.state, seat, action)
        if shown is not None:
            # The purpose names the move: a proof's nonce must differ for any
            # two different statements, or two plays at one position would
            # give the deck secret away (RFC 6979 binds the nonce to the message
            # for the same reason).
            rand = sealed_rand(deck_secret, ledger.game_id, ledger.head, f"reveal {action.text}")
            reveal = ledger.book.make_reveal(seat, deck_secret, shown[0], rand)
    return ActionBody(
        ledger.next_index, ledger.head, seat, action.text, reveal, transfer, True if clock else None
    )


def shuffle_entry(ledger: Log, seat: int, secrets: SeatSecrets) -> Entry:
    """Our shuffle of the sealed deck, with its proof, when the ledger expects it."""
    expected = ledger.expected()
    if expected.kind != Kind.SHUFFLE or expected.seat != seat or ledger.book is None:
        raise ValueError(f"seat {seat} is not to shuffle (expected {expected.kind})")
    body = shuffle_body(ledger, seat, secrets.deck, expected.hand)
    return sign_body(ledger.game_id, body.encode(), {seat: secrets.key})


def shuffle_body(ledger: Log, seat: int, deck_secret: int, hand: bool) -> ShuffleBody:
    """The body of seat's shuffle (of its own ``hand``, before a blind pick, or of
    the deck), its randomness from ``deck_secret`` and the position."""
    assert ledger.book is not None
    purpose = "hand-shuffle" if hand else "shuffle"
    rand = sealed_rand(deck_secret, ledger.game_id, ledger.head, purpose)
    msg = ledger.book.make_shuffle(seat, rand, hand=hand)
    return ShuffleBody(ledger.next_index, ledger.head, seat, msg)


def escrow_entry(ledger: Log, seat: int, secrets: SeatSecrets) -> Entry:
    """Our escrow of our deck secret among the other seats, when the ledger
    expects it (replay/escrow_entries.py)."""
    expected = ledger.expected()
    if expected.kind != Kind.ESCROW or expected.seat != seat or ledger.book is None:
        raise ValueError(f"seat {seat} is not to escrow (expected {expected.kind})")
    msg = escrow_entries.make_escrow_msg(
        ledger.game_id, ledger.book, seat, secrets.deck, ledger.head
    )
    body = EscrowBody(ledger.next_index, ledger.head, seat, msg)
    return sign_body(ledger.game_id, body.encode(), {seat: secrets.key})


def shuffle_entry_after(
    ledger: Log, seat: int, secrets: SeatSecrets, previous: Entry
) -> Entry | None:
    """Our shuffle on top of ``previous``, the shuffle the ledger expects next, before
    ``previous`` is verified (None if we do not shuffle right after it).

    It is byte for byte the entry :func:`shuffle_entry` makes once ``previous`` is
    appended (the same state, position and randomness), so making it early lets
    the next shuffler start while everyone verifies ``previous``; if ``previous``
    turns out bad, the game stops on it and this entry is never appended."""
    expected, book = ledger.expected(), ledger.book
    body = previous.body
    if book is None or expected.kind != Kind.SHUFFLE or expected.hand:
        return None
    if previous.kind != Kind.SHUFFLE:
        return None
    if body["seat"] != expected.seat or body["i"] != ledger.next_index:
        return None
    if body["prev"] != ledger.head:
        return None
    shuffled = book.state.shuffled | {body["seat"]}
    following = [s for s in range(len(ledger.seats)) if s not in shuffled]
    if not following or following[0] != seat:
        return None
    try:
        msg = message_from_value(body["msg"], body["seat"])
        if not isinstance(msg, ShuffleMessage) or msg.hand:
            return None
        state = deck.apply_shuffle(book.state, msg, own=True)  # step and size only
    except SealedDeckError:
        return None
    rand = sealed_rand(secrets.deck, ledger.game_id, previous.hash, "shuffle")
    mine = deck.make_shuffle(state, seat, rand).to_value()
    after = ShuffleBody(ledger.next_index + 1, previous.hash, seat, mine)
    return sign_body(ledger.game_id, after.encode(), {seat: secrets.key})


def part_entry(ledger: Log, seat: int, secrets: SeatSecrets) -> Entry:
    """Our signed part (shares or secret) of the open or secrets entry expected next."""
    expected = ledger.expected()
    if expected.kind not in _SEALED_PARTS or ledger.book is None:
        raise ValueError(f"no open or secrets entry is pending (expected {expected.kind})")
    rand = _rand(ledger, secrets, expected.kind.value)
    msg = ledger.book.make_part(expected.kind, expected.targets, seat, secrets.deck, rand)
    body = PartBody(ledger.next_index, ledger.head, seat, msg)
    return sign_body(ledger.game_id, body.encode(), {seat: secrets.key})


def bundle_entry(ledger: Log, parts: Mapping[int, Entry]) -> Entry:
    """Every seat's signed part (checked) bundled into the open or secrets entry:
    each part's message with its seat's signature, so the entry proves who sent
    what (two different bundles for one position always hold two parts one seat
    signed), and needs no signature of its own."""
    expected = ledger.expected()
    if set(parts) != set(range(len(ledger.seats))):
        raise ValueError("a bundle needs the part of every seat")
    items = [[parts[s].body["msg"], parts[s].sigs[0][1]] for s in sorted(parts)]
    body = _SEALED_PARTS[expected.kind](ledger.next_index, ledger.head, items)
    return Entry(body.encode(), ())


def choice_part(ledger: Log, seat: int, secrets: SeatSecrets, action: Action) -> Entry:
    """Our signed part of the pending ``commits`` entry (our commit to ``action``)
    or ``choices`` entry (the action and the salt that open our commit)."""
    expected = ledger.expected()
    if expected.kind not in _CHOICE_PARTS or seat not in expected.targets:
        raise ValueError(f"we are not asked to choose now (expected {expected.kind})")
    committing = expected.kind == Kind.COMMITS
    at = ledger.next_index if committing else ledger.position.commits_at
    salt = choices.salt_for(secrets, ledger.game_id, at)
    if committing:
        msg: dict[str, Any] = {
            "commit": choices.commitment(ledger.game_id, at, seat, action.text, salt)
        }
    else:
        msg = {"action": action.text, "salt": salt}
    # Its one map's keys are in order, so part_body writes make_body's bytes.
    body = part_body(ledger.next_index, ledger.head, seat, msg)
    return sign_body(ledger.game_id, body, {seat: secrets.key})


def committed_choice(
    ledger: Log, seat: int, secrets: SeatSecrets, hint: Action | None = None
) -> Action:
    """The action our part of the ``commits`` entry in the log sealed: what we
    reveal now, found again from the log and our key alone (after a crash too).
    ``hint``, the choice we remember making, is tried first: one hash instead
    of one for each legal action (it is taken only if the commit seals it)."""
    position = ledger.position
    commit = dict(position.commits or ()).get(seat)
    if ledger.expected().kind != Kind.CHOICES or commit is None:
        raise ValueError("no commit of ours waits to be revealed")
    at = position.commits_at
    salt = choices.salt_for(secrets, ledger.game_id, at)
    if hint is not None and choices.commitment(ledger.game_id, at, seat, hint.text, salt) == commit:
        return hint
    legal = ledger.game.legal_actions(ledger.state, seat)
    action = choices.committed_action(legal, ledger.game_id, at, seat, salt, commit)
    if action is None:
        raise ValueError(f"our commit at entry {at} seals none of our legal actions")
    return action


def choices_bundle(ledger: Log, parts: Mapping[int, Entry]) -> Entry:
    """Every asked seat's part bundled into the pending ``commits`` or
    ``choices`` entry (in seat order; unsigned itself, like an open): each with
    its seat's signature, or, for a ``choices`` entry from protocol 3, the
    opening alone (replay/choices.py, ``signed_parts``)."""
    expected = ledger.expected()
    seats = tuple(sorted(parts))  # the asked seats, once equal to the targets
    if seats != expected.targets:
        raise ValueError("a bundle of choices needs the part of every asked seat")
    if ledger.signed_parts(expected.kind):
        items: list[Any] = [[parts[s].body["msg"], parts[s].sigs[0][1]] for s in seats]
    else:
        items = [parts[s].body["msg"] for s in seats]
    if expected.kind not in _CHOICE_PARTS:
        raise ValueError(f"no secret choice is pending (expected {expected.kind})")
    body = _CHOICE_PARTS[expected.kind](ledger.next_index, ledger.head, list(seats), items)
    return Entry(body.encode(), ())


def reveal(ledger: Log, seat: int, secrets: SeatSecrets) -> bytes:
    """This seat's next chain value, for the chance step the ledger expects."""
    expected = ledger.expected()
    if expected.kind != Kind.CHANCE or expected.step_number is None:
        raise ValueError(f"no chance step is pending (expected {expected.kind})")
    return secrets.chain.preimage(expected.step_number)


def chance_entry(ledger: Log, preimages: Mapping[int, bytes]) -> Entry:
    """Bundle every seat's value into the chance entry (the same on every peer)."""
    expected = ledger.expected()
    assert expected.chance is not None and expected.step_number is not None
    gone = ledger.book.gone if ledger.book is not None else ()
    values = [preimages[s] for s in sorted(preimages)]
    outcome = derive_outcome(
        ledger.game_id,
        expected.step_number,
        expected.chance.purpose,
        values,
        expected.chance.ranges,
    )
    pre: list[bytes | None] = list(values)
    if gone:  # a seat that left adds nothing (replay/stand_in.py): its item is nil
        pre = [None if s in gone else preimages[s] for s in range(len(ledger.seats))]
    step, purpose = expected.step_number, expected.chance.purpose
    body = ChanceBody(ledger.next_index, ledger.head, step, purpose, pre, list(outcome))
    return Entry(body.encode(), ())


def result_body(ledger: Log) -> bytes:
    expected = ledger.expected()
    if expected.kind != Kind.RESULT or expected.outcome is None:
        raise ValueError(f"the game is not over (expected {expected.kind})")
    outcome = expected.outcome
    body = ResultBody(ledger.next_index, ledger.head, list(outcome.scores), list(outcome.winners))
    return body.encode()


def sign_result(ledger: Log, body_bytes: bytes, secrets: SeatSecrets) -> bytes:
    return secrets.key.sign(signed_message(ledger.game_id, body_bytes))


# The bundles of sealed parts, and of secret choices: each kind's body type.
_SEALED_PARTS: dict[Kind, type[OpenBody] | type[SecretsBody]] = {
    Kind.OPEN: OpenBody,
    Kind.SECRETS: SecretsBody,
}
_CHOICE_PARTS: dict[Kind, type[CommitsBody] | type[ChoicesBody]] = {
    Kind.COMMITS: CommitsBody,
    Kind.CHOICES: ChoicesBody,
}


# -- every seat at hand: each kind's entry made at once (sim.py, tests) ---------------
# One function per row of the registry (replay/rows.py, ``author``): given every
# seat's secrets and what each seat chooses when asked, the next entry.

Choose = Callable[[int], Action]  # the action a seat chooses now (its bot's)


def author_action(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    seat = ledger.expected().seat
    assert seat is not None
    return action_entry(ledger, seat, seats[seat], choose(seat))


def author_chance(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    values = {i: reveal(ledger, i, s) for i, s in enumerate(seats)}
    return chance_entry(ledger, values)


def author_shuffle(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    seat = ledger.expected().seat
    assert seat is not None
    return shuffle_entry(ledger, seat, seats[seat])


def author_escrow(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    seat = ledger.expected().seat
    assert seat is not None
    return escrow_entry(ledger, seat, seats[seat])


def author_bundle(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    """An open or secrets entry: every seat's part, bundled."""
    parts = {i: part_entry(ledger, i, s) for i, s in enumerate(seats)}
    return bundle_entry(ledger, parts)


def author_commits(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    """A secret simultaneous choice: every asked seat chooses and commits."""
    asked = [i for i in ledger.expected().targets if i is not None]
    parts = {i: choice_part(ledger, i, seats[i], choose(i)) for i in asked}
    return choices_bundle(ledger, parts)


def author_choices(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    """Every asked seat reveals what its commit sealed (found again from the log
    and its key)."""
    asked = [i for i in ledger.expected().targets if i is not None]
    parts = {
        i: choice_part(ledger, i, seats[i], committed_choice(ledger, i, seats[i])) for i in asked
    }
    return choices_bundle(ledger, parts)


def author_result(ledger: Log, seats: Sequence[SeatSecrets], choose: Choose) -> Entry:
    body = result_body(ledger)
    return Entry(body, tuple((i, sign_result(ledger, body, s)) for i, s in enumerate(seats)))
