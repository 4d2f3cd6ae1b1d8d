"""Play again at the same table: people on a pty, real processes, several games.

Issue 26: "Rematch.  At the end, 'play again' offers the same people, game and
options a new game at the same table (a new game id ...), without typing
addresses or codes again".  Its test: "a rematch played to its end".  The
first player rotates: each rematch's is the player after the last one's.
"""

from __future__ import annotations

from pathlib import Path

from p2ptable.engine.api import FIRST
from p2ptable.rematch import first_player
from p2ptable.replay.verify import verify_file

from .peers import entries_in, free_port
from .person import AGAIN, Person, play_together
from .test_people import assert_one_valid_replay, host_args, join_args, people  # noqa: F401 - fixtures


def first_name(replay: Path) -> str:
    """The name of the seat that played first in the game of ``replay``."""
    report = verify_file(replay)
    assert report.valid and report.result is not None and report.ledger is not None, report.error
    first = first_player(report.ledger)
    assert first is not None
    return report.seats[first]["name"]


def test_three_games_at_one_table_the_first_player_moves_one_seat_each_time(tmp_path, people):  # noqa: F811 - fixtures
    # "a new game at the same table (a new game id, the first player rotated)":
    # the first game draws who starts; each rematch gives it to the next player.
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 3, port), "--no-announce")
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    cleo = people(*join_args(tmp_path, "Cleo", port))
    table = [ana, ben, cleo]
    for person in table:
        person.again = None  # the test answers

    def asked(n: int):  # noqa: ANN202
        return lambda p: all(x.text.count(AGAIN) >= n for x in table)

    for game in (1, 2):
        play_together(table, until=asked(game), timeout=240)
        for person in (cleo, ben, ana):  # the seats first: they wait for the host
            person.type("y")
    play_together(table, until=asked(3), timeout=240)
    for person in table:
        person.type("n")
    assert [person.wait() for person in table] == [0, 0, 0]
    games = [tmp_path / "Ana.p2pt", tmp_path / "Ana.game2.p2pt", tmp_path / "Ana.game3.p2pt"]
    for name in ("Ben", "Cleo"):  # every seat holds the same three games
        mine = [tmp_path / f"{name}.p2pt", *(tmp_path / f"{name}.game{n}.p2pt" for n in (2, 3))]
        assert [g.read_bytes() for g in mine] == [g.read_bytes() for g in games]
    reports = [verify_file(g) for g in games]
    assert len({g.read_bytes() for g in games}) == 3  # three games, three ids ...
    seated = [[s["name"] for s in r.seats] for r in reports]  # in the order they came back
    assert all(names[0] == "Ana" and sorted(names) == ["Ana", "Ben", "Cleo"] for names in seated)
    assert all(r.game == "pet-quartet" for r in reports)  # ... of the same game,
    options = [{k: v for k, v in r.options.items() if k != FIRST} for r in reports]
    assert options == [options[0]] * 3  # the same options, and the first player named:
    assert FIRST not in reports[0].options and FIRST in reports[1].options
    firsts = [first_name(g) for g in games]
    for last, (names, first) in enumerate(zip(seated[:2], firsts[:2], strict=True)):
        assert firsts[last + 1] == names[(names.index(first) + 1) % 3], (seated, firsts)


def test_a_seat_declines_and_the_host_fills_it_with_a_bot(tmp_path, people):  # noqa: F811 - fixtures
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 2, port), "--no-announce")
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    ana.again = None  # the test answers for Ana; Ben says no, and leaves
    play_together(
        [ana, ben], until=lambda p: AGAIN in ana.text and ben.proc.poll() is not None, timeout=240
    )
    assert ben.wait() == 0
    ana.type("y")
    ana.expect(r"Table open: Pet Quartet for 2 players\. Others join with", timeout=30)
    ana.type("bots")
    ana.expect("Starting 1 bot peer for the free seats.")
    ana.expect(r"\(bot\) joined \(2/2\)", timeout=60)
    play_together([ana], until=lambda p: ana.text.count(AGAIN) >= 2, timeout=240)
    ana.type("n")
    assert ana.wait() == 0
    again = verify_file(tmp_path / "Ana.game2.p2pt")
    assert again.valid and again.result is not None, again.error
    assert [s["name"] for s in again.seats][0] == "Ana"
    assert again.seats[1]["name"].endswith("(bot)")
    # Ana or Ben played first; the next player is Ben or Ana, and Ben is gone:
    # the one after him in the order, Ana, plays first (net/rotation.py).
    assert again.options[FIRST] == "0"


def assert_bots_moved_on(first: Path, again: Path) -> None:
    """``again``, the rematch of ``first`` against new bots: the same seats by
    name, whatever order the bots sat down in, and the next player first."""
    one, two = verify_file(first), verify_file(again)
    assert two.valid and two.result is not None, two.error
    before, after = ([s["name"] for s in r.seats] for r in (one, two))
    assert after[0] == "Me" and sorted(after) == sorted(before)
    assert all(name.endswith(" (bot)") for name in after[1:])
    assert first_name(again) == before[(before.index(first_name(first)) + 1) % len(before)]


def test_play_offers_a_rematch_against_new_bots(tmp_path, people):  # noqa: F811 - fixtures
    # `play` is `host` with bots: at the end it asks as `host` does, and the
    # rematch has new bot peers of the same kind in the other seats.
    me = people("play", "pet-quartet", "--bots", "2", "--name", "Me", "--bot-delay", "0",
                "--replay", str(tmp_path / "Me.p2pt"))  # fmt: skip
    me.again = None
    me.play(until=lambda p: AGAIN in me.text, timeout=240)
    me.type("y")
    me.expect("Started 2 bot peers for the other seats", timeout=30)
    me.play(until=lambda p: me.text.count(AGAIN) >= 2, timeout=240)
    me.type("n")
    assert me.wait() == 0
    assert "Check it with: p2ptable verify" in me.text
    assert_bots_moved_on(tmp_path / "Me.p2pt", tmp_path / "Me.game2.p2pt")


def test_a_resumed_game_that_finishes_offers_the_rematch(tmp_path):
    # `resume` of a game that then finishes asks as `host` and `join` do; a
    # `play` table comes back with its bots, and so does its rematch.
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    replay = tmp_path / "Me.p2pt"
    me = Person(["play", "vorsicht-lehrer", "--bots", "2", "--name", "Me", "--bot-delay", "0",
                 "--replay", str(replay)], tmp_path, env=env)  # fmt: skip
    try:
        me.play(until=lambda p: entries_in(replay) >= 30)
        me.ctrl_c()
        assert me.wait() == 130
    finally:
        me.close()
    back = Person(["resume", str(replay)], tmp_path, env=env)
    try:
        back.again = None
        back.play(until=lambda p: AGAIN in back.text, timeout=240)
        back.type("y")
        back.expect("Started 2 bot peers for the other seats", timeout=30)
        back.play(until=lambda p: back.text.count(AGAIN) >= 2, timeout=240)
        back.type("n")
        assert back.wait() == 0
    finally:
        back.close()
    assert_bots_moved_on(replay, tmp_path / "Me.game2.p2pt")
