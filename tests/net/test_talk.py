"""Table talk: signed lines, bounded in every way (net/talk.py, replay/talk_file.py).

Issue 26: "A seat types a short line (bounded length, one line, made safe for the
terminal); every seat and spectator sees it with the sender's name, in order per
sender.  Lines are signed by the sender and kept with the game ... checked by
`verify`.  Rate-limited per seat"; "what a stranger or a modified peer could do
with it is thought through and tested (a flood of talk, talk with escape
sequences ...)".
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2ptable.crypto.encoding import pack
from p2ptable.crypto.signing import SigningKey
from p2ptable.net import talk
from p2ptable.net.talk import TalkBook, TalkLine, TalkRefused, TalkRejected
from p2ptable.replay.logfile import encode_frame
from p2ptable.replay.talk_file import TalkWriter, read_talk, talk_path

GAME = bytes(range(32))
KEYS = [SigningKey(bytes([i + 1]) * 32) for i in range(3)]
PUBLIC = [k.public for k in KEYS]


def books() -> list[TalkBook]:
    return [TalkBook(GAME, PUBLIC, seat) for seat in range(3)]


def test_a_line_said_is_heard_by_every_other_seat_with_its_sender():
    ana, ben, cleo = books()
    line, record = ana.say(KEYS[0], "  good luck,   all ", at=4, now=0.0)
    assert line == TalkLine(0, 1, 4, "good luck, all")
    assert ben.receive(record, sender=0, now=0.1) == line
    assert cleo.receive(record, sender=0, now=0.1) == line
    assert ben.lines == [line] and ana.lines == [line]


@pytest.mark.parametrize(
    "raw, shown",
    [
        ("\x1b[2J\x1b[31mowned", "[2J [31mowned"),  # escape sequences lose their ESC
        ("line one\nline two\r\n", "line one line two"),  # one line
        ("evil\u202egnp.exe", "evil gnp.exe"),  # no bidi override
        ("tab\there\x07bell", "tab here bell"),
        ("x" * 500, "x" * talk.MAX_TEXT),
    ],
)
def test_talk_is_one_printable_line_of_bounded_length(raw, shown):
    assert talk.clean_text(raw) == shown


@given(st.text(max_size=600))
def test_any_text_cleans_to_a_safe_line(raw):
    cleaned = talk.clean_text(raw)
    assert len(cleaned) <= talk.MAX_TEXT
    assert all(c.isprintable() for c in cleaned)
    assert talk.clean_text(cleaned) == cleaned


def test_an_empty_line_is_not_sent():
    (ana, *_) = books()
    with pytest.raises(TalkRefused, match="empty"):
        ana.say(KEYS[0], " \x1b \n ", at=0, now=0.0)


def test_a_seat_that_talks_too_fast_is_told_to_slow_down_then_may_go_on():
    (ana, *_) = books()
    for i in range(talk.BURST):
        ana.say(KEYS[0], f"line {i}", at=0, now=0.0)
    with pytest.raises(TalkRefused, match="slow down"):
        ana.say(KEYS[0], "one more", at=0, now=0.1)
    line, _ = ana.say(KEYS[0], "later", at=0, now=talk.REFILL + 0.1)
    assert line.n == talk.BURST + 1


def test_a_flood_from_a_modified_peer_is_dropped_past_twice_the_burst():
    # A modified client ignores its own limit and sends 1000 lines at once.
    ana, ben, _ = books()
    flood = [
        talk.make_record(KEYS[0], GAME, TalkLine(0, n, 0, f"spam {n}")) for n in range(1, 1001)
    ]
    kept = [ben.receive(r, sender=0, now=0.0) for r in flood]
    assert sum(line is not None for line in kept) == 2 * talk.BURST
    assert ben.dropped == 1000 - 2 * talk.BURST
    assert len(ben.lines) == 2 * talk.BURST


def test_the_lines_a_game_keeps_are_capped(monkeypatch):
    monkeypatch.setattr(talk, "MAX_LINES", 3)
    (ana, ben, _) = books()
    records = [ana.say(KEYS[0], f"l{n}", at=0, now=10.0 * n)[1] for n in range(3)]
    with pytest.raises(TalkRefused, match="closed"):
        ana.say(KEYS[0], "more", at=0, now=100.0)
    for r in records:
        ben.receive(r, 0, now=0.0)
    late = talk.make_record(KEYS[2], GAME, TalkLine(2, 1, 0, "late"))
    assert ben.receive(late, 2, now=0.0) is None and ben.dropped == 1


def test_a_replayed_or_copied_line_is_shown_once():
    ana, ben, _ = books()
    _, first = ana.say(KEYS[0], "hi", at=0, now=0.0)
    _, second = ana.say(KEYS[0], "again", at=0, now=0.0)
    assert ben.receive(second, 0, now=0.0) is not None
    assert ben.receive(first, 0, now=0.0) is None  # older than what we heard: a replay
    assert ben.receive(second, 0, now=0.0) is None


def test_forged_and_malformed_talk_is_rejected_naming_who_sent_it():
    ana, ben, cleo = books()
    _, record = ana.say(KEYS[0], "hi", at=0, now=0.0)
    # Cleo relays Ana's line as if it were hers: the sender is not the seat.
    with pytest.raises(TalkRejected) as caught:
        ben.receive(record, sender=2, now=0.0)
    assert caught.value.seat == 2
    # Cleo signs a line that says it is Ana's.
    body = pack(TalkLine(0, 5, 0, "I resign").to_body())
    forged = pack([body, KEYS[2].sign(talk.signed_message(GAME, body))])
    with pytest.raises(TalkRejected, match="signature") as caught:
        ben.receive(forged, sender=0, now=0.0)
    assert caught.value.seat == 0
    # A line of another game.
    other = talk.make_record(KEYS[0], bytes(32), TalkLine(0, 1, 0, "hi"))
    with pytest.raises(TalkRejected, match="signature"):
        ben.receive(other, 0, now=0.0)
    # An entry's signature (another domain) does not make a talk line.
    body = pack(TalkLine(0, 1, 0, "hi").to_body())
    entry_sig = KEYS[0].sign(b"p2ptable/sig/v1\x00" + GAME + body)
    with pytest.raises(TalkRejected, match="signature"):
        ben.receive(pack([body, entry_sig]), 0, now=0.0)
    bad = [
        b"\xc1",
        pack([1, 2]),
        pack([b"x"]),
        b"\x00" * (talk.MAX_RECORD + 1),
        "text",
        pack([pack({"t": "talk", "seat": 0, "n": 1, "at": 0, "text": "a\x1bb"}), b"s" * 64]),
        pack([pack({"t": "talk", "seat": 0, "n": 0, "at": 0, "text": "a"}), b"s" * 64]),
        pack([pack({"t": "talk", "seat": 0, "n": 1, "at": -1, "text": "a"}), b"s" * 64]),
        pack([pack({"t": "talk", "seat": 9, "n": 1, "at": 0, "text": "a"}), b"s" * 64]),
        pack([pack({"t": "entry", "seat": 0, "n": 1, "at": 0, "text": "a"}), b"s" * 64]),
        pack([pack({"t": "talk", "seat": 0, "n": 1, "at": 0, "text": "a", "x": 1}), b"s" * 64]),
    ]
    for record in bad:
        with pytest.raises(TalkRejected):
            cleo.receive(record, 0, now=0.0)
    assert cleo.lines == []


def test_a_peer_sending_us_our_own_line_is_rejected():
    ana, ben, _ = books()
    _, record = ana.say(KEYS[0], "hi", at=0, now=0.0)
    with pytest.raises(TalkRejected):
        ana.receive(record, 0, now=0.0)


def test_the_side_record_keeps_every_line_and_verify_reads_it_back(tmp_path):
    replay = tmp_path / "Ana.p2pt"
    ana, ben, _ = books()
    writer = TalkWriter(replay)
    for n in range(3):
        line, record = ana.say(KEYS[0], f"line {n}", at=n, now=10.0 * n)
        writer.append(record)
    _, heard = ben.say(KEYS[1], "from ben", at=2, now=0.0)
    writer.append(heard)
    writer.close()
    report = read_talk(talk_path(replay), GAME, PUBLIC, log_length=5)
    assert report.valid and not report.torn
    assert [(line.seat, line.text) for line in report.lines] == [
        (0, "line 0"),
        (0, "line 1"),
        (0, "line 2"),
        (1, "from ben"),
    ]


def test_verify_names_the_seat_of_a_bad_line_and_keeps_the_rest(tmp_path):
    replay = tmp_path / "Ana.p2pt"
    writer = TalkWriter(replay)
    good = talk.make_record(KEYS[0], GAME, TalkLine(0, 1, 0, "fine"))
    body = pack(TalkLine(1, 1, 0, "not mine").to_body())
    forged = pack([body, KEYS[2].sign(talk.signed_message(GAME, body))])
    past = talk.make_record(KEYS[2], GAME, TalkLine(2, 1, 99, "from the future"))
    again = talk.make_record(KEYS[0], GAME, TalkLine(0, 1, 0, "fine again"))
    for record in (good, forged, past, again):
        writer.append(record)
    writer.close()
    report = read_talk(talk_path(replay), GAME, PUBLIC, log_length=10)
    assert [line.text for line in report.lines] == ["fine"]
    assert len(report.problems) == 3
    assert "(seat 1)" in report.problems[0] and "signature" in report.problems[0]
    assert "(seat 2)" in report.problems[1] and "past the log" in report.problems[1]
    assert "(seat 0)" in report.problems[2] and "does not rise" in report.problems[2]


def test_a_torn_last_line_is_skipped_and_cut_before_the_next(tmp_path):
    replay = tmp_path / "Ana.p2pt"
    writer = TalkWriter(replay)
    writer.append(talk.make_record(KEYS[0], GAME, TalkLine(0, 1, 0, "kept")))
    writer.close()
    path = talk_path(replay)
    frame = encode_frame(talk.make_record(KEYS[0], GAME, TalkLine(0, 2, 0, "torn")))
    path.write_bytes(path.read_bytes() + frame[:-5])  # a crash mid-write
    report = read_talk(path, GAME, PUBLIC, log_length=0)
    assert report.valid and report.torn and [line.text for line in report.lines] == ["kept"]
    writer = TalkWriter(replay)  # the peer resumes and talks on
    writer.append(talk.make_record(KEYS[0], GAME, TalkLine(0, 2, 0, "after")))
    writer.close()
    report = read_talk(path, GAME, PUBLIC, log_length=0)
    assert not report.torn and [line.text for line in report.lines] == ["kept", "after"]


def test_a_resumed_book_counts_on_from_the_lines_on_disk():
    ana, *_ = books()
    kept = [TalkLine(0, 1, 0, "a"), TalkLine(1, 4, 0, "b")]
    ana.resume(kept)
    line, _ = ana.say(KEYS[0], "next", at=0, now=0.0)
    assert line.n == 2
    assert ana.last == {0: 2, 1: 4}
