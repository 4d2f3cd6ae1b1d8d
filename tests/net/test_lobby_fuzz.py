"""Whatever arrives, a lobby answers with a LobbyError or nothing.

Issue 12: "a hypothesis test that feeds arbitrary bytes to HostLobby.receive /
JoinerLobby.receive and asserts only LobbyError (or nothing) comes out".  The
host never raises at all (it logs); a joiner raises LobbyError (or LobbyIgnored,
a kind of it) and nothing else.  Besides raw bytes, correctly signed frames with
arbitrary fields reach the checks behind the signature, with values now and then
the right ones (the joiner's own SPAKE2 message, a valid endpoint, the table id)
so that the deeper paths run too.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptable.net import lobby
from p2ptable.replay import authoring
from tests.budget import examples

from .lobby_table import host_lobby, joiner


def _open(frame: bytes) -> tuple[str, bytes, dict]:
    return lobby.open_lobby(frame)


# A host with one handshake under way (Ben knocked, was challenged, sent his join).
HOST = host_lobby(3)
BEN = joiner(1, "Ben")
HOST.receive(BEN.outgoing.pop(), "10.0.0.2", 0.0)
BEN.receive(HOST.outgoing.pop()[1])
JOIN = BEN.outgoing.pop()
KNOCK = joiner(2, "Cleo").outgoing[0]
# A joiner that has knocked (FRESH, with the host's real answer) and one that has
# been challenged and waits for rosters (CHALLENGED, with the real full roster).
FRESH = joiner(3, "Dev")
_host = copy.deepcopy(HOST)
_host.receive(FRESH.outgoing[0], "10.0.0.4", 0.0)
CHALLENGE = _host.outgoing.pop()[1]
CHALLENGED = joiner(4, "Eli")
_host2 = host_lobby(2)
_host2.receive(CHALLENGED.outgoing.pop(), "10.0.0.5", 0.0)
CHALLENGED.receive(_host2.outgoing.pop()[1])
_host2.receive(CHALLENGED.outgoing.pop(), "10.0.0.5", 0.0)
ROSTER = _host2.outgoing.pop()[1]
DENIED = lobby.seal_lobby("denied", {"re": FRESH._exchange.message, "reason": "x"}, HOST.me)
REAL = [KNOCK, JOIN, CHALLENGE, ROSTER, DENIED]
STRANGER = authoring.SeatSecrets.from_seed(b"fuzz", 0, 8)
SIGNERS = {"host": HOST.me, "ben": BEN.me, "stranger": STRANGER}

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=12)
    | st.binary(max_size=40)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = [
    "pake", "endpoint", "re", "table", "game", "options", "seats", "proof",
    "name", "chain", "link", "deck", "members", "genesis", "reason",
    "n", "tag", "bind", "wait", "v", "from",
]  # fmt: skip


def likely(name: str) -> st.SearchStrategy:
    """Values that pass the first checks on ``name`` now and then."""
    member_fields = ("name", "key", "chain", "link", "endpoint", "deck")
    members = [m.as_dict() for m in HOST.members]
    right = {
        "pake": st.sampled_from([FRESH._exchange.message, bytes(32), b"\x58" * 32]),
        "re": st.sampled_from([FRESH._exchange.message, CHALLENGED._exchange.message]),
        "endpoint": st.sampled_from(["tcp://10.0.0.2:4000", "tcp://10.0.0.9:1", "bogus"]),
        "table": st.sampled_from([HOST.table, CHALLENGED.table, bytes(16)]),
        "game": st.sampled_from(["pet-quartet", "vorsicht-lehrer", "chess"]),
        "members": st.lists(st.fixed_dictionaries({f: values for f in member_fields}), max_size=3)
        | st.lists(st.sampled_from(members), max_size=4)
        | st.builds(
            lambda i, f, v: [dict(m, **({f: v} if k == i else {})) for k, m in enumerate(members)],
            st.integers(0, 1),
            st.sampled_from(member_fields),
            values,
        ),  # fmt: skip
        "chain": st.binary(min_size=32, max_size=32),
        "link": st.binary(min_size=32, max_size=32),
    }
    return right.get(name, values) | values


@st.composite
def signed_frames(draw: st.DrawFn) -> bytes:
    """A real lobby frame with a few fields changed, dropped or added, or its kind
    changed, signed by the host, a joiner or a stranger."""
    kind, key, data = _open(draw(st.sampled_from(REAL)))
    signer = next((s for s in SIGNERS.values() if s.key.public == key), STRANGER)
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.sampled_from(["set", "drop", "kind", "signer"]))
        if what == "set":
            name = draw(st.sampled_from(FIELDS))
            data = dict(data, **{name: draw(likely(name))})
        elif what == "drop" and data:
            name = draw(st.sampled_from(sorted(data)))
            data = {k: v for k, v in data.items() if k != name}
        elif what == "kind":
            kind = draw(
                st.sampled_from(["knock", "join", "challenge", "roster", "denied", "here", "x"])
            )
        else:
            signer = SIGNERS[draw(st.sampled_from(sorted(SIGNERS)))]
    return lobby.seal_lobby(kind, data, signer)


frames = st.binary(max_size=300) | signed_frames() | st.sampled_from(REAL)
addresses = st.sampled_from(["10.0.0.2", "10.0.0.3", "10.0.0.9", "", "::1"])
SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(st.lists(st.tuples(frames, addresses, st.floats(0, 100)), max_size=6))
def test_the_host_never_raises(arrivals):
    host = copy.deepcopy(HOST)
    for frame, address, now in sorted(arrivals, key=lambda a: a[2]):
        host.receive(frame, address, now)
    assert len(host.members) <= host.seats


@SETTINGS
@given(st.lists(frames, max_size=6), st.booleans())
def test_a_joiner_raises_nothing_but_lobby_errors(arrivals, challenged):
    ben = copy.deepcopy(CHALLENGED if challenged else FRESH)
    for frame in arrivals:
        try:
            ben.receive(frame)
        except lobby.LobbyError:
            pass
