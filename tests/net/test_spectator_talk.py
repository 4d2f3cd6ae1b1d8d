"""The spectators' channel (net/spectator_talk.py, gallery.py, spectator.py), sans-IO.

Issue 26: "a spectator reads the table's talk and, if the table allows (`host
--spectators-talk`), writes in a separate spectators' channel that seats can
hide"; "what a stranger or a modified peer could do with it is thought through
and tested (a flood of talk, talk with escape sequences ...)".  The brief adds:
a spectator flood is bounded per spectator and overall and never delays a move,
a stranger who is not an admitted spectator cannot post, and a spectator's line
is never confused with a seat's.
"""

from __future__ import annotations

import pytest

from p2ptable.crypto.signing import SigningKey
from p2ptable.net import lobby, spectator_talk, talk
from p2ptable.net.lobby_binding import Unbound
from p2ptable.net.spectator import Follower
from p2ptable.net.spectator_talk import (
    Channel,
    Heard,
    Mouth,
    Refused,
    Rejected,
    SpectatorLine,
    make_record,
    open_record,
)
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import read_genesis

from .lobby_table import CODE, HOST_ENDPOINT, address, deliver, joiner, settle
from .test_spectators import admit, pump, spectator

GAME = bytes(range(32))
EVE = SigningKey(b"\x05" * 32)
WALLY = SigningKey(b"\x06" * 32)


def line_of(key: SigningKey, name: str, n: int, text: str = "hello", at: int = 0) -> bytes:
    return make_record(key, GAME, SpectatorLine(name, key.public, n, at, text))


# -- the line: signed by the spectator, never a seat's ---------------------------------


def test_a_spectators_line_is_signed_by_its_own_key_and_anyone_can_check_it():
    mouth = Mouth(EVE, "Eve", GAME)
    line, record = mouth.say("  nice   move\x1b[31m ", at=7, now=0.0)
    assert line == SpectatorLine("Eve", EVE.public, 1, 7, "nice move [31m")
    assert open_record(record, GAME) == line
    with pytest.raises(Rejected, match="signature"):
        open_record(record, bytes(32))  # another game's: it does not check there


def test_a_spectators_line_is_never_taken_for_a_seats_nor_a_seats_for_one():
    spectators = line_of(EVE, "Eve", 1)
    with pytest.raises(talk.TalkRejected):
        talk.open_record(spectators, GAME, [EVE.public])  # even if Eve held seat 0's key
    seats = talk.make_record(EVE, GAME, talk.TalkLine(0, 1, 0, "hello"))
    with pytest.raises(Rejected):
        open_record(seats, GAME)


def test_a_line_signed_by_someone_else_than_the_key_it_names_is_refused():
    body = SpectatorLine("Eve", EVE.public, 1, 0, "I am Eve")
    forged = make_record(WALLY, GAME, body)  # Wally signs words he says are Eve's
    with pytest.raises(Rejected, match="Eve's whose signature does not check"):
        open_record(forged, GAME)


@pytest.mark.parametrize(
    "text",
    ["\x1b[2Jowned", "two\nlines", "bidi\u202eevil", " padded", "x" * (talk.MAX_TEXT + 1), ""],
)
def test_a_record_whose_text_is_not_one_clean_line_is_refused_not_repaired(text):
    from p2ptable.crypto.encoding import pack

    body = pack({"at": 0, "key": EVE.public, "n": 1, "name": "Eve", "t": "spectator",
                 "text": text})  # fmt: skip
    record = pack([body, EVE.sign(spectator_talk.DOMAIN + GAME + body)])
    with pytest.raises(Rejected, match="clean line"):
        open_record(record, GAME)


@pytest.mark.parametrize(
    "junk", [b"", b"\x00", b"\x92\xc4\x00\xc4\x00", bytes(spectator_talk.MAX_RECORD + 1), "str", 5]
)
def test_junk_is_rejected_and_never_raises_anything_else(junk):
    with pytest.raises(Rejected):
        open_record(junk, GAME)


# -- the host's channel: only the admitted, each bounded, all bounded -------------------


def test_a_spectator_that_talks_too_fast_is_told_to_slow_down_then_may_go_on():
    mouth = Mouth(EVE, "Eve", GAME)
    for i in range(spectator_talk.BURST):
        mouth.say(f"line {i}", 0, now=0.0)
    with pytest.raises(Refused, match="slow down"):
        mouth.say("one more", 0, now=0.1)
    with pytest.raises(Refused, match="empty"):
        mouth.say(" \x07 ", 0, now=100.0)
    line, _ = mouth.say("later", 0, now=spectator_talk.REFILL + 0.1)
    assert line.n == spectator_talk.BURST + 1


