"""How long a session has waited, and on whom: the clocks of withholding and
abandonment (one collaborator of net/session.py).

How it works: the withholding clock (``since``) starts when a round that may be
withheld begins (``begin``; not a move or a commit: a person may think) and
stops when an entry is applied (``done``).  A seat we wait on that is in contact
but has not contributed ``withhold_timeout`` after it started is accused of
withholding; one out of contact for ``abandon_timeout`` (5 minutes: time enough
to resume after a crash) of abandoning (``accusation``).  A seat that restarts,
says bye, or is heard again after a silence gets the whole timeout again
(``restart``), and time our own process did not run (the machine slept) counts
for nobody (``skip_absence``), nor does an absence since an agreed break
(``spared``).  Whom we wait on is the round's to say; this
module keeps only the time.
"""

from __future__ import annotations

from p2ptable.net import accusations
from p2ptable.net.accusations import Accusation
from p2ptable.net.peers import PeerStates

# A gap this long between two ticks means our own process did not run (the peer
# loop ticks at least every second): see Waiting.skip_absence.
SLEPT = 5.0


def sooner(wake: float, deadline: float, now: float) -> float:
    """``deadline`` if it is still ahead and before ``wake``, else ``wake``."""
    return deadline if now < deadline < wake else wake


class Waiting:
    """The session's clocks (see the module docstring)."""

    def __init__(self, now: float, withhold_timeout: float, abandon_timeout: float) -> None:
        self.withhold_timeout = withhold_timeout
        self.abandon_timeout = abandon_timeout
        self.since: float | None = None  # when the withholdable wait began
        self.started = now  # a seat never heard from is silent since then
        self._last_tick: float | None = None
        # Seats absent since an agreed break (replay/break_file.py): never named
        # as having abandoned the game for that absence, however long it lasts;
        # once heard from, they count as anyone does.
        self.spared: frozenset[int] = frozenset()

    @property
    def timeouts(self) -> tuple[float, float]:
        """(withholding, abandonment), in seconds."""
        return self.withhold_timeout, self.abandon_timeout

    def begin(self, now: float) -> None:
        """A round that may be withheld is under way: its clock starts, once."""
        if self.since is None:
            self.since = now

    def done(self) -> None:
        """An entry was applied: nobody is waited on any more."""
        self.since = None

    def restart(self, now: float) -> None:
        """A seat we wait on (re)started or is heard again (found by the fault
        drill: a seat frozen 25 s was named at its first ping): it gets the
        whole withholding timeout again.  A bye can make a wait longer, never
        shorter."""
        if self.since is not None:
            self.since = now

    def skip_absence(self, now: float, peers: PeerStates) -> None:
        """Our own process did not run for a while (the machine slept): that time
        counts for nobody's withholding or silence, or we would name seats whose
        frames are waiting, unread, in our queue."""
        last = self._last_tick
        self._last_tick = now
        gap = now - last if last is not None else 0.0
        if gap < SLEPT:
            return
        if self.since is not None:
            self.since += gap
        self.started += gap
        for peer in peers.values():
            if peer.last_contact is not None:
                peer.last_contact += gap

    def accusation(
        self,
        awaited: set[int],
        withholdable: bool,
        contacts: dict[int, float | None],
        index: int,
        now: float,
    ) -> Accusation | None:
        """The seat to name now, if any, among ``awaited`` (the other seats the
        entry at ``index`` waits on): withholding first, then abandonment."""
        since = self.since
        if withholdable and since is not None and now - since >= self.withhold_timeout:
            found = accusations.withholding(awaited, contacts, index, now)
            if found is not None:
                return found
        away = {seat for seat in self.spared if contacts.get(seat) is None}
        return accusations.abandonment(
            awaited - away, contacts, self.started, now, self.abandon_timeout
        )

    def wake_at(self, wake: float, now: float) -> float:
        """``wake``, or sooner the end of the withholding timeout if still ahead."""
        if self.since is None:
            return wake
        return sooner(wake, self.since + self.withhold_timeout, now)
