"""`host --bots N`: bot peers fill seats beside the host, people join the rest.

Issue 26: "Fill seats with bots: `host --bots N` runs N bot seats beside the host
(like `play` does); people join the rest."  Tests: "`host --bots 2` with one
person joining".  Like `play`'s, the bots live as long as the host's process and
`resume` brings them back with it (test_people.py's play tests).
"""

from __future__ import annotations

import time

from .peers import free_port
from .person import Person, play_together
from .test_people import CODE, assert_one_valid_replay, bot_processes, entries_in, join_args


def host_with_bots(tmp_path, port: int, env: dict) -> Person:
    return Person(
        ["host", "vorsicht-lehrer", "--seats", "4", "--bots", "2", "--name", "Ana",
         "--port", str(port), "--code", CODE, "--advertise", "127.0.0.1", "--no-announce",
         "--bot-delay", "0", "--replay", str(tmp_path / "Ana.p2pt")],
        tmp_path, env=env,
    )  # fmt: skip


def test_host_with_two_bots_and_one_person_joining(tmp_path):
    data = tmp_path / "data"
    env = {"XDG_DATA_HOME": str(data)}
    port = free_port()
    ana = host_with_bots(tmp_path, port, env)
    ben = Person(join_args(tmp_path, "Ben", port), tmp_path)
    try:
        ana.expect("Started 2 bot peers for 2 of the seats; 1 left for people.")
        ana.expect(r"Bea \(bot\) joined")
        ana.expect(r"Cal \(bot\) joined")
        assert len(bot_processes(data)) == 2  # beside the host, with its data
        assert play_together([ana, ben], timeout=240) > 5
        assert ana.wait() == 0 and ben.wait() == 0
    finally:
        ana.close()
        ben.close()
    assert "| final " in ana.text and "| final " in ben.text
    assert "Bea (bot)" in ben.text and "Cal (bot)" in ben.text
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])
    deadline = time.monotonic() + 10
    while bot_processes(data) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert bot_processes(data) == []
    assert list((data / "p2ptable" / "bots").iterdir()) == []  # their copies went with the game


def test_a_host_with_bots_leaves_and_resumes_with_them(tmp_path):
    data = tmp_path / "data"
    env = {"XDG_DATA_HOME": str(data)}
    port = free_port()
    replay = tmp_path / "Ana.p2pt"
    ana = host_with_bots(tmp_path, port, env)
    ben = Person(join_args(tmp_path, "Ben", port), tmp_path)
    back = None
    try:
        ana.expect(r"Cal \(bot\) joined")
        assert len(bot_processes(data)) == 2
        play_together([ana, ben], until=lambda p: entries_in(replay) >= 30, timeout=120)
        ana.ctrl_c()
        assert ana.wait() == 130
        deadline = time.monotonic() + 10
        while bot_processes(data) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert bot_processes(data) == []  # the bots left with their host
        back = Person(["resume", str(replay)], tmp_path, env=env)
        play_together([back, ben], timeout=240)
        assert back.wait() == 0 and ben.wait() == 0
    finally:
        ana.close()
        ben.close()
        if back is not None:
            back.close()
    assert "| final " in back.text and "| final " in ben.text
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])
    assert bot_processes(data) == []
