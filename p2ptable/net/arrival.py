"""How a seat comes to the table: the lobby, then the genesis round.

How it works
------------
:class:`Arrival` is the peer's collaborator from its first frame until the
genesis entry exists.  It owns the lobby (the host's or a joiner's, net/lobby.py)
and then the genesis round (net/genesis_round.py), both sans-IO; it carries out
what they produce through the transport it is handed, and keeps the game frames
that come before it knows the genesis body (bounded).  The peer feeds it frames
(``lobby_frame``, ``game_frame``), calls ``step`` once a pass, and gets the
genesis entry back from ``step`` when every seat has signed.  What else it has
to tell is handed out, in order, as the session's events are (``take_events``):
:class:`SeatSet` when the body is known, before our signature leaves (``step``
sends it), so the peer makes the seat resumable (its replay path, lock, secrets
and the pending body) first; for a host, :class:`RosterChanged` at every change
to its seats (and at the genesis), so the table's announcement on the LAN
(net/discovery.py) can follow them; and the lines for the person
(:class:`Said`) and for the peer's log (:class:`Noted`).  A joiner
that picked its table from the LAN's list is given the id the list announced;
once the host has proved the code, the two are compared, and a difference is
said (net/listing.py's ``picked_mismatch``): the code proves the host, so the
joiner goes on, but the person knows the list was wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2ptable.net import lobby as lobbies
from p2ptable.net import lobby_commands
from p2ptable.net.gallery import Gallery
from p2ptable.net.genesis_round import GenesisRound
from p2ptable.net.listing import picked_mismatch
from p2ptable.net.lobby_frames import KEEP_GOING_WORDS
from p2ptable.net.peers import boot_bytes
from p2ptable.net.pending_genesis import PendingGenesis
from p2ptable.net.transport import GAME, LOBBY, Transport
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry

if TYPE_CHECKING:
    from p2ptable.net.persistence import Resume

MAX_EARLY_FRAMES = 2_000  # game frames that may arrive before we know the genesis body
MAX_EARLY_BYTES = 8 << 20
MAX_SLEEP = 1.0
WAITING_NOTE_EVERY = 10.0  # seconds between "still waiting for ..." lines


@dataclass(frozen=True)
class SeatSet:
    """The genesis body is known, and our seat in it; our signature has not left."""

    body: bytes


@dataclass(frozen=True)
class RosterChanged:
    """The host's seats taken, or its genesis, changed (and at its first step)."""

    lobby: lobbies.HostLobby


@dataclass(frozen=True)
class Said:
    """A line for the person at this seat (who joined, what we wait for)."""

    text: str


@dataclass(frozen=True)
class Noted:
    """A line for the peer's diagnostic log."""

    text: str


ArrivalEvent = SeatSet | RosterChanged | Said | Noted


