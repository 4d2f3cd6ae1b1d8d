"""Each entry kind is one row (replay/kinds.py, replay/rows.py): its body type
reads every recorded entry of its kind and writes it back byte for byte.

Issue 24: "Each entry kind is one row: a frozen body type with ``to_body()``/
``parse()``" with "no behaviour change, not one byte on the wire or on disk".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from p2ptable.crypto.encoding import pack
from p2ptable.replay.entries import Entry, MalformedEntry, bundled_parts
from p2ptable.replay.kinds import BODIES, BUNDLE_KINDS, KIND_OF, Kind, Reason
from p2ptable.replay.logfile import parse_frames

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((ROOT / "replays").glob("*.p2pt"))


def recorded() -> dict[Kind, list[Entry]]:
    """Every entry of every golden replay, and every part its bundles hold, by kind."""
    found: dict[Kind, list[Entry]] = {kind: [] for kind in BODIES}
    for path in REPLAYS:
        for payload in parse_frames(path.read_bytes()).payloads:
            entry = Entry.decode(payload)
            found[entry.kind].append(entry)
            if entry.kind in BUNDLE_KINDS:
                found[Kind.PART].extend(bundled_parts(entry.body))
    return found


RECORDED = recorded()


@pytest.mark.parametrize("kind", list(BODIES), ids=str)
def test_each_row_writes_back_every_recorded_body_byte_for_byte(kind):
    body_type = BODIES[kind]
    seen = RECORDED[kind]
    if kind is not Kind.ABORT:  # the goldens all end with a result
        assert seen, f"no {kind} entry in the recorded games"
    for entry in seen:
        value = body_type.parse(entry.body)
        assert value.kind is kind
        assert value.to_body() == entry.body
        assert pack(value.to_body()) == entry.body_bytes
        assert value.encode() == entry.body_bytes
        assert entry.typed == value


def test_a_body_of_another_kind_is_not_parsed():
    action = RECORDED[Kind.ACTION][0]
    with pytest.raises(MalformedEntry, match="not a result entry"):
        BODIES[Kind.RESULT].parse(action.body)
    with pytest.raises(MalformedEntry, match="unknown entry kind"):
        BODIES[Kind.RESULT].parse({"t": "bogus"})


def test_an_optional_field_is_absent_not_empty():
    plain = [
        e for e in RECORDED[Kind.ACTION] if "reveal" not in e.body and "transfer" not in e.body
    ]
    value = BODIES[Kind.ACTION].parse(plain[0].body)
    assert value.reveal is None and "reveal" not in value.to_body()


def test_kinds_print_and_compare_as_their_wire_text():
    for text, kind in KIND_OF.items():
        assert kind == text and f"{kind}" == text and str(kind) == text
        assert pack(kind) == pack(text)
    assert str(Reason.CHEATED) == "cheated" and Reason.of("cheated") is Reason.CHEATED
    assert Reason.of("bogus") is None and Reason.of(["cheated"]) is None
    assert [r.proved for r in Reason] == [True, True, False, False]
    assert sorted(Reason, key=lambda r: r.rank) == list(Reason)
