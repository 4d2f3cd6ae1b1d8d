"""Spectators who talk, at full-screen tables: `host --spectators
--spectators-talk`, a joiner and a `watch`, each the real CLI on an 80x24 pty,
read through pyte (tests/integration/screen_person.py).

The brief: "a full-screen host with --spectators --spectators-talk, a
full-screen joiner, a full-screen watcher who types a line that both seats'
screens show as a spectator's"; the watcher's refusals ("slow down") shown, and
its q as on a seat's screen.
"""

from __future__ import annotations

import re

from .peers import entries_in, free_port
from .screen_person import ENTER, play_together
from .test_people import CODE, host_args, join_args, peers  # noqa: F401 - fixtures
from .test_people_full_screen import screens  # noqa: F401 - fixtures

SAID = r"\(spectator\) Eve says: hi!"  # short: one row of the events pane at 80x24


def test_a_full_screen_spectator_types_a_line_that_both_full_screen_seats_show(
    tmp_path,
    screens,  # noqa: F811
) -> None:
    port = free_port()
    ana = screens(*host_args(tmp_path, "Ana", "pet-quartet", 2, port),
                  "--spectators", "--spectators-talk")  # fmt: skip
    ana.expect(f"p2ptable join 127.0.0.1:{port}")
    ben = screens(*join_args(tmp_path, "Ben", port))
    for seat in (ana, ben):
        seat.expect("Players", timeout=60)
    eve = screens("watch", f"127.0.0.1:{port}", "--code", CODE, "--name", "Eve",
                  "--replay", str(tmp_path / "Eve.p2pt"))  # fmt: skip
    eve.expect("Spectators may talk", timeout=60)  # among the events, and its keys:
    eve.expect("' or t: talk .*q: stop watching")

    # Eve's line, typed on her typing line, is on both seats' screens as hers.
    eve.key(b"'", *(c.encode() for c in "hi!"), ENTER)
    eve.expect(SAID, timeout=30)
    for seat in (ana, ben):
        seat.expect(SAID, timeout=30)
        assert seat.italic("(spectator) Eve says: hi!")  # marked apart, in italics
        assert not re.search(r"talk +Eve says", seat.display)  # never as a seat's line

    # Three lines at once, then one every 4 s: the fourth is refused, and said so.
    for n in range(3):
        eve.type_line(f"line {n}")
    eve.expect("Not said: slow down", timeout=30)

    # q asks, as at a seat; y stops watching, and the game plays on.  (Playing
    # it to the end on two full screens took 40 s; the end of a full-screen
    # game is test_people_full_screen.py's, and of a break test_..._evening.py's.)
    eve.key(b"q")
    eve.expect("Stop watching")
    eve.key(b"y")
    assert eve.wait(timeout=60) == 130
    assert "You stopped watching" in eve.text
    at = entries_in(tmp_path / "Ana.p2pt")
    play_together([ana, ben], timeout=120, until=lambda: entries_in(tmp_path / "Ben.p2pt") > at + 6)
    for seat in (ana, ben):
        seat.key(b"\x03")  # Ctrl-C: both leave, the game resumable
        assert seat.wait(timeout=30) == 130
