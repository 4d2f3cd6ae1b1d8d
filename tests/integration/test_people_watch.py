"""A person watching a game on a pty: the public screen as the game goes, the
final screen, and Ctrl-C leaving with the replay so far.

Issue 16: "`p2ptable watch` ... shows the public view: never a hand"; "A
spectator that joins late catches up from the start and shows where the game
stands."
"""

from __future__ import annotations

import pytest

from p2ptable.replay.verify import verify_file

from .peers import free_port, wait_for_entries
from .test_people import peers, people  # noqa: F401 - fixtures

HAND_LINE = "Your hand"


@pytest.mark.slow  # test_lan_watch.py has a person watch to the end too; -m slow
def test_a_person_watches_a_game_to_its_end(tmp_path, peers, people):  # noqa: F811
    port = free_port()
    peers.host("Ana", "teachers-pet", 2, port, "--spectators", "--bot", "greedy",
               "--bot-delay", "0.01")  # fmt: skip
    peers.join("Ben", port, "--bot", "random", "--bot-delay", "0.01")
    wait_for_entries(peers.replay("Ana"), 30)  # late: the game is under way
    dana = people("watch", f"127.0.0.1:{port}", "--code", "TST-CDE", "--name", "Dana",
                  "--replay", str(tmp_path / "Dana.p2pt"))  # fmt: skip
    dana.expect("You are watching: no seat, no hand", timeout=60)
    assert "School Rooms" in dana.screen and HAND_LINE not in dana.screen
    assert dana.wait(timeout=120) == 0
    assert "final Pet Points" in dana.text and HAND_LINE not in dana.text
    assert peers.wait_all() == {"Ana": 0, "Ben": 0}
    assert (tmp_path / "Dana.p2pt").read_bytes() == peers.replay("Ana").read_bytes()


def test_ctrl_c_stops_watching_and_keeps_the_replay_so_far(tmp_path, peers, people):  # noqa: F811
    port = free_port()
    peers.host("Ana", "pet-quartet", 2, port, "--spectators", "--bot", "greedy",
               "--bot-delay", "0.02")  # fmt: skip
    peers.join("Ben", port, "--bot", "random", "--bot-delay", "0.02")
    dana = people("watch", f"127.0.0.1:{port}", "--code", "TST-CDE", "--name", "Dana",
                  "--replay", str(tmp_path / "Dana.p2pt"))  # fmt: skip
    dana.expect("You are watching", timeout=60)
    wait_for_entries(tmp_path / "Dana.p2pt", 5)
    dana.ctrl_c()
    assert dana.wait() == 130
    assert "You stopped watching." in dana.text
    assert f"Replay saved to {tmp_path / 'Dana.p2pt'}" in dana.text
    report = verify_file(tmp_path / "Dana.p2pt")
    # an intact prefix: every entry checks, the log just ends before the result
    assert report.error is not None and "ends before the game is over" in report.error["reason"]
    assert peers.wait_all() == {"Ana": 0, "Ben": 0}  # the table did not notice
