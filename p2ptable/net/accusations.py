"""Naming a seat that misbehaves: the session's accusations, with their evidence.

How it works: :class:`Accusations` is the part of :class:`~p2ptable.net.session.Session`
that decides when to stop a game and whom to name, kept apart so the session file
stays about moving entries.  Every accusation ends in :meth:`_stop`, which writes
a signed ``abort`` entry through the ledger (so a peer can never write an
accusation its own ledger would refuse) and broadcasts it:

==============  =================================================================
reason          when
==============  =================================================================
equivocation    two different messages signed by one seat for one position (two
                actions, shuffles or parts; replay/evidence.py); found when a
                received entry or part differs from ours for that position
cheated         a signed shuffle, or an action carrying a ``reveal`` or
                ``transfer``, or a part, that fails its sealed-deck check
withheld        a seat in contact (alive) that does not send its contribution to
                the pending entry within ``withhold_timeout`` (no evidence)
abandoned       a seat the game waits on, out of contact for ``abandon_timeout``
==============  =================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptable.net.wire import RemoteProtocolError
from p2ptable.replay.entries import Entry, bundled_parts, make_body, sign_body
from p2ptable.replay.ledger import InvalidEntry

if TYPE_CHECKING:
    pass

PING_EVERY = 1.0
ALL = None  # destination: every other seat


class Accusations:
    """Mixed into Session; every method uses the session's own state."""

    def _equivocated_part(self, seat: int, index: int, old: Entry, new: Entry) -> None:
        self._equivocated(seat, [old, new], f"two different parts for entry {index}")

    def _equivocated(self, seat: int, pair: list[Entry], what: str) -> None:
        """Stop with ``pair`` as equivocation evidence if the ledger's rules accept it."""
        evidence = [e.encode() for e in pair]
        try:
            self.ledger.check_equivocation(seat, evidence, self.seat)
        except InvalidEntry as exc:
            raise RemoteProtocolError(f"{what}: {exc.reason}") from None
        self._stop("equivocation", f"seat {seat} signed {what}", seat, evidence)

    def _check_cheat(self, entry: Entry, refused: InvalidEntry) -> None:
        """A signed shuffle or played card that fails its sealed-deck proof is
        cheating, not a slip: stop the game with it as evidence.  (An illegal
        move without sealed content is only rejected: the seat may still send a
        legal one.)"""
        body = entry.body
        sealed = body["t"] == "shuffle" or "reveal" in body or "transfer" in body
        if not sealed or refused.culprit is None or refused.culprit != body.get("seat"):
            return
        evidence = [entry.encode()]
        try:
            self.ledger.check_cheat(refused.culprit, evidence, self.seat)
        except InvalidEntry:
            return
        detail = f"seat {refused.culprit}'s {body['t']} entry {body['i']}: {refused.reason}"
        self._stop("cheated", detail, refused.culprit, evidence)

    def _check_equivocation(self, index: int, other: Entry) -> None:
        """``other`` differs from our entry ``index``: stop if it proves equivocation.

        The evidence must convince every verifier, so it is checked by the same
        rules the ledger applies to an abort entry; anything less is only bad
        input (a relayed entry with another signature, a stale fork...).
        """
        mine = self.ledger.entries[index]
        if other.kind == "abort" and other.body["reason"] == "cheated":
            # Another peer stopped on a message signed by a seat we took a different
            # message from, for the same position: together they are equivocation.
            other = Entry.decode(other.body["evidence"][0])
        if mine.kind in ("open", "secrets"):
            self._equivocated_in_bundle(index, mine, other)
            return
        if mine.kind not in ("action", "shuffle"):
            raise RemoteProtocolError(f"conflicting entry {index} (not an action or shuffle)")
        seat = mine.body["seat"]
        self._equivocated(seat, [mine, other], f"two different entries for position {index}")

    def _equivocated_in_bundle(self, index: int, mine: Entry, other: Entry) -> None:
        """Our open/secrets entry ``index`` differs from ``other`` (another bundle, or
        one signed part): each bundled part carries its seat's signature, so the
        seat whose parts differ signed both, which proves equivocation."""
        ours = {p.body["seat"]: p for p in bundled_parts(mine.body)}
        if other.kind == mine.kind:
            theirs = bundled_parts(other.body)
        elif other.kind == "part":
            theirs = [other]
        else:
            raise RemoteProtocolError(f"conflicting {mine.kind} entry {index}")
        for part in theirs:
            seat = part.body["seat"]
            if seat in ours and ours[seat].body_bytes != part.body_bytes:
                self._equivocated(
                    seat, [ours[seat], part], f"two different parts for entry {index}"
                )
                return
        raise RemoteProtocolError(f"conflicting {mine.kind} entry {index}: no part differs")

    def _check_withholding(self, now: float) -> None:
        """Name a seat that stays in contact but does not contribute in time.

        Only contributions to the step we wait on count (reveals for a chance
        step, signatures for the result).  A seat's claimed log length is not
        trusted: we push it what it lacks whenever it says it is behind, so an
        honest seat catches up within a ping or two of the long timeout.
        """
        if self.stopped is not None or self._waiting_since is None:
            return
        if now - self._waiting_since < self.withhold_timeout:
            return
        index = self.ledger.next_index
        expected = self.ledger.expected()
        kind = expected.kind
        if kind == "chance":
            have = set(self._reveals.get(index, {}))
        elif kind == "result":
            have = set(self._rsigs.get(index, {}))
        elif kind in ("open", "secrets"):
            have = set(self._parts.get(index, {}))
        elif kind == "shuffle":
            have = set(range(self.n)) - {expected.seat}
        else:
            return
        for seat, peer in self.peers.items():
            alive = peer.last_contact is not None and now - peer.last_contact < 3 * PING_EVERY
            if seat not in have and alive:
                detail = f"seat {seat} withheld its contribution to entry {index}"
                self._stop("withheld", detail, seat, [])
                return

    def _awaited(self) -> set[int]:
        """The seats the game is waiting on right now (other than us)."""
        index = self.ledger.next_index
        expected = self.ledger.expected()
        if expected.kind in ("action", "shuffle") and expected.seat is not None:
            needed = {expected.seat}
        elif expected.kind in ("open", "secrets"):
            needed = set(range(self.n)) - set(self._parts.get(index, {}))
        elif expected.kind == "chance":
            needed = set(range(self.n)) - set(self._reveals.get(index, {}))
        elif expected.kind == "result":
            needed = set(range(self.n)) - set(self._rsigs.get(index, {}))
        else:
            needed = set()
        return needed - {self.seat}

    def _check_abandoned(self, now: float) -> None:
        """Name a seat the game waits on that has been out of contact for
        ``abandon_timeout`` seconds (long enough for a crashed player to resume)."""
        if self.stopped is not None:
            return
        for seat in sorted(self._awaited()):
            last = self.peers[seat].last_contact
            silent_since = self._started if last is None else last
            if now - silent_since >= self.abandon_timeout:
                detail = f"no contact with seat {seat} for {now - silent_since:.0f} s"
                self._stop("abandoned", detail, seat, [])
                return

    def _stop(self, reason: str, detail: str, culprit: int, evidence: list[bytes]) -> None:
        """Write and broadcast a signed abort entry; the ledger re-checks it first."""
        if self.stopped is not None:
            return
        body = make_body(
            t="abort",
            i=self.ledger.next_index,
            prev=self.ledger.head,
            reason=reason,
            culprit=culprit,
            detail=detail,
            evidence=evidence,
        )
        entry = sign_body(self.ledger.game_id, body, {self.seat: self.secrets.key})
        self._append(entry)
        self._send(ALL, "stop", {"entry": entry.encode()})
