"""Whom a session names now, on its clocks (net/waiting.py), and whether a
seat's departure comes instead of stopping the game (net/departure_round.py).

How it works: while our share of a leaver's secret is out, the seats named are
the staying seats that withhold theirs (or are as silent as the leaver);
otherwise the seats the pending entry waits on, except ourselves and the seats
that left (their stand-ins' contributions are made by every peer).  A seat
named as having abandoned a table that can go on without it starts its
departure; any other accusation stops the game with the agreed abort.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from p2ptable.net.round_base import RoundSession, gone_seats

if TYPE_CHECKING:
    from p2ptable.net.departure_round import DepartureRound
    from p2ptable.net.events import Stopped
    from p2ptable.net.peers import PeerStates
    from p2ptable.net.round_base import Round
    from p2ptable.net.waiting import Waiting
    from p2ptable.replay.kinds import Kind


class NamingSession(RoundSession, Protocol):
    """What naming may use of its session (net/session.py): a round's, and more."""

    stopped: Stopped | None
    peers: PeerStates
    waiting: Waiting
    departure: DepartureRound
    rounds: dict[Kind, Round]

    def advance(self, now: float) -> None: ...


def check(session: NamingSession, now: float) -> None:
    """Name whoever is due to be named now, if anyone (see the module docstring)."""
    if session.stopped is not None or session.resuming:
        return  # an abort is a signature too: none before we know where the log is
    if session.seat in gone_seats(session.ledger):
        return  # a bot plays our seat: we watch, and name nobody
    contacts = session.peers.last_contacts()
    departure = session.departure
    if departure.active(session) is not None:  # a leaver's shares, not its move
        found = departure.accusation(session, contacts, now, session.waiting.timeouts)
        if found is not None:
            session.accuse(found)
        return
    ledger = session.ledger
    expected = ledger.expected()
    round_ = session.rounds[expected.kind]
    awaited = round_.awaited(session, expected) - {session.seat, *gone_seats(ledger)}
    found = session.waiting.accusation(
        awaited, round_.withholdable(expected), contacts, ledger.next_index, now
    )
    if found is not None and departure.instead(session, found, now):
        session.advance(now)  # every other share may be in already
    elif found is not None:
        session.accuse(found)
