"""The host's gallery: spectators who follow a table's log without a seat (sans-IO).

How it works
------------
A table opened with ``host --spectators`` admits watchers: a watcher knocks like a
joiner (``knock`` with ``watch: true``), proves the join code with the same SPAKE2
handshake (lobby.py, protocol/wire.md 3.5), and sends ``watch {name, proof}``
instead of ``join``.  It takes no seat: it is not in the roster's members, signs
nothing, and its frames are lobby frames, never game frames, so nothing it sends
can be taken for a seat's.  Admitted, it is answered ``watching`` and then pulls
the log: ``feed {from}`` asks for the entries from index ``from`` on, and the host
answers ``entries {from, payloads}``: the entries exactly as every seat's replay
holds them (each signed by the seats; the watcher checks every one with its own
ledger, as a seated peer does).  Both are bound to the watcher's handshake
(lobby_binding.py): a replayed or re-addressed ``feed`` keeps no place and is
answered with nothing, so the host sends a watcher no more than it asked for.
The log holds no hand and no usable decryption share: a dealt card's shares come
without the receiver's, and hands are only shown with their proofs; so a watcher
learns what the public view shows.

Nothing a watcher does can slow the seats by more than a bounded amount:

* at most :data:`MAX_WATCHERS` watchers, each answered at most once every
  :data:`FEED_INTERVAL` seconds (more requests are dropped unanswered);
* an answer holds at most :data:`FEED_ENTRIES` entries and :data:`FEED_BYTES`
  bytes, cut from the host's ledger (the encodings are cached: no work per
  watcher but the frame's signature);
* answers go out on the transport's feed links, whose send queue holds only a
  few frames (zmq_transport.py): a watcher that stops reading loses answers, it
  does not make the host queue them;
* a watcher not heard from for :data:`WATCHER_SILENT` seconds is forgotten (its
  place freed).

A ``feed`` may also ask for the table's talk (``talk``: how many lines the
watcher holds); the answer then carries at most :data:`FEED_TALK` more records,
each signed by its seat, as the host heard them (net/sideline.py), and how many
the host holds (``said``).  The watcher checks each signature itself.

At a table opened with ``--spectators-talk`` (the genesis says
``spectators_talk``), a watcher may also write in the spectators' channel
(net/spectator_talk.py): ``say {line}``, bound to its handshake like a
``feed``, carries its signed record.  The channel checks and bounds it; a line
kept is handed to the host's peer (``take_spoken``: it relays it to the seats)
and served to the other watchers, as the talk is: a ``feed`` with
``spectators`` (how many records it has read) is answered with at most
:data:`FEED_TALK` more in ``spectators`` and how many there are in ``spoken``.
At another table, or before the genesis, a ``say`` is dropped and counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2ptable.net.lobby_binding import Binding
from p2ptable.net.spectator_talk import Channel, Rejected, SpectatorLine
from p2ptable.replay import authoring

MAX_WATCHERS = 8
FEED_INTERVAL = 0.1  # seconds between two answers to one watcher
FEED_ENTRIES = 256
FEED_BYTES = 128 * 1024  # an answer stays well under the largest frame (wire.MAX_FRAME)
FEED_TALK = 32  # lines of talk in one answer: at most 32 KiB (net/talk.py's MAX_RECORD)
WATCHER_SILENT = 30.0
# A host that came back (resume) knows none of its spectators: they knock again
# after KNOCK_AGAIN (3 s, net/spectator.py) of silence.  If the game ends before
# they do, the host waits this long from its resume for them (at most
# LINGER_SECONDS after the end, net/peer_exit.py).
COMEBACK_WAIT = 6.0
JUST_AFTER = 0.001  # a silence compared strictly (``>``) is due just after its limit


@dataclass
class Watcher:
    name: str
    key: bytes
    endpoint: str
    binding: Binding  # its handshake's: its feeds and our answers are bound to it
    heard: float
    answered: float = float("-inf")
    have: int = 0  # the entries it said it has (the `from` of its last request)


class EncodedLog(Sequence[bytes]):
    """A ledger's entries as their bytes (each entry caches its encoding)."""

    def __init__(self, entries: Sequence[Any]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index):  # noqa: ANN001, ANN204 - int or slice, as a list
        if isinstance(index, slice):
            return [entry.encode() for entry in self._entries[index]]
        return self._entries[index].encode()


