"""Endpoints: the only text a peer may announce as its address.

Issue 12, finding 4: "A joiner who knows the code can crash the host with a bogus
endpoint string (ZMQError: Invalid argument); any endpoint (ipc://, another
machine) is accepted, and every peer connects there."  What to build: "Endpoints
are validated (tcp:// + an IP literal + a port) at the host and at every joiner."
"""

from __future__ import annotations

import pytest
import zmq
from hypothesis import given
from hypothesis import strategies as st

from p2ptable.net.endpoints import endpoint, parse_endpoint


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("tcp://127.0.0.1:47001", ("127.0.0.1", 47001)),
        ("tcp://192.168.1.20:1", ("192.168.1.20", 1)),
        ("tcp://10.0.0.7:65535", ("10.0.0.7", 65535)),
    ],
)
def test_an_ipv4_endpoint_parses(text, parsed):
    assert parse_endpoint(text) == parsed
    assert endpoint(*parsed) == text


BAD = [
    "bogus",  # the review's crash: ZeroMQ raises "Invalid argument"
    "tcp://nowhere",
    "tcp://nowhere:47001",  # a host name: resolved by whoever connects, differently
    "ipc:///tmp/p2ptable",  # another transport: ZeroMQ would connect there
    "inproc://x",
    "tcp://127.0.0.1",
    "tcp://127.0.0.1:",
    "tcp://127.0.0.1:0",
    "tcp://127.0.0.1:65536",
    "tcp://127.0.0.1:047001",
    "tcp://127.0.0.1:+1",
    "tcp://127.0.0.1:٤٧",  # Arabic-Indic digits: str.isdigit() says yes
    "tcp://127.0.0.1:1 ",
    "tcp://010.0.0.7:1",
    "tcp://0.0.0.0:47001",
    "tcp://224.0.0.1:47001",
    "tcp://255.255.255.255:47001",
    "tcp://[::1]:47001",
    "tcp://eth0:47001",
    "tcp://127.0.0.1;10.0.0.1:47001",  # ZeroMQ's source-address syntax
    "TCP://127.0.0.1:47001",
    "tcp://127.0.0.1:47001" + "0" * 100,
    "",
]


@pytest.mark.parametrize("text", BAD)
def test_anything_else_is_refused(text):
    with pytest.raises(ValueError):
        parse_endpoint(text)


@pytest.mark.parametrize("value", [None, 47001, b"tcp://127.0.0.1:1", ["tcp://127.0.0.1:1"]])
def test_a_non_string_is_refused(value):
    with pytest.raises(ValueError, match="an endpoint is a string"):
        parse_endpoint(value)


@given(st.text(max_size=60))
def test_arbitrary_text_only_ever_raises_value_error(text):
    try:
        ip, port = parse_endpoint(text)
    except ValueError:
        return
    assert text == f"tcp://{ip}:{port}"


@given(st.ip_addresses(network="127.0.0.0/8"), st.integers(1, 65535))
def test_every_accepted_endpoint_is_one_zeromq_takes(ip, port):
    # What passes the check must never make ZeroMQ raise when a peer connects
    # (loopback only: a test connects nowhere else).
    text = f"tcp://{ip}:{port}"
    assert parse_endpoint(text) == (str(ip), port)
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    try:
        sock.connect(text)
    finally:
        sock.close()
