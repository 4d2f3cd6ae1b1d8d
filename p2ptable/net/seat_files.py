"""What a playing seat keeps on disk, next to its replay: the replay itself as it
grows, the seat's secrets (rewritten whenever what ``resume`` needs changes), the
genesis body while every seat signs it, our secret choice, and the seat's lock.

How it works
------------
:class:`SeatFiles` is the peer's collaborator for its files (net/peer.py holds
the loop, net/persistence.py the formats).  It knows nothing of the network: the
peer tells it when the seat is set (:meth:`SeatFiles.seat_is_set`: the replay's
path chosen, the seat locked, the secrets and the pending genesis saved, all
before our signature on the genesis leaves), when the replay starts
(:meth:`SeatFiles.open_replay`: the genesis written and synced, the pending body
dropped), and whenever the endpoints or the other seats' start counters change
(:meth:`SeatFiles.save_secrets`).  The session's
entries go to :attr:`SeatFiles.writer` through ``deliver`` (net/delivery.py).
"""

from __future__ import annotations

from pathlib import Path

from p2ptable.net.choice_file import ChoiceKeeper, choice_path
from p2ptable.net.pause import Agreement
from p2ptable.net.pending_genesis import drop_pending, save_pending
from p2ptable.net.persistence import save_secrets
from p2ptable.net.seat_lock import SeatLock, hold_seat_lock
from p2ptable.net.session import Choice
from p2ptable.replay import authoring
from p2ptable.replay.break_file import keep_agreement
from p2ptable.replay.logfile import LogWriter
from p2ptable.replay.talk_file import TalkWriter


class SeatFiles:
    """The files of one seat while its peer runs."""

    def __init__(
        self, secrets: authoring.SeatSecrets, port: int, spectators_code: str | None
    ) -> None:
        self.secrets = secrets
        self.port = port  # the port our inbox listens on, kept for `resume`
        # A host admitting spectators keeps its code with its secrets, so that it
        # admits them again after a resume (persistence.py).
        self.spectators_code = spectators_code
        self.path: Path | None = None  # the replay's, once chosen
        self.writer: LogWriter | None = None
        # Held while we play the seat, so a second `resume` of it is refused
        # (taken by the caller for a resume, at the genesis for a new game).
        self.lock: SeatLock | None = None
        self.boots: dict[int, int] = {}  # the other seats' start counters, as saved
        self._choices: ChoiceKeeper | None = None  # REPLAY.choice, at our first secret choice
        self._talk: TalkWriter | None = None  # REPLAY.talk, at the first line said or heard

    def seat_is_set(
        self, path: Path, seat: int, boot: int, endpoints: list[str], body: bytes
    ) -> None:
        """The genesis body is known, our signature not yet sent: make the seat
        resumable (replay path, lock, secrets, the pending body)."""
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.lock is None:
            self.lock = hold_seat_lock(path)
        self.save_secrets(seat, boot, endpoints, {})
        save_pending(path, body)

    def open_replay(self, genesis: bytes) -> None:
        """The replay begins with the genesis every seat signed, synced: a power
        cut before our first move leaves a resumable replay."""
        assert self.path is not None
        self.writer = LogWriter(self.path, new=True)
        self.writer.append(genesis)
        self.writer.sync()
        drop_pending(self.path)

    def reopen_replay(self, path: Path) -> None:
        """A resumed seat's replay, appended to from where it ends."""
        self.path = path
        self.writer = LogWriter(path)

    def save_secrets(
        self, seat: int, boot: int, endpoints: list[str], peer_boots: dict[int, int]
    ) -> None:
        assert self.path is not None
        save_secrets(
            self.path,
            self.secrets,
            seat,
            endpoints,
            self.port,
            boot=boot,
            peer_boots=peer_boots,
            spectators_code=self.spectators_code,
        )

    def keep_choice(self, choice: Choice) -> None:
        assert self.path is not None
        if self._choices is None:  # opened once: each choice is then one write and sync
            self._choices = ChoiceKeeper(self.path)
        self._choices.keep(choice)

    def keep_talk(self, record: bytes) -> None:
        """A line said or heard, beside the replay (not synced: a line lost in a
        power cut is a line, never a move; replay/talk_file.py)."""
        assert self.path is not None
        if self._talk is None:
            self._talk = TalkWriter(self.path)
        self._talk.append(record)

    def keep_break(self, agreement: Agreement) -> None:
        """The table's agreed break, durably, before we end (replay/break_file.py)."""
        assert self.path is not None
        keep_agreement(self.path, agreement)

    def log_path(self) -> Path | None:
        """The peer's diagnostic log, next to the replay (NAME.p2pt.peer.log)."""
        return None if self.path is None else self.path.with_name(self.path.name + ".peer.log")

    def close(self, over: bool) -> None:
        """The peer ends: the lock released; once the game is ``over`` nothing
        more will be chosen, so the kept choice has done its work."""
        if self.lock is not None:
            self.lock.release()
        if self._choices is not None:
            self._choices.close()
        if self._talk is not None:
            self._talk.close()
        if over and self.path is not None:
            choice_path(self.path).unlink(missing_ok=True)
