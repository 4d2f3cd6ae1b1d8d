"""An evening at full-screen tables: people on 80x24 ptys, the default screen of
``host`` and ``join``, read through pyte (issue 26 on the full-screen table).

"A pty person test where a person at the full-screen host types a line of talk
that a joiner's screen shows, and where both people type break and both
processes exit with status 5 and then resume"; and the host's lobby, where the
host reads its options and types start.
"""

from __future__ import annotations

from .peers import entries_in, free_port
from .screen_person import play_together
from .test_people import CODE, peers  # noqa: F401 - fixtures
from .test_people_full_screen import screens  # noqa: F401 - fixtures

PAUSED = 5  # the exit status of a table that agreed to a break


def test_full_screen_people_start_short_talk_break_and_come_back(tmp_path, screens):  # noqa: F811
    port = free_port()
    ana_replay, ben_replay = tmp_path / "Ana.p2pt", tmp_path / "Ben.p2pt"
    ana = screens("host", "pet-quartet", "--seats", "3", "--name", "Ana", "--port",
                  str(port), "--code", CODE, "--advertise", "127.0.0.1",
                  "--replay", str(ana_replay))  # fmt: skip
    ana.expect(f"p2ptable join 127.0.0.1:{port}")
    ana.expect("The host may type start")  # how to, before anyone joined
    ben = screens("join", f"127.0.0.1:{port}", "--code", CODE, "--name", "Ben",
                  "--replay", str(ben_replay))  # fmt: skip
    # The host's lobby says what the host may type once two of three are seated...
    ana.expect("Type 'start' to start now with 2 of 3", timeout=60)
    ben.expect(r"Lobby \(2 seated\): Ana, Ben", timeout=60)
    # ...and the host types it on the typing line: the game begins with two.
    ana.type_line("start")
    ana.expect("Players", timeout=60)
    ben.expect("Players", timeout=60)

    # Talk, typed at the host's full screen, is on the joiner's screen with the name.
    ana.key(*(c.encode() for c in "'good luck, Ben"), b"\r")
    ben.expect("Ana says: good luck, Ben", timeout=30)
    ana.expect("Ana says: good luck, Ben", timeout=30)

    # Both type break: the joiner reads the wish, and both processes end with 5.
    ana.type_line("break")
    ben.expect("Ana wants a break", timeout=30)
    ben.type_line("break")
    assert ana.wait(timeout=60) == PAUSED and ben.wait(timeout=60) == PAUSED
    for person, replay in ((ana, ana_replay), (ben, ben_replay)):
        assert "Every seat agreed to a break at entry" in person.text
        assert f"p2ptable resume {replay}" in person.text
        assert replay.with_name(replay.name + ".break").exists()

    # Both come back on full screens and play on from where they stopped.  (To
    # the end took 40 s of two full screens; a game played on to its end after
    # a break is test_people_evening.py's, a full-screen end
    # test_people_full_screen.py's.)
    at = entries_in(ana_replay)
    ben = screens("resume", str(ben_replay))
    ana = screens("resume", str(ana_replay))
    for person in (ana, ben):
        person.expect("Players", timeout=60)
    play_together([ana, ben], timeout=120, until=lambda: entries_in(ben_replay) > at + 6)
    for person in (ana, ben):
        person.key(b"\x03")  # Ctrl-C: both leave again
        assert person.wait(timeout=30) == 130
    assert "abandoned" not in ana.text and "abandoned" not in ben.text
    assert (
        ana_replay.read_bytes()[: len(ben_replay.read_bytes())]
        == ben_replay.read_bytes()[: len(ana_replay.read_bytes())]
    )  # one log: the shorter a prefix of the longer
