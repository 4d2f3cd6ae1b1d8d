"""A seat whose process is frozen for a while (a laptop whose lid was shut) is not
named for it, and names nobody for it.

Found by the fault drill (`scripts/drill.py --seed 31 --faults freeze`): a seat
stopped for 21-27 s while the others waited for its reveal was named as
withholding at its very first ping after it woke, and the game stalled.  wire.md
6.7: a seat is accused of withholding only for time it was in contact.
"""

from __future__ import annotations

from p2ptable.engine.api import Action
from p2ptable.net.memory import MemoryNet

from .test_session_memory import make_table


def freeze(net: MemoryNet, seat: int, seconds: float) -> None:
    """``seat``'s process does not run for ``seconds``: what is sent to it waits in
    its queue, it sends and ticks nothing; then it runs again."""
    frozen = net.sessions.pop(seat)
    held = []
    filter_ = net.filter

    def hold(sender, target, frame):
        if target == seat:
            held.append((sender, target, frame))
            return None
        return frame if filter_ is None else filter_(sender, target, frame)

    net.filter = hold
    for _ in range(int(seconds)):
        net.advance(1.0)
    net.filter = filter_
    net.sessions[seat] = frozen
    net.queue.extendleft(reversed(held))  # its queue, read when it runs again


def draw_by_another_seat(sessions, net: MemoryNet, frozen: int):
    """Play until a seat other than ``frozen`` is to move and may draw."""
    for _ in range(200):
        net.pump()
        mover = next(s for s in sessions.values() if s.my_turn())
        actions = mover.legal_actions()
        if mover.seat != frozen and Action("draw") in actions:
            return mover
        mover.submit(actions[-1], net.now)
    raise AssertionError("no draw came up")


def test_a_seat_frozen_for_25_seconds_is_not_named_and_names_nobody():
    _, sessions, logs = make_table(3, "frozen")
    net = MemoryNet(sessions, logs)
    mover = draw_by_another_seat(sessions, net, frozen=2)
    # The draw makes a chance step due, which waits on every seat's reveal; seat
    # 2 is frozen before the move reaches it, so it has not even made its reveal.
    mover.submit(Action("draw"), net.now)
    freeze(net, 2, 25)
    assert all(s.stopped is None for s in sessions.values()), "someone was named"
    # It runs again.  Its first frame is the ping its clock owes, before it has
    # read its queue (its reveal comes after): the others hear from it, then tick.
    waking = sessions[2]
    held, net.queue = list(net.queue), type(net.queue)()
    waking.tick(net.now + 0.1)
    for dest, frame in waking.take_outgoing():
        for target in [0, 1] if dest is None else [dest]:
            sessions[target].receive(frame, net.now + 0.1)
    for seat in (0, 1):
        sessions[seat].tick(net.now + 0.2)
    assert all(s.stopped is None for s in sessions.values()), "the sleeper was named at once"
    net.queue.extend(held)
    for _ in range(10):  # its queue is read, its reveal sent
        net.advance(1.0)
    assert all(s.stopped is None for s in sessions.values())
    assert len({s.ledger.head for s in sessions.values()}) == 1
    assert all(s.ledger.expected().kind != "chance" for s in sessions.values())  # drawn


def test_a_seat_that_stays_frozen_is_still_named_once_it_is_back_and_silent():
    _, sessions, logs = make_table(3, "frozen-withholds")
    net = MemoryNet(sessions, logs)
    mover = draw_by_another_seat(sessions, net, frozen=2)
    mover.submit(Action("draw"), net.now)

    def withhold(sender, target, frame):  # alive, but its reveals never leave it
        from p2ptable.net.wire import envelope_of

        return None if sender == 2 and envelope_of(frame)["k"] in ("reveal", "entries") else frame

    net.filter = withhold
    freeze(net, 2, 25)
    for _ in range(30):
        net.advance(1.0)
    for seat in (0, 1):
        assert sessions[seat].stopped is not None and sessions[seat].stopped.culprit == 2
