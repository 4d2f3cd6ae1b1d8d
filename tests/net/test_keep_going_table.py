"""The table option ``host --keep-going`` (issue 27): shown before anyone sits
down, recorded in the genesis, and the escrow made at the start of the game.

Issue 27: "The table option (``host --keep-going`` / ``--no-keep-going``, pick
a default and say why) is shown to everyone in the lobby and in the
announcement before they sit down; the genesis records it; without it the game
behaves exactly as today."
"""

from __future__ import annotations

import random

from p2ptable.bots.seat import BotFrontend, BotPlayer
from p2ptable.engine.api import normalize_options
from p2ptable.games import get_game
from p2ptable.net.announce_record import announcement, parse_txt
from p2ptable.net.frontend import LeaveForGood
from p2ptable.net.listing import Listing
from p2ptable.net.lobby_frames import KEEP_GOING_WORDS
from p2ptable.net.memory_transport import Switchboard
from p2ptable.net.peer import LEFT, Peer, PeerConfig
from p2ptable.replay.entries import Entry
from p2ptable.replay.kinds import Kind
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.verify import verify_file
from p2ptable.ui.table_list import describe

from .test_announce_record import TABLE
from .test_listing import heard
from .test_memory_transport import CODE, NAMES, run_all

GAME = "vorsicht-lehrer"


def table(tmp_path, board: Switchboard, keep_going: bool) -> list[Peer]:
    peers: list[Peer] = []
    options = normalize_options(get_game(GAME), len(NAMES), {"track": "100"})
    for i, name in enumerate(NAMES):
        config = PeerConfig(
            name=name,
            host=i == 0,
            game=GAME if i == 0 else "",
            options=options if i == 0 else {},
            seats=len(NAMES) if i == 0 else 0,
            code=CODE,
            connect="" if i == 0 else f"127.0.0.1:{peers[0].transport.port}",
            replay=tmp_path / f"{name}.p2pt",
            advertise="127.0.0.1",
            keep_going=keep_going and i == 0,  # the host's option; the joiners learn it
        )
        player = BotPlayer("greedy", 0.0, random.Random(i))
        peers.append(Peer(config, BotFrontend(player, quiet=True), transport=board.transport()))
    return peers


def test_a_keep_going_table_escrows_first_and_every_replay_is_the_same(tmp_path):
    peers = table(tmp_path, Switchboard(), keep_going=True)
    said: list[str] = []
    for peer in peers[1:]:  # what a joiner is told before it sits down
        say = peer.arrival.say

        def noted(text: str, say=say) -> None:  # noqa: ANN001
            said.append(text)
            say(text)

        peer.arrival.say = noted  # type: ignore[method-assign]
    assert run_all(peers) == [0, 0, 0]
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in NAMES}
    assert len(blobs) == 1, "replays differ"
    payloads = parse_frames(blobs.pop()).payloads
    assert Entry.decode(payloads[0]).body["keep_going"] is True
    assert [Entry.decode(p).kind for p in payloads[1:4]] == [Kind.ESCROW] * 3
    report = verify_file(tmp_path / "Ana.p2pt")
    assert report.valid and report.audited, report.error
    assert said.count(f"{KEEP_GOING_WORDS}.") == 2  # once to each joiner


def test_without_it_the_genesis_and_the_game_are_as_today(tmp_path):
    peers = table(tmp_path, Switchboard(), keep_going=False)
    assert run_all(peers) == [0, 0, 0]
    payloads = parse_frames((tmp_path / "Ana.p2pt").read_bytes()).payloads
    assert "keep_going" not in Entry.decode(payloads[0]).body
    assert all(Entry.decode(p).kind != Kind.ESCROW for p in payloads)


def test_the_list_of_tables_says_so_before_anyone_sits_down():
    tables = Listing()
    heard(tables, announcement(TABLE, GAME, {}, "Ana", 1, 4, 47001, keep=True), "10.0.0.5")
    (table,) = tables.tables()
    assert "keeps going without a player who leaves" in describe(table)
    tables = Listing()
    heard(tables, announcement(TABLE, GAME, {}, "Ana", 1, 4, 47001), "10.0.0.5")
    assert "keeps going" not in describe(tables.tables()[0])


def test_the_announcement_says_so_and_the_list_shows_it():
    ad = announcement(bytes(16), GAME, {}, "Ana", 1, 4, 47001, keep=True)
    txt = ad.to_txt()
    assert txt["keep"] == "1"
    heard = parse_txt({k.encode(): v.encode() for k, v in txt.items()})
    assert heard.keep is True
    plain = announcement(bytes(16), GAME, {}, "Ana", 1, 4, 47001)
    assert "keep" not in plain.to_txt()
    assert parse_txt({k.encode(): v.encode() for k, v in plain.to_txt().items()}).keep is False


class Leaves:
    """A bot's seat whose player types ``leave`` at its first turn past entry 15."""

    def __init__(self, inner: BotFrontend) -> None:
        self.inner = inner

    def choose(self, session, now, typed):  # noqa: ANN001, ANN201
        if session is not None and session.log_length > 15 and session.can_leave():
            return LeaveForGood()
        return self.inner.choose(session, now, typed)

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self.inner, name)


def test_a_player_who_types_leave_is_played_by_a_bot_and_the_others_finish(tmp_path):
    """Issue 27: "a person types leave ...: their peer publishes its own secret
    in a signed entry and exits; the others go on at once"."""
    peers = table(tmp_path, Switchboard(), keep_going=True)
    leaver = peers[2]
    leaver.ui = Leaves(leaver.ui)  # type: ignore[assignment]
    codes = run_all(peers)
    assert codes == [0, 0, LEFT]
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in NAMES[:2]}
    assert len(blobs) == 1, "replays differ"
    blob = blobs.pop()
    kinds = [Entry.decode(p).kind for p in parse_frames(blob).payloads]
    assert kinds.count(Kind.DEPARTURE) == 1
    mine = (tmp_path / f"{NAMES[2]}.p2pt").read_bytes()
    assert blob.startswith(mine)  # hers ends where she left, or a little after
    report = verify_file(tmp_path / "Ana.p2pt")
    assert report.valid and report.audited, report.error
