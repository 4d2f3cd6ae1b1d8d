"""Play again at the same table: people on a pty, real processes, two games.

Issue 26: "Rematch.  At the end, 'play again' offers the same people, game and
options a new game at the same table (a new game id ...), without typing
addresses or codes again".  Its test: "a rematch played to its end".
"""

from __future__ import annotations

from p2ptable.replay.verify import verify_file

from .peers import free_port
from .person import AGAIN, play_together
from .test_people import assert_one_valid_replay, host_args, join_args, people  # noqa: F401 - fixtures


def test_a_rematch_is_played_to_its_end_without_typing_a_code(tmp_path, people):  # noqa: F811 - fixtures
    port = free_port()
    ana = people(*host_args(tmp_path, "Ana", "pet-quartet", 2, port), "--no-announce")
    ana.expect("Others join with")
    ben = people(*join_args(tmp_path, "Ben", port))
    ana.again = ben.again = None  # the test answers
    play_together([ana, ben], until=lambda p: AGAIN in ana.text and AGAIN in ben.text, timeout=240)
    assert_one_valid_replay(tmp_path, ["Ana", "Ben"])
    ben.type("y")  # Ben first: he waits for Ana to open the table again
    ben.expect("Waiting for the host to open the table again")
    ana.type("y")
    ana.expect(r"Table open: Pet Quartet for 2 players\. Others join with", timeout=30)
    play_together(
        [ana, ben],
        until=lambda p: ana.text.count(AGAIN) >= 2 and ben.text.count(AGAIN) >= 2,
        timeout=240,
    )
    ana.type("n")
    ben.type("n")
    assert ana.wait() == 0 and ben.wait() == 0
    first, again = tmp_path / "Ana.p2pt", tmp_path / "Ana.game2.p2pt"
    assert again.exists() and (tmp_path / "Ben.game2.p2pt").exists()
    assert again.read_bytes() == (tmp_path / "Ben.game2.p2pt").read_bytes()
    one, two = verify_file(first), verify_file(again)
    assert two.valid and two.result is not None, two.error
    assert first.read_bytes() != again.read_bytes()  # a new game (a new nonce, new keys) ...
    names = [[s["name"] for s in r.seats] for r in (one, two)]
    assert names == [["Ana", "Ben"]] * 2 and one.options == two.options  # ... of the same
    assert one.game == two.game


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
