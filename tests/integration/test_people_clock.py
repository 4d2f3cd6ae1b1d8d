"""The table's clock with people on a pty: it moves for the one who never answers.

Issue 26: "A clock: `host --clock SECONDS` (a limit per decision ...).  Every
screen shows the time left for whoever must act.  When a person's time runs
out, their own peer makes the move the table's default bot would make, and the
screen and the log's words say 'the clock moved for Ben'; a person who walked
away no longer holds the table up."  And its tests: "a clock that moves for a
person who never answers, the game ending normally".
"""

from __future__ import annotations

import subprocess
import sys
import time

from .peers import free_port
from .person import AGAIN, _pump_any
from .test_people import assert_one_valid_replay, host_args, join_args, people  # noqa: F401 - fixtures

CLOCK = 1  # second: enough for the test to answer Ana's menus at once


def test_the_clock_moves_for_a_person_who_never_answers(tmp_path, people):  # noqa: F811 - fixtures
    port = free_port()
    ana = people(
        *host_args(tmp_path, "Ana", "vorsicht-lehrer", 2, port),
        "--option", "track=100", "--clock", str(CLOCK),
    )  # fmt: skip
    # The table's clock is said before anyone sits down, and to whoever joins.
    ana.expect(rf"Table open: Vorsicht Lehrer! for 2 players, {CLOCK} s a decision")
    ben = people(*join_args(tmp_path, "Ben", port))
    ben.expect(rf"Lobby \(\d seated\): Ana.*; clock: {CLOCK} s a decision")
    # Ben walked away: only Ana answers, and the game ends all the same.
    end = time.monotonic() + 300
    typed = 0
    while ana.proc.poll() is None or ben.proc.poll() is None:
        assert time.monotonic() < end, "the clock did not play Ben's seat to the end"
        _pump_any([ana, ben], 0.05)
        typed += ana.answer()
        if AGAIN in ben.screen:  # the game is over: Ben's terminal asks, and he is back
            ben.answer()
    assert ana.wait() == 0 and ben.wait() == 0
    assert typed > 3
    # Every screen showed the time left for whoever had to act ...
    assert "left for you, then the clock moves for you" in ben.text
    assert "s left for Ben" in ana.text
    # ... and what the clock did, in the words of the log.
    assert f"The clock moved for you ({CLOCK} s)" in ben.text
    assert "(the clock moved for Ben)" in ana.text
    assert "| final" in ana.text and "| final" in ben.text
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])
    export = subprocess.run(
        [sys.executable, "-m", "p2ptable", "export", str(tmp_path / "Ana.p2pt")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "(the clock moved for Ben)" in export
