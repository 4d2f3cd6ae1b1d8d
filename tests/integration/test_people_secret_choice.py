"""People at a secret simultaneous choice: Vorsicht Lehrer!'s teacher card, typed
on a pty at the host and at a joiner, and at a seat resumed after Ctrl-C.

Issue 14: "Vorsicht Lehrer!'s teacher-card choices are simultaneous, live"; "A
view test: before the last reveal, no seat's view or screen contains another
seat's choice"; and the seat that "crashes and resumes re-makes the same commit"
(a person is not asked again: the choice was kept before the commit left).
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from p2ptable.net.choice_file import choice_path
from p2ptable.net.session import Choice
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import verify_file

from .peers import free_port
from .person import PROMPT, play_together
from .test_people import CODE, host_args, join_args, peers, people  # noqa: F401 - fixtures

TOGETHER = "everyone chooses at once, in secret"
# The choices entry's line under Recent: it stays there, where the status line
# "Chosen: ..." may be drawn over by the next screen before it is ever shown
# (the screen writer draws only the newest of the screens waiting for it).  What
# each seat chose is then read from the replay (the line may be cut short).
BOTH_REVEALED = r"\d+\s+choices\s+Ana takes"


def pending_at(replay: Path) -> int:
    """How many entries ``replay`` holds: after a seat stopped at a secret
    choice, the index of the commits entry its choice goes into."""
    return len(parse_frames(replay.read_bytes()).payloads)


def choices_at(replay: Path, commits: int) -> dict[str, str]:
    """Each seat's revealed action, by name, for the commits entry at
    ``commits`` (an earlier teacher card may have come before it: the first one
    is not it).  By name: the seats are numbered in the order they were seated,
    and the bot peer may be seated before the person who started first."""
    entries = verify_file(replay).ledger.entries
    assert entries[commits].kind == "commits" and entries[commits + 1].kind == "choices"
    names = [seat["name"] for seat in entries[0].body["seats"]]
    body = entries[commits + 1].body
    return {names[s]: part["action"] for s, part in zip(body["seats"], body["parts"], strict=True)}


def to_the_teacher_card(seats: list, timeout: float = 120.0) -> None:
    """Answer every menu (first choice) but the teacher card's, until both ask it."""
    end = time.monotonic() + timeout
    while not all(TOGETHER in p.screen and PROMPT in p.screen for p in seats):
        assert time.monotonic() < end, [p.screen for p in seats]
        for person in seats:
            person._pump(0.02)
            if TOGETHER not in person.screen:
                person.answer()


def test_two_people_choose_a_teacher_card_in_secret_and_one_resumes_in_between(
    tmp_path,
    peers,  # noqa: F811
    people,  # noqa: F811
):
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "vorsicht-lehrer", 3, port), "--option", "track=100")
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    peers.join("Cleo", port, "--bot", "greedy")
    # Both play (first choice each time) until the teacher card asks everyone.
    to_the_teacher_card([ana, ben])
    ben.expect(re.escape(PROMPT), on="screen")
    ben.type("2")  # Ben dares the throw
    ben.expect("waiting for Ana to choose; you chose: risk", on="screen")
    # Ana still sees only that everyone chooses: nothing of Ben's choice.
    ana.expect(re.escape(PROMPT), on="screen")
    assert "Chosen:" not in ana.screen and "you chose" not in ana.screen
    # Ben leaves with Ctrl-C after his commit went out, and comes back.
    ben.ctrl_c()
    assert ben.wait() == 130
    commits = pending_at(tmp_path / "Ben.p2pt")
    back = people("resume", str(tmp_path / "Ben.p2pt"))
    back.expect("waiting for Ana to choose; you chose: risk", on="screen", timeout=60)
    assert PROMPT not in back.screen  # not asked again: his choice was kept
    ana.type("1")  # Ana takes the points
    back.expect(BOTH_REVEALED, timeout=30)
    play_together([ana, back], timeout=180)
    assert ana.wait() == 0 and back.wait() == 0
    assert peers.wait_all() == {"Cleo": 0}
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in ("Ana", "Ben", "Cleo")}
    assert len(blobs) == 1
    chosen = choices_at(tmp_path / "Ana.p2pt", commits)
    assert (chosen["Ana"], chosen["Ben"]) == ("take", "risk")
    # The kept choices have done their work: nothing is left next to the replays.
    assert not any((tmp_path / f"{n}.p2pt.choice").exists() for n in ("Ana", "Ben", "Cleo"))
    report = verify_file(tmp_path / "Ana.p2pt")
    assert report.valid and report.audited, report.error


def forge_choice(replay: Path, action: str) -> None:
    """A CRC-valid choice record for the same entry, naming ``action``."""
    from p2ptable.net.choice_file import ChoiceKeeper, load_choice

    kept, _ = load_choice(replay)
    assert kept is not None and kept.action != action
    keeper = ChoiceKeeper(replay)
    keeper.keep(Choice(kept.index, action))
    keeper.close()


@pytest.mark.parametrize("file", ["deleted", "forged"])
def test_a_seat_killed_after_its_commit_left_takes_it_back_without_its_choice_file(
    tmp_path,
    peers,  # noqa: F811
    people,  # noqa: F811
    file,
):
    # Issue 22, 1: "Kill a seat with kill -9 right after its secret choice was
    # kept and its commit sent, delete REPLAY.choice ... and resume: it asks the
    # person again, commits a second time for the same position, and verify
    # prints 'equivocation by Ben'.  A CRC-valid forged choice record does the
    # same."  Now the resumed seat learns from the others that its commit
    # exists, takes its choice back from it, and is not asked again.
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "vorsicht-lehrer", 3, port), "--option", "track=100")
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    peers.join("Cleo", port, "--bot", "greedy")
    to_the_teacher_card([ana, ben])
    ben.type("2")  # Ben dares the throw
    ben.expect("waiting for Ana to choose; you chose: risk", on="screen")
    os.killpg(ben.proc.pid, signal.SIGKILL)
    ben.wait()
    replay = tmp_path / "Ben.p2pt"
    commits = pending_at(replay)
    if file == "deleted":
        choice_path(replay).unlink()
    else:
        forge_choice(replay, "take")
    back = people("resume", str(replay))
    back.expect("waiting for Ana to choose; you chose: risk", on="screen", timeout=60)
    assert PROMPT not in back.screen  # not asked again: the others held his commit
    assert "taken back from our own signed commit" in back.text
    ana.type("1")  # Ana takes the points
    back.expect(BOTH_REVEALED, timeout=30)  # and Ben's choice is the one he made
    play_together([ana, back], timeout=180)
    assert ana.wait() == 0 and back.wait() == 0
    assert peers.wait_all() == {"Cleo": 0}
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in ("Ana", "Ben", "Cleo")}
    assert len(blobs) == 1
    report = verify_file(tmp_path / "Ana.p2pt")
    assert report.valid and report.audited and report.stopped is None, report.error
    chosen = choices_at(tmp_path / "Ana.p2pt", commits)
    assert (chosen["Ana"], chosen["Ben"]) == ("take", "risk")  # as Ben chose