def test_a_flood_from_one_modified_spectator_is_bounded_at_the_host():
    channel = Channel(GAME)
    flood = [line_of(EVE, "Eve", n) for n in range(1, 501)]
    kept = [channel.post(EVE.public, "Eve", r, now=0.0) for r in flood]
    assert sum(line is not None for line in kept) == spectator_talk.TABLE_BURST
    assert channel.dropped == 500 - spectator_talk.TABLE_BURST


def test_one_spectator_is_held_to_its_own_rate_below_the_tables():
    # Ten lines a second for a minute: the table's bucket would take 65 of them.
    channel = Channel(GAME)
    kept = 0
    for n in range(1, 601):
        kept += channel.post(EVE.public, "Eve", line_of(EVE, "Eve", n), now=n / 10) is not None
    assert kept <= 2 * spectator_talk.BURST + 60 / spectator_talk.REFILL + 1
    assert kept == len(channel.records) and kept < spectator_talk.TABLE_BURST + 60


def test_many_spectators_together_are_held_to_the_tables_rate():
    channel = Channel(GAME)
    keys = [SigningKey(bytes([40 + i]) * 32) for i in range(8)]
    kept = 0
    for second in range(10):
        for i, key in enumerate(keys):
            record = make_record(key, GAME, SpectatorLine(f"W{i}", key.public, second + 1, 0, "x"))
            kept += channel.post(key.public, f"W{i}", record, now=float(second)) is not None
    # a burst, then one a second for the whole gallery: never eight a second
    assert kept <= spectator_talk.TABLE_BURST + 10 * spectator_talk.TABLE_REFILL
    assert kept == len(channel.records)


def test_the_channel_keeps_at_most_max_lines(monkeypatch):
    monkeypatch.setattr(spectator_talk, "MAX_LINES", 2)
    channel = Channel(GAME)
    for n in range(1, 5):
        channel.post(EVE.public, "Eve", line_of(EVE, "Eve", n), now=100.0 * n)
    assert len(channel.records) == 2 and channel.dropped == 2


def test_a_spectator_cannot_post_a_line_as_another_or_under_another_name():
    channel = Channel(GAME)
    with pytest.raises(Rejected, match="signed as Eve"):
        channel.post(WALLY.public, "Wally", line_of(EVE, "Eve", 1), now=0.0)
    with pytest.raises(Rejected, match="signed as Ana"):
        channel.post(EVE.public, "Eve", line_of(EVE, "Ana", 1), now=0.0)
    assert channel.records == []


def test_a_copy_of_a_line_is_kept_once():
    channel = Channel(GAME)
    record = line_of(EVE, "Eve", 1)
    assert channel.post(EVE.public, "Eve", record, now=0.0) is not None
    assert channel.post(EVE.public, "Eve", record, now=0.0) is None
    assert channel.records == [record]


def test_a_reader_drops_copies_and_holds_a_flooding_host_to_a_rate():
    heard = Heard(GAME)
    flood = [line_of(EVE, "Eve", n) for n in range(1, 201)]
    shown = [heard.receive(r, now=0.0) for r in flood]
    assert sum(line is not None for line in shown) == 2 * spectator_talk.TABLE_BURST
    assert heard.receive(flood[0], now=50.0) is None  # a copy: older than what we heard
    spectator_side = Heard(GAME, own=EVE.public, rate=False)
    assert spectator_side.receive(flood[0], now=0.0) is None  # our own: shown as said


# -- through the lobby: an admitted spectator, a stranger, a table without it -----------


def _table(talks: bool = True):  # noqa: ANN202
    """A 2-seat table with spectators (and their channel if ``talks``), its
    genesis agreed, and two spectators following it."""
    me = authoring.SeatSecrets.from_seed(b"lobby", 0, 8)
    host = lobby.HostLobby(
        "pet-quartet", {"scoring": "basic", "variant": "standard"}, 2, CODE, me, "Ana",
        HOST_ENDPOINT, spectators=True, spectators_talk=talks,
    )  # fmt: skip
    ben = joiner(1, "Ben")
    settle(host, [ben])
    assert host.genesis is not None and ben.genesis == host.genesis
    body = host.genesis
    genesis = authoring.assemble_genesis(
        body, [authoring.sign_genesis(body, s) for s in (host.me, ben.me)]
    )
    assert host.gallery is not None
    host.gallery.entries = lambda: [genesis.encode()]
    host.gallery.open_channel(read_genesis(genesis).game_id)
    followers = []
    for n, name in ((1, "Wally"), (2, "Eve")):
        watcher = spectator(n, name)
        admit(host, watcher)
        follower = Follower(watcher)
        pump(host, follower, 1.0)
        assert follower.ledger is not None
        followers.append(follower)
    return host, ben, followers


