"""The full-screen table's frontend, the peer's side (ui/tui/link.py): it hands
the app snapshots of the seat's view and takes back what the person chose,
checked against the legal moves of the moment."""

from __future__ import annotations

from p2ptable.engine.api import Action
from p2ptable.net.frontend import Leave
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
