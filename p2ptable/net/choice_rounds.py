"""The two rounds of a secret simultaneous choice (replay/choices.py): every asked
seat's signed commit to its choice (``commits``), then its opening of that
commit (``choices``).  Two rows of the table in net/rounds.py; their parts are
kept, checked and relayed by the parts store they share with the sealed parts
(net/parts.py).

Our choice is remembered by :class:`CommitsRound` (the session keeps it on stable
storage before our commit leaves, so that a seat that comes back commits to the
same action, never a second one), and after a resume it is only a hint until
every other seat has said whether it holds our commit: a seat's own signed
commit, handed back by a peer, is what it reveals (:meth:`CommitsRound.own_back`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p2ptable.engine.api import Action
from p2ptable.net.events import Recovered
from p2ptable.net.parts import BundleRound, PartsRound
from p2ptable.net.round_base import RoundSession
from p2ptable.replay import authoring, choices
from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Expected


class CommitsRound(BundleRound):
    """Every asked seat's signed commit to its secret choice, made when its
    player or bot chooses (:meth:`submit`), never timed: a person may think.

    Our choice is kept here (:meth:`remember`, the session saves it on stable
    storage before our commit leaves), and after a resume it is a hint until
    every other seat has said whether it holds our commit (:meth:`own_back`)."""

    collected = True
    together = True  # our player chooses at the same time as the others

    def __init__(self, parts: PartsRound) -> None:
        super().__init__(parts, Kind.COMMITS)
        self._chosen: tuple[int, Action] | None = None  # our secret choice: (index, action)
        # Whether _chosen was read back from our choice file after a resume: a
        # hint until every other seat has said whether it holds our commit.
        self._from_file = False

    def withholdable(self, expected: Expected) -> bool:
        return False  # a person may think before choosing

    def contributors(self, table: RoundSession, expected: Expected) -> tuple[int, ...]:
        return expected.targets  # type: ignore[return-value]

    def asks(self, table: RoundSession, expected: Expected) -> bool:
        return table.seat in expected.targets and not self.committed(table)

    def submit(self, table: RoundSession, action: Action, now: float, clock: bool = False) -> None:
        # A secret choice (the clock's too: a commit says nothing of who chose,
        # and is made again from the kept choice after a crash): kept first,
        # then our commit to it goes out (the round's step), and the choices
        # are revealed once all are in.
        table.keep_choice(table.ledger.next_index, action.text)
        self.commit(table, action, now)

    def committed(self, table: RoundSession) -> bool:
        """Whether our part of the pending entry is made (our commit, say)."""
        return table.seat in self.parts.have(table.ledger.next_index)

    def secret_choice(
        self, table: RoundSession, expected: Expected
    ) -> tuple[Action | None, list[int], list[int]]:
        """Ours (None if not made), the other asked seats whose commit we lack,
        and those whose commit we hold (``Session.secret_choice``)."""
        waiting = self.awaited(table, expected) - {table.seat}
        asked = {seat for seat in expected.targets if seat is not None}  # all are seats
        chosen = asked - waiting - {table.seat}
        return self.our_choice(table.ledger.next_index), sorted(waiting), sorted(chosen)

    def remember(self, index: int, action: Action, from_file: bool = False) -> None:
        """Our secret choice for the ``commits`` entry at ``index`` (kept by the
        session, and given back after a resume: ``from_file``): our commit is
        made from it, from the file only once no seat holds a commit of ours."""
        self._chosen = (index, action)
        self._from_file = from_file

    def our_choice(self, index: int) -> Action | None:
        """Our secret choice for the ``commits`` entry at ``index``, if made."""
        chosen = self._chosen
        return chosen[1] if chosen is not None and chosen[0] == index else None

    def commit(self, table: RoundSession, action: Action, now: float) -> None:
        """Our secret choice for the pending ``commits`` entry: our signed commit
        to ``action``, queued for its collector or every seat (the session keeps
        the choice on stable storage before the frames leave)."""
        self.remember(table.ledger.next_index, action)
        part = authoring.choice_part(table.ledger, table.seat, table.secrets, action)
        self.parts._mine(table, part, now)

    def our_part(self, table: RoundSession, expected: Expected) -> Entry | None:
        ledger, seat = table.ledger, table.seat
        chosen = self._chosen  # made by our player's choice (commit), or kept
        if chosen is not None and chosen[0] < ledger.next_index and not self._from_file:
            chosen = self._carried(table, chosen)
        if chosen is None or chosen[0] != ledger.next_index:
            return None
        if self._from_file:
            if table.resuming:
                return None  # a seat may still hand us our commit back
            if chosen[1] not in ledger.game.legal_actions(ledger.state, seat):
                self._chosen = None  # a damaged or forged hint: ask again
                return None
        return authoring.choice_part(ledger, seat, table.secrets, chosen[1])

    def _carried(
        self, table: RoundSession, chosen: tuple[int, Action]
    ) -> tuple[int, Action] | None:
        """Our choice made for a ``commits`` entry that a departure took the place
        of (a seat named as having abandoned while we had chosen): the same
        decision is asked at the entry after it (a departure changes no game
        state), so we commit there to what our player chose, asking nothing
        twice.  Kept again before the new commit leaves.  The old commit was
        never bundled; the new one, at another position, has its own salt."""
        ledger = table.ledger
        index, action = chosen
        entries = ledger.entries
        if any(entries[k].kind != Kind.DEPARTURE for k in range(index, len(entries))):
            return chosen  # the commits entry came (or more): nothing to carry
        if action not in ledger.game.legal_actions(ledger.state, table.seat):
            return chosen  # asked something else now: our player chooses again
        table.keep_choice(ledger.next_index, action.text)
        self.remember(ledger.next_index, action)
        return self._chosen

    def bundle(self, ledger: Any, bucket: dict[int, Entry]) -> Entry:
        return authoring.choices_bundle(ledger, bucket)

    def own_back(self, table: RoundSession, part: Entry) -> None:
        """Our commit ``part`` for the pending commits entry: the action it seals
        becomes our choice (a choice file that says otherwise is wrong)."""
        ledger = table.ledger
        index = ledger.next_index
        chosen = self._chosen
        if chosen is not None and chosen[0] == index and not self._from_file:
            return  # made by this run: it is the commit
        commit = part.body["msg"].get("commit") if isinstance(part.body["msg"], dict) else None
        if not isinstance(commit, bytes):
            return  # not a commit (the step's check refuses it): nothing to take back
        salt = choices.salt_for(table.secrets, ledger.game_id, index)
        legal = ledger.game.legal_actions(ledger.state, table.seat)
        action = choices.committed_action(legal, ledger.game_id, index, table.seat, salt, commit)
        if action is None:
            return  # sealed nothing the rules list now: the reveal will say so
        kept = chosen[1] if chosen is not None and chosen[0] == index else None
        self.remember(index, action)
        if kept == action:
            return
        # Kept again before anything else leaves: should every seat crash at once
        # (their memories, and a commits bundle not yet synced, lost), the file
        # then holds the commit's choice, not none or a wrong one.
        table.keep_choice(index, action.text)
        if kept is None:
            why = "the choice file held none for it (lost or damaged)"
        else:
            why = f"the choice file said {kept.text!r}, which is not what was signed"
        text = (
            f"our secret choice for entry {index} was taken back from our own signed "
            f"commit, which another seat held: {action.text!r}; {why}"
        )
        table.report(Recovered(index, action.text, text))


class ChoicesRound(BundleRound):
    """Every asked seat's opening of its commit (the action and the salt), made
    at once from the log and our key (our remembered choice tried first)."""

    collected = True

    def __init__(self, parts: PartsRound, commits: CommitsRound) -> None:
        super().__init__(parts, Kind.CHOICES)
        self.commits = commits  # where our choice is remembered

    def contributors(self, table: RoundSession, expected: Expected) -> tuple[int, ...]:
        return expected.targets  # type: ignore[return-value]

    def opens(self, ledger: Any) -> bool:
        return not ledger.signed_parts(Kind.CHOICES)

    def our_part(self, table: RoundSession, expected: Expected) -> Entry | None:
        ledger, seat, secrets = table.ledger, table.seat, table.secrets
        at = ledger.position.commits_at
        hint = self.commits.our_choice(at)
        action = authoring.committed_choice(ledger, seat, secrets, hint)
        if hint != action or self.commits._from_file:
            # Found again from the log's commit (our choice file lost, damaged
            # or wrong): kept again before our reveal leaves, so that a crash
            # of every seat, which may lose the unsynced commits bundle with
            # it, finds the choice on disk and commits to it again.
            self.commits.remember(at, action)
            table.keep_choice(at, action.text)
        return authoring.choice_part(ledger, seat, secrets, action)

    def bundle(self, ledger: Any, bucket: dict[int, Entry]) -> Entry:
        return authoring.choices_bundle(ledger, bucket)
