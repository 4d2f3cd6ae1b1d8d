"""A bundled part's body is rebuilt without the canonical pass (entries.part_body):
it must be byte for byte what make_body writes, or every peer would check every
signature over other bytes than the ones signed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from p2ptable.crypto.encoding import pack, unpack_canonical
from p2ptable.replay.entries import bundled_parts, make_body, part_body

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.binary(max_size=40),
    st.text(max_size=12),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
msgs = st.dictionaries(st.text(max_size=8), values, max_size=5)


@given(st.integers(0, 2**32), st.binary(min_size=32, max_size=32), st.integers(0, 5), msgs)
def test_part_body_is_make_body_for_a_decoded_message(index, prev, seat, msg):
    decoded = unpack_canonical(pack(msg))  # as a bundle's body holds it
    expected = make_body(t="part", i=index, prev=prev, seat=seat, msg=msg)
    assert part_body(index, prev, seat, decoded) == expected


@given(st.binary(min_size=32, max_size=32), st.lists(msgs, min_size=1, max_size=4))
def test_bundled_parts_rebuild_the_bodies_that_were_signed(prev, parts):
    seats = list(range(len(parts)))
    raw = [[m, bytes(64)] for m in parts]
    bundle = unpack_canonical(make_body(t="commits", i=7, prev=prev, seats=seats, parts=raw))
    rebuilt = bundled_parts(bundle)
    for seat, (msg, part) in enumerate(zip(parts, rebuilt, strict=True)):
        assert part.body_bytes == make_body(t="part", i=7, prev=prev, seat=seat, msg=msg)
        assert part.sigs == ((seat, bytes(64)),)
