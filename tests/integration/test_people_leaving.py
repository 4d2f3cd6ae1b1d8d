"""A person leaves a game with Ctrl-D or Ctrl-C: the table is told, and resume works at once.

Issue 22: "Ctrl-D (end of input) at a move prompt prints "Run `p2ptable resume
REPLAY`" with a literal placeholder, the table is told nothing and waits for ever
(over 5 minutes seen), and the printed advice fails ("still running") until
Ctrl-C.  End of input is leaving, like Ctrl-C: the seat's peer tells the others
("Ben left: input closed; waiting for Ben to resume"), exits with status 130 and
prints the real resume command, which works at once."

Real processes on 127.0.0.1, each person on a pty of their own (person.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

from .peers import entries_in, free_port
from .person import PROMPT, Person, _pump_any, play_together
from .test_people import assert_one_valid_replay, host_args, join_args, people  # noqa: F401

LEFT_INPUT = "Ben left: input closed; waiting for Ben to resume"
LEFT_INTERRUPTED = "Ben left (interrupted); waiting for Ben to resume"


def asked(person: Person) -> bool:
    """Whether ``person``'s screen asks for a choice not answered yet."""
    return PROMPT in person.screen and person.screens != person._answered


def play_until_asked(table: list[Person], who: Person, ready, timeout: float = 120.0) -> None:  # noqa: ANN001
    """Answer every menu until ``ready()`` and ``who`` is asked; that one stays unanswered."""
    end = time.monotonic() + timeout
    while not (ready() and asked(who)):
        assert time.monotonic() < end, f"{who.args[0]} was not asked in {timeout} s"
        _pump_any(table, 0.05)
        if ready() and asked(who):
            return
        for person in table:
            person.answer()


def leaves(person: Person, key: str, replay) -> None:  # noqa: ANN001
    """``person`` at their prompt presses ``key``: they leave, with the real command."""
    person.expect(re.escape(PROMPT), timeout=60, on="screen")
    if key == "ctrl-d":
        person.ctrl_d()
    else:
        person.ctrl_c()
    assert person.wait(timeout=20) == 130
    assert "You left the game." in person.text
    assert f"To continue where you stopped: p2ptable resume {replay}" in person.text
    assert "REPLAY" not in person.text  # no placeholder for the person to fill in


def test_ctrl_d_at_a_prompt_in_play_leaves_and_resume_works_at_once(tmp_path, people):  # noqa: F811
    replay = tmp_path / "Me.p2pt"
    me = people("play", "pet-quartet", "--bots", "2", "--name", "Me", "--bot-delay", "0",
                "--replay", str(replay))  # fmt: skip
    play_until_asked([me], me, lambda: entries_in(replay) >= 10)
    leaves(me, "ctrl-d", replay)
    back = people("resume", str(replay))
    back.expect("Recent", timeout=30)  # the table again, not "still running"
    assert "still running" not in back.text
    back.play()
    assert back.wait() == 0
    assert "| final " in back.text


def test_the_others_are_told_who_left_and_why(tmp_path, people):  # noqa: F811
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 2, port))
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    replay = tmp_path / "Ben.p2pt"
    for key, told in (("ctrl-d", LEFT_INPUT), ("ctrl-c", LEFT_INTERRUPTED)):
        at = entries_in(replay) + 6
        play_until_asked([ana, ben], ben, lambda at=at: entries_in(replay) >= at)
        leaves(ben, key, replay)
        ana.expect(re.escape(told), timeout=20, on="screen")
        ben = people("resume", str(replay))
        ben.expect("Recent", timeout=30)
        assert "still running" not in ben.text
        play_together([ana, ben], until=lambda p, told=told: told not in ana.screen, timeout=30)
    play_together([ana, ben])
    assert ana.wait() == 0 and ben.wait() == 0
    assert "withheld" not in ana.text and "abandoned" not in ana.text
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])


