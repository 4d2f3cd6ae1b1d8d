"""The words that end a stopped game say what happened, once.

Issue 11: "The words that end a game say what happened, once: 'Ben abandoned the
game (no contact for 5 minutes)', 'Ben withheld …', 'Ben cheated: …' with the
proof. Today an abandoned game ends with 'Error: the game was stopped: a player
cheated' and 'game stopped: game stopped:'."
"""

from __future__ import annotations

from p2ptable.net.events import Stopped
from p2ptable.ui.endings import stop_words

NAMES = ["Ana", "Ben", "Cleo"]


def test_an_abandoned_game_names_the_seat_and_how_long():
    words = stop_words(Stopped("abandoned", 1, "no contact with seat 1 for 301 s"), NAMES)
    assert words.startswith("Ben abandoned the game (no contact for 5 minutes")
    assert "game stopped" not in words and "cheated" not in words


def test_an_agreed_abandonment_says_so_without_a_number():
    detail = "seat 1 stayed out of contact while the game waited on it"
    words = stop_words(Stopped("abandoned", 1, detail), NAMES)
    assert words == (
        "Ben abandoned the game (no contact while the game waited on it; reported by a player)."
    )


def test_a_withholder_is_named_as_the_accusation_it_is():
    detail = "seat 2 did not send its part of entry 40 in time"
    words = stop_words(Stopped("withheld", 2, detail, proved=False), NAMES)
    assert words.startswith("Cleo withheld its part of the game")
    assert "Cleo did not send its part of entry 40 in time" in words
    assert "reported by a player" in words


def test_a_cheater_is_named_with_where_the_proof_is():
    detail = "seat 1's shuffle entry 3: bad shuffle proof"
    words = stop_words(Stopped("cheated", 1, detail, proved=True), NAMES)
    assert words == (
        "Ben cheated: Ben's shuffle entry 3: bad shuffle proof. "
        "The signed message is in the replay as proof."
    )
    words = stop_words(Stopped("equivocation", 0, "", proved=True), NAMES)
    assert words.startswith("Ana cheated: it signed two different entries for one position.")


def test_the_words_are_said_once():
    words = stop_words(Stopped("abandoned", 1, "no contact with seat 1 for 40 s"), NAMES)
    assert words.count("abandoned") == 1 and words.count("Ben") == 1
