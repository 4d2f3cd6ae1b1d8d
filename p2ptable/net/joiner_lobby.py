"""A joiner's side of the lobby, sans-IO: knock, check that the host knows the
code, join, and follow the roster to the genesis; a spectator proves the code the
same way and takes no seat (net/lobby.py has the theory of operation).  A knock
refused for the rate is knocked again when the host says, one with no answer
after KNOCK_AGAIN seconds; the host's frames after the handshake are taken only
bound to it, and ours are bound too (lobby_binding.py).  What it produces is
handed out as the session's is (net/session.py): ``take_outgoing`` the frames
for the host, ``take_log`` lines for the person."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2ptable.net import join_code
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.net.join_code import PakeError
from p2ptable.net.lobby_binding import BIND_VERSION, JOINER, Binding, Unbound
from p2ptable.net.lobby_frames import (
    HERE_EVERY,
    KNOCK_AGAIN,
    LobbyError,
    LobbyIgnored,
    Member,
    WrongCode,
    _hidden_hands,
    _own_endpoint,
    genesis_for,
    normalize_code,
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
from p2ptable.replay import authoring
from p2ptable.replay.sealed_book import parse_deck_key

# A rematch's joiner knocks before the host may have opened the table again:
# its knocks wait in the link's queue until then, so it knocks less often
# (the host answers 5 a minute from one address, net/knocks.py).
AGAIN_EVERY = 10.0
MAX_WAIT = 3600  # seconds: a longer wait in a denial is taken as a plain refusal


@dataclass
class JoinerLobby:
    """A joiner's side: knock, check the host knows the code, join, follow the roster."""

    code: str
    me: authoring.SeatSecrets
    name: str
    endpoint: str
    outgoing: list[bytes] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    watch: bool = False  # a spectator (gallery.py): proves the code, takes no seat
    again: int | None = None  # a rematch: our old seat, whose derived code we prove
    # ... and the rotation our last game gives it (net/rotation.py): a host
    # that says another is refused.
    rotation: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        normalize_code(self.code)
        _own_endpoint(self.endpoint)
        self._exchange = join_code.CodeExchange(self.code, host=False)
        self.spectators = False  # the host admits spectators (its challenge says)
        self.watchers: list[str] = []  # who watches, as the host's roster says
        # What the host's roster says it did: the joiners it removed, and
        # (seats, opened with) once it started short-handed.
        self.removed: list[str] = []
        self.short: tuple[int, int] | None = None
        self.watching: dict | None = None  # a spectator admitted: the host's welcome
        self.host_key: bytes | None = None
        self.table: bytes | None = None
        self.game: str | None = None
        self.options: dict = {}
        self.keep_going = False  # the host's --keep-going, from its challenge
        self.clock: int | None = None  # the table's seconds per decision, if it has a clock
        self.spectators_talk = False  # the host's --spectators-talk, from its challenge
        self.members: list[Member] = []
        self.genesis: bytes | None = None
        self._version = 0  # the number of the last roster taken
        self._next_here = 0.0
        # Refused for the rate: the host's reason (for the screen, and the words
        # we give up with), and how long it told us to wait.
        self.refusal: str | None = None
        self.binding: Binding | None = None  # once the host proved the code
        self._wait: float | None = None
        self._knock_at: float | None = None  # when to knock again if nothing came
        self._knock()

    def _knock(self) -> None:
        """A knock with a fresh SPAKE2 message (one run per knock, as the host's)."""
        self._exchange = join_code.CodeExchange(self.code, host=False)
        knock = Knock(self._exchange.message, self.endpoint, self.watch, self.again)
        self.outgoing.append(seal_lobby(knock.kind, knock.to_data(), self.me))

    def take_outgoing(self) -> list[bytes]:
        """Frames for the host, in order."""
        out, self.outgoing = self.outgoing, []
        return out

    def take_log(self) -> list[str]:
        """Lines for the person (and the peer's log)."""
        out, self.log = self.log, []
        return out

    @property
    def seated(self) -> bool:
        return any(m.key == self.me.key.public for m in self.members)

    def tick(self, now: float) -> None:
        """Not answered: knock again in time (when the host said, or after
        KNOCK_AGAIN seconds of silence).  Seated and waiting for the table to
        fill: tell the host we are here."""
        if self.host_key is None:
            if self._wait is not None:  # a denial said how long: from now
                self._knock_at, self._wait = now + self._wait, None
            elif self._knock_at is None:
                self._knock_at = now + self._every
            if now >= self._knock_at:
                self._knock_at = now + self._every
                self._knock()
            return
        if self.seated and self.genesis is None and now >= self._next_here:
            self._next_here = now + HERE_EVERY
            self.outgoing.append(self.seal_bound(LobbyKind.HERE, Here(self._version).to_data()))

    @property
    def _every(self) -> float:
        return KNOCK_AGAIN if self.again is None else AGAIN_EVERY

    def wake_at(self, now: float) -> float:
        """When ``tick`` has something to do next, if nothing comes before."""
        if self.host_key is None:
            if self._wait is not None or self._knock_at is None:
                return now  # a deadline to set (tick sets it)
            return self._knock_at
        if self.seated and self.genesis is None:
            return self._next_here
        return float("inf")

    def seal_bound(self, kind: str, data: dict) -> bytes:
        """A frame after the handshake: bound to it (lobby_binding.py) and signed."""
        assert self.binding is not None, "no handshake yet"
        return seal_lobby(kind, self.binding.bind(kind, data), self.me)

    def check_bound(self, kind: str, data: dict) -> None:
        """LobbyIgnored unless the host's frame is bound to our handshake (a
        replay, or one made for another joiner, is dropped)."""
        if self.binding is None:
            raise LobbyIgnored(f"a {kind} before the host proved the code")
        try:
            self.binding.check(kind, data)
        except Unbound as exc:
            raise LobbyIgnored(f"a {kind} not bound to our handshake ({exc.why})") from None

    def receive(self, frame: bytes) -> None:
        """Handle a frame that came to our inbox on the lobby channel: LobbyError
        when joining cannot succeed, LobbyIgnored for a frame to drop and log.

        Anyone can reach our inbox, so only the host can stop us: a frame that
        does not open, is not signed by the host, or answers another knock is
        ignored."""
        try:
            kind, key, data = open_lobby(frame)
        except LobbyError as exc:
            raise LobbyIgnored(str(exc)) from None
        if self.host_key is not None and key != self.host_key:
            raise LobbyIgnored("a lobby message not signed by the host")
        if kind in (LobbyKind.CHALLENGE, LobbyKind.DENIED) and data.get("re") != (
            self._exchange.message
        ):
            raise LobbyIgnored(f"a {kind} for another knock")
        if kind == LobbyKind.DENIED:
            return self._denied(Denied.parse(data))
        if kind == LobbyKind.CHALLENGE:
            if self.host_key is not None:
                raise LobbyIgnored("a second challenge")
            return self._challenge(key, Challenge.parse(data))
        if kind == LobbyKind.ROSTER:
            if key != self.host_key:
                raise LobbyIgnored("a roster before the host proved the code")
            self.check_bound(kind, data)
            if self.genesis is not None:
                raise LobbyIgnored("a roster after the genesis")
            return self._roster(Roster.parse(data))
        if kind == LobbyKind.WATCHING and self.watch:
            if key != self.host_key or data.get("table") != self.table:
                raise LobbyIgnored("a welcome before the host proved the code")
            self.check_bound(kind, data)
            self.watching = data
            return None
        raise LobbyIgnored(f"unexpected lobby message {kind!r}")

    def _denied(self, denied: Denied) -> None:
        """The host refused us: the end, unless it is for now (the rate, or a
        rematch's table not open again yet)."""
        if self.seated:
            raise LobbyIgnored("a denial after we were seated")
        wait = denied.wait
        if self.host_key is None and wait is not None and 0 < wait <= MAX_WAIT:
            return self._refused(denied.reason, wait)
        if self.host_key is None and self.again is not None:
            # The old game's peer of the host, still there, or a table not
            # yet opened again: a rematch's joiner waits for the host.
            self._wait = AGAIN_EVERY
            return None
        raise LobbyError(f"the host refused: {denied.reason}")

    def _refused(self, reason: str, wait: int) -> None:
        """Refused for the rate (strangers knocking, or our own mistyped codes):
        not the end, we knock again when the host says."""
        what = reason.split("; try again")[0][:200]
        self.refusal = f"{what}; try again in {wait} s"
        self._wait = wait
        self.log.append(f"The host is refusing knocks for now: {what}; knocking again in {wait} s.")

    def gave_up(self, waited: float) -> str:
        """What to tell the person when we give up, refused for the rate."""
        return (
            f"the host is refusing knocks for now ({self.refusal}): gave up after "
            f"{waited:.0f} s. Someone may be guessing the join code; try again in a while, "
            "or ask the host"
        )

    def _challenge(self, key: bytes, challenge: Challenge) -> None:
        try:
            spake_key = self._exchange.finish(challenge.pake)
        except PakeError as exc:
            raise LobbyError(f"malformed challenge from the host: {exc}") from None
        table = challenge.table
        confirm = join_code.confirmation_key(spake_key, table, key, self.me.key.public)
        if not join_code.proof_matches(challenge.proof, confirm, b"host"):
            raise WrongCode(
                "wrong join code: it does not match the table's (check what the host printed)"
            )
        if challenge.bind != BIND_VERSION:
            raise LobbyError(
                "the host runs an older p2ptable (its lobby frames are not bound to the "
                "handshake): the host must update p2ptable"
            )
        self.binding = Binding(confirm, self._exchange.message, JOINER)
        # From here on the host has proved the code: what it says is the table's.
        self.refusal = None
        if self.again is not None and challenge.rotation and challenge.rotation != self.rotation:
            # The host would pick who plays first: our own replay says who does.
            raise LobbyError(
                "the host's rematch does not give the first move to the player after "
                "the last game's first player, as our replay of it says"
            )
        self.host_key, self.table = key, table
        self.game, self.options = challenge.game, challenge.options
        self.clock, self.rotation = challenge.clock, challenge.rotation
        self.spectators = challenge.spectators
        self.keep_going = challenge.keep_going
        self.spectators_talk = challenge.spectators and challenge.spectators_talk
        proof = join_code.proof(confirm, b"joiner")
        answer: Join | Watch
        if self.watch:
            answer = Watch(proof, BIND_VERSION, self.name)
        else:
            deck = self.me.deck_key(table)
            answer = Join(
                proof, BIND_VERSION, self.name, self.me.chain.head, self.me.link_public, deck
            )
        self.outgoing.append(seal_lobby(answer.kind, answer.to_data(), self.me))

    def _roster(self, roster: Roster) -> None:
        """A newer roster of our table (LobbyIgnored if not: it may be a stale
        copy): checked, taken, answered; its genesis once every seat answered."""
        if roster.table != self.table:
            raise LobbyIgnored("a roster for another table")
        if roster.v <= self._version:
            # Each roster has a number; one that went by another link may come late.
            raise LobbyIgnored("an older roster")
        members = list(roster.members)
        self.removed = list(roster.removed)  # for the screen only, like the watchers
        if roster.short is not None:
            self.short = roster.short
        if self.seated and not any(m.key == self.me.key.public for m in members):
            if self.name in self.removed:
                raise LobbyError("the host removed you from the table before the game began")
        self._check_our_entry(members)
        self._check_seats(members)
        self.members = members
        self._version = roster.v
        self._next_here = 0.0  # answer this roster at once (the host's roll call)
        self.watchers = list(roster.watchers)
        if roster.genesis:
            expected = genesis_for(
                self.game or "",
                self.options,
                members,
                self.me.chain.length,
                self.table or b"",
                self.keep_going,
                self.clock,
                self.spectators_talk,
                self.rotation,
            )
            if roster.genesis != expected:
                raise LobbyError("the host's genesis does not match the roster")
            self.genesis = expected

    def _check_our_entry(self, members: list[Member]) -> None:
        """The host first, and us exactly as we joined (or freed: LobbyError)."""
        if not members or members[0].key != self.host_key:
            raise LobbyError("the host's roster does not seat the host first")
        ours = [m for m in members if m.key == self.me.key.public]
        if not ours and self.seated:
            raise LobbyError("the host freed our seat (it did not hear from us): join again")
        me = Member.own(self.me, self.name, self.endpoint, self.table or b"")
        if ours != [me]:
            # A host that swaps our chain head or link key for its own would know
            # our random contributions: never sign a roster that changed our entry.
            raise LobbyError("the host's roster does not list us as we joined")

    def _check_seats(self, members: list[Member]) -> None:
        """Every seat's endpoint usable and its own, every deck key one our ledger
        takes (LobbyError: never sign a genesis our own ledger would refuse)."""
        for m in members:
            try:
                parse_endpoint(m.endpoint)
            except ValueError as exc:
                # Every seat connects to every endpoint in the roster.
                why = f"the host's roster has a bad endpoint for {m.name}: {exc}"
                raise LobbyError(why) from None
        if len({m.endpoint for m in members}) != len(members):
            raise LobbyError("the host's roster lists one endpoint for two seats")
        if not _hidden_hands(self.game or ""):
            return
        for m in members:
            try:
                parse_deck_key(m.deck, self.table or b"", m.key)
            except ValueError as exc:
                why = f"the host's roster has a bad deck key for {m.name}: {exc}"
                raise LobbyError(why) from None