def test_a_person_who_types_leave_at_a_keep_going_table_is_played_by_a_bot(tmp_path, people):  # noqa: F811
    """Issue 27: 'A person on a pty leaves on purpose and the game goes on within
    a few seconds', and 'a person who comes back with `resume` after a stand-in
    took the seat watches the rest as a spectator and is told why'. Ana hosts a
    keep-going table with a bot seat, Ben joins; at his turn Ben types `leave`."""
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "vorsicht-lehrer", 3, port), "--keep-going",
                 "--bots", "1", "--bot-delay", "0")  # fmt: skip
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    replay = tmp_path / "Ben.p2pt"
    play_until_asked([ana, ben], ben, lambda: entries_in(replay) >= 12)
    assert "leave: a bot plays for me" in ben.screen
    at = entries_in(replay)
    started = time.monotonic()
    ben.type("leave")
    assert ben.wait(timeout=20) == 130
    # Ana answers at once and the bot does not think: the game may be over before
    # Ben's peer learns (from the others' next pings) that both hold his departure
    # ("a bot played for you, and the game is over"), or not yet ("from now on").
    assert "You left the table" in ben.text
    ana.expect("Ben left the table: a bot plays for Ben, cards face up", timeout=20, on="text")
    # The game goes on at once: the bot's move for Ben follows the departure.
    ana.expect(r"\(the bot playing for Ben\)", timeout=20)
    assert time.monotonic() - started < 15
    back = people("resume", str(replay))
    back.expect(re.escape("You left the table (you chose to leave): a bot plays for you;"
                          " you watch the rest"), timeout=30)  # fmt: skip
    assert entries_in(replay) > at
    play_together([ana, back], timeout=180)  # Ana plays; the watcher is never asked
    assert ana.wait() == 0 and back.wait() == 0
    assert "| final " in back.text
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])


def test_a_host_who_leaves_for_good_leaves_the_bots_beside_it_playing(tmp_path, people):  # noqa: F811
    """Issue 27: 'their peer publishes its own secret and exits; the others go on
    at once'.  The others include the bot peers beside the host: they lived only
    as long as the host's process (their lifeline), so a host who typed `leave`
    took Bea with it, and Ben waited five minutes for her (found by hand); and
    the host's terminal closing (its pty here) hung her up.  Now the host's
    leaving tells its bots to play on to the end, and they do."""
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "vorsicht-lehrer", 3, port), "--keep-going",
                 "--bots", "1", "--bot-delay", "0", "--option", "track=100")  # fmt: skip
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    replay = tmp_path / "Ana.p2pt"
    play_until_asked([ana, ben], ana, lambda: entries_in(replay) >= 10)
    ana.type("leave")
    assert ana.wait(timeout=20) == 130
    assert "You left the table: a bot plays for you from now on." in ana.text
    record = json.loads((tmp_path / "Ana.p2pt.bots.json").read_text())
    bea = Path(record["bots"][0]["replay"])
    try:
        ben.expect("Ana left the table: a bot plays for Ana", timeout=20, on="text")
        started = time.monotonic()
        play_together([ben], timeout=90)  # Bea plays on: Ben never waits for her
        assert ben.wait() == 0
        assert "waiting for Bea" not in ben.text[ben.text.index("Ana left the table") :]
        assert time.monotonic() - started < 60
        assert_one_valid_replay(tmp_path, ["Ben"])
        assert bea.read_bytes() == (tmp_path / "Ben.p2pt").read_bytes()  # there to the end
        end = time.monotonic() + 15  # and then she ended, by herself
        while subprocess.run(["pgrep", "-f", str(bea)], capture_output=True).returncode == 0:
            assert time.monotonic() < end, "Bea's process did not end after the game"
            time.sleep(0.2)
    finally:  # a bot told to play on lives in a session of its own: the fixture's
        # kill of Ana's process group does not reach it
        subprocess.run(["pkill", "-9", "-f", str(bea)], capture_output=True)


def test_a_person_who_types_leave_at_anothers_turn_leaves_at_their_own(tmp_path, people):  # noqa: F811
    """Issue 27: 'a person can leave a running game'.  Ben must go while Ana
    thinks: he types leave all the same, his screen says he leaves at his turn,
    and there his peer leaves by itself, Ben asked nothing more."""
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "vorsicht-lehrer", 3, port), "--keep-going",
                 "--bots", "1", "--bot-delay", "0", "--option", "track=100",
                 "--option", "teacher-choices=in-turn")  # fmt: skip
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    replay = tmp_path / "Ben.p2pt"
    play_until_asked([ana, ben], ana, lambda: entries_in(replay) >= 12)
    ben.type("leave")  # Ana is to move: Ben's turn comes after hers and the bot's
    ben.expect("You leave at your turn: a bot plays for you from then on", timeout=20)
    end = time.monotonic() + 60
    while ben.proc.poll() is None:  # Ana plays on; Ben never answers again
        assert time.monotonic() < end, "Ben's peer did not leave at his turn"
        _pump_any([ana, ben], 0.05)
        ana.answer()
    assert ben.wait(timeout=20) == 130
    # Ana answers at once and the bot does not think: the game may be over before
    # Ben's peer learns (from the others' next pings) that both hold his departure
    # ("a bot played for you, and the game is over"), or not yet ("from now on").
    assert "You left the table" in ben.text
    ana.expect("Ben left the table: a bot plays for Ben, cards face up", timeout=20, on="text")
    ana.expect(r"\(the bot playing for Ben\)", timeout=30)
