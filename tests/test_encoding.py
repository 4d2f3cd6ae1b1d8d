"""Canonical msgpack: one encoding per value, anything else rejected."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text() | st.binary(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=5)
    ),
    max_leaves=20,
)


@given(values)
def test_round_trip(value):
    assert pack(unpack_canonical(pack(value))) == pack(value)


def test_map_keys_are_sorted():
    assert pack({"b": 1, "a": 2}) == pack({"a": 2, "b": 1})
    unsorted = msgpack.packb({"b": 1, "a": 2})
    with pytest.raises(EncodingError, match="canonical"):
        unpack_canonical(unsorted)


def test_non_minimal_integer_is_rejected():
    # 1 encoded as uint32 (0xce) instead of a positive fixint.
    with pytest.raises(EncodingError, match="canonical"):
        unpack_canonical(b"\xce\x00\x00\x00\x01")


def test_floats_and_trailing_bytes_and_garbage_are_rejected():
    with pytest.raises(EncodingError):
        pack({"x": 1.5})
    with pytest.raises(EncodingError):
        unpack_canonical(msgpack.packb(1.5))
    with pytest.raises(EncodingError, match="malformed"):
        unpack_canonical(pack(1) + b"\x01")
    with pytest.raises(EncodingError, match="malformed"):
        unpack_canonical(b"\xc1")  # never-used byte
    with pytest.raises(EncodingError):
        unpack_canonical(b"\xdd\xff\xff\xff\xff")  # array claiming 4 billion items


def test_non_text_map_keys_are_rejected():
    with pytest.raises(EncodingError):
        unpack_canonical(msgpack.packb({1: 2}))