def feed_batch(payloads: Sequence[bytes], start: int) -> list[bytes]:
    """The entries from ``start`` on that fit one answer (at least one, if any)."""
    batch: list[bytes] = []
    size = 0
    for payload in payloads[start : start + FEED_ENTRIES]:
        if batch and size + len(payload) > FEED_BYTES:
            break
        batch.append(payload)
        size += len(payload)
    return batch


@dataclass
class Gallery:
    """The watchers of one table and the answers to their ``feed`` requests.

    ``seal`` signs a lobby frame as the host (lobby.seal_lobby); ``entries``
    returns the host's log so far, encoded (empty before the genesis).  The
    answers are handed out by ``take_outgoing``, lines for the host by
    ``take_log``."""

    seal: Callable[[str, dict], bytes]
    table: bytes
    entries: Callable[[], Sequence[bytes]] = lambda: ()
    # The table's talk so far, as records (net/sideline.py): for a ``feed`` that asks.
    talk: Callable[[], Sequence[bytes]] = lambda: ()
    outgoing: list[tuple[str, bytes]] = field(default_factory=list)  # (endpoint, frame)
    log: list[str] = field(default_factory=list)
    talks: bool = False  # host --spectators-talk: watchers write in their channel

    def __post_init__(self) -> None:
        self.watchers: dict[bytes, Watcher] = {}  # by the watcher's signing key
        # The spectators' channel, once the genesis (its game id) is known.
        self.channel: Channel | None = None
        self.spoken: list[tuple[SpectatorLine, bytes]] = []  # kept, for the seats
        self.refused_lines = 0  # ``say`` frames dropped: no channel, or not a line

    def open_channel(self, game_id: bytes) -> None:
        """The game began (its genesis is ``game_id``'s): a table whose host
        allowed it opens the spectators' channel."""
        if self.talks and (self.channel is None or self.channel.game_id != game_id):
            self.channel = Channel(game_id)

    def take_spoken(self) -> list[tuple[SpectatorLine, bytes]]:
        """The watchers' lines kept since the last call, in order, each with its
        record: for the host's peer to relay to every seat."""
        out, self.spoken = self.spoken, []
        return out

    def take_outgoing(self) -> list[tuple[str, bytes]]:
        """Answers to send, in order: (the watcher's endpoint, the frame)."""
        out, self.outgoing = self.outgoing, []
        return out

    def take_log(self) -> list[str]:
        out, self.log = self.log, []
        return out

    def names(self) -> list[str]:
        return [w.name for w in self.watchers.values()]

    def refusal(self, name: object, endpoint: str, taken: Sequence[str]) -> str | None:
        """Why a watcher called ``name`` at ``endpoint`` cannot be admitted, or None."""
        if len(self.watchers) >= MAX_WATCHERS:
            return f"the table already has {MAX_WATCHERS} spectators"
        if not (isinstance(name, str) and 0 < len(name) <= 32 and name.isprintable()):
            return "a name must be 1..32 printable characters"
        names = {n.casefold() for n in (*taken, *self.names())}
        if name.casefold() in names:
            return f"the name {name!r} is taken"
        if any(w.endpoint == endpoint for w in self.watchers.values()):
            return f"the endpoint {endpoint} already watches"
        return None

    def admit(
        self, key: bytes, name: str, endpoint: str, binding: Binding, seats: list[str], now: float
    ) -> None:
        self.watchers[key] = Watcher(name, key, endpoint, binding, now)
        self.log.append(f"{name} is watching ({len(self.watchers)} watching)")
        welcome = {"table": self.table, "seats": seats, "watchers": self.names()}
        self.outgoing.append((endpoint, self.seal("watching", binding.bind("watching", welcome))))

    def receive(self, key: bytes, kind: str, data: dict, address: str, now: float) -> bool:
        """A lobby frame from ``key`` at ``address``: True if it was a watcher's
        (and handled).  Only a ``feed`` bound to the watcher's handshake, from
        its address, counts (lobby_binding.Unbound if not: the host counts it):
        a replayed one keeps no place and is answered with nothing."""
        watcher = self.watchers.get(key)
        if watcher is None:
            return False
        if kind == "say":  # lobby_messages.LobbyKind.SAY (which imports this module)
            watcher.binding.check(kind, data, address)
            watcher.heard = now
            self._said(watcher, data.get("line"), now)
            return True
        if kind != "feed":
            return True  # a watcher has nothing else to say: ignored
        watcher.binding.check(kind, data, address)
        watcher.heard = now
        start = data.get("from")
        if not (type(start) is int and start >= 0) or now - watcher.answered < FEED_INTERVAL:
            return True
        watcher.answered = now
        watcher.have = start
        payloads = self.entries()
        batch = feed_batch(payloads, start) if start < len(payloads) else []
        answer = {"table": self.table, "from": start, "payloads": batch, "have": len(payloads)}
        heard = data.get("talk")  # a spectator that reads the talk asks for it (wire.md 3.5)
        if type(heard) is int and heard >= 0:
            records = self.talk()
            answer["talk"] = list(records[heard : heard + FEED_TALK])
            answer["said"] = len(records)
        read = data.get("spectators")  # a spectator reading its own channel asks for it
        if self.channel is not None and type(read) is int and read >= 0:
            lines = self.channel.records
            answer["spectators"] = lines[read : read + FEED_TALK]
            answer["spoken"] = len(lines)
        bound = watcher.binding.bind("entries", answer)
        self.outgoing.append((watcher.endpoint, self.seal("entries", bound)))
        return True

    def _said(self, watcher: Watcher, record: object, now: float) -> None:
        """A watcher's line: kept and handed out for the seats, or dropped."""
        if self.channel is None:
            self.refused_lines += 1  # not allowed here, or the game has not begun
            return
        try:
            line = self.channel.post(watcher.key, watcher.name, record, now)
        except Rejected:
            self.refused_lines += 1  # counted, not shown: a flood must not fill a screen
            return
        if line is not None:
            self.spoken.append((line, self.channel.records[-1]))

    def behind(self, length: int, now: float) -> bool:
        """Whether a watcher heard from in the last few seconds has fewer than
        ``length`` entries: the host lingers for it at the end (net/peer.py)."""
        return any(w.have < length and now - w.heard < 2.0 for w in self.watchers.values())

    def wake_at(self) -> float:
        """When :meth:`tick` may forget a watcher next (inf: none watches)."""
        heard = [w.heard for w in self.watchers.values()]
        return min(heard) + WATCHER_SILENT + JUST_AFTER if heard else float("inf")

    def tick(self, now: float) -> None:
        """Forget watchers not heard from for WATCHER_SILENT seconds."""
        for key, watcher in list(self.watchers.items()):
            if now - watcher.heard > WATCHER_SILENT:
                del self.watchers[key]
                self.log.append(f"{watcher.name} stopped watching")


def gallery_for(
    me: authoring.SeatSecrets, table: bytes, seal: Callable, talks: bool = False
) -> Gallery:
    """A gallery whose answers are signed by ``me`` (``seal(kind, data, me)``);
    ``talks``: its watchers may write in the spectators' channel."""
    return Gallery(lambda kind, data: seal(kind, data, me), table, talks=talks)
