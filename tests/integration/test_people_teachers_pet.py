"""People play Teacher's Pet on a pty: a host and a joiner typing, a bot in the
third seat, the joiner leaving with Ctrl-C and resuming, and reaction windows
answered by a person.

Issue 15: "`host`, `join` and `play` work as for the other games, for people and
bots, and a person has played it to the end in a terminal against bots,
including a reaction"; "reaction prompts that read the same whether or not you
hold the card".  Issue 23: "a person played a whole game against it [the new
bot] on a pty".
"""

from __future__ import annotations

import json
import time

from p2ptable.games.teachers_pet.rulings import Rulings
from p2ptable.net.local_table import record_path
from p2ptable.replay.verify import verify_file

from .peers import entries_in, free_port
from .person import PROMPT, menu_entries, play_together
from .test_people import host_args, join_args, peers, people  # noqa: F401 - fixtures

CAUGHT = "The Hall Monitor caught you: show a Hall Pass, or take the Detention?"


def daring(screen: str) -> str:
    """A player who shows a Hall Pass when caught and otherwise sneaks about
    whenever a Move needs the roll (so catches come), else takes the first line."""
    menu = menu_entries(screen.rsplit("\n\n", 1)[-1] if PROMPT in screen else screen)
    for number, words in menu:
        if words.startswith("Show Hall Pass") or words.startswith("Show Goody"):
            return number
    for number, words in menu:
        if words.startswith("Move to") and "sneak" in words:
            return number
    return "1"


def test_two_people_and_a_bot_play_to_the_end_with_reactions_and_a_resume(
    tmp_path,
    peers,  # noqa: F811
    people,  # noqa: F811
):
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "teachers-pet", 3, port))
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    peers.join("Cleo", port, "--bot", "greedy")
    replay = tmp_path / "Ben.p2pt"
    # Ben plays a while, then leaves with Ctrl-C and comes back.
    play_together([ana, ben], until=lambda p: entries_in(replay) >= 60, choose=daring)
    ben.ctrl_c()
    assert ben.wait() == 130
    assert "You left the game." in ben.text
    back = people("resume", str(replay))
    # Whoever is asked first answers (Ana may be asked before Ben's seat is back).
    play_together([ana, back], choose=daring, timeout=240)
    assert PROMPT in back.text  # the resumed seat was played by its person
    assert ana.wait() == 0 and back.wait() == 0
    assert peers.wait_all() == {"Cleo": 0}
    for person in (ana, back):
        assert "| final " in person.text
    # a person was asked at a window, in the same words whatever they held
    asked = ana.text + ben.text + back.text
    assert CAUGHT in asked
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in ("Ana", "Ben", "Cleo")}
    assert len(blobs) == 1
    report = verify_file(tmp_path / "Ana.p2pt")
    assert report.valid and report.audited, report.error


def scoring(screen: str) -> str:
    """A person who plays the rulebook's game: scores whenever a play scores,
    shows a Hall Pass or Goody Two-Shoes when asked, sneaks out now and then
    (whenever a Move to the Teachers Lounge or the Library needs the roll), and
    otherwise takes the first line."""
    menu = menu_entries(screen.rsplit("\n\n", 1)[-1] if PROMPT in screen else screen)
    for wanted in ("Show Hall Pass", "Show Goody", "Turn in", "Show Assignment", "Play "):
        for number, words in menu:
            if words.startswith(wanted):
                return number
    for number, words in menu:
        if words.startswith(("Move to the Teachers Lounge", "Move to the Library")):
            if "sneak" in words:
                return number
    return "1"


def test_a_person_plays_a_whole_game_against_the_strong_bot(tmp_path, people):  # noqa: F811
    # `play teachers-pet` seats the strong bot unless told otherwise.
    replay = tmp_path / "Me.p2pt"
    me = people("play", "teachers-pet", "--bots", "1", "--name", "Me", "--bot-delay", "0",
                "--replay", str(replay))  # fmt: skip
    me.expect("Started 1 bot peer for")
    for _ in range(100):
        if record_path(replay).exists():
            break
        time.sleep(0.05)
    bots = json.loads(record_path(replay).read_text())["bots"]
    assert [bot["kind"] for bot in bots] == ["strong"]
    assert me.play(choose=scoring, timeout=240) > 30
    assert me.wait() == 0
    assert "| final " in me.text and "Replay saved to" in me.text
    report = verify_file(replay)
    assert report.valid and report.audited, report.error
    assert report.options == Rulings().options()  # the rulebook's rulings, every one named
