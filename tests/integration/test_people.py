"""People at every kind of seat: real processes on 127.0.0.1, typed into on a pty.

Issue 11: "a person who joins a table with `p2ptable join` can never make a
move. Typing `1` on their turn redraws the same screen and nothing is sent." and
"Build a small test helper that runs a real `p2ptable` process on a
pseudo-terminal ..., reads its screen and answers its prompts. With it, as
integration tests with real processes on 127.0.0.1: a person hosts and a bot
joins; a bot hosts and a person joins; a 3-seat table with two people and a bot;
both games. Each game ends, every process exits 0, all replays are
byte-identical and verify; a person presses Ctrl-C mid-game, then `p2ptable
resume` and finishes; `play GAME --bots 2` typed by a person, to the end."

The person here always types the first choice of the menu: every game's first
legal action keeps the game going to its end (the playout tests prove every
playout ends), and it is what a hurried person does.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from p2ptable.replay.verify import verify_file

from .peers import Peers, entries_in, free_port
from .person import Person, play_together

CODE = "TST-CDE"


@pytest.fixture
def peers(tmp_path):
    group = Peers(tmp_path)
    yield group
    group.close()


@pytest.fixture
def people(tmp_path):
    started: list[Person] = []

    def start(*args: str) -> Person:
        person = Person(list(args), tmp_path)
        started.append(person)
        return person

    yield start
    for person in started:
        person.close()


def host_args(tmp: Path, name: str, game: str, seats: int, port: int) -> list[str]:
    return [
        "host", game, "--seats", str(seats), "--name", name, "--port", str(port),
        "--code", CODE, "--advertise", "127.0.0.1", "--replay", str(tmp / f"{name}.p2pt"),
    ]  # fmt: skip


def join_args(tmp: Path, name: str, port: int) -> list[str]:
    return [
        "join", f"127.0.0.1:{port}", "--code", CODE, "--name", name,
        "--replay", str(tmp / f"{name}.p2pt"),
    ]  # fmt: skip


def assert_one_valid_replay(tmp: Path, names: list[str]) -> None:
    blobs = {name: (tmp / f"{name}.p2pt").read_bytes() for name in names}
    assert len(set(blobs.values())) == 1, "replays differ"
    report = verify_file(tmp / f"{names[0]}.p2pt")
    assert report.valid and report.result is not None, report.error


def test_a_person_hosts_and_a_bot_joins(tmp_path, peers, people):
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 2, port))
    ana.expect(f"p2ptable join 127.0.0.1:{port} --code {CODE}")
    peers.join("Ben", port, "--bot", "greedy")
    assert ana.play() > 5
    assert ana.wait() == 0
    assert "| final " in ana.text and "Replay saved to" in ana.text
    assert peers.wait_all() == {"Ben": 0}
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])


def test_a_bot_hosts_and_a_person_joins(tmp_path, peers, people):
    # The bug of issue 11: the joiner's typed choice never reached the game.
    port = free_port()
    peers.host("Ana", "pet-quartet", 2, port, "--bot", "greedy")
    ben = people(*join_args(tmp_path, "Ben", port))
    ben.expect(f"Connecting to 127.0.0.1:{port}")
    assert ben.play() > 5
    assert ben.wait() == 0
    assert "| final " in ben.text
    assert peers.wait_all() == {"Ana": 0}
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])


@pytest.mark.parametrize("game", ["pet-quartet", "vorsicht-lehrer"])
def test_two_people_and_a_bot_at_one_table(tmp_path, peers, people, game):
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", game, 3, port))
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    peers.join("Cleo", port, "--bot", "greedy")
    assert play_together([ana, ben]) > 10
    assert ana.wait() == 0 and ben.wait() == 0
    assert "| final " in ana.text and "| final " in ben.text
    assert peers.wait_all() == {"Cleo": 0}
    assert_one_valid_replay(tmp_path, ["Ana", "Ben", "Cleo"])


def test_a_person_leaves_with_ctrl_c_and_resumes(tmp_path, peers, people):
    port = free_port()
    peers.host("Ana", "pet-quartet", 2, port, "--bot", "random")
    replay = tmp_path / "Ben.p2pt"
    ben = people(*join_args(tmp_path, "Ben", port))
    ben.play(until=lambda p: entries_in(replay) >= 20)
    ben.ctrl_c()
    assert ben.wait() == 130
    assert "You left the game." in ben.text
    assert f"To continue where you stopped: p2ptable resume {replay}" in ben.text
    last = entries_in(replay) - 1  # the last entry before the interruption
    back = people("resume", str(replay))
    back.expect(r"Recent")
    # What happened before the interruption is on the resumed screen at once.  A
    # screen may be read in pieces: wait for that line, or for the next screen.
    back.expect(rf"(?m)\f[^\f]*?(?:^ +{last}  |\f)")
    first = back.text.split("\f")[1]
    assert re.search(rf"^ +{last}  ", first, re.MULTILINE), first
    back.play()
    assert back.wait() == 0
    assert "| final " in back.text
    assert peers.wait_all() == {"Ana": 0}
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])


def test_play_against_two_bots_typed_by_a_person(tmp_path, people):
    me = people("play", "pet-quartet", "--bots", "2", "--name", "Me", "--bot-delay", "0",
                "--replay", str(tmp_path / "Me.p2pt"))  # fmt: skip
    me.expect("Started 2 bot peers")
    assert me.play() > 5
    assert me.wait() == 0
    assert "| final " in me.text
    assert verify_file(tmp_path / "Me.p2pt").valid


def bot_processes(data_home: Path) -> list[str]:
    """Command lines of live bot peers whose files are under ``data_home``."""
    found = []
    for status in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            cmd = status.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if "--lifeline" in cmd and str(data_home) in cmd:
            found.append(cmd)
    return found


def test_play_survives_its_person_leaving(tmp_path, people):
    # Issue 11: "Ctrl-C in `play` prints the exact command to continue. Today the
    # local bots die with the person, and `resume` then waits for them for five
    # minutes before ending with a false accusation."  Decision: the bots leave
    # with their person and `resume` starts them again from their own replays.
    data = tmp_path / "data"
    env = {"XDG_DATA_HOME": str(data)}
    replay = tmp_path / "Me.p2pt"
    me = Person(["play", "vorsicht-lehrer", "--bots", "2", "--name", "Me", "--bot-delay", "0",
                 "--replay", str(replay)], tmp_path, env=env)  # fmt: skip
    try:
        me.play(until=lambda p: entries_in(replay) >= 40)
        me.ctrl_c()
        assert me.wait() == 130
    finally:
        me.close()
    assert f"To continue where you stopped: p2ptable resume {replay}" in me.text
    bots_home = data / "p2ptable" / "bots"
    assert len(list(bots_home.glob("*/*.p2pt.secrets"))) == 2  # kept, not in /tmp
    deadline = time.monotonic() + 10
    while bot_processes(data) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert bot_processes(data) == []  # they left with their person
    back = Person(["resume", str(replay)], tmp_path, env=env)
    try:
        back.play()
        assert back.wait() == 0
    finally:
        back.close()
    assert "| final " in back.text
    assert verify_file(replay).valid
    assert bot_processes(data) == []
    assert list(bots_home.iterdir()) == []  # the bots' copies went with the game


def test_a_killed_play_takes_its_bots_with_it(tmp_path):
    data = tmp_path / "data"
    replay = tmp_path / "Me.p2pt"
    me = Person(["play", "pet-quartet", "--bots", "2", "--name", "Me", "--bot-delay", "0",
                 "--replay", str(replay)], tmp_path, env={"XDG_DATA_HOME": str(data)})  # fmt: skip
    try:
        me.play(until=lambda p: entries_in(replay) >= 8)
        os.kill(me.proc.pid, signal.SIGKILL)  # not the group: only the person's process
        me.wait()
        deadline = time.monotonic() + 15
        while bot_processes(data) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert bot_processes(data) == []
    finally:
        me.close()


def test_watching_bots_play_shows_the_board(tmp_path, people):
    # Issue 11: "`play ... --bot greedy` ("watch bots play", README) shows the
    # board as the game goes; today it shows the lobby and then the final scores."
    # (Redrawn about 140 times in a game whatever the bots' pause: a short one will do.)
    me = people("play", "pet-quartet", "--bots", "1", "--bot", "greedy", "--bot-delay", "0.01",
                "--name", "Me", "--replay", str(tmp_path / "Me.p2pt"))  # fmt: skip
    me.expect(r"Conductors", timeout=30)
    me.expect(r"Me \(you\)")
    assert me.wait() == 0
    assert me.screens > 10  # redrawn as the game went
    assert "| final " in me.text
    assert "Your choice" not in me.text  # a bot plays: no menu is offered


def test_join_gives_up_on_a_silent_host_with_a_hint(tmp_path, people):
    # Issue 11: "`join` prints "Connecting to HOST:PORT…" and gives up after a
    # bounded wait (15 s by default, an option to change it) with a hint: check
    # the address and code the host printed, firewalls."
    port = free_port()  # nothing listens there
    ben = people("join", f"127.0.0.1:{port}", "--code", CODE, "--name", "Ben", "--timeout", "1")
    ben.expect(f"Connecting to 127.0.0.1:{port}")
    assert ben.wait(timeout=20) == 1
    assert f"No answer from 127.0.0.1:{port} after 1 s" in ben.text
    assert "code the host printed" in ben.text and "firewall" in ben.text


def test_a_port_in_use_is_one_line_that_says_what_to_do(tmp_path, people):
    import socket

    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        ana = people("host", "pet-quartet", "--seats", "2", "--name", "Ana", "--port", str(port))
        assert ana.wait(timeout=20) == 1
    assert f"Error: port {port} is already in use" in ana.text
    assert "--port 0" in ana.text and "Traceback" not in ana.text


def test_resuming_a_finished_game_says_it_is_over(tmp_path, peers, people):
    port = free_port()
    peers.host("Ana", "pet-quartet", 2, port, "--bot", "random")
    peers.join("Ben", port, "--bot", "random")
    assert peers.wait_all() == {"Ana": 0, "Ben": 0}
    again = people("resume", str(peers.replay("Ben")))
    assert again.wait(timeout=20) == 0
    assert "This game is already over" in again.text
    assert "Final scores:" in again.text
