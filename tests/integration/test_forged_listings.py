"""A forged listing neither hides nor replaces a table (issue 22, part 4).

"A forged DNS-SD goodbye hides the real table in every listing; a copied table
id shows the stranger's address instead of the host's; 600 fake tables push the
real one out of the 64 kept; a fake with the same name sorts first and Enter
joins it."  Each case with real processes on loopback: a real `p2ptable host`
announcing from 127.0.0.3, a stranger's forged mDNS answers sent from 127.0.0.2
(tests/integration/forged_mdns.py), and `p2ptable tables` or `join` listening
on loopback only.  Other tests' hosts may be announcing on loopback at the same
time (from 127.0.0.1, most of them named Ana): every check looks for this
test's own table, and its host speaks from an address of its own.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from p2ptable.net.announce_record import announcement
from p2ptable.net.listing import MAX_TABLES

from .forged_mdns import Forger, goodbye, table_records
from .person import Person

CODE = "FRG-7QM2"
LOOPBACK = ("--interface", "127.0.0.1")
FORGER = "127.0.0.2"
HOST_IP = "127.0.0.3"
# Every test here speaks from the same two addresses (its host's, its forger's): two at
# once would forge and withdraw each other's tables (seen on two workers: a host never
# heard).  The tests of one file run on one worker, one after another (pyproject.toml,
# addopts: --dist loadfile).


class Host:
    """A real host on loopback, announcing its table; ended after the test."""

    def __init__(
        self, tmp_path, name: str = "Ana", announce: bool = True, spectators: bool = False
    ) -> None:  # noqa: ANN001
        args = [sys.executable, "-m", "p2ptable", "host", "pet-quartet", "--seats", "3",
                "--name", name, "--code", CODE, "--advertise", HOST_IP, "--port", "0",
                "--replay", str(tmp_path / f"{name}.p2pt"), "--bot", "random", "--quiet",
                *(() if announce else ("--no-announce",)),
                *(("--spectators",) if spectators else ())]  # fmt: skip
        self.proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,
        )  # fmt: skip
        for _ in range(20):
            line = self.proc.stdout.readline()
            found = re.search(rf"p2ptable join {re.escape(HOST_IP)}:(\d+) --code", line)
            if found:
                self.port = int(found.group(1))
                self.where = f"{HOST_IP}:{self.port}"
                return
        self.close()
        raise AssertionError("the host never printed its address")

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
def host(tmp_path):
    made = Host(tmp_path)
    yield made
    made.close()


@pytest.fixture
def forger():
    try:
        made = Forger(FORGER)
    except OSError as exc:
        pytest.skip(f"cannot send from {FORGER} here: {exc}")
    yield made
    made.close()


def listed(wait: float = 3.0) -> list[dict]:
    """What `p2ptable tables --json` lists, heard on loopback only, listening as
    long as `tables` does by default (a loaded machine's host answers late)."""
    run = subprocess.run(
        [sys.executable, "-m", "p2ptable", "tables", "--json", "--wait", str(wait), *LOOPBACK],
        capture_output=True, text=True, timeout=wait + 30,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def the_real(host: Host) -> dict:
    """The host's own row, once `tables` hears it (at most five listens, each
    longer: a host just started on a loaded machine may take seconds to answer)."""
    for wait in (1.0, 2.0, 3.0, 4.0, 5.0):
        rows = [t for t in listed(wait) if t["address"] == host.where]
        if rows:
            return rows[0]
    raise AssertionError(f"the host at {host.where} was never heard")


def real_announcement(row: dict):  # noqa: ANN201
    """The host's announcement, rebuilt from its row (to forge records for it)."""
    host_port = int(row["address"].rsplit(":", 1)[1])
    ad = announcement(bytes.fromhex(row["table"]) * 2, row["game"], row["options"], row["host"],
                      row["seats_taken"], row["seats"], host_port)  # fmt: skip
    assert ad.table_id == row["table"]
    return ad


def test_a_forged_goodbye_from_another_address_does_not_hide_the_table(host, forger):
    ad = real_announcement(the_real(host))
    # The stranger says "withdrawn" for the host's own names, again and again.
    forger.keep_sending(goodbye(table_records(ad, HOST_IP)), every=0.1)
    rows = [t for t in listed() if t["table"] == ad.table_id]
    assert [t["address"] for t in rows] == [host.where]


def test_a_copied_table_id_never_replaces_the_host_s_address(host, forger):
    ad = real_announcement(the_real(host))
    # The host's own names and its TXT record, copied, but said to be at the
    # stranger's address (cache flush: "forget what the host said"); and a
    # second name with the same table id.
    copied = table_records(ad, FORGER) + table_records(
        ad, FORGER, instance=f"Mallory's table [{ad.table_id[:8]}]", server="mallory.local."
    )
    forger.keep_sending(copied)
    rows = [t for t in listed() if t["table"] == ad.table_id]
    addresses = sorted(t["address"] for t in rows)
    assert addresses == sorted([host.where, f"{FORGER}:{ad.port}"])  # both listed, one each
    assert all(t["conflict"] for t in rows), rows  # and marked


# Slow (about 5 s).  The default run keeps the bound under a flood in
# tests/net/test_listing.py (its hypothesis property: whatever strangers send, the
# host's table stays listed) and the real listener in tests/net/test_discovery.py.
@pytest.mark.slow
def test_six_hundred_fake_tables_do_not_push_the_real_one_out(host, forger):
    ad = real_announcement(the_real(host))
    fakes = [
        announcement(i.to_bytes(8, "big") * 2, "pet-quartet", {}, f"Fake{i:03}", 1, 3, 9)
        for i in range(600)
    ]
    forger.keep_sending([r for f in fakes for r in table_records(f, FORGER)], every=0.3)
    rows = listed(3.0)
    assert len(rows) <= MAX_TABLES
    assert [t["address"] for t in rows if t["table"] == ad.table_id] == [host.where]
    assert len([t for t in rows if t["address"].startswith(f"{FORGER}:")]) < MAX_TABLES // 2


def test_a_fake_with_the_host_s_name_is_marked_and_enter_picks_nothing(host, forger, tmp_path):
    fake = announcement(os.urandom(16), "pet-quartet", {}, "Ana", 1, 3, 9)
    forger.keep_sending(table_records(fake, FORGER))
    the_real(host)
    ben = Person(["join", "--name", "Ben", "--wait", "3", *LOOPBACK, "--replay",
                  str(tmp_path / "ben.p2pt")], tmp_path)  # fmt: skip
    try:
        ben.expect(r"Which table\?")
        rows = re.findall(r"(\d+)\) (Ana: .*?)\r?\n", ben.text)
        ours = [(n, row) for n, row in rows if f"at {host.where}" in row]
        theirs = [(n, row) for n, row in rows if f"at {FORGER}:9" in row]
        assert ours and theirs, ben.text
        assert all("same host name" in row for _, row in ours + theirs), ben.text
        ben.type("")  # Enter: which Ana?
        ben.expect(r"so Enter picks nothing: type the number")
        ben.type(ours[0][0])
        ben.expect("Join code")
        ben.type(CODE)
        ben.expect(r"Lobby \(2 seated\): Ana, Ben")
    finally:
        ben.close()


# `watch` checks the id as `join` does (the same code in net/arrival.py): its case
# is in the slow set (-m slow).
@pytest.mark.parametrize("command", ["join", pytest.param("watch", marks=pytest.mark.slow)])
def test_join_says_when_the_picked_table_is_not_the_one_the_host_is(tmp_path, command):
    """The listing said table X at the host's address; the handshake says the
    host there is table Y (a forged listing, or the table reopened).  The code
    proves the host, so `join` goes on, and says so; `watch` the same."""
    watching = command == "watch"
    host = Host(tmp_path, announce=False, spectators=watching)
    stale = announcement(bytes.fromhex("0123456789abcdef") * 2, "pet-quartet", {}, "Ana", 1, 3,
                         host.port, watch=watching)  # fmt: skip
    try:
        forger = Forger(HOST_IP)  # from the host's own address: only the id is wrong
    except OSError as exc:
        host.close()
        pytest.skip(f"cannot send from {HOST_IP} here: {exc}")
    ben = None
    try:
        forger.keep_sending(table_records(stale, HOST_IP))
        ben = Person([command, "--name", "Ben", "--wait", "2", *LOOPBACK, "--replay",
                      str(tmp_path / "ben.p2pt")], tmp_path)  # fmt: skip
        ben.expect(r"Which table\?")
        rows = re.findall(r"(\d+)\) (.*?)\r?\n", ben.text)
        (number,) = [n for n, row in rows if f"at {host.where}" in row]
        ben.type(number)
        ben.expect("Join code")
        ben.type(CODE)
        said = ben.expect(
            r"The table you picked announced id 0123456789abcdef, but the host at "
            + re.escape(host.where)
            + r" is table ([0-9a-f]{16})"
        )
        assert said.group(1) != "0123456789abcdef"
        if watching:
            ben.expect(r"so you watch it")
            ben.expect(r"Watching pet-quartet \(seated: Ana\)")
        else:
            ben.expect(r"so you join it")
            ben.expect(r"Lobby \(2 seated\): Ana, Ben")
    finally:
        if ben is not None:
            ben.close()
        forger.close()
        host.close()
