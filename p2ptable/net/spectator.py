"""A spectator's side: follow a table's log without a seat, checking every entry (sans-IO).

How it works
------------
The spectator knocks and proves the join code as a joiner does, with
``JoinerLobby(watch=True)`` (lobby.py; the host side is gallery.py).  Once the host
answers ``watching``, :class:`Follower` pulls the log: it asks ``feed {from: n}``
for the entries it does not have, every :data:`PULL_EVERY` seconds (at once
again after a full answer, so a late spectator catches up from the start in a
few round trips), and appends each entry to its own :class:`Ledger`, which
checks it exactly as a seated peer's ledger does: signatures, hash links,
chance from every seat's chain, every shuffle and reveal proof, the rules.  It
holds no deck secret, so it reads no hidden card: its state, and so its screen,
is the public view.

A host that goes quiet for :data:`KNOCK_AGAIN` seconds may have come back
(``resume``: a new process on the same port, which admits spectators again with
the same code but knows no watcher): the follower knocks again and proves the
code again, every KNOCK_AGAIN seconds, while it keeps asking the old way; the
first to answer wins.  It takes the new welcome only from the same host key for
the same table, and goes on from the entries it has: nothing is pulled twice.

Only the host's signed answers are read, only bound to our handshake
(lobby_binding.py: a replayed answer is dropped), only for the index asked, and
each entry only if it checks; anything else is dropped and counted.  An entry that
does not check is the host feeding a false log (the seats' logs are all the
same and each entry is signed by its seats): the follower stops with that
entry's reason, keeping every entry before it.

Beside the log it reads the table's talk (``feed`` asks ``talk`` from the count
it has read; the host's answer carries the next records): each line is checked
with its seat's key from the genesis, so the host can withhold a line but never
make or change one, and handed out by ``take_talk``.

At a table whose genesis lets spectators talk (``host --spectators-talk``),
:meth:`Follower.say` signs our line with our own key (net/spectator_talk.py)
and sends it to the host in a ``say`` frame bound to our handshake; the other
spectators' lines come with the log (``feed`` asks ``spectators`` from the
count read), each checked with the key it names, and are handed out by
``take_spectators``.  Our own come back too, and are dropped: we showed them
as we said them.

What it produces is handed out as the session's is (net/session.py):
``take_outgoing`` the frames for the host, ``take_talk`` the lines of talk kept,
``take_writes`` each accepted entry's bytes, in order, the genesis first (the
caller appends them to the replay file; after a FeedError, the entries accepted
before it are still there to take).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2ptable.net.gallery import FEED_ENTRIES, FEED_TALK, JUST_AFTER
from p2ptable.net.lobby import JoinerLobby, LobbyError, LobbyIgnored, open_lobby
from p2ptable.net.lobby_messages import LobbyKind
from p2ptable.net.spectator_talk import Heard, Mouth, Refused, Rejected, SpectatorLine
from p2ptable.net.talk import MAX_LINES, TalkLine, TalkRejected, open_record
from p2ptable.net.wire import MAX_FRAME
from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import read_genesis
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.position import Applied

PULL_EVERY = 0.2  # seconds between two requests when nothing new came
KNOCK_AGAIN = 3.0  # seconds of silence from the host before proving the code again


class FeedError(Exception):
    """The host's feed is not the table's log: an entry that does not check."""


@dataclass
class Follower:
    """The log of one table, pulled from its host and checked entry by entry.

    ``lobby`` is the spectator's admitted ``JoinerLobby(watch=True)``."""

    lobby: JoinerLobby
    outgoing: list[bytes] = field(default_factory=list)
    writes: list[bytes] = field(default_factory=list)  # accepted entries, to persist

    def __post_init__(self) -> None:
        self.ledger: Ledger | None = None
        self.applied: list[Applied] = []  # what the accepted entries did, for the screen
        self.dropped = 0
        self.heard = float("-inf")  # when the host last answered
        self._next_pull = 0.0
        self.again: JoinerLobby | None = None  # knocking again: the host went quiet
        self._next_knock = float("-inf")
        self.rejoined = 0  # times a host that came back admitted us again
        self.refused: str | None = None  # why the last knock again was refused
        # The table's talk, pulled with the log (wire.md 3.5): how many of the
        # host's records we have read, the highest n kept per seat, and the
        # lines kept and not yet taken, each with its record.
        self.talk_from = 0
        self._talk_last: dict[int, int] = {}
        self._talk: list[tuple[TalkLine, bytes]] = []
        self.talk_kept = 0
        # The spectators' channel, at a table that has one (its genesis says):
        # our own lines, the records of the host's channel we have read, and
        # the others' lines kept and not yet taken.
        self.mouth: Mouth | None = None
        self._heard: Heard | None = None
        self.spectators_from = 0
        self._spectators: list[SpectatorLine] = []

    def take_outgoing(self) -> list[bytes]:
        """Frames for the host, in order."""
        out, self.outgoing = self.outgoing, []
        return out

    def take_talk(self) -> list[tuple[TalkLine, bytes]]:
        """The lines of talk kept since the last call, each with its record (for
        the screen and ``REPLAY.talk``), in the order the host heard them."""
        out, self._talk = self._talk, []
        return out

    def take_spectators(self) -> list[SpectatorLine]:
        """The other spectators' lines kept since the last call, in order."""
        out, self._spectators = self._spectators, []
        return out

    @property
    def may_talk(self) -> bool:
        """Whether this table lets spectators talk (its genesis, once we have it)."""
        return self.ledger is not None and self.ledger.spectators_talk

    def say(self, text: str, now: float) -> SpectatorLine:
        """Our line in the spectators' channel, sent to the host; Refused with
        the reason for the person (no such channel here, too fast, empty)."""
        ledger = self.ledger
        if ledger is None:
            raise Refused("not yet: the game has not begun")
        if not ledger.spectators_talk:
            raise Refused("spectators do not talk at this table (host --spectators-talk)")
        if self.over:
            raise Refused("the game is over")
        if self.mouth is None:
            self.mouth = Mouth(self.lobby.me.key, self.lobby.name, ledger.game_id)
        line, record = self.mouth.say(text, self.have, now)
        self.outgoing.append(self.lobby.seal_bound(LobbyKind.SAY, {"line": record}))
        return line

    def take_writes(self) -> list[bytes]:
        """The accepted entries' bytes, in order, for the replay file."""
        out, self.writes = self.writes, []
        return out

    @property
    def have(self) -> int:
        return 0 if self.ledger is None else self.ledger.next_index

    @property
    def over(self) -> bool:
        """The game ended (a result) or stopped (an abort): nothing more comes."""
        ledger = self.ledger
        return ledger is not None and (ledger.finished or ledger.stopped is not None)

    def tick(self, now: float) -> None:
        if self.lobby.watching is None or self.over:
            return
        if self.heard == float("-inf"):
            self.heard = now  # admitted: the host's silence counts from here
        if now >= self._next_pull:
            self._next_pull = now + PULL_EVERY
            ask = {"from": self.have, "talk": self.talk_from}
            if self.may_talk:
                ask["spectators"] = self.spectators_from
            self.outgoing.append(self.lobby.seal_bound("feed", ask))
        if now - self.heard > KNOCK_AGAIN and now >= self._next_knock:
            self._next_knock = now + KNOCK_AGAIN
            old = self.lobby
            self.again = JoinerLobby(old.code, old.me, old.name, old.endpoint, watch=True)
            self._take_from(self.again)

    def wake_at(self, now: float) -> float:
        """When ``tick`` has something to do next, if nothing comes before."""
        if self.lobby.watching is None or self.over:
            return float("inf")
        if self.heard == float("-inf"):
            return now  # admitted: tick starts the clock
        return min(self._next_pull, max(self.heard + KNOCK_AGAIN + JUST_AFTER, self._next_knock))

    def _take_from(self, lobby: JoinerLobby) -> None:
        self.outgoing.extend(lobby.take_outgoing())

    def _knocked_again(self, frame: bytes, now: float) -> None:
        """The handshake of our knock again: once the same host admits us to the
        same table, we follow it from the entries we have."""
        again = self.again
        assert again is not None
        try:
            again.receive(frame)
        except LobbyIgnored:
            self.dropped += 1
            return
        except LobbyError as exc:
            self.refused, self.again = str(exc), None  # asked again KNOCK_AGAIN later
            return
        self._take_from(again)
        if again.watching is None:
            return
        self.again = None
        if (again.host_key, again.table) != (self.lobby.host_key, self.lobby.table):
            self.refused = "another table answers at the host's address"
            return
        self.lobby, self.heard, self._next_pull = again, now, now
        self.rejoined += 1

    def receive(self, frame: bytes, now: float) -> list[Applied]:
        """A lobby frame: the entries it brought that check (FeedError if one does
        not); a frame that is not the host's answer to our request is dropped."""
        try:
            kind, key, data = open_lobby(frame)
        except LobbyError:
            self.dropped += 1
            return []
        if self.again is not None and kind in ("challenge", "denied", "watching"):
            self._knocked_again(frame, now)
            return []
        payloads = self._answer(kind, key, data)
        if payloads is None:
            return []
        self.heard = now
        accepted = [self._accept(payload) for payload in payloads]
        applied = [a for a in accepted if a is not None]
        more_talk = self._read_talk(data)
        more_talk = self._read_spectators(data) or more_talk
        if len(payloads) == FEED_ENTRIES or (payloads and data.get("have", 0) > self.have):
            self._next_pull = now  # more is waiting: ask again at once
        elif more_talk:
            self._next_pull = now
        return applied

    def _read_talk(self, data: dict) -> bool:
        """The talk in the host's answer, each line checked with its seat's key
        from the genesis (the host only passes lines on: it cannot make one);
        True when the host holds more.  A line that does not check is dropped
        and counted, never a reason to stop: talk is not the game."""
        records, said = data.get("talk"), data.get("said")
        ledger = self.ledger
        if ledger is None or not isinstance(records, list) or type(said) is not int:
            return False
        if len(records) > FEED_TALK:
            self.dropped += 1
            return False
        keys = [seat.key for seat in ledger.seats]
        for record in records:
            try:
                line = open_record(record, ledger.game_id, keys)
            except TalkRejected:
                self.dropped += 1
                continue
            if line.n <= self._talk_last.get(line.seat, 0) or self.talk_kept >= MAX_LINES:
                continue  # heard before (the host resumed), or talk is closed
            self._talk_last[line.seat] = line.n
            self.talk_kept += 1
            self._talk.append((line, record))
        self.talk_from += len(records)
        return said > self.talk_from

    def _read_spectators(self, data: dict) -> bool:
        """The spectators' channel in the host's answer: each line checked with
        the key it names; True when the host holds more."""
        records, spoken = data.get("spectators"), data.get("spoken")
        ledger = self.ledger
        if not self.may_talk or not isinstance(records, list) or type(spoken) is not int:
            return False
        assert ledger is not None  # may_talk
        if len(records) > FEED_TALK:
            self.dropped += 1
            return False
        if spoken < self.spectators_from:
            self.spectators_from = 0  # a host that came back holds a new channel
        if self._heard is None:
            self._heard = Heard(ledger.game_id, own=self.lobby.me.key.public, rate=False)
        for record in records:
            try:
                line = self._heard.receive(record, 0.0)
            except Rejected:
                self.dropped += 1
                continue
            if line is not None:
                self._spectators.append(line)
        self.spectators_from += len(records)
        return spoken > self.spectators_from

    def _answer(self, kind: str, key: bytes, data: dict) -> list[bytes] | None:
        """The entries of the host's answer to our request, or None (dropped and
        counted unless it is the welcome again)."""
        if key != self.lobby.host_key or kind not in ("entries", "watching"):
            self.dropped += 1
            return None
        try:
            self.lobby.check_bound(kind, data)  # not a replay, and for our handshake
        except LobbyIgnored:
            self.dropped += 1
            return None
        if kind == "watching":
            return None  # the welcome again: nothing to do
        payloads = data.get("payloads")
        if (
            data.get("table") != self.lobby.table
            or data.get("from") != self.have
            or not isinstance(payloads, list)
            or len(payloads) > FEED_ENTRIES
            or not all(isinstance(p, bytes) and len(p) <= MAX_FRAME for p in payloads)
        ):
            self.dropped += 1  # stale (an answer to an earlier request) or malformed
            return None
        return payloads

    def _accept(self, payload: bytes) -> Applied | None:
        index = self.have
        try:
            entry = Entry.decode(payload)
            if self.ledger is None:
                info = read_genesis(entry)
                if info.nonce != self.lobby.table or info.game.name != self.lobby.game:
                    raise InvalidEntry(0, "the genesis is not this table's")
                self.ledger = Ledger(entry)
                result = None
            else:
                result = self.ledger.append(entry)
                self.applied.append(result)
        except (MalformedEntry, InvalidEntry, ValueError) as exc:
            reason = exc.reason if isinstance(exc, InvalidEntry) else str(exc)
            raise FeedError(f"entry {index} from the host does not check: {reason}") from None
        self.writes.append(payload)
        return result
