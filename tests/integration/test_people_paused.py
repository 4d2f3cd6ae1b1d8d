"""A person pauses their terminal (Ctrl-S) while the bots play on.

The brief: "a crash or power cut never makes an honest seat look like a
cheater".  A peer writes its screen between network steps; with the terminal
paused, that write used to block, the peer stopped sending its reveals and
decryption shares, and after the withholding timeout (20 s) the other seats
stopped the game naming the person.  The screen is now written by a thread of
its own (ui/screen_writer.py): the peer goes on while the terminal is paused,
and the person finds the current screen when they press Ctrl-Q.

Slow (about a minute: the pause is longer than the withholding timeout).
"""

from __future__ import annotations

import os
import time

import pytest

from p2ptable.replay.verify import verify_file

from .peers import entries_in
from .person import Person

PAUSE = 25.0  # seconds, above the 20 s withholding timeout
XOFF, XON = b"\x13", b"\x11"  # Ctrl-S, Ctrl-Q
ENDS_OUR_TURN = "Your turn: take"


@pytest.mark.slow
def test_a_paused_terminal_does_not_stop_its_peer(tmp_path):
    replay = tmp_path / "Me.p2pt"
    me = Person(["play", "vorsicht-lehrer", "--bots", "3", "--name", "Me", "--bot-delay", "0.3",
                 "--replay", str(replay)], tmp_path)  # fmt: skip
    try:
        # Dealt, a few moves made, and our card played: we are asked to take its
        # points or throw, the last decision of our turn.
        me.play(until=lambda p: entries_in(replay) >= 12 and ENDS_OUR_TURN in p.screen)
        me.answer()  # we take them; then the three bots play, each needing our peer
        os.write(me.master, XOFF)
        before = entries_in(replay)
        end = time.monotonic() + PAUSE
        while time.monotonic() < end:
            me._pump(0.5)  # a paused terminal shows nothing; the process runs
        during = entries_in(replay)
        os.write(me.master, XON)
        # The peer kept writing the bots' moves, throws and deals while paused...
        assert during >= before + 3, (before, during)
        # ...and nobody was named: the game goes on to its end.
        me.play(timeout=240)
        assert me.wait() == 0
    finally:
        me.close()
    assert "withheld" not in me.text and "| final " in me.text
    assert verify_file(replay).valid
