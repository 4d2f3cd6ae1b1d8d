"""The full-screen table's frontend, the peer's side (ui/tui/link.py): it hands
the app snapshots of the seat's view and takes back what the person chose,
checked against the legal moves of the moment."""

from __future__ import annotations

import select

from p2ptable.bots.seat import BotPlayer
from p2ptable.engine.api import Action
from p2ptable.net import talk
from p2ptable.net.frontend import Leave, LobbyCommand, Say, TakeBreak
from p2ptable.ui.tui.channel import Typed
from p2ptable.ui.tui.link import FullScreenFrontend
from tests.ui.test_terminal import table, to_move


def test_the_seat_to_move_is_handed_its_menu_and_view() -> None:
    _, net, mover = to_move()
    ui = FullScreenFrontend()
    ui.show(mover, [], net.now)
    snap = ui.link.take()
    assert snap is not None and snap.my_turn and snap.game == "pet-quartet"
    assert snap.menu is not None and snap.menu.entries[0].full == "draw a card"
    assert snap.view is not None and snap.view["you"] == mover.seat
    ui.link.close()


def test_a_choice_still_legal_is_returned_and_one_no_longer_legal_is_said() -> None:
    _, net, mover = to_move()
    ui = FullScreenFrontend()
    ui.link.send(Action("draw"))
    assert ui.choose(mover, net.now, typed=True) == Action("draw")
    ui.link.send(Action("take", (5,)))
    assert ui.choose(mover, net.now, typed=True) is None
    snap = ui.link.take()
    assert snap is not None and "no longer possible" in snap.message
    ui.link.close()


def test_leaving_is_returned_at_once_and_the_pipe_is_no_longer_polled() -> None:
    _, net, mover = to_move()
    ui = FullScreenFrontend()
    assert ui.input_fd() is not None
    ui.link.send(Leave("interrupted"))
    assert ui.choose(mover, net.now, typed=True) == Leave("interrupted")
    assert ui.input_fd() is None
    ui.link.close()


def test_a_seat_that_waits_gets_no_menu_and_what_was_said_is_kept() -> None:
    sessions = table()
    waiting = next(s for s in sessions.values() if not s.my_turn())
    ui = FullScreenFrontend()
    ui.say("Ben joined (2/2)")
    ui.show(waiting, [], 0.0)
    snap = ui.link.take()
    assert snap is not None and snap.menu is None and not snap.my_turn
    assert "Ben joined (2/2)" in snap.lines
    ui.link.close()


# -- the typing line, read on the peer's side (ui/typed_line.py, as the line mode) --


def test_a_typed_line_means_what_it_means_in_the_line_mode() -> None:
    _, net, mover = to_move()
    ui = FullScreenFrontend()
    for line in ("'good luck", "say well played", "break", "1"):
        ui.link.send(Typed(line))
    got = []
    for _ in range(4):  # one a pass: the pipe stays readable while more wait
        assert select.select([ui.input_fd()], [], [], 0)[0]
        got.append(ui.choose(mover, net.now, typed=True))
    assert got == [Say("good luck"), Say("well played"), TakeBreak(), Action("draw")]
    assert not select.select([ui.input_fd()], [], [], 0)[0]
    ui.link.close()


def test_a_typed_line_that_is_no_choice_is_answered_under_the_choice() -> None:
    _, net, mover = to_move()
    ui = FullScreenFrontend()
    for line, said in (("99", "There is no choice 99"), ("'", "Type your line after"),
                       ("?", "press ?"), ("r", "PgUp/PgDn")):  # fmt: skip
        ui.link.send(Typed(line))
        assert ui.choose(mover, net.now, typed=True) is None
        snap = ui.link.take()
        assert snap is not None and said in snap.message, (line, snap.message)
    ui.link.close()


def test_in_the_lobby_a_typed_line_is_a_lobby_command() -> None:
    ui = FullScreenFrontend()
    for line in ("start", "bots", "remove Dan", "'hello"):
        ui.link.send(Typed(line))
    got = [ui.choose(None, 0.0, typed=True) for _ in range(4)]
    assert got == [LobbyCommand("start"), LobbyCommand("bots"), LobbyCommand("remove Dan"),
                   LobbyCommand("'hello")]  # fmt: skip
    assert ui.snapshot(None, None).typing  # the app opens the typing line in the lobby
    ui.link.close()


def test_a_watched_bot_takes_no_typed_line_and_agrees_to_a_break() -> None:
    sessions, net, mover = to_move()
    ui = FullScreenFrontend(bot=BotPlayer("random"))
    ui.link.send(Typed("'hello"))
    assert isinstance(ui.choose(mover, net.now, typed=True), Action)  # its own move
    other = next(s for s in sessions.values() if s is not mover)
    other.propose_break()
    net.pump()
    assert ui.choose(mover, net.now, typed=False) == TakeBreak()
    assert not ui.snapshot(mover, net.now).typing
    ui.link.close()


def test_talk_a_wish_for_a_break_and_a_refusal_are_on_the_screen() -> None:
    sessions, net, mover = to_move()
    ben, ana = sessions[1], sessions[0]
    ui = FullScreenFrontend()
    ben.say("good luck \x1b[31mAna", net.now)
    for _ in range(3):  # a wish that stands is said once
        ben.propose_break()
        net.pump()
        ui.show(ana, ana.take_events(), net.now)
    snap = ui.link.take()
    assert snap is not None
    assert any("Ben says: good luck [31mAna" in line for line in snap.lines)
    assert sum("Ben wants a break" in line for line in snap.lines) == 1
    assert any("type break to agree" in line for line in snap.status)
    for n in range(talk.BURST + 1):  # a flood: the sixth is refused, and said so
        ana.say(f"line {n}", net.now)
    ui.show(ana, ana.take_events(), net.now)
    snap = ui.link.take()
    assert snap is not None and "slow down" in snap.message
    ui.link.close()


def test_an_agreed_break_is_said_and_stays_readable_after_the_table_closes() -> None:
    sessions, net, _ = to_move()
    ui = FullScreenFrontend()
    for session in sessions.values():
        session.propose_break()
    net.pump()
    ana = sessions[0]
    ui.show(ana, ana.take_events(), net.now)
    assert any(line.startswith("Every seat agreed to a break at entry") for line in ui.after)
    ui.link.close()
