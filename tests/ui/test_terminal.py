"""The terminal frontend: a person's screen, menu and input during a live game.

Issue 3: "The screen is a readable terminal view ... a numbered list of legal
actions to choose from, and ? for help. Colors respect NO_COLOR." and "a peer that
is silent for a few seconds is shown as e.g. 'waiting for Ben (no contact for 12 s)'".
Driven here by sans-IO sessions over the in-memory link; input and output are
string buffers.
"""

from __future__ import annotations

import io

from p2ptable.engine.api import Action
from p2ptable.net.frontend import Leave
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger
from p2ptable.ui.terminal import TerminalFrontend


def table(players: int = 2) -> dict[int, Session]:
    seats = [authoring.SeatSecrets.from_seed(b"terminal", i, 256) for i in range(players)]
    names = ["Ana", "Ben", "Cleo"][:players]
    body = authoring.genesis_body(
        "pet-quartet",
        {"scoring": "basic", "variant": "standard"},
        names,
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [s.link_public for s in seats],
        256,
        bytes(16),
    )
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    return {i: Session(Ledger(genesis), i, seats[i], 0.0) for i in range(players)}


def frontend(lines: str = "") -> tuple[TerminalFrontend, io.StringIO]:
    out = io.StringIO()
    return TerminalFrontend(stdin=io.StringIO(lines), stdout=out), out


def to_move() -> tuple[dict[int, Session], MemoryNet, Session]:
    sessions = table()
    net = MemoryNet(sessions)
    net.pump()
    mover = next(s for s in sessions.values() if s.my_turn())
    return sessions, net, mover


def test_my_turn_shows_the_screen_and_a_numbered_menu():
    _, net, mover = to_move()
    ui, out = frontend()
    ui.show(mover, [], net.now)
    assert ui.choose(mover, net.now, typed=False) is None  # nothing typed yet
    screen = out.getvalue()
    assert screen.startswith("Pet Quartet | standard | basic scoring | round 1")
    assert "\n1) draw a card" in screen
    assert "Your choice (number, or ? for help):" in screen
    assert "\x1b[" not in screen  # not a TTY: no colour, no clearing


def test_a_number_picks_that_move():
    _, net, mover = to_move()
    ui, _ = frontend("1\n")
    assert ui.choose(mover, net.now, typed=True) == Action("draw")


def test_help_and_bad_input_explain_and_keep_the_turn():
    _, net, mover = to_move()
    ui, out = frontend("?\n9\n")
    assert ui.choose(mover, net.now, typed=True) is None
    assert "At the table" in out.getvalue()
    assert ui.choose(mover, net.now, typed=True) is None
    assert "there is no choice 9: choose 1, or ? for help" in out.getvalue()


def test_input_that_is_not_ours_to_give_is_ignored():
    sessions, net, mover = to_move()
    idle = next(s for s in sessions.values() if s is not mover)
    ui, out = frontend("1\n")
    assert ui.choose(idle, net.now, typed=True) is None
    assert "there is nothing to choose right now" in out.getvalue()


def test_the_end_of_the_input_is_leaving():
    # Issue 22: "End of input is leaving, like Ctrl-C" (it used to say "Input
    # closed", with a placeholder for the replay, and wait for ever).
    _, net, mover = to_move()
    ui, out = frontend("")
    assert ui.choose(mover, net.now, typed=True) == Leave("input closed")
    assert ui.stdin_closed and ui.input_fd() is None  # the loop stops polling it
    assert ui.choose(mover, net.now, typed=False) == Leave("input closed")
    assert "REPLAY" not in out.getvalue()


def test_input_that_ends_in_the_lobby_leaves_when_the_game_begins():
    # Not a terminal (a pipe, /dev/null): the lobby is not left, and nothing is said.
    _, net, mover = to_move()
    ui, out = frontend("")
    assert ui.choose(None, net.now, typed=True) is None
    assert ui.input_fd() is None and out.getvalue() == ""
    assert ui.choose(mover, net.now, typed=False) == Leave("input closed")


def test_ctrl_d_on_a_terminal_leaves_the_lobby_too():
    class Keyboard(io.StringIO):
        def isatty(self) -> bool:
            return True

    ui = TerminalFrontend(stdin=Keyboard(""), stdout=io.StringIO())
    assert ui.choose(None, 0.0, typed=True) == Leave("input closed")


def test_a_seat_that_left_is_shown_with_why():
    sessions, net, mover = to_move()
    other = next(s for s in sessions.values() if s is not mover)
    other.leave("input closed")
    net.pump()
    ui, out = frontend()
    ui.show(mover, mover.take_events(), net.now)
    name = other.names[other.seat]
    assert f"{name} left: input closed; waiting for {name} to resume" in out.getvalue()


def test_a_silent_peer_is_shown_with_its_silence():
    sessions = table()
    ana = sessions[0]  # Ben never answers: not in the net
    ui, out = frontend()
    net = MemoryNet({0: ana})
    net.pump()
    ana.peers[1].last_contact = 0.0  # heard once at the start, then silence
    ui.show(ana, [], 12.4)
    assert "waiting for Ben (no contact for 10 s)" in out.getvalue()  # pipes count in tens
    ui.tty = True
    ui.show(ana, [], 13.6)
    assert "waiting for Ben (no contact for 13 s)" in out.getvalue()


