"""The quick paths every peer takes for every entry give exactly the old answers.

``unpack_canonical`` and ``Entry.decode`` used to decode, check and re-encode with a
fresh ``msgpack.packb`` each time, and ``Entry.decode`` ran the generic checks on
the entry and again on its body.  Their old code is kept below, verbatim, as the
reference: on any bytes at all, the new code must accept the same inputs with the
same result and reject the others with the same exception type and message.

The bytes come from a deliberately sloppy msgpack writer that picks any valid
width for integers and lengths, writes text as ``bin`` or bytes as ``str``, floats
as float32 or float64 and map keys in any order, plus random damage to real
entries: so canonical and non-canonical inputs both turn up often.
"""

from __future__ import annotations

import hashlib
import os
import struct
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptable.crypto import encoding
from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.replay import entries, ledger, moves
from p2ptable.replay.entries import Entry, MalformedEntry, check_body_shape
from p2ptable.replay.logfile import MAGIC, LogWriter, encode_frame, parse_frames
from p2ptable.sim import simulate
from tests.budget import examples

# Raise for a long run: P2P_FAST_DECODE_EXAMPLES=20000 pytest tests/replay/test_entry_decode_fast.py
# (300 with --hypothesis-profile thorough, half of it by default: tests/budget.py).
EXAMPLES = int(os.environ.get("P2P_FAST_DECODE_EXAMPLES", examples(300)))

# -- the reference: the code as it was -----------------------------------------------


def old_check_decoded(value: Any) -> None:
    kind = type(value)
    if kind is dict:
        keys = list(value)
        if not all(type(k) is str for k in keys):
            raise EncodingError("disallowed value: map keys must be text")
        if keys != sorted(keys):
            raise EncodingError("not in canonical form (keys unsorted or non-minimal encoding)")
        for item in value.values():
            if type(item) in (dict, list, float):
                old_check_decoded(item)
    elif kind is list:
        for item in value:
            if type(item) in (dict, list, float):
                old_check_decoded(item)
    elif kind is float:
        raise EncodingError("disallowed value: floats are not allowed")


def old_unpack_canonical(data: bytes) -> Any:
    if len(data) > encoding.MAX_BYTES:
        raise EncodingError(f"{len(data)} bytes is over the {encoding.MAX_BYTES}-byte limit")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_bin_len=encoding.MAX_BYTES,
            max_str_len=encoding.MAX_BYTES,
            max_array_len=encoding.MAX_ITEMS,
            max_map_len=encoding.MAX_ITEMS,
            max_ext_len=0,
        )
    except (msgpack.exceptions.ExtraData, ValueError, TypeError) as exc:
        raise EncodingError(f"malformed msgpack: {exc}") from None
    except Exception as exc:
        raise EncodingError(f"malformed msgpack: {type(exc).__name__}: {exc}") from None
    old_check_decoded(value)
    if msgpack.packb(value, use_bin_type=True) != data:
        raise EncodingError("not in canonical form (keys unsorted or non-minimal encoding)")
    return value


def old_decode(data: bytes) -> tuple[bytes, tuple, dict]:
    """Entry.decode as it was: (body bytes, signatures, body)."""
    try:
        outer = old_unpack_canonical(data)
    except EncodingError as exc:
        raise MalformedEntry(str(exc)) from None
    if not (isinstance(outer, list) and len(outer) == 2 and isinstance(outer[0], bytes)):
        raise MalformedEntry("an entry is [body bytes, signatures]")
    body_bytes, sig_list = outer
    if not isinstance(sig_list, list):
        raise MalformedEntry("signatures must be a list")
    sigs = []
    for item in sig_list:
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], int)
            and not isinstance(item[0], bool)
            and isinstance(item[1], bytes)
        ):
            raise MalformedEntry("a signature is [seat, bytes]")
        sigs.append((item[0], item[1]))
    try:
        body = old_unpack_canonical(body_bytes)
    except EncodingError as exc:
        raise MalformedEntry(f"body: {exc}") from None
    check_body_shape(body)  # unchanged
    return body_bytes, tuple(sigs), body


def outcome(fn, data: bytes) -> tuple:
    """What ``fn(data)`` does: ("ok", result) or (exception type, message)."""
    try:
        return ("ok", fn(data))
    except Exception as exc:
        return (type(exc), str(exc))


