"""The host's side of the lobby, sans-IO: answer knocks with the join-code
handshake (within the knock limits, knocks.py), seat who proves the code, take
a seated joiner's frames only bound to its handshake (lobby_binding.py), free a
silent seat, call the roll and propose the genesis once every seat answered the
full roster (net/lobby.py has the theory of operation).  What it produces is
handed out as the session's is (net/session.py): ``take_outgoing`` the frames to
send (endpoint, frame), ``take_screen`` what the host's player should see (who
joined, a counted line about strangers, lobby_tally.py), ``take_log`` every line
for the peer's log."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from p2ptable.games import get_game
from p2ptable.net import join_code
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.net.gallery import JUST_AFTER, gallery_for
from p2ptable.net.handshakes import Handshake, Handshakes
from p2ptable.net.join_code import PakeError
from p2ptable.net.knocks import KNOCK_WINDOW, KnockLimiter
from p2ptable.net.lobby_binding import BIND_VERSION, HOST, Binding, Unbound
from p2ptable.net.lobby_frames import (
    LOG_LINES,
    SILENT_SEAT,
    LobbyError,
    Member,
    _own_endpoint,
    check_host_code,
    genesis_for,
    open_lobby,
    seal_lobby,
)
from p2ptable.net.lobby_messages import (
    Challenge,
    Denied,
    Here,
    Join,
    Knock,
    LobbyKind,
    Roster,
    Watch,
)
from p2ptable.net.lobby_tally import LogLimit, StrangerTally
from p2ptable.net.seat_refusal import OLDER, seat_refusal
from p2ptable.replay import authoring

MAX_REMOVED = 8  # names of removed joiners a roster still says


@dataclass
class HostLobby:
    """The host's side: admits joiners who know the code, until the table is full."""

    game: str
    options: dict
    seats: int
    code: str
    me: authoring.SeatSecrets
    name: str
    endpoint: str
    table: bytes = field(default_factory=lambda: os.urandom(16))
    outgoing: list[tuple[str, bytes]] = field(default_factory=list)  # (endpoint, frame)
    log: list[str] = field(default_factory=list)  # for the peer's log: everything, bounded
    screen: list[str] = field(default_factory=list)  # for the host's player: what matters
    limiter: KnockLimiter = field(default_factory=KnockLimiter)
    tally: StrangerTally = field(default_factory=StrangerTally)
    spectators: bool = False  # host --spectators: watchers may follow the log
    keep_going: bool = False  # host --keep-going: every seat escrows its deck secret
    clock: int | None = None  # host --clock: seconds per decision, in the genesis
    # host --spectators-talk: spectators write in their own channel (in the
    # challenge and the genesis, so every seat agrees to it; net/spectator_talk.py).
    spectators_talk: bool = False
    # A rematch (p2ptable/rematch.py): old seat -> the code derived with it; a
    # knock that says ``again: s`` proves seat s's code instead of the table's.
    again: dict[int, str] = field(default_factory=dict)
    # ... and the last game's seats from the one after its first player: the
    # rematch's first player is the first of them seated (net/rotation.py).
    rotation: tuple[str, ...] = ()
    # Bot peers started beside the host and not seated yet (host --bots, and the
    # lobby's `bots`: lobby_commands.py).
    bots_coming: int = 0

    def __post_init__(self) -> None:
        check_host_code(self.code)
        _own_endpoint(self.endpoint)
        if self.spectators_talk and not self.spectators:
            raise LobbyError("--spectators-talk needs --spectators: no one watches to talk")
        self.gallery = (
            gallery_for(self.me, self.table, seal_lobby, self.spectators_talk)
            if self.spectators
            else None
        )
        self._pending = Handshakes(self.tally)  # knocks answered, their join to come
        self._log_limit = LogLimit(LOG_LINES, KNOCK_WINDOW)
        self.members = [Member.own(self.me, self.name, self.endpoint, self.table)]
        self.genesis: bytes | None = None
        self._heard: dict[bytes, float] = {}  # a seated joiner's key -> last frame
        self._bindings: dict[bytes, Binding] = {}  # a seated joiner's key -> its handshake's
        self.unbound: dict[str, int] = {}  # frames refused as not bound, by why
        self._answered: set[bytes] = set()  # joiners whose `here` names the full roster
        self._version = 0  # the roster's number: it grows with every change
        # Start short-handed and remove a joiner (start_now, remove): the seats
        # the table was opened with, and the keys and names the host removed.
        self.opened_with = self.seats
        self._removed: set[bytes] = set()
        self.removed: list[str] = []

    @property
    def full(self) -> bool:
        return len(self.members) == self.seats

    @property
    def pending(self) -> int:
        """Handshakes waiting for their join (bounded by MAX_PENDING)."""
        return len(self._pending)

    def receive(self, frame: bytes, address: str, now: float) -> None:
        """A lobby frame that came in from ``address`` (the sender's IP address, as
        its connection shows it) at ``now`` (seconds, any monotonic clock).  What
        to send and what to tell are handed out (``take_outgoing``, ``take_screen``,
        ``take_log``); nothing a sender does raises."""
        try:
            kind, key, data = open_lobby(frame)
            if self.gallery is not None and self.gallery.receive(key, kind, data, address, now):
                return
            bound = self._bindings.get(key)
            if bound is not None and kind == LobbyKind.HERE:
                # Only a frame bound to its handshake says the seat is still
                # there: a replayed one would keep a dead seat (lobby_binding.py).
                bound.check(kind, data, address)
                if key in self._heard:
                    self._heard[key] = now
                return self._here(key, Here.parse(data))
            if kind == LobbyKind.KNOCK:
                self._knock(key, Knock.parse(data), address, now)
            elif kind == LobbyKind.JOIN:
                self._join(key, Join.parse(data), now)
            elif kind == LobbyKind.WATCH:
                self._watch(key, Watch.parse(data), now)
            else:
                raise LobbyError(f"unexpected lobby message {kind!r}")
        except Unbound as exc:
            self.unbound[exc.why] = self.unbound.get(exc.why, 0) + 1
            self.tally.replay(address, now)
            where = address or "an unknown address"
            self._note(f"refused a lobby message from {where}: not bound to its handshake "
                       f"({exc.why})", now)  # fmt: skip
        except LobbyError as exc:
            self.tally.bad_frame(address, now)
            self._note(
                f"rejected a lobby message from {address or 'an unknown address'}: {exc}", now
            )

    def take_outgoing(self) -> list[tuple[str, bytes]]:
        """Frames to send, in order: (the endpoint to answer at, the frame)."""
        out, self.outgoing = self.outgoing, []
        return out

    def take_screen(self) -> list[str]:
        """Lines for the host's player (each is in ``take_log`` too)."""
        out, self.screen = self.screen, []
        return out

    def take_log(self) -> list[str]:
        """Lines for the peer's log: everything, bounded."""
        out, self.log = self.log, []
        return out

    def _tell(self, line: str) -> None:
        """A line for the host's player (and the peer's log)."""
        self.screen.append(line)
        self.log.append(line)

    def _note(self, line: str, now: float) -> None:
        """Log ``line``, at most LOG_LINES a minute: a flood must not flood the screen."""
        self.log.extend(self._log_limit.lines(line, now))

    def _deny(
        self,
        endpoint: str,
        message: bytes,
        reason: str,
        now: float,
        wait: int | None = None,
        shown: bool = False,
    ) -> None:
        # With ``wait``: refused for the rate, the joiner knocks again then.
        denied = Denied(message, reason, wait)
        self.outgoing.append((endpoint, seal_lobby(denied.kind, denied.to_data(), self.me)))
        # Only someone who proved the code is news for the screen (a taken name);
        # what strangers cause is counted there (lobby_tally.py), and in the
        # peer's log at most LOG_LINES lines a minute.
        if shown:
            self._tell(f"denied a joiner: {reason}")
        else:
            self._note(f"denied a joiner: {reason}", now)

    def _deny_knock(self, knock: tuple, now: float, reason: str, wait: int | None = None) -> None:
        """A knock (key, endpoint, X, address) refused before any SPAKE2: told
        why, at most once a second per knocker (each denial costs a signature:
        knocks.py), else only counted."""
        key, endpoint, message, address = knock
        if self.limiter.may_tell(address, now, key):
            self._deny(endpoint, message, reason, now, wait)

    def _knock(self, key: bytes, knock_: Knock, address: str, now: float) -> None:
        endpoint, message = knock_.endpoint, knock_.pake
        try:
            ip, _ = parse_endpoint(endpoint)
        except ValueError as exc:
            raise LobbyError(f"knock with a bad endpoint: {exc}") from None
        assert isinstance(endpoint, str)  # parse_endpoint takes nothing else
        if ip != address:
            # We answer at the endpoint: never point a socket at a machine other
            # than the one that knocked.
            raise LobbyError(f"knock from {address} names another machine ({endpoint})")
        if not (isinstance(message, bytes) and len(message) == join_code.ELEMENT):
            raise LobbyError(f"knock without a {join_code.ELEMENT}-byte SPAKE2 message")
        if any(m.key == key for m in self.members):
            raise LobbyError("knock from a key already at the table")
        if key in self._removed:
            # Removed before the game: its key never sits here again (a person
            # who is welcome after all joins again, as a new peer).
            raise LobbyError("knock from a key the host removed")
        held = self._pending.get(key)
        if held is not None and held.message == message:
            raise LobbyError("the same knock again")  # a replay: the first stands
        watch = knock_.watch
        knock = (key, endpoint, message, address)
        if watch and self.gallery is None:
            reason = "this table admits no spectators"
            return self._deny_knock(knock, now, reason)
        if self.full and not watch:
            # No guess (no SPAKE2 is run), so it does not count against the
            # address: a player whose seat is about to be freed tries again.
            return self._deny_knock(knock, now, "the table is full")
        refusal = self.limiter.check(address, now)
        if refusal is not None:
            self.tally.rate(address, now)
            return self._deny_knock(knock, now, refusal.reason, refusal.wait)
        self._pending.forget(now)
        again = knock_.again
        code = self.code if again is None else self.again.get(again, self.code)
        exchange = join_code.CodeExchange(code, host=True)
        try:
            spake_key = exchange.finish(message)
        except PakeError as exc:
            raise LobbyError(f"knock: {exc}") from None
        confirm = join_code.confirmation_key(spake_key, self.table, self.me.key.public, key)
        self._pending.open(key, Handshake(message, confirm, endpoint, address, now, watch), now)
        reply = Challenge(
            message,
            self.table,
            self.game,
            self.options,
            self.seats,
            exchange.message,
            join_code.proof(confirm, b"host"),
            BIND_VERSION,  # what follows the handshake is bound to it
            self.gallery is not None,
            self.keep_going,
            self.clock,
            self.spectators_talk,
            self.rotation,
        )
        self.outgoing.append((endpoint, seal_lobby(reply.kind, reply.to_data(), self.me)))

    def _join(self, key: bytes, data: Join, now: float) -> None:
        pending = self._pending.take(key, now)
        if pending is None:
            raise LobbyError("join without a knock")
        endpoint, message = pending.endpoint, pending.message
        if pending.watch:
            return self._deny(endpoint, message, "a spectator's knock takes no seat", now)
        if not join_code.proof_matches(data.proof, pending.confirm, b"joiner"):
            self.tally.wrong_code(pending.address, now)
            return self._deny(endpoint, message, "wrong join code", now)
        # It proved the code: no guess, whatever comes next (a taken name, a full
        # table), so it does not count against its address's knocks.
        self.limiter.refund(pending.address, pending.since)
        refusal = seat_refusal(self.members, self.table, self.full, key, data, endpoint)
        if refusal is not None:
            return self._deny(endpoint, message, refusal, now, shown=True)
        self._seat(key, data, pending, now)

    def _seat(self, key: bytes, data: Join, pending: Handshake, now: float) -> None:
        """Seat a joiner whose join ``_seat_refusal`` took, and tell the table."""
        name, chain, link, deck = data.name, data.chain, data.link, data.deck
        assert isinstance(name, str) and isinstance(chain, bytes) and isinstance(link, bytes)
        assert deck is None or isinstance(deck, dict)  # parse_deck_key took it
        self.members.append(Member(name, key, chain, link, pending.endpoint, deck))
        if self.bots_coming and name.endswith(" (bot)"):  # one of the bots started
            self.bots_coming -= 1
        self._heard[key] = now
        self._bindings[key] = Binding(pending.confirm, pending.message, HOST, pending.address)
        self._tell(f"{name} joined ({len(self.members)}/{self.seats})")
        # What the host may type, while seats are left that nobody is coming for
        # (`play`, whose seats are all bots, never needs it).
        free = self.seats - len(self.members) - self.bots_coming
        if free > 0 and len(self.members) >= get_game(self.game).min_seats:
            self._tell(
                f"Type 'start' to start now with {len(self.members)} of {self.seats} "
                "seats, 'bots' to fill the free seats with bots, or 'remove NAME' to "
                "remove a joiner."
            )
        if self.full:
            # Whoever is in the middle of a handshake would wait for ever for an
            # answer to its join: tell it now.
            for other in self._pending.close_seats():
                self._deny(other.endpoint, other.message, "the table is full", now)
            self._answered.clear()  # the roll call (module docstring)
        self._send_roster()

    def _watch(self, key: bytes, data: Watch, now: float) -> None:
        """A spectator that knocked with ``watch`` proves the code and is admitted
        to the gallery (gallery.py): it takes no seat and signs nothing."""
        pending = self._pending.take(key, now)
        if pending is None or self.gallery is None:
            raise LobbyError("watch without a spectator's knock")
        endpoint, message = pending.endpoint, pending.message
        if not pending.watch:
            return self._deny(endpoint, message, "a player's knock cannot watch", now)
        if not join_code.proof_matches(data.proof, pending.confirm, b"joiner"):
            self.tally.wrong_code(pending.address, now)
            return self._deny(endpoint, message, "wrong join code", now)
        self.limiter.refund(pending.address, pending.since)
        if data.bind != BIND_VERSION:
            return self._deny(endpoint, message, OLDER, now, shown=True)
        name = data.name
        refusal = self.gallery.refusal(name, endpoint, [m.name for m in self.members])
        if refusal is not None:
            return self._deny(endpoint, message, refusal, now, shown=True)
        assert isinstance(name, str)
        binding = Binding(pending.confirm, message, HOST, pending.address)
        self.gallery.admit(key, name, endpoint, binding, [m.name for m in self.members], now)
        self._take_gallery_log()
        if self.genesis is None:
            self._send_roster()  # the seated see who watches

    def _here(self, key: bytes, data: Here) -> None:
        if not self.full or self.genesis is not None or data.v != self._version:
            return
        self._answered.add(key)
        if len(self._answered) == self.seats - 1:
            self.genesis = genesis_for(
                self.game,
                self.options,
                self.members,
                self.me.chain.length,
                self.table,
                self.keep_going,
                self.clock,
                self.spectators_talk,
                self.rotation,
            )
            self._heard.clear()  # from here on the genesis round waits for every seat
            self._send_roster()

    # -- the host's commands in the lobby (net/lobby_commands.py) ----------------

    def start_now(self, now: float) -> None:
        """Start with the seats taken now (at least the game's minimum): the table
        shrinks to them, and the roll call of a full table begins (module
        docstring of net/lobby.py).  The words for the host; LobbyError if not."""
        if self.genesis is not None:
            raise LobbyError("the game is already starting")
        least = get_game(self.game).min_seats
        taken = len(self.members)
        if taken < least:
            raise LobbyError(f"{taken} seated: the game takes at least {least} players")
        if self.full:
            raise LobbyError("every seat is taken: the game starts by itself")
        self.seats = taken
        for other in self._pending.close_seats():  # a handshake under way: no seat now
            self._deny(other.endpoint, other.message, "the host started the game", now)
        self._answered.clear()
        self._tell(f"Starting now with {taken} of {self.opened_with} seats.")
        self._send_roster()

    def remove(self, name: str) -> None:
        """Remove the joiner called ``name`` (any case) before the game begins:
        it is told (a last roster, bound to its handshake, that names it
        removed), its binding goes, so nothing it sent under that handshake is
        taken again, and its key is refused from then on."""
        if self.genesis is not None:
            raise LobbyError("the game is already starting: nobody can be removed now")
        found = [m for m in self.members[1:] if m.name.casefold() == name.casefold()]
        if not found:
            seated = ", ".join(m.name for m in self.members[1:]) or "nobody"
            raise LobbyError(f"nobody called {name!r} has joined (joined: {seated})")
        (member,) = found
        self._removed.add(member.key)
        self.removed = [*self.removed, member.name][-MAX_REMOVED:]
        self._drop([member], lambda m, seated: f"{m.name} was removed from the table ({seated})")

    def tick(self, now: float) -> None:
        """Free the seat of a joiner we have not heard from for SILENT_SEAT
        seconds, before the genesis (a dead process would hold it for good: the
        genesis needs every seat's signature)."""
        if self.gallery is not None:
            self.gallery.tick(now)
            self._take_gallery_log()
        self._pending.forget(now)  # counts the stranger's handshakes that came to nothing
        line = self.tally.summary(now)
        if line is not None:
            self._tell(line)
        if self.genesis is not None:
            return
        gone = [m for m in self.members[1:] if now - self._heard.get(m.key, now) > SILENT_SEAT]
        if not gone:
            return
        self._drop(
            gone, lambda m, seated: f"{m.name} left the table (no answer for {SILENT_SEAT:.0f} s) "
            f"({seated})"
        )  # fmt: skip

    def _drop(self, gone: list[Member], words: Callable[[Member, str], str]) -> None:
        """Take ``gone`` out of the lobby, each told the table in ``words``.  The
        last roster goes to them too (if a freed seat's process lives after all,
        it learns to join again; a removed one, that it was removed); then their
        bindings go, so nothing sent under those handshakes is taken again."""
        for member in gone:
            self.members.remove(member)
            self._heard.pop(member.key, None)
            self._answered.discard(member.key)
            self._tell(words(member, f"{len(self.members)}/{self.seats}"))
        self._send_roster(also=gone)
        for member in gone:
            del self._bindings[member.key]

    def wake_at(self, now: float) -> float:
        """When :meth:`tick` has something to do next, if nothing comes before."""
        wake = min(self._pending.wake_at(), self.tally.wake_at())
        if self.gallery is not None:
            wake = min(wake, self.gallery.wake_at())
        heard = [self._heard[m.key] for m in self.members[1:] if m.key in self._heard]
        if self.genesis is None and heard:
            wake = min(wake, min(heard) + SILENT_SEAT + JUST_AFTER)
        return wake

    def _take_gallery_log(self) -> None:
        assert self.gallery is not None
        for line in self.gallery.take_log():
            self._tell(line)

    def _send_roster(self, also: list[Member] | None = None) -> None:
        """The roster to every admitted joiner (and ``also`` to the freed), each
        copy bound to that joiner's handshake."""
        self._version += 1
        # Said to everyone in the lobby: who the host removed, and that it
        # started short-handed.
        roster = Roster(
            self.table,
            tuple(self.members),
            self.genesis or b"",
            self._version,
            tuple(self.gallery.names()) if self.gallery is not None else (),
            tuple(self.removed),
            (self.seats, self.opened_with) if self.seats < self.opened_with else None,
        ).to_data()
        for member in (*self.members[1:], *(also or ())):
            bound = self._bindings[member.key].bind(LobbyKind.ROSTER, roster)
            self.outgoing.append((member.endpoint, seal_lobby(LobbyKind.ROSTER, bound, self.me)))
