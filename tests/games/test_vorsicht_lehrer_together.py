"""Vorsicht Lehrer!'s teacher-card choices are secret and simultaneous, between
live sessions (RULES.md, "Everyone chooses at once, in secret").

Issue 14: "when a teacher card gives negative points to all, every player
chooses at once between taking them and a risk throw ... then the throws are
made.  Today the choices go one seat after another, and a later seat sees
whether rivals escaped before choosing; change it."  And: "A view test: before
the last reveal, no seat's view or screen contains another seat's choice."
"""

from __future__ import annotations

import random

from p2ptable.engine.api import Action
from p2ptable.net.memory import MemoryNet
from p2ptable.replay.verify import verify_bytes
from p2ptable.ui import vorsicht_lehrer_screen as screen
from tests.net.test_session_sealed import log_file, make_table


def to_teacher_choice(sessions, net, rng: random.Random):
    """Play (bots' random moves) until every seat is asked its teacher-card choice."""
    for _ in range(2000):
        net.pump()
        if all(s.choosing_together() for s in sessions.values()):
            return
        movers = [s for s in sessions.values() if s.my_turn()]
        assert movers, "the game ended before a teacher card with negative points"
        mover = movers[0]
        legal = mover.legal_actions()
        mover.submit(legal[0] if legal[0].verb != "risk" else rng.choice(legal), net.now)
    raise AssertionError("no teacher card came")


def screens(sessions) -> dict[int, str]:
    names = [f"P{i}" for i in sessions]
    return {i: screen.render(s.view(), names, []) for i, s in sessions.items()}


def test_no_view_or_screen_shows_a_teacher_choice_before_all_are_revealed():
    _, sessions, logs = make_table(3, "together")
    net = MemoryNet(sessions, logs)
    to_teacher_choice(sessions, net, random.Random(4))
    before = {i: (s.view(), s.public_view()) for i, s in sessions.items()}
    shown = screens(sessions)
    assert all("everyone chooses at once, in secret" in text for text in shown.values())
    sessions[0].submit(Action("risk"), net.now)
    sessions[1].submit(Action("take"), net.now)
    net.pump()
    for i, s in sessions.items():
        assert (s.view(), s.public_view()) == before[i]
    assert screens(sessions) == shown  # nothing on any screen changed
    assert sessions[2].my_turn() and not sessions[0].my_turn()
    sessions[2].submit(Action("take"), net.now)
    net.pump()
    # Revealed together, and carried out at once (the throw is automatic).
    for s in sessions.values():
        revealed = [e for e in s.ledger.entries if e.kind == "choices"][-1]
        assert [p["action"] for p in revealed.body["parts"]] == ["risk", "take", "take"]
        assert s.view() != before[s.seat][0]


def test_live_games_with_secret_teacher_choices_end_with_identical_logs_that_verify():
    _, sessions, logs = make_table(4, "together-whole")
    net = MemoryNet(sessions, logs)
    rng = random.Random(7)
    for _ in range(5000):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        rng.shuffle(movers)  # whoever is asked answers first, in any order
        mover = movers[0]
        mover.submit(rng.choice(mover.legal_actions()), net.now)
    net.pump()
    assert all(s.finished and s.stopped is None for s in sessions.values())
    files = {log_file(log) for log in logs.values()}
    assert len(files) == 1
    data = files.pop()
    report = verify_bytes(data)
    assert report.valid, report.error
    kinds = [e.kind for e in report.ledger.entries]
    assert "commits" in kinds and kinds.count("commits") == kinds.count("choices")