def new_decode(data: bytes) -> tuple[bytes, tuple, dict]:
    entry = Entry.decode(data)
    assert entry.encoded is data and entry.hash == hashlib.sha256(data).digest()
    return entry.body_bytes, entry.sigs, entry.body


def same(data: bytes) -> None:
    assert outcome(unpack_canonical, data) == outcome(old_unpack_canonical, data)
    old = outcome(old_decode, data)
    assert outcome(new_decode, data) == old
    # The quick path takes every valid entry, so the full checks only ever run to
    # word an error.
    assert (entries._decode_fast(data) is not None) == (old[0] == "ok")


# -- a sloppy msgpack writer -----------------------------------------------------------

INT_FORMS = [  # (marker, struct format, low, high)
    (0xCC, ">B", 0, 2**8 - 1),
    (0xCD, ">H", 0, 2**16 - 1),
    (0xCE, ">I", 0, 2**32 - 1),
    (0xCF, ">Q", 0, 2**64 - 1),
    (0xD0, ">b", -(2**7), 2**7 - 1),
    (0xD1, ">h", -(2**15), 2**15 - 1),
    (0xD2, ">i", -(2**31), 2**31 - 1),
    (0xD3, ">q", -(2**63), 2**63 - 1),
]


def sloppy(draw, value: Any, odds: int = 4) -> bytes:
    """One valid msgpack encoding of ``value``: at each node, the canonical one
    (sorted text keys) but for one time in ``odds``, then any other the format
    allows; ``odds=0``: always canonical."""
    canonical = odds == 0 or draw(st.integers(1, odds)) > 1
    if canonical and not isinstance(value, (dict, list, tuple)):
        return msgpack.packb(value, use_bin_type=True)
    if value is None or isinstance(value, bool):
        return msgpack.packb(value)
    if isinstance(value, int):
        forms = [f for f in INT_FORMS if f[2] <= value <= f[3]]
        marker, fmt, _, _ = draw(st.sampled_from(forms))
        return bytes([marker]) + struct.pack(fmt, value)
    if isinstance(value, float):
        return msgpack.packb(value, use_single_float=draw(st.booleans()))
    if isinstance(value, (str, bytes)):
        raw = value.encode() if isinstance(value, str) else value
        confused = draw(st.integers(0, 4)) == 0  # text as bin, bytes as str
        as_text = isinstance(value, str) != confused
        n = len(raw)
        if as_text:
            heads = [bytes([0xD9, n]) if n < 256 else None, b"\xda" + struct.pack(">H", n)]
            heads.append(b"\xdb" + struct.pack(">I", n))
            if n < 32:
                heads.append(bytes([0xA0 | n]))
        else:
            heads = [bytes([0xC4, n]) if n < 256 else None, b"\xc5" + struct.pack(">H", n)]
            heads.append(b"\xc6" + struct.pack(">I", n))
        return draw(st.sampled_from([h for h in heads if h is not None])) + raw
    if isinstance(value, (list, tuple)):
        n = len(value)
        heads = [b"\xdc" + struct.pack(">H", n), b"\xdd" + struct.pack(">I", n)]
        if n < 16:
            heads.append(bytes([0x90 | n]))
        head = bytes([0x90 | n]) if canonical and n < 16 else draw(st.sampled_from(heads))
        return head + b"".join(sloppy(draw, v, odds) for v in value)
    if isinstance(value, dict):
        items = list(value.items())
        if canonical and all(type(k) is str for k in value):
            items.sort()
        else:
            items = draw(st.permutations(items))
        n = len(items)
        heads = [b"\xde" + struct.pack(">H", n), b"\xdf" + struct.pack(">I", n)]
        if n < 16:
            heads.append(bytes([0x80 | n]))
        head = bytes([0x80 | n]) if canonical and n < 16 else draw(st.sampled_from(heads))
        return head + b"".join(sloppy(draw, k, odds) + sloppy(draw, v, odds) for k, v in items)
    raise AssertionError(value)


leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.integers(-40, 300)
    | st.floats(allow_nan=False, width=32)
    | st.text(max_size=40)
    | st.binary(max_size=40)
)
keys = st.sampled_from(["t", "i", "prev", "seat", "action", "a", "b"]) | st.text(max_size=3)
values = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(keys, children, max_size=4)
        | st.dictionaries(st.binary(max_size=2) | st.integers(0, 3), children, max_size=2)
    ),
    max_leaves=12,
)


