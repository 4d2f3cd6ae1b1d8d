"""A stranger's forged mDNS answers, sent from a loopback address of its own.

Loopback holds all of 127.0.0.0/8, so a socket bound to 127.0.0.2 speaks from an
address that is not the host's (127.0.0.1) on the same interface: exactly a
second machine on the LAN, as a listener sees it.  The packets are built with
python-zeroconf's DNSOutgoing, so they are what any responder could send; the
records are what a forger chooses (a goodbye for someone else's table, a table
id copied, hundreds of fake tables).  Nothing here listens.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterable

from zeroconf import DNSAddress, DNSOutgoing, DNSPointer, DNSRecord, DNSService, DNSText, const

from p2ptable.net.announce_record import SERVICE_TYPE, Announcement

GROUP = ("224.0.0.251", 5353)
INTERFACE = "127.0.0.1"  # loopback: where the packets go, whatever they say they came from


def txt_bytes(items: dict[str, str]) -> bytes:
    return b"".join(bytes([len(s)]) + s for s in (f"{k}={v}".encode() for k, v in items.items()))


def table_records(
    ad: Announcement, address: str, instance: str | None = None, server: str | None = None,
    ttl: int = 120, txt: dict[str, str] | None = None,
) -> list[DNSRecord]:  # fmt: skip
    """The records a responder announces a table with (PTR, SRV, TXT, A)."""
    name = f"{instance or ad.instance_name()}.{SERVICE_TYPE}"
    server = server or f"p2ptable-{ad.table_id}.local."
    unique = const._CLASS_IN | const._CLASS_UNIQUE
    return [
        DNSPointer(SERVICE_TYPE, const._TYPE_PTR, const._CLASS_IN, ttl, name),
        DNSService(name, const._TYPE_SRV, unique, ttl, 0, 0, ad.port, server),
        DNSText(name, const._TYPE_TXT, unique, ttl, txt_bytes(txt or ad.to_txt())),
        DNSAddress(server, const._TYPE_A, unique, ttl, socket.inet_aton(address)),
    ]


def goodbye(records: Iterable[DNSRecord]) -> list[DNSRecord]:
    """The same records with TTL 0: "withdrawn"."""
    out = []
    for r in records:
        if isinstance(r, DNSPointer):
            out.append(DNSPointer(r.name, r.type, r.class_, 0, r.alias))
        elif isinstance(r, DNSService):
            out.append(DNSService(r.name, r.type, r.class_, 0, 0, 0, r.port, r.server))
        elif isinstance(r, DNSText):
            out.append(DNSText(r.name, r.type, r.class_, 0, r.text))
        elif isinstance(r, DNSAddress):
            out.append(DNSAddress(r.name, r.type, r.class_, 0, r.address))
    return out


class Forger:
    """Sends forged answers from ``source`` (port 5353, as a responder does)."""

    def __init__(self, source: str = "127.0.0.2") -> None:
        self.source = source
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self.sock.bind((source, 5353))
        self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(INTERFACE))
        self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def send(self, records: list[DNSRecord]) -> None:
        out = DNSOutgoing(const._FLAGS_QR_RESPONSE | const._FLAGS_AA)
        for record in records:
            out.add_answer_at_time(record, 0)
        for packet in out.packets():
            self.sock.sendto(packet, GROUP)

    def keep_sending(self, records: list[DNSRecord], every: float = 0.2, chunk: int = 40) -> None:
        """Send ``records`` now and every ``every`` seconds (in a thread) until
        ``close``, ``chunk`` tables' records to a packet burst."""

        def run() -> None:
            while not self._stop.is_set():
                for i in range(0, len(records), chunk):
                    self.send(records[i : i + chunk])
                self._stop.wait(every)

        self.send(records[:chunk])
        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self.sock.close()


def wait_for(check, timeout: float = 10.0, every: float = 0.1) -> bool:  # noqa: ANN001
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(every)
    return False
