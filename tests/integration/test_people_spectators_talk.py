"""Spectators who talk, with people on ptys: `host --spectators-talk`, a joiner
and a `watch`, each a real process on loopback.

Issue 26: "a spectator reads the table's talk and, if the table allows (`host
--spectators-talk`), writes in a separate spectators' channel that seats can
hide".  The brief: "the spectator's line reaches the seats' screens", shown as
"(spectator) Eve says: ...", and `verify` is not confused by it.
"""

from __future__ import annotations

import re
import subprocess
import sys

from .peers import entries_in, free_port
from .person import play_together
from .test_people import CODE, host_args, join_args, peers, people

__all__ = ["peers", "people"]  # the fixtures, used by name


def test_a_spectators_line_reaches_every_seat_and_a_seat_can_hide_it(tmp_path, peers, people):
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 2, port),
                 "--spectators", "--spectators-talk")  # fmt: skip
    ana.expect("Spectators may talk, in a channel of their own")
    ben = people(*join_args(tmp_path, "Ben", port))
    ben.expect("spectators may talk")  # the lobby line says so before the game
    replay = tmp_path / "Ana.p2pt"
    play_together([ana, ben], until=lambda p: entries_in(replay) >= 4)
    eve = people("watch", f"127.0.0.1:{port}", "--code", CODE, "--name", "Eve",
                 "--replay", str(tmp_path / "Eve.p2pt"))  # fmt: skip
    eve.expect("Spectators may talk at this table", timeout=60)

    # Eve's line, escape sequences and all, reaches both seats as a spectator's.
    eve.type("go Ben \x1b[31m!")
    eve.expect(r"\(spectator\) Eve says: go Ben \[31m!")
    for seat in (ana, ben):
        seat.expect(r"\(spectator\) Eve says: go Ben \[31m!")
        assert "\x1b[31m!" not in seat.text
    assert not re.search(r"talk +Eve says", ana.text + ben.text)  # never as a seat's line

    # Ben hides the channel: Ana still reads Eve, Ben does not, until he shows it.
    ben.type("hide spectators")
    ben.expect("The spectators' channel is hidden")
    eve.type("'second line")
    ana.expect("Eve says: second line")
    at = entries_in(replay)
    play_together([ana, ben, eve], until=lambda p: entries_in(tmp_path / "Ben.p2pt") >= at + 2)
    assert "Eve says: second line" not in ben.text
    ben.type("show spectators")
    ben.expect(r"shown \(1 line was said while it was hidden\)")

    play_together([ana, ben, eve])
    assert ana.wait() == 0 and ben.wait() == 0 and eve.wait() == 0
    assert (tmp_path / "Eve.p2pt").read_bytes() == replay.read_bytes()
    assert (tmp_path / "Ben.p2pt").read_bytes() == replay.read_bytes()
    # The channel is ephemeral: nothing of it beside the replay, and verify is
    # as for any game.
    assert not (tmp_path / "Ana.p2pt.talk").exists()
    verified = subprocess.run(
        [sys.executable, "-m", "p2ptable", "verify", str(replay)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout
    assert "Eve" not in verified.stdout
