"""A bot in a live game: the peer loop's frontend for a seat that no person plays."""

from __future__ import annotations

from p2ptable.engine.api import Action
from p2ptable.net.session import Finished, Session, Stopped
from p2ptable.ui.text import result_lines


class BotFrontend:
    """A bot seat: prints a line per event (or nothing when quiet) and decides at once."""

    def __init__(self, policy, quiet: bool = False, delay: float = 0.0) -> None:  # noqa: ANN001
        self.policy = policy
        self.quiet = quiet
        self.delay = delay  # "thinking" time, so people can follow a bot's moves
        self._turn_seen: tuple[int, float] | None = None

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    def on_events(self, session: Session, events: list, now: float) -> None:
        for event in events:
            if isinstance(event, Finished):
                names = [seat.name for seat in session.ledger.seats]
                self.say(result_lines(event.outcome, names))
            elif isinstance(event, Stopped):
                self.say(f"Game stopped: {event.reason}")

    def decide(self, session: Session, now: float) -> Action | None:
        if self.delay > 0:
            index = session.ledger.next_index
            if self._turn_seen is None or self._turn_seen[0] != index:
                self._turn_seen = (index, now)
            if now - self._turn_seen[1] < self.delay:
                return None
        return self.policy(session.ledger.game, session.ledger.state, session.seat)

    def tick(self, session: Session, now: float) -> None:
        pass

    def wake_at(self, session: Session, now: float) -> float:
        if not session.my_turn():
            return now + 3600.0  # nothing of ours is due: messages wake the loop
        seen = self._turn_seen
        if self.delay > 0 and seen is not None and seen[0] == session.ledger.next_index:
            return seen[1] + self.delay  # the end of our think time
        return now  # our turn again: decide at once

    def stdin_fd(self) -> int | None:
        return None

    def on_stdin(self, session: Session | None, now: float) -> Action | None:
        return None