# What the protocol allows inside an entry's maps and lists (no floats, text keys).
clean_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=8)
    | st.binary(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)
odds = st.sampled_from([0, 0, 0, 30, 8, 3])


def mutate(draw, data: bytes) -> bytes:
    """Flip, insert, delete or cut a few bytes."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["flip", "insert", "delete", "cut", "set"]))
        at = draw(st.integers(0, len(data)))
        if how == "insert" or not data:
            data[at:at] = bytes([draw(st.integers(0, 255))])
        elif how == "cut":
            del data[at:]
        elif how == "delete":
            del data[min(at, len(data) - 1)]
        else:
            bit = 1 << draw(st.integers(0, 7))
            byte = draw(st.integers(0, 255))
            at = min(at, len(data) - 1)
            data[at] = data[at] ^ bit if how == "flip" else byte
    return bytes(data)


# -- unpack_canonical ------------------------------------------------------------------


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_unpack_canonical_agrees_with_the_reference_on_sloppy_encodings(data):
    value = data.draw(values)
    raw = sloppy(data.draw, value, data.draw(odds))
    if data.draw(st.integers(0, 4)) == 0:
        raw = mutate(data.draw, raw)
    same(raw)


@given(st.binary(max_size=60))
def test_unpack_canonical_agrees_with_the_reference_on_any_bytes(raw):
    same(raw)


def test_the_shared_packer_survives_a_value_it_cannot_pack():
    # The packer resets after a failure: the next value comes out clean.
    with pytest.raises((OverflowError, ValueError)):
        pack(2**70)
    assert pack({"b": 1, "a": [b"x"]}) == msgpack.packb({"a": [b"x"], "b": 1}, use_bin_type=True)


# -- Entry.decode ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_entries(tmp_path_factory) -> list[bytes]:
    """Every entry of a Pet Quartet game and of a sealed-deck Vorsicht Lehrer! game."""
    out = []
    for game, players, options in [
        ("pet-quartet", 6, {}),
        ("vorsicht-lehrer", 2, {"track": "100"}),
    ]:
        path = tmp_path_factory.mktemp("fast") / f"{game}.p2pt"
        simulate(game, players, "fast-decode", path, options=options)
        frames = parse_frames(path.read_bytes())
        assert frames.error is None
        out += frames.payloads
    return out


def test_real_entries_of_every_kind_take_the_quick_path(real_entries):
    kinds = set()
    for raw in real_entries:
        fast = entries._decode_fast(raw)
        assert fast is not None
        assert fast == old_decode(raw)
        kinds.add(fast[2]["t"])
        if fast[2]["t"] == "action":
            kinds.update(k for k in ("reveal", "transfer") if k in fast[2])
    assert {"genesis", "action", "chance", "shuffle", "open", "secrets", "result"} <= kinds
    assert "reveal" in kinds


def test_an_action_with_a_transfer_takes_the_quick_path(real_entries):
    body_bytes, sigs, body = old_decode(next(r for r in real_entries if b"reveal" in r))
    raw = pack([pack({**body, "transfer": {"to": 1, "proof": [b"x"]}}), [list(s) for s in sigs]])
    assert entries._decode_fast(raw) == old_decode(raw)


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_decode_agrees_with_the_reference_on_damaged_real_entries(real_entries, data):
    raw = data.draw(st.sampled_from(real_entries))
    same(mutate(data.draw, raw))


def entry_bodies(draw) -> dict:
    """A body that is right, or nearly right, for a random kind."""
    kind = draw(st.sampled_from([*entries._SHAPES, "bogus"]))
    shape = {**entries._SHAPES.get(kind, {"t": str}), **entries._OPTIONAL.get(kind, {})}
    samples = {
        str: st.text(max_size=6),
        int: st.integers(-3, 2**40),
        bool: st.booleans(),
        bytes: st.one_of(*[st.binary(min_size=32, max_size=32)] * 5, st.binary(max_size=40)),
        dict: st.dictionaries(st.text(max_size=4), clean_values, max_size=3),
        list: st.lists(clean_values, max_size=3),
    }
    body: dict[str, Any] = {}
    for name, typ in shape.items():
        if name in entries._OPTIONAL.get(kind, {}) and draw(st.booleans()):
            continue
        body[name] = draw(samples[typ] if draw(st.integers(0, 29)) else values)
    body["t"] = kind if draw(st.integers(0, 29)) else draw(values)
    if draw(st.integers(0, 29)) == 0 and body:
        del body[draw(st.sampled_from(sorted(body, key=repr)))]
    if draw(st.integers(0, 29)) == 0:
        body[draw(keys)] = draw(values)
    return body


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_decode_agrees_with_the_reference_on_sloppy_entries(data):
    draw = data.draw
    body_bytes = sloppy(draw, entry_bodies(draw), draw(odds))
    sig = st.tuples(st.one_of(*[st.integers(-2, 7)] * 9, st.booleans()), st.binary(max_size=3)).map(
        list
    )
    sigs = draw(st.lists(sig if draw(st.integers(0, 9)) else sig | values, max_size=3))
    outer: Any = [body_bytes, sigs]
    if draw(st.integers(0, 29)) == 0:
        outer = draw(values)
    raw = sloppy(draw, outer, draw(odds))
    if draw(st.integers(0, 19)) == 0:
        raw = mutate(draw, raw)
    same(raw)


def test_a_body_whose_kind_is_a_list_is_malformed_not_a_crash():
    # Found while writing these tests: check_body_shape looked the kind up in a dict,
    # so {"t": []} raised a bare TypeError that the ledger (and verify) did not catch.
    raw = pack([pack({"t": []}), []])
    assert outcome(Entry.decode, raw) == (MalformedEntry, "unknown entry kind []")


def test_the_hash_is_sha256_of_the_encoding(real_entries):
    from p2ptable.crypto.signing import sha256

    for raw in real_entries[:20]:
        assert Entry.decode(raw).hash == sha256(raw)
        entry = Entry.decode(raw)
        assert Entry(entry.body_bytes, entry.sigs).hash == sha256(raw)


# -- the ledger's remembered values ------------------------------------------------------


def test_remembered_actions_are_the_parsed_ones_and_failures_are_not_kept():
    moves._ACTIONS.clear()
    assert moves.parse_action("place 2") == moves.parse_action("place 2")
    assert "place 2" in moves._ACTIONS
    for _ in range(2):
        with pytest.raises(ValueError, match="not in canonical form"):
            moves.parse_action("place 02")
    assert "place 02" not in moves._ACTIONS


def test_the_remembered_actions_stay_few():
    moves._ACTIONS.clear()
    for n in range(moves._ACTIONS_MAX * 2 + 5):
        moves.parse_action(f"take {n}")
    assert len(moves._ACTIONS) <= moves._ACTIONS_MAX


def test_the_expected_action_is_the_same_value_as_a_fresh_one():
    assert ledger._action_by(3) == ledger.Expected("action", seat=3)
    assert ledger._action_by(3) is ledger._action_by(3)


# -- the log writer ------------------------------------------------------------------------


class ShortWrites:
    """A file whose writes take at most ``most`` bytes, as an OS may."""

    def __init__(self, real, most: int) -> None:
        self.real, self.most, self.calls = real, most, 0

    def write(self, data) -> int:
        self.calls += 1
        return self.real.write(bytes(data[: self.most]))

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_the_writer_finishes_short_writes(tmp_path):
    path = tmp_path / "game.p2pt"
    payloads = [b"genesis", b"", b"x" * 300]
    with LogWriter(path) as writer:
        writer._file = ShortWrites(writer._file, 7)  # type: ignore[assignment]
        for payload in payloads:
            writer.append(payload)
        assert writer._file.calls > 40
    assert path.read_bytes() == MAGIC + b"".join(encode_frame(p) for p in payloads)


def test_fsync_runs_after_every_frame(tmp_path, monkeypatch):
    synced = []
    # The file's data is synced with fdatasync where there is one (and the new
    # file's directory once, with fsync): count the file's syncs, either way.
    monkeypatch.setattr("p2ptable.replay.logfile.os.fsync", synced.append)
    monkeypatch.setattr("p2ptable.replay.logfile.os.fdatasync", synced.append, raising=False)
    path = tmp_path / "game.p2pt"
    with LogWriter(path, fsync=True) as writer:
        writer.append(b"a")
        writer.append(b"b")
        file_syncs = [fd for fd in synced if fd == writer._file.fileno()]
    assert len(file_syncs) == 3  # the magic, then each frame
    synced.clear()
    with LogWriter(path) as writer:
        writer.append(b"c")
    assert synced == []
