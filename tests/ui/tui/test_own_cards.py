"""Your own cards on your own full-screen table, as in the line mode (issue 25:
"the card you gave, took, were given or were dealt is named to you (only to
you)"): the table's events are worded from the same Seen events."""

from __future__ import annotations

import random
import re

from p2ptable.engine.playout import random_policy
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger
from p2ptable.ui.tui.link import FullScreenFrontend

NAMES = ["Ana", "Ben", "Cal"]


def test_each_seat_is_named_the_card_it_handed_over_or_was_given() -> None:
    seats = [authoring.SeatSecrets.from_seed(b"own-cards", i, 1024) for i in range(3)]
    genesis = authoring.local_genesis("teachers-pet", {}, NAMES, seats, 1024, b"\x05" * 16)
    sessions = {
        i: Session(Ledger(genesis, readers={i: seats[i].deck}), i, seats[i], 0.0) for i in range(3)
    }
    net = MemoryNet(sessions, {i: [genesis.encode()] for i in range(3)})
    screens = {i: FullScreenFrontend() for i in range(3)}
    rng = random.Random(1)
    policies = {i: random_policy(random.Random(rng.random())) for i in range(3)}
    for _ in range(3000):
        net.pump()
        for i, session in sessions.items():
            screens[i].show(session, session.take_events(), net.now)
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        mover = movers[0]
        mover.submit(policies[mover.seat](mover.game, mover.ledger.state, mover.seat), net.now)
    assert all(s.finished for s in sessions.values())
    told_others = 0
    for seat, screen in screens.items():
        lines = "\n".join(screen.lines)
        name = NAMES[seat]
        assert re.search(rf"{name}\s+hands a card to \w+ \[[^\]]+\]", lines) or re.search(
            rf"hands a card to {name} \[[^\]]+\]", lines
        ), lines[-2000:]
        # another seat's hand-over is "a card" here, never named
        others = [
            line
            for line in screen.lines
            if " hands a card to " in line and name not in line.split("[")[0]
        ]
        assert all("[" not in line for line in others)
        told_others += len(others)
        screen.link.close()
    assert told_others  # some hand-over between two others was seen, and not named
