"""Peer endpoints: the one text form a peer may announce, and its check.

An endpoint is where a peer's inbox listens, as ZeroMQ spells it:
``tcp://`` + a dotted-quad IPv4 address + ``:`` + a port 1..65535, nothing else
(no host names, no ``ipc://`` or ``inproc://``, no interface names, no IPv6:
our sockets are IPv4 only).  Every endpoint that comes from the network, a
joiner's in the host's lobby and every member's in a roster, goes through
:func:`parse_endpoint` before any socket is pointed at it: ZeroMQ raises on a
malformed one (which would end the peer), and connects to anything else.
"""

from __future__ import annotations

import ipaddress

MAX_ENDPOINT = len("tcp://255.255.255.255:65535")


def parse_endpoint(text: object) -> tuple[str, int]:
    """``(ip, port)`` of an endpoint ``tcp://A.B.C.D:PORT``; ValueError otherwise.

    The address must be written canonically (``10.0.0.7``, not ``010.0.0.7``), so
    one peer has one endpoint text, and may not be 0.0.0.0, a multicast or a
    broadcast address: nobody listens there."""
    if not isinstance(text, str):
        raise ValueError(f"an endpoint is a string, not {type(text).__name__}")
    if len(text) > MAX_ENDPOINT or not text.startswith("tcp://"):
        raise ValueError(f"not a tcp:// endpoint: {text[:40]!r}")
    host, sep, port = text[len("tcp://") :].rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()) or port != str(int(port)):
        raise ValueError(f"no port in {text!r}")
    if not 1 <= int(port) <= 65535:
        raise ValueError(f"port out of range in {text!r}")
    try:
        ip = ipaddress.IPv4Address(host)
    except ValueError:
        raise ValueError(f"not an IPv4 address in {text!r}") from None
    if str(ip) != host:
        raise ValueError(f"not a canonical IPv4 address in {text!r}")
    if ip.is_unspecified or ip.is_multicast or ip == ipaddress.IPv4Address("255.255.255.255"):
        raise ValueError(f"nobody listens at {text!r}")
    return host, int(port)


def endpoint(ip: str, port: int) -> str:
    """The endpoint text for ``ip`` and ``port`` (checked like a received one)."""
    text = f"tcp://{ip}:{port}"
    parse_endpoint(text)
    return text
