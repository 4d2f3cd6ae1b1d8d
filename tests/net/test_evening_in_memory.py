"""Talk and a break at a whole table in one process (real peers, their loop, an
in-memory network: net/memory_transport.py).

Issue 26: "every seat and spectator sees it with the sender's name"; "when every
seat agrees (each peer signs it), every peer saves and exits cleanly, printing
the one command that brings it back.  The break does not count as anyone
abandoning the game, however long it lasts; the game continues when the seats
resume (in any order ...)".
"""

from __future__ import annotations

import random

from p2ptable.bots.seat import BotFrontend, BotPlayer
from p2ptable.net.frontend import Say, TakeBreak
from p2ptable.net.memory_transport import Switchboard
from p2ptable.net.peer import PAUSED, Peer, PeerConfig
from p2ptable.net.persistence import load_resume
from p2ptable.net.session import Session
from p2ptable.replay.break_file import break_path, read_agreement, spared_after_break
from p2ptable.replay.talk_file import read_talk, talk_path
from p2ptable.replay.verify import verify_file

from .test_memory_transport import NAMES, run_all, table


class Chatty(BotFrontend):
    """A bot seat that says one line at entry ``talk_at`` and proposes a break
    at entry ``break_at`` (None: never)."""

    def __init__(self, inner: BotFrontend, talk_at: int, break_at: int | None) -> None:
        super().__init__(inner.player, quiet=True)
        self.talk_at, self.break_at = talk_at, break_at
        self.said = self.proposed = False

    def choose(self, session: Session | None, now: float, typed: bool):  # noqa: ANN201
        if session is not None and not self.said and session.log_length >= self.talk_at:
            self.said = True
            return Say(f"hello from seat {session.seat + 1}\x1b[2J")
        if (
            session is not None
            and self.break_at is not None
            and not self.proposed
            and session.log_length >= self.break_at
        ):
            self.proposed = True
            return TakeBreak()
        return super().choose(session, now, typed)


def chatty_table(
    tmp_path, board: Switchboard, break_at: int | None, spectators: bool = False
) -> list[Peer]:
    peers = table(tmp_path, board, spectators=spectators)
    for i, peer in enumerate(peers):
        assert isinstance(peer.ui, BotFrontend)
        peer.ui = Chatty(peer.ui, talk_at=3 + i, break_at=break_at if i == 1 else None)
    return peers


def test_every_seat_keeps_every_line_said_with_its_seat_and_position(tmp_path):
    peers = chatty_table(tmp_path, Switchboard(), break_at=None)
    assert run_all(peers) == [0, 0, 0]
    replay = tmp_path / "Ana.p2pt"
    report = verify_file(replay)
    assert report.valid, report.error
    session = peers[0].session
    assert session is not None
    for name in NAMES:
        talk = read_talk(
            talk_path(tmp_path / f"{name}.p2pt"),
            session.ledger.game_id,
            session.keys,
            session.log_length,
        )
        assert talk.valid, talk.problems
        assert sorted((line.seat, line.text) for line in talk.lines) == [
            (seat, f"hello from seat {seat + 1} [2J") for seat in range(3)
        ]
        assert all(line.at >= 3 for line in talk.lines)


def test_a_break_ends_every_peer_and_every_seat_resumes_to_the_same_end(tmp_path):
    board = Switchboard()
    peers = chatty_table(tmp_path, board, break_at=12)
    assert run_all(peers) == [PAUSED] * 3
    session = peers[0].session
    assert session is not None
    game_id, keys = session.ledger.game_id, session.keys
    agreements = []
    for name in NAMES:
        agreement, problem = read_agreement(tmp_path / f"{name}.p2pt", game_id, keys)
        assert problem is None and agreement is not None
        agreements.append(agreement)
    assert len(set(agreements)) == 1 and agreements[0].position.at >= 12
    # Back, in another order: the last seat first.  Bots, so nobody is asked again.
    again = []
    for i in (2, 0, 1):
        state = load_resume(tmp_path / f"{NAMES[i]}.p2pt")
        transport = board.transport(port=state.port)
        config = PeerConfig(name=NAMES[i], host=False, advertise="127.0.0.1")
        frontend = BotFrontend(BotPlayer("greedy", 0.0, random.Random(i)), quiet=True)
        chatty = Chatty(frontend, talk_at=0, break_at=None)  # each says a line once more
        again.append(Peer(config, chatty, resume=state, transport=transport))
    assert run_all(again) == [0, 0, 0]
    for name in NAMES:  # each seat's counter went on from its talk before the break
        talk = read_talk(talk_path(tmp_path / f"{name}.p2pt"), game_id, keys, 10_000)
        assert talk.valid and len(talk.lines) == 6, talk.problems
    blobs = {(tmp_path / f"{name}.p2pt").read_bytes() for name in NAMES}
    assert len(blobs) == 1, "replays differ"
    assert verify_file(tmp_path / "Ana.p2pt").valid


def test_a_forged_break_file_is_reported_and_spares_nobody(tmp_path):
    peers = chatty_table(tmp_path, Switchboard(), break_at=8)
    assert run_all(peers) == [PAUSED] * 3
    path = break_path(tmp_path / "Ben.p2pt")
    data = bytearray(path.read_bytes())
    data[-5] ^= 1  # one signature spoiled
    path.write_bytes(bytes(data))
    state = load_resume(tmp_path / "Ben.p2pt")
    spared, problem = spared_after_break(tmp_path / "Ben.p2pt", state.ledger)
    assert spared == frozenset() and problem is not None and "does not check" in problem
    ana = tmp_path / "Ana.p2pt"
    intact, none = spared_after_break(ana, load_resume(ana).ledger)
    assert none is None and intact == frozenset({0, 1, 2})


