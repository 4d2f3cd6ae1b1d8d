"""People at the full-screen table: the real CLI on an 80x24 pty, the screen read
through a terminal emulator (issue 25).

"A person plays each game to the end in an 80x24 terminal and at every choice
sees the board, the scores, their hand and the choice without scrolling"; "the
real CLI on a pty for a person at the host, a joiner, a resumed seat and a
spectator".
"""

from __future__ import annotations

import pytest

from p2ptable.replay.verify import verify_file

from .peers import free_port
from .screen_person import CTRL_C, ENTER, YOUR_TURN, ScreenPerson
from .test_people import CODE, peers  # noqa: F401 - fixtures

# What each game's board pane shows first, so "the board is in view" can be read.
BOARD = {
    "pet-quartet": "Conductors",
    "vorsicht-lehrer": "Pawn",
    "teachers-pet": "Active Teacher",
}
HAND = {
    "pet-quartet": "Your collection",
    "vorsicht-lehrer": "Your hand",
    "teachers-pet": "Your hand",
}


@pytest.fixture
def screens(tmp_path):
    started: list[ScreenPerson] = []

    def start(*args: str) -> ScreenPerson:
        person = ScreenPerson(list(args), tmp_path)
        started.append(person)
        return person

    yield start
    for person in started:
        person.close()


def assert_all_in_view(person: ScreenPerson, game: str) -> None:
    # "Your turn" is the game's word for whose turn it is; the menu comes once the
    # session may move (a resumed seat first hears where the game stands)
    person.expect(r"(?m)^.*\b1\) ", timeout=60)
    person.settle()
    shown = person.display
    for what in (BOARD[game], "Players", HAND[game], YOUR_TURN, "1) "):
        assert what in shown, (what, shown)


# Teacher's Pet, with the longest menus, in the default run; the other two (a
# joiner plays Vorsicht Lehrer! to the end below) with -m slow.
@pytest.mark.parametrize(
    "game",
    [
        pytest.param("pet-quartet", marks=pytest.mark.slow),
        pytest.param("vorsicht-lehrer", marks=pytest.mark.slow),
        "teachers-pet",
    ],
)
def test_a_person_at_the_host_plays_to_the_end_on_80x24(tmp_path, peers, screens, game):  # noqa: F811
    port = free_port()
    replay = tmp_path / "Ana.p2pt"
    ana = screens("host", game, "--seats", "2", "--name", "Ana", "--port", str(port),
                  "--code", CODE, "--advertise", "127.0.0.1", "--replay", str(replay))  # fmt: skip
    # what the others must type is on the full screen, before anyone joined
    ana.expect(f"p2ptable join 127.0.0.1:{port} --code {CODE}")
    peers.join("Ben", port, "--bot", "greedy")
    ana.expect(YOUR_TURN, timeout=60)
    ana.settle()
    assert_all_in_view(ana, game)
    ana.play_turns(2000, timeout=240)
    assert ana.wait() == 0
    assert "final" in ana.text and "Replay saved to" in ana.text
    assert peers.wait_all() == {"Ben": 0}
    assert verify_file(replay).valid


def test_a_joiner_chooses_with_the_arrows_and_leaves_with_ctrl_c_then_resumes(
    tmp_path,
    peers,  # noqa: F811
    screens,
):
    port = free_port()
    peers.host("Ana", "vorsicht-lehrer", 2, port, "--bot", "random")
    replay = tmp_path / "Ben.p2pt"
    ben = screens("join", f"127.0.0.1:{port}", "--code", CODE, "--name", "Ben",
                  "--replay", str(replay))  # fmt: skip
    ben.expect(YOUR_TURN, timeout=60)
    ben.settle()
    assert_all_in_view(ben, "vorsicht-lehrer")
    ben.key(b"\x1b[B", ENTER)  # the second line, by the arrows
    ben.settle()
    assert ben.play_turns(3) == 3
    ben.key(CTRL_C)
    assert ben.wait() == 130
    assert "You left the game." in ben.text
    assert f"p2ptable resume {replay}" in ben.text
    back = screens("resume", str(replay))
    back.expect(YOUR_TURN, timeout=60)
    back.settle()
    assert_all_in_view(back, "vorsicht-lehrer")
    back.key(b"q")  # the leave key asks first
    back.expect("Leave the table?")
    back.key(b"n")
    back.settle()
    assert "Leave the table?" not in back.display
    back.play_turns(2000, timeout=240)
    assert back.wait() == 0
    assert "final" in back.text
    assert peers.wait_all() == {"Ana": 0}
    assert verify_file(replay).valid


def test_a_spectator_watches_to_the_end_on_the_full_screen(tmp_path, peers, screens):  # noqa: F811
    port = free_port()
    peers.host("Ana", "teachers-pet", 2, port, "--spectators", "--bot", "greedy",
               "--bot-delay", "0.01")  # fmt: skip
    peers.join("Ben", port, "--bot", "random", "--bot-delay", "0.01")
    dana = screens("watch", f"127.0.0.1:{port}", "--code", CODE, "--name", "Dana",
                   "--replay", str(tmp_path / "Dana.p2pt"))  # fmt: skip
    dana.expect("You are watching: no seat, no hand", timeout=60)
    dana.expect("Active Teacher")
    dana.expect("Players")  # the panes are drawn as the log comes (a busy machine: later)
    shown = dana.display
    assert "Players" in shown and "Your hand" not in shown and "1) " not in shown
    assert dana.wait(timeout=180) == 0
    assert "final Pet Points" in dana.text and "Replay saved to" in dana.text
    assert peers.wait_all() == {"Ana": 0, "Ben": 0}
    assert (tmp_path / "Dana.p2pt").read_bytes() == peers.replay("Ana").read_bytes()
