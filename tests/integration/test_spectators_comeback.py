"""A spectator follows a host that was killed and resumed: real processes on
127.0.0.1 (the sans-IO side is tests/net/test_spectator_comeback.py).

Before: "a spectator follows the host's peer only: if the host's process stops
or is resumed (a resumed host runs no lobby), its spectators lose the feed."
Now the resumed host admits spectators again with its kept code, on its port,
and the spectator proves the code again and goes on where it was: its replay
ends byte for byte the seats'.
"""

from __future__ import annotations

from p2ptable.replay.verify import verify_file

from .peers import Peers, entries_in, free_port, wait_for_entries
from .test_spectators_live import peers, watcher  # noqa: F401 - the fixture

NAMES = ["Ana", "Ben", "Cleo"]
BOTS = ("--bot", "random", "--bot-delay", "0.02")


def test_a_spectator_follows_its_host_through_a_kill_and_a_resume(peers: Peers):  # noqa: F811
    port = free_port()
    peers.host("Ana", "vorsicht-lehrer", 3, port, "--spectators", *BOTS)
    for name in NAMES[1:]:
        peers.join(name, port, *BOTS)
    watcher(peers, "Wally", port)
    wait_for_entries(peers.replay("Wally"), 30)
    peers.kill("Ana")
    seen = entries_in(peers.replay("Wally"))
    peers.start("Ana", "resume", str(peers.replay("Ana")), "--quiet", *BOTS)
    codes = peers.wait_all()
    outputs = {n: peers.output(n)[-600:] for n in codes}
    assert all(code == 0 for code in codes.values()), (codes, outputs)
    blobs = {n: peers.replay(n).read_bytes() for n in [*NAMES, "Wally"]}
    assert len(set(blobs.values())) == 1, "replays differ"
    assert entries_in(peers.replay("Wally")) > seen + 10  # it went on after the kill
    report = verify_file(peers.replay("Wally"))
    assert report.valid and report.audited, report.error
