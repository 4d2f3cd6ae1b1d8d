"""How a live game ended for our seat: :class:`PlayResult`, what `host`, `join`,
`play` and `resume` return (play.py) and the CLI says (cli/live.py), with the
exit statuses it has besides the peer's own LEFT and PAUSED."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from p2ptable.engine.api import Outcome
from p2ptable.invocation import command
from p2ptable.net.events import Stopped
from p2ptable.net.peer import LEFT, PAUSED
from p2ptable.replay.ledger import Ledger

FINISHED, TIMED_OUT, STOPPED, NO_ANSWER = 0, 2, 3, 4


@dataclass(frozen=True)
class PlayResult:
    status: int  # FINISHED, TIMED_OUT, STOPPED, NO_ANSWER, LEFT or PAUSED
    replay: Path | None
    names: tuple[str, ...] = ()
    outcome: Outcome | None = None  # a finished game's result
    stopped: Stopped | None = None  # what stopped a stopped game
    resume_hint: str | None = None  # the command that continues a game left early
    already_over: bool = False  # resume found the game over: nothing was played
    bots: tuple[str, ...] = ()  # the kinds of the bot peers beside us (a rematch's too)
    left_for_good: bool = False  # we typed leave: a bot plays our seat (issue 27)

    def with_hint(self) -> PlayResult:
        if self.status in (LEFT, PAUSED) and self.replay is not None:
            return replace(self, resume_hint=command("resume", str(self.replay)))
        return self


def result_of(status: int, replay: Path | None, ledger: Ledger | None) -> PlayResult:
    if ledger is None:
        return PlayResult(status, replay)
    names = tuple(s.name for s in ledger.seats)
    halt = ledger.stopped
    stopped = None
    if halt is not None:
        stopped = Stopped(halt.reason, halt.culprit, halt.detail, halt.proved, halt.detector)
    return PlayResult(status, replay, names, ledger.result, stopped)