def test_the_option_is_in_the_challenge_and_the_genesis_every_seat_signs():
    host, ben, (wally, _) = _table()
    assert ben.spectators_talk and wally.lobby.spectators_talk
    info = read_genesis(Entry.decode(host.gallery.entries()[0]))
    assert info.spectators_talk and wally.may_talk
    # without it, the genesis is as before: no field at all
    quiet_host, _, (quiet, _) = _table(talks=False)
    body = Entry.decode(quiet_host.gallery.entries()[0]).body
    assert "spectators_talk" not in body and not quiet.may_talk


def test_a_genesis_says_spectators_talk_only_as_true():
    seats = [authoring.SeatSecrets.from_seed(b"g", i, 8) for i in range(2)]
    body = authoring.genesis_body(
        "pet-quartet", {"scoring": "basic", "variant": "standard"}, ["A", "B"],
        [s.key.public for s in seats], [s.chain.head for s in seats],
        [s.link_public for s in seats], 8, bytes(16), spectators_talk=True,
    )  # fmt: skip
    from p2ptable.crypto.encoding import pack, unpack_canonical

    decoded = unpack_canonical(body)
    assert decoded["spectators_talk"] is True
    decoded["spectators_talk"] = False
    false_body = pack(decoded)
    entry = authoring.assemble_genesis(false_body, [authoring.sign_genesis(false_body, seats[0])])
    with pytest.raises(InvalidEntry, match="spectators_talk is written only as true"):
        read_genesis(entry)


def test_spectators_talk_needs_spectators():
    me = authoring.SeatSecrets.from_seed(b"lobby", 0, 8)
    with pytest.raises(lobby.LobbyError, match="needs --spectators"):
        lobby.HostLobby("pet-quartet", {"scoring": "basic", "variant": "standard"}, 2, CODE,
                        me, "Ana", HOST_ENDPOINT, spectators_talk=True)  # fmt: skip


def test_a_spectators_line_reaches_the_host_for_the_seats_and_the_other_spectators():
    host, _, (wally, eve) = _table()
    said = wally.say("  go Ben\x1b[0m! ", now=2.0)
    assert said.text == "go Ben [0m!" and said.name == "Wally"
    for frame in wally.take_outgoing():
        deliver(host, wally.lobby, frame, 2.0)
    ((line, record),) = host.gallery.take_spoken()  # for the host's peer to relay
    assert line == said and open_record(record, line_game(host)) == said
    pump(host, eve, 3.0)
    assert eve.take_spectators() == [said]
    pump(host, wally, 3.0)
    assert wally.take_spectators() == []  # our own line: shown as we said it


def line_game(host: lobby.HostLobby) -> bytes:
    return read_genesis(Entry.decode(host.gallery.entries()[0])).game_id


def test_a_stranger_who_is_not_an_admitted_spectator_cannot_post():
    host, _, (wally, eve) = _table()
    stranger = authoring.SeatSecrets.from_seed(b"stranger", 0, 2)
    record = make_record(stranger.key, line_game(host), SpectatorLine(
        "Mallory", stranger.key.public, 1, 0, "the host cheats"))  # fmt: skip
    frame = lobby.seal_lobby("say", {"line": record, "n": 1, "tag": bytes(16)}, stranger)
    host.receive(frame, address(wally.lobby), 2.0)
    # an admitted spectator's frame replayed, or unbound, keeps no place either
    wally.say("once", now=2.0)
    (sent,) = wally.take_outgoing()
    deliver(host, wally.lobby, sent, 2.0)
    deliver(host, wally.lobby, sent, 2.1)  # the same frame again: a replay
    kind, key, data = lobby.open_lobby(sent)
    with pytest.raises(Unbound):
        host.gallery.receive(key, kind, data, address(wally.lobby), 2.2)
    assert [line.text for line, _ in host.gallery.take_spoken()] == ["once"]
    pump(host, eve, 3.0)
    assert [line.name for line in eve.take_spectators()] == ["Wally"]


