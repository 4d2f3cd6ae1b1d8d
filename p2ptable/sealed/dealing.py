"""Opening cards from the top of the sealed deck: private deals and face-up draws.

How it works: an opening names a target for each of the top ``k`` cards, a seat
(dealt privately to it) or ``None`` (face up).  Every seat sends one
:class:`SharesMessage` holding, for each of those cards not dealt to itself, its
decryption share ``x_s·A`` with a DLEQ proof that it used the same secret as in its
key (a seat that every opened card goes to has nothing to give and sends
nothing).  Shares are checked one message at a time as they arrive (:func:`add_shares`
on an immutable :class:`OpenRound`); once every seat's are in,
:func:`finish_open` takes them off: a face-up card is decrypted and returned, a
card dealt to seat ``r`` goes into ``r``'s hand as ``(A, M + x_r·A)``, which only
``r`` can read (:func:`p2ptable.sealed.deck.read_hand`).  The receiver sends
nothing about its own cards, so nobody else ever holds enough shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from p2ptable.sealed import elgamal
from p2ptable.sealed.deck import SealedState, advance, context, decode_plaintext, own_key
from p2ptable.sealed.errors import SealedDeckError, SealedUsageError
from p2ptable.sealed.group import Point, Rand
from p2ptable.sealed.messages import SharesMessage
from p2ptable.sealed.proofs import prove_dleq, verify_dleq

Targets = tuple["int | None", ...]


def _positions(to: Targets, seat: int) -> list[int]:
    """The opened cards a seat gives a share for: all but those dealt to it."""
    return [k for k, target in enumerate(to) if target != seat]


def _describe(to: Targets, k: int) -> str:
    return f"card {k} of the opening ({'face up' if to[k] is None else f'to seat {to[k]}'})"


@dataclass(frozen=True)
class OpenRound:
    state: SealedState
    to: Targets
    received: tuple[tuple[Point, ...] | None, ...]  # per seat, its shares once checked

    @property
    def missing(self) -> tuple[int, ...]:
        """Seats whose shares have not arrived yet."""
        return tuple(s for s, got in enumerate(self.received) if got is None)


def _check_targets(state: SealedState, to: Sequence[int | None]) -> Targets:
    to = tuple(to)
    if not state.ready:
        raise SealedUsageError("not every seat has shuffled the deck since cards were added")
    if not 0 < len(to) <= len(state.deck):
        raise SealedUsageError(f"cannot open {len(to)} cards of a deck of {len(state.deck)}")
    for target in to:
        if target is not None and not 0 <= target < state.table.seats:
            raise SealedUsageError(f"no seat {target} to deal to")
    return to


def begin_open(state: SealedState, to: Sequence[int | None]) -> OpenRound:
    """Start opening the top ``len(to)`` cards, card ``k`` to seat ``to[k]`` (None: face up)."""
    to = _check_targets(state, to)
    # A seat every card goes to has no share to give: it need not send anything.
    received = tuple(None if _positions(to, s) else () for s in range(state.table.seats))
    return OpenRound(state, to, received)


def make_shares(
    state: SealedState, seat: int, secret: int, to: Sequence[int | None], rand: Rand
) -> SharesMessage:
    """Seat's shares (with proofs) for every card of the opening not dealt to itself."""
    key = own_key(state, seat, secret)
    to = _check_targets(state, to)
    shares = []
    for k in _positions(to, seat):
        a = state.deck[k].a
        d = secret * a
        ctx = context(state.table.game_id, state.step, seat, "open", k, to[k])
        shares.append((d, prove_dleq(ctx, secret, key, a, d, rand)))
    return SharesMessage(seat, state.step, tuple(shares))


def add_shares(round_: OpenRound, msg: SharesMessage) -> OpenRound:
    """Check one seat's shares as soon as they arrive; raises naming the seat."""
    state, to, seat = round_.state, round_.to, msg.seat
    if not 0 <= seat < state.table.seats:
        raise SealedUsageError(f"no seat {seat}")
    if msg.step != state.step:
        raise SealedDeckError(seat, f"message for step {msg.step} at step {state.step}")
    positions = _positions(to, seat)
    if not positions and not msg.shares:
        return round_  # an empty message from a seat with nothing to give
    # Count first: a receiver sending shares for its own card is the peer's fault,
    # not a second message from it.
    if len(msg.shares) != len(positions):
        raise SealedDeckError(seat, f"sent {len(msg.shares)} shares for {len(positions)} cards")
    if round_.received[seat] is not None:
        raise SealedUsageError(f"already have the shares of seat {seat}")
    key = state.table.keys[seat]
    for k, (d, proof) in zip(positions, msg.shares, strict=True):
        ctx = context(state.table.game_id, state.step, seat, "open", k, to[k])
        if not verify_dleq(ctx, key, state.deck[k].a, d, proof):
            raise SealedDeckError(seat, f"decryption share proof fails for {_describe(to, k)}")
    received = list(round_.received)
    received[seat] = tuple(d for d, _ in msg.shares)
    return replace(round_, received=tuple(received))


def finish_open(round_: OpenRound) -> tuple[SealedState, tuple[int | None, ...]]:
    """Take the shares off: the new state and each card's face (None if dealt privately)."""
    if round_.missing:
        raise SealedUsageError(f"still waiting for the shares of seats {list(round_.missing)}")
    state, to = round_.state, round_.to
    shares_of: list[list[Point]] = [[] for _ in to]
    for seat, got in enumerate(round_.received):
        assert got is not None  # nobody is missing (checked above)
        for k, d in zip(_positions(to, seat), got, strict=True):
            shares_of[k].append(d)
    hands = list(state.hands)
    faces: list[int | None] = []
    for k, target in enumerate(to):
        ct = elgamal.strip(state.deck[k], shares_of[k])
        if target is None:
            faces.append(decode_plaintext(state, ct.b))
        else:
            hands[target] = hands[target] + (ct,)
            faces.append(None)
    new = advance(state, deck=state.deck[len(to) :], hands=tuple(hands))
    return new, tuple(faces)


def open_cards(
    state: SealedState, to: Sequence[int | None], msgs: Sequence[SharesMessage]
) -> tuple[SealedState, tuple[int | None, ...]]:
    """All of an opening at once: begin, add every seat's shares, finish."""
    round_ = begin_open(state, to)
    for msg in msgs:
        round_ = add_shares(round_, msg)
    return finish_open(round_)
