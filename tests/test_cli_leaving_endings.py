"""What a person who typed ``leave`` is told as their peer exits (issue 27).

Issue 27: "a person can leave a running game ('leave: a bot plays for me'); their
peer publishes its own secret and exits".  The peer stays a little after the
departure, until every other seat holds it; bots at a fast table may play the
game to its end in that time (seen by hand: a 3-seat Teacher's Pet with two bot
peers was over when the leaver's peer exited).  Then the game is not going on:
the leaver is told that it ended, not how to watch the rest of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from p2ptable.cli.live_endings import _finish
from p2ptable.engine.api import Outcome
from p2ptable.net.peer import LEFT
from p2ptable.play_result import PlayResult


def ending(capsys, result: PlayResult) -> str:
    with pytest.raises(SystemExit) as exited:
        _finish(result)
    assert exited.value.code == LEFT
    return capsys.readouterr().out


def left(outcome: Outcome | None) -> PlayResult:
    replay = Path("/games/pat.p2pt")
    names = ("Pat", "Cal", "Bea")
    return PlayResult(LEFT, replay, names, outcome, left_for_good=True).with_hint()


def test_a_leaver_whose_game_goes_on_is_told_how_to_watch_the_rest(capsys):
    said = ending(capsys, left(None))
    assert "You left the table: a bot plays for you from now on." in said
    assert "To watch the rest of the game: p2ptable resume /games/pat.p2pt" in said


def test_a_leaver_whose_game_ended_before_their_peer_exited_is_told_it_ended(capsys):
    said = ending(capsys, left(Outcome((68, 81, 73), (1,))))
    assert "You left the table; a bot played for you, and the game is over." in said
    assert "watch the rest" not in said and "from now on" not in said
    assert "Replay saved to /games/pat.p2pt" in said
