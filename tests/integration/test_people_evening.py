"""An evening at the table, with people on ptys: talk, a break, and coming back.

Issue 26, Tests: "Real processes on loopback with a person on a pty at host and
joiner for each feature (talk seen on every screen and in `export`; a pause,
every process exiting, then every seat resuming and the game ending with
identical, valid replays ...)".  Attacks: "talk with escape sequences, a pause
proposed a thousand times".
"""

from __future__ import annotations

import subprocess
import sys

from .peers import entries_in, free_port
from .person import play_together
from .test_people import assert_one_valid_replay, host_args, join_args, peers, people

__all__ = ["peers", "people"]  # the fixtures, used by name

PAUSED = 5


def test_talk_a_break_and_back_to_the_end(tmp_path, peers, people):
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 3, port))
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    peers.join("Cleo", port, "--bot", "greedy")
    replay = tmp_path / "Ana.p2pt"
    play_together([ana, ben], until=lambda p: entries_in(replay) >= 8)

    # Talk at any prompt, also while another seat plays; escape sequences lose their ESC.
    ana.type("'good luck, Ben")
    ben.type("say \x1b[2J\x1b[31mthanks\x07")
    ben.expect("Ana says: good luck, Ben", on="text")
    ana.expect(r"Ben says: \[2J \[31mthanks", on="text")
    assert "\x1b[31mthanks" not in ana.text

    # A break proposed many times is one proposal; Ben agrees; every process ends.
    for _ in range(20):
        ana.type("break")
    ben.expect("Ana wants a break")
    assert ben.screen.count("Ana wants a break (when") <= 1  # shown once
    ben.type("break")
    assert ana.wait() == PAUSED and ben.wait() == PAUSED
    assert peers.wait_all() == {"Cleo": PAUSED}
    assert f"To come back: p2ptable resume {replay}" in ana.text
    for name in ("Ana", "Ben", "Cleo"):
        assert (tmp_path / f"{name}.p2pt.break").exists()

    # Back in another order: the bot first, then Ben, then Ana; the game ends.
    peers.start("Cleo", "resume", str(tmp_path / "Cleo.p2pt"), "--bot", "greedy", "--quiet")
    ben = people("resume", str(tmp_path / "Ben.p2pt"))
    ana = people("resume", str(replay))
    play_together([ana, ben])
    assert ana.wait() == 0 and ben.wait() == 0
    assert peers.wait_all() == {"Cleo": 0}
    assert "abandoned" not in ana.text and "abandoned" not in ben.text
    assert_one_valid_replay(tmp_path, ["Ana", "Ben", "Cleo"])

    verified = subprocess.run(
        [sys.executable, "-m", "p2ptable", "verify", str(replay)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout
    assert "talk:    2 lines beside the log" in verified.stdout
    assert "break:   every seat agreed to a break at entry" in verified.stdout
    exported = subprocess.run(
        [sys.executable, "-m", "p2ptable", "export", str(tmp_path / "Ben.p2pt")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "(Ana says: good luck, Ben)" in exported.stdout
    assert "(Ben says: [2J [31mthanks)" in exported.stdout