class Arrival:
    """The lobby and the genesis round of one seat."""

    def __init__(
        self,
        transport: Transport,
        secrets: authoring.SeatSecrets,
    ) -> None:
        self.transport = transport
        self.secrets = secrets
        self.lobby: lobbies.HostLobby | lobbies.JoinerLobby | None = None
        self.host_endpoint = ""
        self.genesis_round: GenesisRound | None = None
        self.members: list[lobbies.Member] = []
        self._watchers: tuple[str, ...] = ()  # who watches, as the last roster said
        self.seat: int | None = None
        self.game = ""
        self.boot = 1  # our start counter (wire.md 4.5)
        self.ignored_lobby = 0  # lobby frames from anyone but our lobby's partner
        self._early: list[bytes] = []
        self._early_bytes = 0
        self.early_dropped = 0
        self._round_started = 0.0
        self._next_waiting_note = 0.0
        self.events: list[ArrivalEvent] = []  # handed out by take_events
        self._roster_told: tuple[int, bool] | None = None
        self._under_way = False  # a resumed game: the lobby only serves spectators
        self._listed_table = ""  # the id the LAN's list announced for the table picked
        self._told_keep_going = False  # a joiner is told once, before it sits down
        self._removed_told: set[str] = set()  # what the host did, said once
        self._short_told = False

    def say(self, text: str) -> None:
        self.events.append(Said(text))

    def note(self, text: str) -> None:
        self.events.append(Noted(text))

    def take_events(self) -> list[ArrivalEvent]:
        """What happened since the last call, in order (take them before ``step``:
        a :class:`SeatSet` must be acted on before our signature leaves)."""
        out, self.events = self.events, []
        return out

    # -- starting ------------------------------------------------------------------

    def host(self, lobby: lobbies.HostLobby) -> None:
        self.lobby, self.game = lobby, lobby.game

    def join(self, lobby: lobbies.JoinerLobby, host_endpoint: str, listed_table: str = "") -> None:
        self.lobby, self.host_endpoint = lobby, host_endpoint
        self._listed_table = listed_table
        self.transport.connect(host_endpoint)

    def serve_spectators(self, lobby: lobbies.HostLobby) -> None:
        """A resumed host's table admits spectators again (the game is under way:
        ``lobby`` holds the genesis, and no genesis round is started for it)."""
        self.lobby, self.game, self._under_way = lobby, lobby.game, True

    def come_back(self, resume: Resume, endpoint: str) -> list[str]:
        """Back at a game under way (``resume``): our seat, a new start counter (on
        disk before any frame of this run leaves, so our peers can tell our frames
        from recordings of an earlier run), the members as the genesis seats them
        at the endpoints last saved (ours where we listen now: another port, if
        `resume --port` said so), and a link to every other seat.  The endpoints."""
        self.seat, self.boot = resume.seat, resume.boot + 1
        endpoints = [*resume.endpoints]
        endpoints[resume.seat] = endpoint
        self.members = [
            lobbies.Member(s.name, s.key, s.chain_head, s.link, where)
            for s, where in zip(resume.ledger.seats, endpoints, strict=True)
        ]
        for i, member in enumerate(self.members):
            if i != resume.seat:
                self.transport.connect(member.endpoint)
        return endpoints

    def feed_spectators(
        self,
        entries: Callable[[], Sequence[bytes]],
        talk: Callable[[], Sequence[bytes]] = lambda: (),
    ) -> None:
        """What our table's spectators pull (gallery.py): ``entries`` returns our
        log as it stands (nothing, for a table that admits none), ``talk`` the
        table's talk as we heard it."""
        gallery = self._gallery()
        if gallery is not None:
            gallery.entries, gallery.talk = entries, talk

    def open_spectators_channel(self, game_id: bytes) -> None:
        """The game ``game_id`` began: a table that lets spectators talk opens
        their channel (gallery.py, net/spectator_talk.py)."""
        gallery = self._gallery()
        if gallery is not None:
            gallery.open_channel(game_id)

    def take_spectators_lines(self) -> list[bytes]:
        """The records of the lines our spectators said since the last call, in
        order: for every seat (the host's peer relays them)."""
        gallery = self._gallery()
        return [] if gallery is None else [record for _, record in gallery.take_spoken()]

    def resume(self, pending: PendingGenesis, now: float) -> None:
        """Back in a genesis round our process left (net/pending_genesis.py)."""
        from p2ptable.replay.genesis import read_genesis

        info = read_genesis(Entry(pending.body, ()))
        self.seat, self.boot, self.game = pending.seat, pending.boot + 1, info.game.name
        self.members = [
            lobbies.Member(s.name, s.key, s.chain_head, s.link, endpoint, s.deck)
            for s, endpoint in zip(info.seats, pending.endpoints, strict=True)
        ]
        self.say("Back at the table: every seat is signing the genesis.")
        self._open_round(pending.body, now)

    # -- frames --------------------------------------------------------------------

    def lobby_frame(self, payload: bytes, address: str, now: float) -> None:
        """The host's lobby takes knocks (it limits them by the sender's address);
        a joiner's takes what its host sends until the genesis round begins.
        Anything else (a stranger writing to our inbox, anything after the round
        began) is counted and dropped: no lobby frame from anyone ends a peer,
        except the host's own refusal or a host that breaks the handshake."""
        lobby = self.lobby
        if isinstance(lobby, lobbies.HostLobby):
            lobby.receive(payload, address, now)
            self._tell_host_lines(lobby)
        elif isinstance(lobby, lobbies.JoinerLobby) and self.genesis_round is None:
            try:
                lobby.receive(payload)
            except lobbies.LobbyIgnored:
                self.ignored_lobby += 1
                return
            if self._listed_table and lobby.table is not None:
                where = self.host_endpoint.removeprefix("tcp://")
                words = picked_mismatch(self._listed_table, where, lobby.table)
                self._listed_table = ""  # said once
                if words:
                    self.say(words)
                    self.note(words)
            if lobby.keep_going and not self._told_keep_going:
                self._told_keep_going = True
                self.say(f"{KEEP_GOING_WORDS}.")
            watchers = tuple(lobby.watchers)
            if lobby.members and (lobby.members != self.members or watchers != self._watchers):
                self.members = list(lobby.members)
                self._watchers = watchers
                names = ", ".join(m.name for m in self.members)
                watching = f"; watching: {', '.join(watchers)}" if watchers else ""
                clock = f"; clock: {lobby.clock} s a decision" if lobby.clock else ""
                talk = "; spectators may talk" if lobby.spectators_talk else ""
                self.say(f"Lobby ({len(self.members)} seated): {names}{watching}{clock}{talk}")
            self._tell_host_did(lobby)
        else:
            self.ignored_lobby += 1
            return
        self._maybe_start_round(now)
        self._tell_roster()

    def _tell_host_did(self, lobby: lobbies.JoinerLobby) -> None:
        """What the host's roster says it did, each said once: who it removed,
        and that it starts short-handed."""
        for name in lobby.removed:
            if name not in self._removed_told:
                self._removed_told.add(name)
                self.say(f"The host removed {name} from the table.")
        if lobby.short is not None and not self._short_told:
            self._short_told = True
            self.say(f"The host starts now with {lobby.short[0]} of {lobby.short[1]} seats.")

    def game_frame(self, payload: bytes, now: float) -> None:
        if self.genesis_round is not None:
            self.genesis_round.receive(payload, now)
        elif len(self._early) < MAX_EARLY_FRAMES and (
            self._early_bytes + len(payload) <= MAX_EARLY_BYTES
        ):
            self._early.append(payload)
            self._early_bytes += len(payload)
        else:
            self.early_dropped += 1  # a flood before we know the table

    def step(self, now: float) -> Entry | None:
        """What the lobby and the round produced, sent; the genesis once complete."""
        lobby = self.lobby
        if isinstance(lobby, lobbies.HostLobby) and self.genesis_round is None:
            lobby.tick(now)
            self._tell_host_lines(lobby)
        elif lobby is not None and self.genesis_round is None:
            lobby.tick(now)
            for line in lobby.take_log():
                self.say(line)
                self.note(line)
        self._tell_roster()
        if isinstance(lobby, lobbies.HostLobby):
            self._send_host_lobby(lobby)
        elif lobby is not None:
            for frame in lobby.take_outgoing():
                self.transport.send(self.host_endpoint, LOBBY, frame)
        round_ = self.genesis_round
        if round_ is None:
            return None
        round_.tick(now)
        for dest, frame in round_.take_outgoing():
            self.send(dest, frame)
        genesis = round_.genesis
        if genesis is None and now >= self._next_waiting_note:
            if self._next_waiting_note:
                waited = now - self._round_started
                names = " and ".join(self.members[s].name for s in round_.missing())
                self.say(f"Still waiting for {names} to sign the genesis ({waited:.0f} s).")
            self._next_waiting_note = now + WAITING_NOTE_EVERY
        return genesis

    def _send_host_lobby(self, lobby: lobbies.HostLobby) -> None:
        for endpoint, frame in lobby.take_outgoing():
            self.transport.reply(endpoint, LOBBY, frame)
        if lobby.gallery is not None:  # answers to spectators: on small queues
            for endpoint, frame in lobby.gallery.take_outgoing():
                self.transport.feed(endpoint, LOBBY, frame)

    def spectators_behind(self, length: int, now: float) -> bool:
        """Whether a spectator still pulling has fewer than ``length`` entries."""
        gallery = self._gallery()
        return gallery is not None and gallery.behind(length, now)

    def spectators_admitted(self) -> bool:
        """Whether our table's gallery holds a spectator now."""
        gallery = self._gallery()
        return gallery is not None and bool(gallery.watchers)

    def _gallery(self) -> Gallery | None:
        """Our table's spectators (a host that admits them), or None."""
        lobby = self.lobby
        return lobby.gallery if isinstance(lobby, lobbies.HostLobby) else None

    def serve(self, now: float) -> None:
        """During the game: the host still answers knocks (a full table) and its
        spectators (gallery.py); nothing here touches the session."""
        lobby = self.lobby
        if not isinstance(lobby, lobbies.HostLobby):
            return
        lobby.tick(now)
        self._tell_host_lines(lobby)
        self._send_host_lobby(lobby)

    def _tell_host_lines(self, lobby: lobbies.HostLobby) -> None:
        """The host's player sees what matters (who joined, counts of strangers);
        the peer's log keeps every line, rejections included (bounded)."""
        for line in lobby.take_screen():
            self.say(line)
        for line in lobby.take_log():
            self.note(line)

    def command(self, line: str, now: float, add_bots: Callable[[int], None] | None = None) -> None:
        """A line our person typed before the game began (net/lobby_commands.py)."""
        said = lobby_commands.run(self.lobby, line, now, add_bots)
        if said is not None:
            self.say(said)
        if isinstance(self.lobby, lobbies.HostLobby):
            self._tell_host_lines(self.lobby)
            self._tell_roster()

    def send(self, dest: int | None, frame: bytes) -> None:
        """A game frame to one seat, or to every other seat (None)."""
        targets = range(len(self.members)) if dest is None else [dest]
        for seat in targets:
            if seat != self.seat:
                self.transport.send(self.members[seat].endpoint, GAME, frame)

    def no_answer(self, waited: float, limit: float) -> bool:
        """A joiner that is not seated in time: the host did not answer its knock,
        or answered and then not its join.  One the host refused for the rate
        (too many join attempts) is told so: LobbyError."""
        lobby = self.lobby
        if not (isinstance(lobby, lobbies.JoinerLobby) and not lobby.seated and waited > limit):
            return False
        if lobby.refusal is not None:
            raise lobbies.LobbyError(lobby.gave_up(waited))
        return True

    def wake_at(self, now: float) -> float:
        """When ``step`` has something to do next: the round's next signature, or
        the lobby's next deadline (a knock again, a ``here``, a silent seat)."""
        if self.genesis_round is not None:
            return self.genesis_round.wake_at(now)
        lobby = self.lobby
        return now + MAX_SLEEP if lobby is None else min(lobby.wake_at(now), now + MAX_SLEEP)

    def _tell_roster(self) -> None:
        lobby = self.lobby
        if isinstance(lobby, lobbies.HostLobby):
            roster = (len(lobby.members), lobby.genesis is not None)
            if roster != self._roster_told:
                self._roster_told = roster
                self.events.append(RosterChanged(lobby))

    def dropped(self) -> int:
        round_dropped = self.genesis_round.dropped if self.genesis_round is not None else 0
        return round_dropped + self.early_dropped

    # -- the round -----------------------------------------------------------------

    def _maybe_start_round(self, now: float) -> None:
        lobby = self.lobby
        body = None if lobby is None else lobby.genesis
        if body is None or self.genesis_round is not None or self._under_way:
            return
        assert lobby is not None
        self.members = list(lobby.members)
        if isinstance(lobby, lobbies.JoinerLobby):
            # We reached the host at the address we were given; its own guess at
            # its address (several interfaces, a host name mapped to loopback)
            # may not be reachable from here.
            host = self.members[0]
            self.members[0] = lobbies.Member(
                host.name, host.key, host.chain, host.link, self.host_endpoint, host.deck
            )
            self.game = lobby.game or ""
        me = self.secrets.key.public
        self.seat = next(i for i, m in enumerate(self.members) if m.key == me)
        self.events.append(SeatSet(body))
        self.say("Table full: every seat is signing the genesis.")
        self._open_round(body, now)

    def _open_round(self, body: bytes, now: float) -> None:
        assert self.seat is not None
        for i, member in enumerate(self.members):
            if i != self.seat:
                self.transport.connect(member.endpoint)
        self.genesis_round = GenesisRound(
            body,
            [m.key for m in self.members],
            [m.link for m in self.members],
            self.seat,
            self.secrets,
            boot_bytes(self.boot),
            now,
        )
        for frame in self._early:
            self.genesis_round.receive(frame, now)
        self._early, self._early_bytes = [], 0
        self._round_started = now
        self._next_waiting_note = now + WAITING_NOTE_EVERY