def test_the_end_shows_final_scores():
    from p2ptable.engine.playout import random_policy

    sessions = table()
    net = MemoryNet(sessions)
    import random

    policy = random_policy(random.Random(2))
    for _ in range(2000):
        net.pump()
        movers = [s for s in sessions.values() if s.my_turn()]
        if not movers:
            break
        mover = movers[0]
        mover.submit(policy(mover.ledger.game, mover.ledger.state, mover.seat), net.now)
    net.pump()
    ui, out = frontend()
    ui.show(sessions[0], sessions[0].take_events(), net.now)
    text = out.getvalue()
    assert "Pet Quartet | final scores | basic scoring" in text
    assert "winner" in text


# -- issue 25: the bell, stale messages, and events that do not fit ------------------


class Screen(io.StringIO):
    """A terminal's output: a TTY."""

    def isatty(self) -> bool:
        return True


def test_the_bell_rings_once_when_it_becomes_your_turn():
    # Issue 25: "nothing tells you it is your turn if you looked away": "A bell when
    # it becomes your turn (terminal bell; `--no-bell`)".
    sessions, net, mover = to_move()
    idle = next(s for s in sessions.values() if s is not mover)
    ours = Screen()
    ui = TerminalFrontend(stdin=io.StringIO(), stdout=ours)
    ui.show(mover, [], net.now)
    ui.show(mover, [], net.now + 5)  # the clock line redraws it: no second ring
    theirs = Screen()
    TerminalFrontend(stdin=io.StringIO(), stdout=theirs).show(idle, [], net.now)
    quiet = Screen()
    TerminalFrontend(stdin=io.StringIO(), stdout=quiet, bell=False).show(mover, [], net.now)
    piped = io.StringIO()
    TerminalFrontend(stdin=io.StringIO(), stdout=piped).show(mover, [], net.now)
    ui.close()
    assert ours.getvalue().count("\a") == 1 and ours.getvalue().startswith("\a\x1b[2J")
    assert "\a" not in theirs.getvalue() + quiet.getvalue() + piped.getvalue()


def test_a_bell_rings_again_at_the_next_turn_only():
    from p2ptable.ui.bell import rings

    assert [rings(a, b) for a, b in [(False, True), (True, True), (True, False)]] == [
        True,
        False,
        False,
    ]
    assert not rings(False, True, enabled=False)


def test_words_said_while_waiting_are_not_printed_under_your_next_prompt():
    # Issue 25: "the last message or the whole help re-printed under the next prompt".
    sessions, net, mover = to_move()
    idle = next(s for s in sessions.values() if s is not mover)
    ui, out = frontend("?\n")
    assert ui.choose(idle, net.now, typed=True) is None
    assert "At the table" in out.getvalue()  # said at once
    for _ in range(50):  # the mover plays until the idle seat's turn comes
        mover.submit(mover.legal_actions()[0], net.now)
        net.pump()
        if idle.my_turn():
            break
    assert idle.my_turn()
    ui.show(idle, idle.take_events(), net.now)
    last = out.getvalue().rsplit("Pet Quartet |", 1)[1]
    assert "Your choice (number, or ? for help):" in last and "At the table" not in last


def test_help_asked_at_your_turn_stays_on_a_terminal_while_the_menu_does():
    _, net, mover = to_move()
    out = Screen()
    ui = TerminalFrontend(stdin=io.StringIO("?\n"), stdout=out)
    ui.choose(mover, net.now, typed=True)
    mover.peers[1 - mover.seat].last_contact = -10.0  # a status line to redraw for
    ui.show(mover, [], net.now + 5)
    ui.close()
    screens = out.getvalue().split("\x1b[2J")
    assert len(screens) >= 3 and all("At the table" in s for s in screens[1:])


def test_on_a_pipe_the_help_is_printed_once_not_under_every_later_screen():
    _, net, mover = to_move()
    ui, out = frontend("?\n")
    ui.choose(mover, net.now, typed=True)
    mover.peers[1 - mover.seat].last_contact = -10.0  # the screen changes: printed again
    ui.show(mover, [], net.now + 5)
    assert out.getvalue().count("At the table") == 1
    assert out.getvalue().count("Your choice (number, or ? for help):") == 2


def test_r_lists_every_event_since_your_last_choice():
    # Issue 25: events that do not fit are counted in the "Recent" title; r shows them.
    _, net, mover = to_move()
    ui, out = frontend("1\nr\n")
    ui.show(mover, mover.take_events(), net.now)
    assert ui.choose(mover, net.now, typed=True) == Action("draw")
    mover.submit(Action("draw"), net.now)
    net.pump()
    ui.show(mover, mover.take_events(), net.now)
    assert ui.choose(mover, net.now, typed=True) is None
    listed = out.getvalue().rsplit("Since your last choice:\n", 1)[1].strip().splitlines()
    name = mover.names[mover.seat]
    assert [line.split(maxsplit=2) for line in listed] == [
        ["2", name, "draws a card"],
        ["3", "chance", listed[1].split(maxsplit=2)[2]],
    ]
