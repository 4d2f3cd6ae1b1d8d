"""What a session hands out, and how durably (one collaborator of net/session.py).

How it works: the session never writes or sends; it queues, here, the entries to
persist (:class:`Write`, each marked ``durable`` when it must be on stable
storage before any frame of its batch leaves), our secret choices to keep
(:class:`Choice`), the frames to send and the events, and the caller takes each
list in that order (write, sync, then send: ``peer.deliver``), so a crash can
never make us sign a second, different entry for a position we already sent.

Which entries are durable is decided here, in one place:

* one we signed alone (our move, our shuffle, a forced move): we send it at once;
* the last of a finished or stopped log: once our ping says we hold the whole
  log the others may leave, and nobody would be there to send it again;
* a kind every seat syncs (the registry's ``synced``: a commits entry, which
  holds every asked seat's signed commit: a seat that lost its choice file finds
  its commit again in the others' logs; were their copies unsynced, a power cut
  could take them and it would be asked again, and one disk that kept the bundle
  after all would then prove an equivocation against an honest seat, found by
  the fault drill);
* an ending that cuts the log back (an agreed abort taking a contested position).

Another seat's entry is not synced on its own (a peer sends it again if we lose
it; our next sync covers it), nor one we only assembled from others' signed
parts or chain values (a collector's chance entry or bundle proves itself, and we
would make the same bytes again).
"""

from __future__ import annotations

from p2ptable.net.events import Choice, Event, Write
from p2ptable.replay.entries import Entry
from p2ptable.replay.rows import ROWS

# The kinds every seat syncs, not only their author (the registry's ``synced``).
_SYNCED = frozenset(kind for kind, row in ROWS.items() if row.synced)


def synced_by_all(entry: Entry) -> bool:
    """Whether every seat syncs ``entry`` (a commits entry: see the module docstring)."""
    return entry.body["t"] in _SYNCED


def signer(entry: Entry) -> int | None:
    """The one seat that signed ``entry`` alone, or None."""
    sigs = entry.sigs
    return sigs[0][0] if len(sigs) == 1 else None


class Outbox:
    """The session's outputs, in order (see the module docstring)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.writes: list[Write] = []  # entries to persist, in order
        self.choices: list[Choice] = []  # our secret choices to keep
        self.outgoing: list[tuple[int | None, bytes]] = []  # (seat, or None for all; frame)
        self.events: list[Event] = []

    def take_writes(self) -> list[Write]:
        out, self.writes = self.writes, []
        return out

    def take_choices(self) -> list[Choice]:
        out, self.choices = self.choices, []
        return out

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        out, self.outgoing = self.outgoing, []
        return out

    def take_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    def appended(self, entry: Entry, at_end: bool) -> None:
        """``entry``, applied by us: ours (a shuffle), or a bundle or result we made."""
        ours = signer(entry) == self.seat
        self.writes.append(Write(entry.encode(), ours or at_end or synced_by_all(entry)))

    def persisted(self, raw: bytes, entry: Entry, at_end: bool) -> None:
        """``raw``, another seat's ``entry``, just applied (the last of our log)."""
        self.writes.append(Write(raw, at_end or synced_by_all(entry)))

    def sent_first(self, entry: Entry) -> None:
        """``entry``, written and sent before we apply it (our move, a collector's)."""
        durable = signer(entry) == self.seat or synced_by_all(entry)
        self.writes.append(Write(entry.encode(), durable))

    def ended(self, entry: Entry, keep: int | None) -> None:
        """The ending of our log, after cutting it back to ``keep`` entries (None: not)."""
        self.writes.append(Write(entry.encode(), True, keep))
