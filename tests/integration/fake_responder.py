"""A stranger's mDNS responder: junk tables and a flood of fake ones.

Run as ``python fake_responder.py ADDRESS SECONDS [FAKES]``: it announces, on
the interface with ADDRESS only, records no honest host would send (missing
fields, oversize values, a TXT string longer than its record, escape codes
in the host's name), or with FAKES, that many well-formed fake tables instead;
prints ``ready``, keeps answering for SECONDS, then ends.  Used by
tests/integration/test_lan_tables.py.
"""

from __future__ import annotations

import asyncio
import socket
import sys

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from p2ptable.net.announce_record import SERVICE_TYPE, announcement

EVIL_HOST = "\x1b[2J\x1b]0;pwned\x07Eve\u202e\r\n"


def junk(port: int) -> list[dict | bytes]:
    good = announcement(b"\xee" * 16, "pet-quartet", {}, "Eve", 1, 2, port).to_txt()
    return [
        {"v": "1"},
        {"id": "zz", "game": "pet-quartet", "seats": "1/2", "port": "1"},
        {**good, "host": EVIL_HOST, "opts": "variant=\x1b[31mred"},
        {**good, "host": "A" * 250, "id": "f" * 16},
        {**good, "seats": "9/2", "id": "d" * 16},
        b"\xff\x01",  # a TXT string longer than the record
    ]


async def main(address: str, seconds: float, fakes: int) -> None:
    zc = AsyncZeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    where = [socket.inet_aton(address)]
    infos = [
        AsyncServiceInfo(
            SERVICE_TYPE, f"junk{i}.{SERVICE_TYPE}", port=9, properties=props,
            server=f"junk{i}.local.", addresses=where,
        )
        for i, props in enumerate(junk(9) if not fakes else [])
    ]  # fmt: skip
    for i in range(fakes):
        ad = announcement(i.to_bytes(8, "big") * 2, "pet-quartet", {}, f"Fake{i:04}", 1, 3, 9)
        infos.append(
            AsyncServiceInfo(
                SERVICE_TYPE, f"{ad.instance_name()}.{SERVICE_TYPE}", port=9,
                properties=ad.to_txt(), server=f"f{ad.table_id}.local.", addresses=where,
            )
        )  # fmt: skip
    for info in infos:
        await zc.async_register_service(info, cooperating_responders=True)
    print("ready", flush=True)
    await asyncio.sleep(seconds)
    await zc.async_close()


if __name__ == "__main__":
    fakes = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), fakes))
