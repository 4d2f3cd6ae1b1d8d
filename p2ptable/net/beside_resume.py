"""What a resumed seat takes back from beside its replay: its talk and a break.

How it works: :func:`take_back` reads ``REPLAY.talk`` (replay/talk_file.py) into
the session's talk book, so our own counter goes on from the lines we said
before (a line of ours numbered again would be refused by ``verify``), and
``REPLAY.break`` (replay/break_file.py): the seats absent since the agreed break
are spared the abandonment clock until they are heard from (net/waiting.py), and
the break itself is spent (late copies of its signatures make nothing).  A
break file that does not check (forged, damaged, or for a position our log does
not hold) spares nobody; what is wrong with it is returned for the person.
"""

from __future__ import annotations

from pathlib import Path

from p2ptable.net.session import Session
from p2ptable.replay.break_file import read_agreement, spared_after_break
from p2ptable.replay.talk_file import read_talk, talk_path

# The log length a line of ours may name: any (the log grew since; every line
# is checked against the log by verify).
ANY_LENGTH = 1 << 62


def take_back(session: Session, replay: Path) -> tuple[str | None, frozenset[int]]:
    """Take the side records back into ``session``: why a break file was not
    believed (None if none or believed), and the seats spared."""
    ledger = session.ledger
    talk = read_talk(talk_path(replay), ledger.game_id, session.keys, ANY_LENGTH)
    session.sideline.resume(talk.lines, talk.records)
    spared, problem = spared_after_break(replay, ledger)
    session.waiting.spared = spared
    agreement, _ = read_agreement(replay, ledger.game_id, session.keys)
    if problem is None and agreement is not None:
        session.sideline.taken_back(agreement)  # spent: copies still coming make nothing
    return problem, spared
