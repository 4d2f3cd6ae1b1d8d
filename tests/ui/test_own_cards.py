"""Your own knowledge on your own screen, and on nobody else's (issue 25).

Issue 25: "Your own screen hides what you know: 'Ana hands a card to Cal' when you
are Ana and gave Gift 2; a card you were given is not named to you." and "the card
you gave, took, were given or were dealt is named to you (only to you), on the
screen and in `show --seat` for your own replay while the game is unfinished".
STYLE: "Hidden information is a view": a seat's screen names only the cards its
own ledger read with its own deck secret; no other seat's screen, and no
spectator's, ever holds them.
"""

from __future__ import annotations

import io
import random
import re

import pytest

from p2ptable.engine.playout import random_policy
from p2ptable.net.events import Seen
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Applied, Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame
from p2ptable.replay.seen_cards import append_seeing
from p2ptable.ui import record as records
from p2ptable.ui import terminal
from p2ptable.ui.narrative import event_line
from p2ptable.ui.terminal import TerminalFrontend

NAMES = ["Ana", "Ben", "Cal"]
BRACKET = re.compile(r"\[([^\]]*)\]$")


def played(seed: int = 1, moves: int = 3000):
    """A whole game of Teacher's Pet between three sessions, each with a screen of
    its own fed exactly the events its session reported; the log, and each seat's
    events."""
    seats = [authoring.SeatSecrets.from_seed(b"own-cards", i, 1024) for i in range(3)]
    genesis = authoring.local_genesis("teachers-pet", {}, NAMES, seats, 1024, b"\x05" * 16)
    sessions = {
        i: Session(Ledger(genesis, readers={i: seats[i].deck}), i, seats[i], 0.0) for i in range(3)
    }
    logs = {i: [genesis.encode()] for i in range(3)}
    net = MemoryNet(sessions, logs)
    screens = {i: TerminalFrontend(stdin=io.StringIO(), stdout=io.StringIO()) for i in range(3)}
    events: dict[int, list] = {i: [] for i in range(3)}
    rng = random.Random(seed)
    policies = {i: random_policy(random.Random(rng.random())) for i in range(3)}

    def shown() -> None:
        for i, session in sessions.items():
            batch = session.take_events()
            events[i] += batch
            screens[i].show(session, batch, net.now)

    for _ in range(moves):
        net.pump()
        shown()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        mover = movers[0]
        mover.submit(policies[mover.seat](mover.game, mover.ledger.state, mover.seat), net.now)
    net.pump()
    shown()
    for screen in screens.values():
        screen.close()
    assert all(s.finished for s in sessions.values())
    return MAGIC + b"".join(encode_frame(p) for p in logs[0]), screens, events


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    kept, terminal.RECENT_KEPT = terminal.RECENT_KEPT, 100_000  # every line, to read back
    try:
        data, screens, events = played()
    finally:
        terminal.RECENT_KEPT = kept
    path = tmp_path_factory.mktemp("own") / "game.p2pt"
    path.write_bytes(data)
    return records.check(str(path), data), screens, events


def _brackets(lines) -> dict[int, str]:  # noqa: ANN001
    found = {}
    for line in lines:
        index, _, rest = line.strip().partition(" ")
        match = BRACKET.search(rest)
        if match:
            found[int(index)] = match.group(1)
    return found


def test_each_seat_is_told_the_cards_it_was_dealt_gave_and_was_given(game):
    checked, _, events = game
    for seat in range(3):
        # What seat saw, as `export --seat` reads it from the audited log.
        expected = {
            line.index: BRACKET.search(line.words).group(1)  # type: ignore[union-attr]
            for line in records.record(checked, seat).lines
            if BRACKET.search(line.words)
        }
        seen = {e.index: e.cards for e in events[seat] if isinstance(e, Seen)}
        lines = [
            event_line(
                e, NAMES, {s: [_name(c) for c in cs] for s, cs in seen.get(e.index, {}).items()}
            )
            for e in events[seat]
            if isinstance(e, Applied)
        ]
        assert _brackets(lines) == expected
        handed = [line for line in lines if " hands a card to " in line and "[" in line]
        assert handed, f"{NAMES[seat]} never gave or was given a card in this game"


def _name(card: int) -> str:
    from p2ptable.games import get_game

    return get_game("teachers-pet").card_name(card)  # type: ignore[attr-defined]


def test_the_screen_names_the_card_you_handed_over(game):
    _, screens, _ = game
    for seat, screen in screens.items():
        recent = "\n".join(screen.recent)
        assert re.search(rf"{NAMES[seat]}\s+hands a card to \w+ \[[^\]]+\]", recent) or re.search(
            rf"hands a card to {NAMES[seat]} \[[^\]]+\]", recent
        ), recent[-2000:]


def test_no_other_seat_is_told_a_hidden_card(game):
    """Every event line any screen printed names a card in brackets only for an entry
    whose cards that seat's own ledger read; the others' deals and hand-overs read as
    "a card" there, though the audit names them."""
    checked, screens, events = game
    audit = {line.index: line.words for line in records.record(checked, None).lines}
    event = re.compile(r"^\s+(\d+)  \S")
    for seat, screen in screens.items():
        own = {e.index for e in events[seat] if isinstance(e, Seen)}
        others = set().union(
            *({e.index for e in events[o] if isinstance(e, Seen)} for o in range(3) if o != seat)
        )
        assert others - own, "the other seats were dealt or handed cards of their own"
        printed = screen.out.getvalue()  # type: ignore[attr-defined]
        told = set()
        for line in printed.splitlines():
            match = event.match(line)
            if match and int(match.group(1)) in others - own:
                assert "[" not in line, line
                assert "[" in audit[int(match.group(1))]  # hidden from this seat, not public
                told.add(int(match.group(1)))
        assert told  # such lines were on this screen, without the card


def test_a_spectators_ledger_reads_no_hidden_card(game):
    """A spectator's ledger holds no deck secret (watch.py): however the log goes,
    nothing it appends is seen, so its screen can name no hidden card."""
    checked, _, _ = game
    ledger = Ledger(Entry.decode(checked.payloads[0]))
    for payload in checked.payloads[1:-2]:  # up to the published secrets
        _, seen = append_seeing(ledger, Entry.decode(payload))
        assert seen == {}
