"""The live round that makes a ``departure`` entry (issue 27; replay/departure.py):
a seat named as having abandoned a ``keep_going`` table leaves it, and the
staying seats rebuild its deck secret instead of stopping the game.

How it works
------------
The session's clocks (net/waiting.py) name a seat the game waits on that has
been out of contact for the abandonment timeout.  Where the table keeps going
and the seat can be rebuilt (``departure.can_depart``: every escrow in, the
seat not gone, two seats or more staying), the session starts this round
instead of the abort (:meth:`DepartureRound.start`):

=================  ==================================================
who                does what
=================  ==================================================
each staying seat  when its own clock names the leaver: signs its opened
                   escrow share of the leaver's secret for the position
                   where the game waits (a ``share`` body) and sends it
                   to every seat
every peer         checks each share as it comes (its position, its
                   signature, then against the escrow's commitments:
                   a false one is a ``cheated`` abort, the share its
                   evidence) and, once every staying seat's is in, bundles
                   the same ``departure`` entry and appends it
=================  ==================================================

A seat sends its share only when its *own* clock names the leaver, never
because another seat's share came: every staying seat's share together is the
leaver's secret, so no seat can make the others give a hand away by claiming
someone left.  The clocks of honest seats name a silent seat within a second
of each other.  A staying seat that is in contact and has not sent its share
``withhold_timeout`` after we sent ours is named as having withheld it; one
out of contact as long as the leaver is named as having abandoned (two seats
gone at once: ``n - 2`` shares rebuild nothing, so the game stops as before),
each with today's agreed abort (net/stopping.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptable.crypto.signing import verify_signature
from p2ptable.net import accusations
from p2ptable.net.accusations import Accusation
from p2ptable.net.round_base import ALL, WINDOW, Round, RoundSession
from p2ptable.net.stopping import LocalProtocolError
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.replay import departure
from p2ptable.replay.entries import Entry, MalformedEntry, signed_message
from p2ptable.replay.kinds import Kind, Reason

if TYPE_CHECKING:
    from collections.abc import Mapping

SHARE = "share"  # the message that carries a signed share


class DepartureRound(Round):
    """The shares of a leaver's secret, gathered and bundled (module docstring)."""

    message = SHARE

    def __init__(self) -> None:
        # (log index, leaver) -> seat -> its signed share, as it came
        self.pending: dict[tuple[int, int], dict[int, Entry]] = {}
        self._checked: set[tuple[int, int, int]] = set()
        # The departure we take part in: (log index, leaver, when our share left).
        self.ours: tuple[int, int, float] | None = None
        # Our player typed leave away from their turn: we leave at the next one.
        self.wished = False

    # -- starting --------------------------------------------------------------

    def start(self, table: RoundSession, leaver: int, now: float) -> bool:
        """Our clock named ``leaver`` as having abandoned: our share goes to every
        seat and the departure is under way.  False when the table cannot go on
        without it (no escrow, too few stay, or another departure is under way
        here): the caller stops the game as before."""
        ledger = table.ledger
        index = ledger.next_index
        if self.active(table) is not None:
            return self.active(table) == leaver
        if not departure.can_depart(ledger.book, leaver) or table.seat == leaver:
            return False
        assert ledger.book is not None  # can_depart
        at = (index, ledger.head)
        mine = departure.make_share(
            ledger.game_id, ledger.book, at, table.seat, table.secrets, leaver
        )
        self.pending.setdefault((index, leaver), {})[table.seat] = mine
        self._checked.add((index, leaver, table.seat))
        self.ours = (index, leaver, now)
        table.send(ALL, SHARE, {"entry": mine.encode()})
        return True

    def leave(self, table: RoundSession) -> None:
        """Our player leaves on purpose ("leave: a bot plays for me"), at their
        turn: our own deck secret, signed, in a departure entry the others take
        at once (no wait, no shares); a bot plays our seat from then on.
        LocalProtocolError when it cannot be (not our turn, or no table that
        keeps going)."""
        ledger = table.ledger
        if not table.can_leave():
            raise LocalProtocolError("you can leave at your turn (a bot then plays for you)")
        if not departure.can_depart(ledger.book, table.seat):
            raise LocalProtocolError("this table does not keep going without a player who leaves")
        assert ledger.book is not None  # can_depart
        at = (ledger.next_index, ledger.head)
        entry = departure.own_departure(ledger.game_id, ledger.book, at, table.secrets, table.seat)
        table.send_first(entry, "entries", {"from": at[0], "entries": [entry.encode()]})

    def wish(self, table: RoundSession) -> None:
        """Our player typed leave away from their turn: we leave at the next one
        (:meth:`step`), by ourselves.  Only there (``can_leave``), because there
        nobody else can write the entry: a departure where another seat may make
        its move could fork the honest logs (some peers taking the move there,
        some the departure).
        LocalProtocolError when the table does not keep going without us."""
        if not departure.can_depart(table.ledger.book, table.seat):
            raise LocalProtocolError("this table does not keep going without a player who leaves")
        self.wished = True

    def instead(self, table: RoundSession, found: Accusation, now: float) -> bool:
        """Whether ``found`` (our clocks' accusation) starts a departure instead
        of stopping the game: a seat named as having abandoned a table that can
        go on without it."""
        return found.reason is Reason.ABANDONED and self.start(table, found.culprit, now)

    def arrived(self, table: RoundSession, entry: Entry) -> None:
        """``entry`` is about to be appended where our share of a leaver's secret
        is out: only the departure (or an abort) may come there now.  A leaver
        back just in time, whose move a peer took, must not fork our log from the
        logs of the peers that bundle the departure with our share."""
        leaver = self.active(table)
        if leaver is not None and entry.kind not in (Kind.DEPARTURE, Kind.ABORT):
            raise RemoteProtocolError(
                f"our share of seat {leaver}'s secret is out for entry {entry.body['i']}: "
                "only its departure may come there"
            )

    def active(self, table: RoundSession) -> int | None:
        """The leaver of the departure we take part in at our log's end, if any."""
        ours = self.ours
        if ours is None or ours[0] != table.ledger.next_index:
            return None
        return ours[1]

    # -- the round's questions ----------------------------------------------------

    def step(self, table: RoundSession, expected: object = None, now: float = 0.0) -> bool:
        """Our wish to leave carried out at our turn; every share checked, and the
        departure bundled once all are in."""
        if self.wished and table.can_leave():
            self.wished = False
            self.leave(table)
            return True
        leaver = self.active(table)
        if leaver is None or table.ledger.stopped is not None:
            return False
        ledger = table.ledger
        index = ledger.next_index
        bucket = self.pending.get((index, leaver), {})
        if not self._check(table, index, leaver, bucket):
            return False
        assert ledger.book is not None  # can_depart, when we started
        if set(bucket) != set(departure.staying(ledger.book, leaver)):
            return False
        entry = departure.bundle(index, ledger.head, leaver, bucket)
        self.ours = None
        table.append(entry)
        return True

    def awaited(self, table: RoundSession, expected: object = None) -> set[int]:
        leaver = self.active(table)
        if leaver is None:
            return set()
        assert table.ledger.book is not None
        have = self.pending.get((table.ledger.next_index, leaver), {})
        return set(departure.staying(table.ledger.book, leaver)) - set(have)

    def accusation(
        self,
        table: RoundSession,
        contacts: Mapping[int, float | None],
        now: float,
        timeouts: tuple[float, float],
    ) -> Accusation | None:
        """Whom to name while our share is out (``timeouts``: withholding,
        abandonment): a staying seat in contact that has not sent its share in
        time, or one as silent as a leaver."""
        ours = self.ours
        if ours is None or self.active(table) is None:
            return None
        awaited = self.awaited(table) - {table.seat}
        withhold, abandon = timeouts
        if now - ours[2] >= withhold:
            found = accusations.withholding(awaited, contacts, ours[0], now)
            if found is not None:
                return found
        return accusations.abandonment(awaited, contacts, ours[2] - abandon, now, abandon)

    def _check(
        self, table: RoundSession, index: int, leaver: int, bucket: dict[int, Entry]
    ) -> bool:
        """Check each share not yet checked: one for another position or not
        signed by its seat is dropped; a false one is a ``cheated`` accusation
        (False: the game stops)."""
        ledger = table.ledger
        assert ledger.book is not None
        for seat, entry in list(bucket.items()):
            if (index, leaver, seat) in self._checked:
                continue
            body = entry.body
            message = signed_message(ledger.game_id, entry.body_bytes)
            signed = [s for s, _ in entry.sigs] == [seat] and verify_signature(
                table.keys[seat], entry.sigs[0][1], message
            )
            if body["prev"] != ledger.head or not signed:
                del bucket[seat]
                table.reject(seat, "a share for another log position, or not signed by its seat")
                continue
            problem = departure.share_problem(
                ledger.game_id, ledger.book, seat, leaver, body["share"]
            )
            if problem is not None:
                detail = f"seat {seat}'s share for entry {index}: {problem}"
                table.accuse(Accusation(Reason.CHEATED, detail, seat, [entry.encode()]))
                return False
            self._checked.add((index, leaver, seat))
        return True

    def take(self, table: RoundSession, message: Message, now: float) -> None:
        try:
            entry = Entry.decode(message.data["entry"])
        except MalformedEntry as exc:
            raise RemoteProtocolError(f"malformed share: {exc}") from None
        body = entry.body
        ledger = table.ledger
        if body["t"] != Kind.SHARE or body["seat"] != message.sender:
            raise RemoteProtocolError("a share message must carry the sender's own share")
        if not 0 <= body["of"] < table.n:
            raise RemoteProtocolError(f"a share of seat {body['of']}, not a seat here")
        index = body["i"]
        if index < ledger.next_index:
            return  # the departure (or what came instead) is in our log
        if index > ledger.next_index + WINDOW:
            raise RemoteProtocolError(f"a share for entry {index}, far ahead of ours")
        bucket = self.pending.setdefault((index, body["of"]), {})
        old = bucket.get(message.sender)
        if old is None:
            bucket[message.sender] = entry
        elif old.body_bytes != entry.body_bytes:
            what = f"two different shares for entry {index}"
            pair = [old, entry]
            table.accuse(accusations.equivocation(ledger, table.seat, message.sender, pair, what))

    def resend(self, table: RoundSession, dest: int) -> None:
        leaver = self.active(table)
        if leaver is not None:
            mine = self.pending[(table.ledger.next_index, leaver)][table.seat]
            table.send(dest, SHARE, {"entry": mine.encode()})

    def prune(self, done: int) -> None:
        if self.pending:
            for key in [k for k in self.pending if k[0] < done]:
                del self.pending[key]
            self._checked = {k for k in self._checked if k[0] >= done}
