"""The session's sealed-deck steps: shuffles started early, and parts collected.

How it works: :class:`SealedSteps` is the part of
:class:`~p2ptable.net.session.Session` for games with hidden hands (see the table in
its module docstring and protocol/wire.md section 6.11):

* a shuffle expected from the seat right after us is answered early: ours is made
  on top of it before it is verified (the same entry we would make afterwards);
* for an ``open`` or ``secrets`` entry every seat sends a signed ``part``; each is
  kept as the bytes received (only for entries a few ahead of our log), checked
  when its turn comes (position, signature, then its proof through the ledger;
  a bad proof is a ``cheated`` abort with that part as evidence), and when every
  seat's is in, each peer bundles the same entry.
"""

from __future__ import annotations

from p2ptable.crypto.signing import verify_signature
from p2ptable.net.events import Rejected
from p2ptable.net.wire import Message, RemoteProtocolError
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, MalformedEntry, signed_message
from p2ptable.replay.evidence import part_problem

ALL = None  # destination: every other seat
PART_WINDOW = 8  # parts kept for entries at most this far ahead of our log


class SealedSteps:
    """Mixed into Session; every method uses the session's own state."""

    def _shuffle_early(self, entry: Entry) -> None:
        """If we shuffle right after ``entry`` (the shuffle expected next), make and
        send ours on top of it now, before verifying it: the shuffles then follow
        each other without waiting for every peer's verification (it is the same
        entry we would make afterwards, see authoring.shuffle_entry_after)."""
        early = authoring.shuffle_entry_after(self.ledger, self.seat, self.secrets, entry)
        if early is not None:
            self._early_shuffle = early
            self._send(ALL, "entry", {"entry": early.encode()})

    def _on_part(self, message: Message, now: float) -> None:
        try:
            entry = Entry.decode(message.data["entry"])
        except MalformedEntry as exc:
            raise RemoteProtocolError(f"malformed part: {exc}") from None
        body = entry.body
        if body["t"] != "part" or not 0 <= body["seat"] < self.n:
            raise RemoteProtocolError("a part message must carry a part")
        if body["i"] < self.ledger.next_index:
            # For an entry already in our log: only useful as the other half of a
            # seat's equivocation (it sent different parts to different peers).
            mine = self.ledger.entries[body["i"]]
            if mine.kind in ("open", "secrets"):
                self._equivocated_in_bundle(body["i"], mine, entry)
            return
        if body["seat"] != message.sender:
            raise RemoteProtocolError("a part message must carry the sender's own part")
        if body["i"] > self.ledger.next_index + PART_WINDOW:
            # A part is only ever for the entry being bundled; a peer far ahead has
            # the bundle, which catch-up brings.  Far-future parts would only eat
            # memory.
            raise RemoteProtocolError(f"a part for entry {body['i']}, far ahead of ours")
        bucket = self._parts.setdefault(body["i"], {})
        old = bucket.get(message.sender)
        if old is not None and Entry.decode(old).body_bytes != entry.body_bytes:
            self._equivocated_part(message.sender, body["i"], Entry.decode(old), entry)
            return
        bucket[message.sender] = message.data["entry"]

    def _advance_parts(self, index: int, now: float) -> bool:
        """Our part of the pending open or secrets entry out; everyone's checked as
        it comes; the bundle appended once all are in."""
        bucket = self._parts.setdefault(index, {})
        if self.seat not in bucket:
            mine = authoring.part_entry(self.ledger, self.seat, self.secrets)
            bucket[self.seat] = mine.encode()
            self._parts_checked.add((index, self.seat))
            self._send(ALL, "part", {"entry": bucket[self.seat]})
            self._waiting_since = now
        for seat, raw in list(bucket.items()):
            if (index, seat) in self._parts_checked:
                continue
            entry = Entry.decode(raw)  # it decoded when it arrived
            body = entry.body
            message = signed_message(self.ledger.game_id, entry.body_bytes)
            signed = [s for s, _ in entry.sigs] == [seat] and verify_signature(
                self.keys[seat], entry.sigs[0][1], message
            )
            if body["prev"] != self.ledger.head or not signed:
                del bucket[seat]
                why = "a part for another log position, or not signed by its seat alone"
                self.events.append(Rejected(seat, why))
                continue
            problem = part_problem(self.ledger, seat, body["msg"])
            if problem is not None:
                detail = f"seat {seat}'s part of entry {index}: {problem}"
                self._stop("cheated", detail, seat, [entry.encode()])
                return False
            self._parts_checked.add((index, seat))
        if len(bucket) < self.n:
            return False
        entry = authoring.bundle_entry(
            self.ledger, {seat: Entry.decode(raw) for seat, raw in bucket.items()}
        )
        del self._parts[index]
        self._append(entry)
        self._drain_future()
        return True
