"""A host lobby and joiners joined by a list instead of sockets (sans-IO tests)."""

from __future__ import annotations

from p2ptable.net import lobby
from p2ptable.net.endpoints import parse_endpoint
from p2ptable.replay import authoring

CODE = "7KQ-M2X"
HOST_ENDPOINT = "tcp://10.0.0.1:4000"
OPTIONS = {"scoring": "basic", "variant": "standard"}


def host_lobby(seats: int = 3, code: str = CODE, game: str = "pet-quartet") -> lobby.HostLobby:
    me = authoring.SeatSecrets.from_seed(b"lobby", 0, 8)
    options = OPTIONS if game == "pet-quartet" else {"track": "200"}
    return lobby.HostLobby(game, options, seats, code, me, "Ana", HOST_ENDPOINT)


def joiner(n: int, name: str, code: str = CODE, endpoint: str = "") -> lobby.JoinerLobby:
    me = authoring.SeatSecrets.from_seed(b"lobby", n, 8)
    return lobby.JoinerLobby(code, me, name, endpoint or f"tcp://10.0.0.{n + 1}:4000")


def address(j: lobby.JoinerLobby) -> str:
    return parse_endpoint(j.endpoint)[0]


def deliver(host: lobby.HostLobby, j: lobby.JoinerLobby, frame: bytes, now: float = 0.0) -> None:
    """``frame`` reaches the host from the joiner's machine."""
    host.receive(frame, address(j), now)


def answers(host: lobby.HostLobby, endpoint: str) -> list[tuple[str, dict]]:
    """(kind, data) of what the host sent to ``endpoint``, taken off its queue."""
    mine = [frame for target, frame in host.outgoing if target == endpoint]
    host.outgoing[:] = [(t, f) for t, f in host.outgoing if t != endpoint]
    return [(kind, data) for kind, _, data in map(lobby.open_lobby, mine)]


def exchange(host: lobby.HostLobby, j: lobby.JoinerLobby, wire: list, now: float = 0.0) -> None:
    """Run the handshake between one joiner and the host until both are quiet;
    everything sent goes into ``wire`` too."""
    for _ in range(10):
        moved = False
        j.tick(now)  # a seated joiner's `here`, at once after a roster
        for frame in j.outgoing:
            wire.append(frame)
            deliver(host, j, frame, now)
            moved = True
        j.outgoing.clear()
        mine = [frame for target, frame in host.outgoing if target == j.endpoint]
        # What is for the other joiners stays queued.
        host.outgoing[:] = [(t, f) for t, f in host.outgoing if t != j.endpoint]
        for frame in mine:
            wire.append(frame)
            moved = True
            try:
                j.receive(frame)
            except lobby.LobbyIgnored:
                pass  # as the peer does: logged, and joining goes on
        if not moved:
            return


def settle(
    host: lobby.HostLobby, joiners: list, wire: list | None = None, now: float = 0.0
) -> None:
    """Exchange with every joiner in turn until nobody has anything to send (the
    roll call of a full table needs an answer from each)."""
    for _ in range(10):
        for j in joiners:
            exchange(host, j, [] if wire is None else wire, now)
        if not host.outgoing and not any(j.outgoing for j in joiners):
            return


def as_host(host: lobby.HostLobby, j: lobby.JoinerLobby, kind: str, data: dict) -> bytes:
    """A frame the host sends ``j`` after the handshake (a cheating host's, in the
    tests that forge one): bound to ``j``'s handshake and signed by the host."""
    plain = {k: v for k, v in data.items() if k not in ("n", "tag")}
    bound = host._bindings[j.me.key.public].bind(kind, plain)
    return lobby.seal_lobby(kind, bound, host.me)
