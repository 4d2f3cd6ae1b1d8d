"""The spectators' channel on a seat's line-mode screen (ui/terminal.py, ui/prompt.py).

Issue 26: spectators write "in a separate spectators' channel that seats can
hide".  The brief: "shown as '(spectator) Eve says: ...'"; a seat hides it with
`hide spectators` (and `show spectators`), or starts with it hidden
(`--hide-spectators`).
"""

from __future__ import annotations

import io

from p2ptable.crypto.signing import SigningKey
from p2ptable.net.events import SpectatorTalked, Talked
from p2ptable.net.memory import MemoryNet
from p2ptable.net.session import Session
from p2ptable.net.spectator_talk import SpectatorLine
from p2ptable.net.talk import TalkLine
from p2ptable.replay import authoring
from p2ptable.replay.ledger import Ledger
from p2ptable.ui import prompt
from p2ptable.ui.terminal import TerminalFrontend

EVE = SigningKey(b"\x05" * 32)


def seat(talks: bool = True) -> Session:
    seats = [authoring.SeatSecrets.from_seed(b"channel", i, 64) for i in range(2)]
    body = authoring.genesis_body(
        "pet-quartet", {"scoring": "basic", "variant": "standard"}, ["Ana", "Ben"],
        [s.key.public for s in seats], [s.chain.head for s in seats],
        [s.link_public for s in seats], 64, bytes(16), spectators_talk=talks,
    )  # fmt: skip
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    sessions = {i: Session(Ledger(genesis), i, seats[i], 0.0) for i in range(2)}
    MemoryNet(sessions).pump()
    return sessions[0]


def eve(n: int, text: str) -> SpectatorTalked:
    return SpectatorTalked(SpectatorLine("Eve", EVE.public, n, 1, text))


def test_hide_and_show_spectators_are_words_of_the_prompt():
    assert prompt.parse_choice("hide spectators", []) == prompt.Spectators(False)
    assert prompt.parse_choice("  Show   Spectators ", []) == prompt.Spectators(True)
    assert "hide spectators" in prompt.help_text("pet-quartet")


def test_a_spectators_line_is_shown_apart_from_a_seats_line():
    session = seat()
    out = io.StringIO()
    ui = TerminalFrontend(stdin=io.StringIO(), stdout=out)
    ui.show(session, [eve(1, "go Ana"), Talked(TalkLine(1, 1, 1, "go Ana"), b"")], 1.0)
    screen = out.getvalue()
    assert "talk      (spectator) Eve says: go Ana" in screen
    assert "talk      Ben says: go Ana" in screen


def test_a_seat_hides_the_channel_then_shows_it_again_and_is_told_what_it_missed():
    session = seat()
    out = io.StringIO()
    ui = TerminalFrontend(stdin=io.StringIO("hide spectators\nshow spectators\n"), stdout=out)
    assert ui.choose(session, 1.0, typed=True) is None
    assert "The spectators' channel is hidden" in out.getvalue()
    ui.show(session, [eve(1, "psst"), eve(2, "psst again")], 2.0)
    assert "psst" not in out.getvalue()
    assert ui.choose(session, 3.0, typed=True) is None
    assert "shown (2 lines were said while it was hidden)" in out.getvalue()
    ui.show(session, [eve(3, "back")], 4.0)
    assert "(spectator) Eve says: back" in out.getvalue()


def test_hide_spectators_from_the_start_as_the_flag_asks():
    session = seat()
    out = io.StringIO()
    ui = TerminalFrontend(stdin=io.StringIO(), stdout=out, hide_spectators=True)
    ui.show(session, [eve(1, "hello seats")], 1.0)
    assert "hello seats" not in out.getvalue()


def test_at_a_table_without_the_channel_the_words_say_so():
    session = seat(talks=False)
    out = io.StringIO()
    ui = TerminalFrontend(stdin=io.StringIO("hide spectators\n"), stdout=out)
    assert ui.choose(session, 1.0, typed=True) is None
    assert "Spectators do not talk at this table" in out.getvalue()


def test_hide_spectators_typed_in_the_lobby_holds_for_the_game():
    session = seat()
    out = io.StringIO()
    ui = TerminalFrontend(stdin=io.StringIO("hide spectators\n"), stdout=out)
    assert ui.choose(None, 0.0, typed=True) is None  # not a lobby command
    assert "will be hidden" in out.getvalue()  # a StringIO is written at once
    ui.show(session, [eve(1, "psst")], 1.0)
    assert "psst" not in out.getvalue() and ui.spectators_hidden == 1
    assert "Your choice" in out.getvalue()  # the screen was drawn, without the line


def test_what_a_spectator_types_is_a_line_to_say_and_the_end_of_input_stops_the_reading():
    import os

    from p2ptable.ui.spectator_input import SpectatorInput

    read, write = os.pipe()
    os.write(write, b"'good luck\nsay go on\n  just words  \n\n")
    os.close(write)
    with os.fdopen(read) as pipe:
        typed = SpectatorInput(pipe)
        assert typed.fd == read
        said = [typed.read() for _ in range(4)]
        assert said == ["good luck", "go on", "just words", None]
        assert typed.read() is None and typed.fd is None  # the end: nothing more is read
    assert SpectatorInput(io.StringIO("hello\n")).fd is None  # not a file: never read
