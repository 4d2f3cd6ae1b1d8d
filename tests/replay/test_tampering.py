"""Every kind of tampering with a replay is caught, at the right entry.

Issue: "each kind of tampering is detected, with the right entry index: flipping any
byte; dropping, duplicating or reordering any entry; changing any preimage, action
or result."
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptable.crypto.encoding import pack, unpack_canonical
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, make_body, sign_body
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import simulate

SEED = "tamper-test"
PLAYERS = 3


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("tamper") / "game.p2pt"
    simulate(
        "pet-quartet",
        PLAYERS,
        SEED,
        path,
        options={"variant": "maestro"},
        bots=["random"] * PLAYERS,
    )
    return path.read_bytes()


def frames_of(data: bytes) -> list[bytes]:
    result = parse_frames(data)
    assert result.error is None
    return result.payloads


def build(payloads: list[bytes]) -> bytes:
    return MAGIC + b"".join(encode_frame(p) for p in payloads)


def frame_index_of_byte(data: bytes, position: int) -> int:
    """Which entry a byte of the file belongs to (the magic counts as entry 0)."""
    pos, index = len(MAGIC), 0
    if position < pos:
        return 0
    while True:
        (length,) = struct.unpack_from(">I", data, pos)
        end = pos + 8 + length
        if position < end:
            return index
        pos, index = end, index + 1


def kinds(payloads: list[bytes]) -> list[str]:
    return [Entry.decode(p).kind for p in payloads]


def secrets() -> list[authoring.SeatSecrets]:
    return [authoring.SeatSecrets.from_seed(SEED.encode(), i) for i in range(PLAYERS)]


def test_untouched_replay_is_valid(replay):
    report = verify_bytes(replay)
    assert report.valid, report.error
    assert report.entries == len(frames_of(replay))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_flipping_any_byte_is_caught_at_its_entry(replay, data):
    position = data.draw(st.integers(0, len(replay) - 1), label="byte")
    bit = data.draw(st.integers(0, 7), label="bit")
    tampered = bytearray(replay)
    tampered[position] ^= 1 << bit
    report = verify_bytes(bytes(tampered))
    assert not report.valid
    assert report.error["entry"] == frame_index_of_byte(replay, position)


def test_flipping_a_byte_in_every_entry(replay):
    # Deterministic companion to the property test: the middle byte of each frame.
    payloads = frames_of(replay)
    pos = len(MAGIC)
    for index, payload in enumerate(payloads):
        tampered = bytearray(replay)
        tampered[pos + 4 + len(payload) // 2] ^= 0x40
        report = verify_bytes(bytes(tampered))
        assert (report.valid, report.error["entry"]) == (False, index)
        pos += 8 + len(payload)


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_dropping_an_entry(replay, where):
    payloads = frames_of(replay)
    index = {"first": 1, "middle": len(payloads) // 2, "last": len(payloads) - 1}[where]
    report = verify_bytes(build(payloads[:index] + payloads[index + 1 :]))
    assert (report.valid, report.error["entry"]) == (False, index)


def test_dropping_the_genesis(replay):
    report = verify_bytes(build(frames_of(replay)[1:]))
    assert (report.valid, report.error["entry"]) == (False, 0)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_dropping_duplicating_or_swapping_any_entry(replay, data):
    payloads = frames_of(replay)
    i = data.draw(st.integers(0, len(payloads) - 1), label="entry")
    how = data.draw(st.sampled_from(["drop", "duplicate", "swap"]), label="how")
    if how == "drop":
        changed, expected = payloads[:i] + payloads[i + 1 :], i
    elif how == "duplicate":
        changed, expected = payloads[: i + 1] + payloads[i:], i + 1
    else:
        j = data.draw(st.integers(0, len(payloads) - 1).filter(lambda j: j != i), label="other")
        a, b = sorted((i, j))
        changed = list(payloads)
        changed[a], changed[b] = changed[b], changed[a]
        expected = a
    report = verify_bytes(build(changed))
    assert not report.valid
    assert report.error["entry"] == expected


def _rewrite(payload: bytes, **changes) -> bytes:
    """Re-encode an entry with body fields changed, keeping the old signatures."""
    entry = Entry.decode(payload)
    body = dict(entry.body, **changes)
    return Entry(pack(body), entry.sigs).encode()


def test_changing_a_preimage(replay):
    # Chance entries carry no signatures: each value must hash to its seat's
    # previous chain value, which only that seat could have produced.
    payloads = frames_of(replay)
    index = kinds(payloads).index("chance")
    body = Entry.decode(payloads[index]).body
    pre = list(body["pre"])
    pre[1] = bytes(32)
    payloads[index] = _rewrite(payloads[index], pre=pre)
    report = verify_bytes(build(payloads))
    assert (report.valid, report.error["entry"]) == (False, index)
    assert "seat 1 is not on its chain" in report.error["reason"]


def test_a_chance_entry_with_a_signature_is_rejected(replay):
    # One encoding per entry: a chance entry is proved by its chains, not signed.
    payloads = frames_of(replay)
    index = kinds(payloads).index("chance")
    entry = Entry.decode(payloads[index])
    payloads[index] = Entry(entry.body_bytes, ((0, bytes(64)),)).encode()
    report = verify_bytes(build(payloads))
    assert (report.valid, report.error["entry"]) == (False, index)
    assert "carries no signatures" in report.error["reason"]


def test_changing_a_recorded_outcome(replay):
    payloads = frames_of(replay)
    index = kinds(payloads).index("chance")
    outcome = Entry.decode(payloads[index]).body["outcome"]
    payloads[index] = _rewrite(payloads[index], outcome=[(outcome[0] + 1) % 2])
    report = verify_bytes(build(payloads))
    assert (report.valid, report.error["entry"]) == (False, index)


def test_changing_an_action_breaks_its_signature(replay):
    payloads = frames_of(replay)
    index = kinds(payloads).index("action")
    payloads[index] = _rewrite(payloads[index], action="take 0")
    report = verify_bytes(build(payloads))
    assert (report.valid, report.error["entry"]) == (False, index)
    assert "signature" in report.error["reason"]


def test_an_action_re_signed_by_its_author_breaks_the_next_link(replay):
    # The author can sign a different move, but the rest of the log was signed by
    # the others over the old hash: the next entry no longer links.
    payloads = frames_of(replay)
    index = kinds(payloads).index("action", 3)
    ledger = _ledger_until(payloads, index)
    seat = ledger.expected().seat
    while len(ledger.game.legal_actions(ledger.state, seat)) < 2:  # find a real choice
        ledger.append(Entry.decode(payloads[index]))
        index += 1
        seat = ledger.expected().seat
    original = Entry.decode(payloads[index]).body["action"]
    choices = ledger.game.legal_actions(ledger.state, seat)
    replacement = next(a for a in choices if a.text != original)
    payloads[index] = authoring.action_entry(ledger, seat, secrets()[seat], replacement).encode()
    report = verify_bytes(build(payloads))
    assert (report.valid, report.error["entry"]) == (False, index + 1)


def test_an_illegal_action_signed_by_its_author_names_the_cheater(replay):
    payloads = frames_of(replay)
    index = kinds(payloads).index("action", 3)
    ledger = _ledger_until(payloads, index)
    seat = ledger.expected().seat
    body = make_body(t="action", i=index, prev=ledger.head, seat=seat, action="take 99")
    payloads[index] = sign_body(ledger.game_id, body, {seat: secrets()[seat].key}).encode()
    report = verify_bytes(build(payloads[: index + 1]))
    assert report.error["entry"] == index
    assert report.error["culprit"] == seat
    assert "illegal action" in report.error["reason"]


def test_an_action_out_of_turn_is_rejected(replay):
    payloads = frames_of(replay)
    index = kinds(payloads).index("action", 3)
    ledger = _ledger_until(payloads, index)
    wrong = (ledger.expected().seat + 1) % PLAYERS
    body = make_body(t="action", i=index, prev=ledger.head, seat=wrong, action="draw")
    payloads[index] = sign_body(ledger.game_id, body, {wrong: secrets()[wrong].key}).encode()
    report = verify_bytes(build(payloads[: index + 1]))
    assert report.error["entry"] == index
    assert "out of turn" in report.error["reason"]


def test_changing_the_result(replay):
    payloads = frames_of(replay)
    index = len(payloads) - 1
    body = Entry.decode(payloads[index]).body
    scores = [s + 1 if seat == 0 else s for seat, s in enumerate(body["scores"])]
    payloads[index] = _rewrite(payloads[index], scores=scores)
    report = verify_bytes(build(payloads))
    assert (report.valid, report.error["entry"]) == (False, index)


def test_a_result_signed_by_everyone_must_still_match_the_rules(replay):
    # Even if every seat colluded to sign a different result, the rules decide.
    payloads = frames_of(replay)
    index = len(payloads) - 1
    ledger = _ledger_until(payloads, index)
    body = unpack_canonical(authoring.result_body(ledger))
    body["winners"] = [w for w in range(PLAYERS) if w not in body["winners"]][:1]
    body_bytes = make_body(**body)
    keys = {s: k.key for s, k in enumerate(secrets())}
    payloads[index] = sign_body(ledger.game_id, body_bytes, keys).encode()
    report = verify_bytes(build(payloads))
    assert (report.valid, report.error["entry"]) == (False, index)
    assert "differs from the rules" in report.error["reason"]


def test_a_torn_last_record_is_reported_not_dropped(replay):
    cut = replay[:-5]
    report = verify_bytes(cut)
    assert not report.valid
    assert report.error["entry"] == len(frames_of(replay)) - 1
    assert "torn" in report.error["reason"]


def test_a_log_that_stops_early_is_not_valid(replay):
    payloads = frames_of(replay)
    report = verify_bytes(build(payloads[:10]))
    assert (report.valid, report.error["entry"]) == (False, 10)
    assert "before the game is over" in report.error["reason"]


def _ledger_until(payloads: list[bytes], index: int) -> Ledger:
    ledger = Ledger(Entry.decode(payloads[0]))
    for payload in payloads[1:index]:
        ledger.append(Entry.decode(payload))
    return ledger
