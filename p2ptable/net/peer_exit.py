"""When a peer may go, and with which exit status.

After the end a peer stays a little, answering, until every other has the
whole log: after a stop, the same ending (another peer's abort may be the
better one, which every honest log then keeps; wire.md 6.8).  Spectators
still pulling the end are waited for too, at most as long.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from p2ptable.net.arrival import Arrival
    from p2ptable.net.session import Session

LINGER_SECONDS = 5.0
LEFT = 130  # exit status when the player interrupts (Ctrl-C), as shells report SIGINT
NO_ANSWER = 4  # exit status of a joiner whose host never answered
FAILED = 70  # exit status when a bug of ours stopped the session (EX_SOFTWARE)
PAUSED = 5  # exit status when the table agreed to a break (REPLAY.break kept)
STOPPED = 3  # exit status of a game that stopped (an abort ends every honest log)


def exit_status(
    session: Session, arrival: Arrival, now: float, since: float | None, comeback: bool
) -> int | None:
    """The exit status once the game is over and we may go (None: not yet).
    ``since``: when we first saw it over; ``comeback``: a resumed host still
    waits for its spectators to knock again."""
    if session.failed is not None:
        return FAILED
    if session.sideline.agreed is not None:
        return PAUSED  # every seat signed the break, and REPLAY.break is kept
    lingered = since is not None and now - since > LINGER_SECONDS
    length = session.ledger.next_index
    watched = (arrival.spectators_behind(length, now) or comeback) and not lingered
    if session.stopped is not None:
        return STOPPED if (session.everyone_agrees() and not watched) or lingered else None
    if session.left_for_good:
        # We left for good (a bot plays our seat): we go once every other seat
        # holds our departure, or after the linger; not once it holds what the
        # table made after it too, which at a fast table is the rest of the game.
        found = session.departure_of(session.seat)
        assert found is not None  # left_for_good: our own departure is in our log
        done = all(p.their_len > found[0] for p in session.peers.values())
        return LEFT if done or lingered else None
    if session.finished:
        done = all(p.their_len >= length for p in session.peers.values())
        return 0 if (done and not watched) or lingered else None
    return None
