"""Addresses on the LAN: ours as others reach it, and what a person types.

Nothing here sends anything: the kernel is asked about interfaces and routes.
What a person types (``HOST:PORT``, ``--port``) is checked at once, so a typo is
an error before anything listens or connects.
"""

from __future__ import annotations

import socket

DEFAULT_PORT = 47001


def interface_addresses() -> list[str]:
    """Every non-loopback IPv4 address of this machine's network interfaces.

    Asks the kernel about each interface (Linux ``SIOCGIFADDR``); nothing is sent
    on the network.  Elsewhere, falls back to what the host name resolves to.
    """
    found: list[str] = []
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                request = struct.pack("256s", name.encode()[:15])
                try:
                    reply = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
                except OSError:
                    continue  # no IPv4 address on this interface
                address = socket.inet_ntoa(reply[20:24])
                if not address.startswith("127.") and address not in found:
                    found.append(address)
    except (ImportError, OSError, AttributeError):
        pass
    if not found:
        try:
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
                address = str(info[4][0])
                if not address.startswith("127.") and address not in found:
                    found.append(address)
        except OSError:
            pass
    return found


def is_local_address(address: str) -> bool:
    """Whether ``address`` (IPv4) is one of this machine's: the kernel lets a socket
    bind to it (a port it picks; nothing is sent).  An address of another machine
    cannot be bound, whatever the interfaces are called."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError:
        return False
    return True


def lan_address() -> str:
    """Our IPv4 address as others on the LAN would reach it (loopback if none).

    With several interfaces this is a guess (the first); ``host --advertise``
    overrides it, and joiners always reach the host at the address they typed.
    """
    addresses = interface_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def address_towards(host: str) -> str:
    """The local address the OS would use to reach ``host``.

    ``connect`` on a UDP socket only selects a route; it sends nothing.
    """
    if host.startswith("127.") or host == "localhost":
        return "127.0.0.1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((host, 9))
            return probe.getsockname()[0]
        except OSError:
            return lan_address()


def check_port(port: int, what: str = "--port", allow_any: bool = True) -> int:
    """``port`` if it is one a socket can use (0: any free one, if allowed)."""
    low = 0 if allow_any else 1
    if not low <= port <= 65535:
        hint = " (0 picks a free one)" if allow_any else ""
        raise ValueError(
            f"{what} must be a port number from {max(low, 1)} to 65535{hint}, not {port}"
        )
    return port


def split_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` as typed, checked: the port in range, the host resolved to
    an IPv4 address (at once: a name that does not resolve is an error now, not a
    connection that never happens)."""
    host, sep, port = text.strip().rpartition(":")
    example = f"e.g. 192.168.1.20:{DEFAULT_PORT}"
    if not sep or not host or not port.isdigit():
        raise ValueError(f"expected HOST:PORT ({example}), not {text!r}")
    check_port(int(port), "the port in HOST:PORT", allow_any=False)
    return resolve_host(host), int(port)


def resolve_host(host: str) -> str:
    """The IPv4 address of ``host`` (an address or a name), or ValueError."""
    try:
        infos = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        infos = []
    if not infos:
        raise ValueError(
            f"cannot find the host {host!r}: check the address the host printed "
            "(an IPv4 address such as 192.168.1.20 is safest)"
        )
    return str(infos[0][4][0])
