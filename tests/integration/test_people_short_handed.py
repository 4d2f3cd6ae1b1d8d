"""Starting short-handed, after removing a joiner: people on a pty, real processes.

Issue 26: "Start short-handed: the host may start once the game's minimum
number of players is seated ('start now with 3 of 4'), and may remove a joiner
from the lobby before the game begins; both shown to everyone in the lobby."
Its test: "a short-handed start".  A removed joiner "gets a clear message and
exits non-zero".
"""

from __future__ import annotations

from .peers import free_port
from .person import play_together
from .test_people import assert_one_valid_replay, host_args, join_args, peers, people  # noqa: F401 - fixtures


def test_the_host_removes_a_joiner_then_starts_with_two_of_four(tmp_path, peers, people):  # noqa: F811 - fixtures
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 4, port))
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    ana.expect(r"Ben joined \(2/4\)")
    ana.expect("Type 'start' to start now with 2 of 4 seats")
    peers.join("Cleo", port, "--bot", "greedy")
    ana.expect(r"Cleo joined \(3/4\)")
    ben.expect(r"Lobby \(3 seated\): Ana, Ben, Cleo")
    ana.type("remove Cleo")
    ana.expect(r"Cleo was removed from the table \(2/4\)")
    ben.expect("The host removed Cleo from the table.")
    assert peers.wait_all(timeout=30) == {"Cleo": 1}
    assert "the host removed you from the table before the game began" in peers.output("Cleo")
    ana.type("start")
    ana.expect("Starting now with 2 of 4 seats.")
    ben.expect("The host starts now with 2 of 4 seats.")
    assert play_together([ana, ben], timeout=240) > 5
    assert ana.wait() == 0 and ben.wait() == 0
    assert "| final" in ana.text and "| final" in ben.text
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])
