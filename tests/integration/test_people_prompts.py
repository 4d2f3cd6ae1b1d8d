"""A person at the questions and the turns of issue 25, on a pty.

Issue 25: "`join ADDRESS` without `--code` asks for the code; a badly formed code
at the prompt asks again instead of exiting"; "nothing tells you it is your turn
if you looked away" (the terminal bell, `--no-bell`); and Ctrl-D at a click
prompt printed "Aborted!".
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from .person import PROMPT, Person

ASKED = re.escape("Join code (as the host printed it): ")


@pytest.fixture
def people(tmp_path: Path):
    started: list[Person] = []

    def start(*args: str, **kw) -> Person:  # noqa: ANN003
        env = {"XDG_DATA_HOME": str(tmp_path / "data")}
        person = Person(list(args), tmp_path, rows=24, cols=80, env=env, **kw)
        started.append(person)
        return person

    yield start
    for person in started:
        person.close()


def test_join_asks_for_the_code_again_until_it_is_one_and_ctrl_d_is_said(people) -> None:
    ben = people("join", "127.0.0.1:9", "--name", "Ben")
    ben.expect(ASKED)
    ben.type("nope")
    ben.expect(re.escape("Error: not a join code: 'nope'"))
    ben.expect(f"{ASKED}(.|\\n)*{ASKED}")  # asked again, not ended
    assert ben.proc.poll() is None
    ben.ctrl_d()
    assert ben.wait() == 1
    assert "Error: the input ended before an answer" in ben.text
    assert "Aborted" not in ben.text


def _bells(person: Person, moves: int) -> str:
    """Play ``moves`` of our turns, then leave; what was printed, bells kept."""
    typed = 0
    end = time.monotonic() + 90
    while typed < moves and time.monotonic() < end:
        person.expect(re.escape(PROMPT), timeout=60, on="screen")
        if person.answer():
            typed += 1
        else:
            person._pump(0.1)  # answered: wait for the next screen
    assert typed == moves
    person.ctrl_c()
    try:
        person.wait(timeout=20)
    except AssertionError:
        # KNOWN BUG, not yet found (closing note of 2026-12-02): a Ctrl-C that
        # comes right after a typed move sometimes leaves `play` running (3 of
        # about 10 CI-like runs; never when run alone).  This test is about the
        # bell, so it ends the game with a second Ctrl-C; the hang is to be
        # found with a stack dump, and this fallback removed.
        person.ctrl_c()
        person.wait()
    return person.text


def test_the_bell_rings_at_each_turn_and_not_with_no_bell(people) -> None:
    common = ("play", "pet-quartet", "--bots", "1", "--bot-delay", "0.2", "--name", "Ana")
    printed = _bells(people(*common), 3)
    # One bell a turn, just before the screen that asks (a clear follows it).
    assert printed.count("\a") >= 3 and "\a\f" in printed
    quiet = _bells(people(*common, "--no-bell"), 3)
    assert "\a" not in quiet


def test_a_wrong_code_typed_at_the_question_is_asked_again(tmp_path, people) -> None:
    # Found by hand: a code of the right form but not the table's ended `join`
    # ("wrong join code") where a typo of form was asked again; a person who
    # mistyped one letter had to start over.  Asked, it is asked again (three
    # tries: each one is a knock the host counts); given with --code, it ends.
    from .peers import free_port

    port = free_port()
    ana = people("host", "pet-quartet", "--seats", "2", "--name", "Ana", "--port", str(port),
                 "--code", "BEN-CHM8", "--advertise", "127.0.0.1", "--no-announce",
                 "--bot", "random", "--replay", str(tmp_path / "Ana.p2pt"))  # fmt: skip
    ana.expect("Others join with")
    cal = people("join", f"127.0.0.1:{port}", "--name", "Cal", "--code", "BEN-CHM9")
    assert cal.wait(timeout=60) == 1  # given on the line: no one to ask
    assert "wrong join code" in cal.text and "Join code (as" not in cal.text
    ben = people("join", f"127.0.0.1:{port}", "--name", "Ben", "--bot", "random",
                 "--replay", str(tmp_path / "Ben.p2pt"))  # fmt: skip
    ben.expect(ASKED)
    ben.type("BEN-CHM9")
    ben.expect(re.escape("wrong join code"), timeout=30)
    ben.expect(f"{ASKED}(.|\\n)*{ASKED}")
    ben.type("BEN-CHM8")
    assert ben.wait(timeout=120) == 0 and ana.wait(timeout=120) == 0