def test_verify_and_export_show_the_talk_and_name_the_seat_of_a_bad_line(tmp_path):
    from click.testing import CliRunner

    from p2ptable.cli.app import main
    from p2ptable.crypto.signing import SigningKey
    from p2ptable.net.talk import TalkLine, make_record
    from p2ptable.replay.talk_file import TalkWriter

    peers = chatty_table(tmp_path, Switchboard(), break_at=None)
    assert run_all(peers) == [0, 0, 0]
    replay = tmp_path / "Cleo.p2pt"
    session = peers[2].session
    assert session is not None
    forged = TalkLine(1, 99, 5, "I concede")  # seat 2's, not signed with seat 2's key
    writer = TalkWriter(replay)
    writer.append(make_record(SigningKey(b"\x07" * 32), session.ledger.game_id, forged))
    writer.close()
    runner = CliRunner()
    verified = runner.invoke(main, ["verify", str(replay)])
    names = session.names  # the seats in the order the joiners came
    assert verified.exit_code == 0, verified.output  # the game's verdict stands
    assert "talk:    3 lines beside the log, each signed by its seat" in verified.output
    bad = f"refused: talk line 4 by seat 2 ({names[1]}): talk whose signature does not check"
    assert bad in verified.output
    assert "do not change the verdict" in verified.output
    exported = runner.invoke(main, ["export", str(replay)])
    assert exported.exit_code == 0, exported.output
    said = [line for line in exported.output.splitlines() if "says:" in line]
    assert sorted(said) == sorted(
        f"   ({name} says: hello from seat {i + 1} [2J)" for i, name in enumerate(names)
    )
    assert "I concede" not in exported.output
    kept = read_talk(talk_path(replay), session.ledger.game_id, session.keys, 10_000)
    at = next(line.at for line in kept.lines if line.seat == 0)
    shown = runner.invoke(main, ["show", str(replay), "--at", str(at)])
    assert shown.exit_code == 0, shown.output
    assert f"talk      {names[0]} says: hello from seat 1 [2J" in shown.output  # after at - 1
    as_json = runner.invoke(main, ["verify", "--json", str(replay)])
    assert '"refused"' in as_json.output and as_json.exit_code == 0


def test_a_spectator_reads_the_table_talk_each_line_checked(tmp_path):
    """Issue 26: "a spectator reads the table's talk"."""
    import threading
    import time

    from p2ptable.watch import WATCHED, watch

    from .test_memory_transport import CODE, DEADLINE

    board = Switchboard()
    peers = chatty_table(tmp_path, board, break_at=None, spectators=True)
    host = peers[0]
    result: list = []
    address = f"127.0.0.1:{host.transport.port}"
    wally = tmp_path / "Wally.p2pt"
    watcher = threading.Thread(
        target=lambda: result.append(
            watch(address, CODE, "Wally", wally, quiet=True, transport=board.transport())
        ),
        daemon=True,
    )
    codes: list[int | None] = []
    first = threading.Thread(target=lambda: codes.append(host.run()), daemon=True)
    first.start()
    watcher.start()
    gallery = host.arrival.lobby.gallery  # type: ignore[union-attr]
    deadline = time.monotonic() + DEADLINE
    while not gallery.watchers and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run_all(peers[1:]) == [0, 0]
    first.join(DEADLINE)
    watcher.join(DEADLINE)
    assert codes == [0] and result and result[0].status == WATCHED, result
    session = host.session
    assert session is not None
    heard = read_talk(talk_path(wally), session.ledger.game_id, session.keys, 10_000)
    assert heard.valid, heard.problems
    assert sorted(line.text for line in heard.lines) == sorted(
        f"hello from seat {seat} [2J" for seat in (1, 2, 3)
    )


class LeavesAt(BotFrontend):
    """A bot seat whose person leaves (Ctrl-C) at ``until`` on the loop's clock."""

    def __init__(self, player: BotPlayer, until: float) -> None:
        super().__init__(player, quiet=True)
        self.until = until

    def choose(self, session: Session | None, now: float, typed: bool):  # noqa: ANN201
        from p2ptable.net.frontend import Leave

        if now >= self.until:
            return Leave("interrupted")
        return super().choose(session, now, typed)

    def wake_at(self, session: Session, now: float) -> float:
        return min(super().wake_at(session, now), self.until)


def test_a_seat_that_never_comes_back_from_the_break_is_never_named(tmp_path):
    """Two of three seats come back and wait far past the abandonment timeout
    (shortened here to a fraction of a second): nobody is named, no abort."""
    import time

    board = Switchboard()
    peers = chatty_table(tmp_path, board, break_at=6)
    assert run_all(peers) == [PAUSED] * 3
    again = []
    for i in (0, 1):  # Cleo stays away
        state = load_resume(tmp_path / f"{NAMES[i]}.p2pt")
        config = PeerConfig(name=NAMES[i], host=False, advertise="127.0.0.1", abandon_timeout=0.3)
        frontend = LeavesAt(BotPlayer("greedy", 0.0, random.Random(i)), time.monotonic() + 3.0)
        again.append(
            Peer(config, frontend, resume=state, transport=board.transport(port=state.port))
        )
    assert run_all(again) == [130, 130]  # they left themselves, after waiting
    for peer in again:
        assert peer.session is not None and peer.session.stopped is None