def test_a_spectator_cannot_talk_before_the_game_begins():
    me = authoring.SeatSecrets.from_seed(b"lobby", 0, 8)
    options = {"scoring": "basic", "variant": "standard"}
    host = lobby.HostLobby("pet-quartet", options, 2, CODE, me, "Ana", HOST_ENDPOINT,
                           spectators=True, spectators_talk=True)  # fmt: skip
    wally = spectator(1, "Wally")
    admit(host, wally)
    follower = Follower(wally)
    with pytest.raises(Refused, match="not yet"):
        follower.say("hello", now=1.0)
    record = make_record(wally.me.key, GAME, SpectatorLine("Wally", wally.me.key.public, 1, 0, "x"))
    deliver(host, wally, wally.seal_bound("say", {"line": record}), 1.0)
    assert host.gallery.take_spoken() == [] and host.gallery.refused_lines == 1


def test_at_a_table_without_the_option_a_spectator_cannot_talk_and_a_say_is_dropped():
    host, _, (wally, _) = _table(talks=False)
    with pytest.raises(Refused, match="do not talk at this table"):
        wally.say("hello", now=2.0)
    record = make_record(wally.lobby.me.key, line_game(host), SpectatorLine(
        "Wally", wally.lobby.me.key.public, 1, 0, "hello"))  # fmt: skip
    deliver(host, wally.lobby, wally.lobby.seal_bound("say", {"line": record}), 2.0)
    assert host.gallery.take_spoken() == [] and host.gallery.refused_lines == 1
    assert host.gallery.channel is None


def test_junk_in_a_say_from_an_admitted_spectator_is_counted_and_never_raises():
    host, _, (wally, _) = _table()
    for junk in (b"", b"\x00" * 2000, 5, "x", [1, 2], None):
        deliver(host, wally.lobby, wally.lobby.seal_bound("say", {"line": junk}), 2.0)
    assert host.gallery.take_spoken() == [] and host.gallery.refused_lines == 6


def test_the_largest_line_fits_a_record_and_a_full_answer_fits_a_frame():
    from p2ptable.net import gallery
    from p2ptable.net.wire import MAX_FRAME

    from .test_spectators import golden_payloads

    wide = "\U0001d11e"  # four bytes in UTF-8, and printable
    record = line_of(EVE, wide * 32, 1, wide * talk.MAX_TEXT, at=2**40)
    assert len(record) <= spectator_talk.MAX_RECORD
    host, _, (wally, _) = _table()
    host.gallery.entries = golden_payloads
    host.gallery.channel.records = [record] * spectator_talk.MAX_LINES
    seat_line = talk.make_record(EVE, GAME, talk.TalkLine(0, 1, 2**40, wide * talk.MAX_TEXT))
    host.gallery.talk = lambda: [seat_line] * 100
    ask = {"from": 0, "talk": 0, "spectators": 0}
    key, where = wally.lobby.me.key.public, address(wally.lobby)
    host.gallery.receive(key, "feed", wally.lobby.binding.bind("feed", ask), where, 50.0)
    ((_, frame),) = host.gallery.take_outgoing()
    _, _, data = lobby.open_lobby(frame)
    assert len(data["spectators"]) == gallery.FEED_TALK and len(data["talk"]) == gallery.FEED_TALK
    assert len(frame) + 1 <= MAX_FRAME  # with its channel byte


def test_a_host_cannot_slip_the_channel_into_a_genesis_its_challenge_did_not_announce():
    me = authoring.SeatSecrets.from_seed(b"lobby", 0, 8)
    options = {"scoring": "basic", "variant": "standard"}
    host = lobby.HostLobby("pet-quartet", options, 2, CODE, me, "Ana", HOST_ENDPOINT,
                           spectators=True)  # fmt: skip
    ben = joiner(1, "Ben")
    deliver(host, ben, ben.outgoing.pop())  # the knock
    ((_, challenge),) = [(t, f) for t, f in host.outgoing if t == ben.endpoint]
    host.outgoing.clear()
    ben.receive(challenge)
    assert not ben.spectators_talk
    host.spectators_talk = True  # after the challenge: the genesis would say it, unasked
    with pytest.raises(lobby.LobbyError, match="genesis does not match"):
        settle(host, [ben])
    assert ben.genesis is None
