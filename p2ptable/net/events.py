"""What a game session reports to the peer driving it (besides each ``Applied``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from p2ptable.engine.api import Outcome
from p2ptable.net.pause import Agreement
from p2ptable.net.spectator_talk import SpectatorLine
from p2ptable.net.talk import TalkLine
from p2ptable.replay.kinds import Reason
from p2ptable.replay.ledger import Applied


@dataclass(frozen=True)
class Rejected:
    """Bad input from ``seat`` (None: unknown sender), refused; the game goes on."""

    seat: int | None
    reason: str


@dataclass(frozen=True)
class Stopped:
    """The game stopped with an abort entry naming ``culprit``.

    ``reason`` is the abort's (a ``Reason``: equivocation, cheated, withheld,
    abandoned), ``detail`` its account in the log's words, ``proved`` whether
    the entry carries evidence every verifier re-checks (ui/endings.py words it)."""

    reason: Reason
    culprit: int | None
    detail: str = ""
    proved: bool = False
    detector: int | None = None


@dataclass(frozen=True)
class Finished:
    """The result entry is in: the game is over."""

    outcome: Outcome


@dataclass(frozen=True)
class Moved:
    """``seat`` listens at ``endpoint`` now (it resumed on another port): every
    frame for it goes there from now on (the peer reconnects its link)."""

    seat: int
    endpoint: str


@dataclass(frozen=True)
class Failed:
    """A bug of ours stopped the session (not a peer's fault: nobody is blamed).
    ``reason`` is one line; ``trace`` the traceback, for the peer log."""

    reason: str
    trace: str


@dataclass(frozen=True)
class Recovered:
    """After a resume, our secret choice for the commits entry at ``position`` was
    taken back from our own signed commit, held by another seat (the choice file
    was lost, damaged or disagreed with it: ``text`` says which)."""

    position: int  # (not `index`: that names an Applied entry's)
    action: str
    text: str


# Why a seat leaves, as its ``bye`` says (protocol/wire.md 6.13): its person
# pressed Ctrl-C, or its input reached its end (Ctrl-D, a closed pipe).
LEAVE_REASONS = ("interrupted", "input closed")


@dataclass(frozen=True)
class PeerLeft:
    """``seat`` said it is leaving (its ``bye``), to be resumed: nothing else
    changes, nobody is accused and every timeout runs as before.  ``reason`` is
    one of ``LEAVE_REASONS``, or "" for words this version does not know (what a
    peer sends is never shown as it is)."""

    seat: int
    reason: str


@dataclass(frozen=True)
class Seen:
    """The hidden cards the entry at ``index`` moved that our own seat knows (read by
    our ledger with our own deck secret, replay/seen_cards.py): per seat, the cards
    dealt to it, or the card our seat gave or was given, under the giver.  It follows
    that entry's ``Applied``, and only our seat's screen may show it."""

    index: int
    cards: dict[int, list[int]]


# -- beside the game: talk and breaks (net/sideline.py) ---------------------


@dataclass(frozen=True)
class Talked:
    """A line of talk said (ours) or heard, with its record to keep (REPLAY.talk)."""

    line: TalkLine
    record: bytes


@dataclass(frozen=True)
class SpectatorTalked:
    """A line in the spectators' channel (net/spectator_talk.py): relayed by
    the host, shown apart from the seats' talk, kept nowhere."""

    line: SpectatorLine


@dataclass(frozen=True)
class BreakNews:
    """A seat signed the break proposed at ``at``: ``proposer`` proposed it,
    ``waiting_for`` have not agreed yet."""

    at: int
    seat: int
    proposer: int
    waiting_for: tuple[int, ...]


@dataclass(frozen=True)
class Declined:
    """Our line or break could not go now: ``reason`` is for the person."""

    reason: str


@dataclass(frozen=True)
class BreakAgreed:
    """Every seat signed the break: keep it and end (the peer's part)."""

    agreement: Agreement


Event = (
    Applied
    | Seen
    | Rejected
    | Stopped
    | Finished
    | Failed
    | Moved
    | Recovered
    | PeerLeft
    | Talked
    | SpectatorTalked
    | BreakNews
    | BreakAgreed
    | Declined
)


# -- what the session hands out besides events (net/session.py) --------------


class Write(NamedTuple):
    """An entry to persist.  ``durable``: it must be on stable storage before
    any frame of its batch leaves (ours).  ``keep``: first cut the log back to
    its first ``keep`` entries (an agreed abort taking a contested position)."""

    payload: bytes
    durable: bool
    keep: int | None = None


class Choice(NamedTuple):
    """Our secret choice for the ``commits`` entry at ``index`` (replay/choices.py):
    kept on stable storage before our commit leaves, so that a seat that comes
    back after a crash commits to the same action, never to a second one (two
    commits for one position are equivocation)."""

    # A field named like tuple.index: the name is what every caller reads.
    index: int  # type: ignore[assignment]
    action: str
