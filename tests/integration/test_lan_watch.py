"""Issue 16, done when: "Two namespaces: a person hosts in one, another lists the
table and joins from the other without typing an address, a third watches; the
game ends; all replays, the spectator's included, are identical and verify."

Namespace A is the host's laptop; B holds the joiner (a person on a pty who picks
the table from `join`'s list and types the code), a bot that types the address,
and the spectator (a person on a pty who picks the table from `watch`'s list,
after the table is full and the game under way).  Needs root and iproute2.
"""

from __future__ import annotations

import re
import subprocess
import time

from p2ptable.replay.verify import verify_file

from .peers import entries_in
from .person import Person, play_together
from .test_lan_tables import lan, needs_root, procs, tables_in  # noqa: F401 - fixtures

pytestmark = needs_root

CODE = "LAN-WCH7"


def in_ns(ns: str) -> tuple[str, ...]:
    return ("ip", "netns", "exec", ns)


def expect_reading(person: Person, pattern: str, others: list[Person], timeout: float = 60.0):
    """``person.expect(pattern)`` while the others' terminals are read too: a
    terminal nobody reads fills up and stops its process (the host among them)."""
    end = time.monotonic() + timeout
    while not re.search(pattern, person.text):
        assert time.monotonic() < end, f"no {pattern!r}:\n{person.text[-2000:]}"
        person._pump(0.05)
        for other in others:
            other._pump(0)


def test_a_person_hosts_another_joins_from_the_list_and_a_third_watches(
    lan,  # noqa: F811
    procs,  # noqa: F811
    tmp_path,
):
    a, b, host_ip = lan
    ana = Person(["host", "vorsicht-lehrer", "--seats", "3", "--name", "Ana", "--code", CODE,
                  "--option", "track=100", "--spectators", "--replay", str(tmp_path / "ana.p2pt")],
                 tmp_path, prefix=in_ns(a), env={"WATCH_DEBUG": "1"})  # fmt: skip
    ben = dana = None
    try:
        ana.expect("Spectators watch with")
        # Lists heard for 1.5 s, as tables_in: a table is heard in about 0.1 s.
        ben = Person(["join", "--name", "Ben", "--wait", "1.5", "--replay",
                      str(tmp_path / "ben.p2pt")], tmp_path, prefix=in_ns(b))  # fmt: skip
        ben.expect(r"1\) Ana: Vorsicht Lehrer! \(.*\), 1 of 3 seats taken, spectators welcome, at "
                   + re.escape(host_ip))  # fmt: skip
        ben.expect(r"Which table\?")
        ben.type("")
        ben.expect("Join code")
        ben.type(CODE)
        deadline = time.monotonic() + 30
        while "2 of 3 seats taken" not in (listed := tables_in(b)):
            assert time.monotonic() < deadline, listed
        cleo = procs.start(b, "-m", "p2ptable", "join", f"{host_ip}:47001", "--code", CODE,
                           "--name", "Cleo", "--replay", str(tmp_path / "cleo.p2pt"),
                           "--bot", "greedy", "--bot-delay", "0.05", "--quiet",
                           out=subprocess.DEVNULL)  # fmt: skip
        # The table is full and playing: still listed, for spectators, as watch's
        # list shows (the very line `tables` prints: both are ui/table_list.py's).
        play_together([ana, ben], until=lambda p: entries_in(tmp_path / "ana.p2pt") >= 25)
        dana = Person(["watch", "--name", "Dana", "--wait", "1.5", "--replay",
                       str(tmp_path / "dana.p2pt")], tmp_path, prefix=in_ns(b),
                      env={"WATCH_DEBUG": "1"})  # fmt: skip
        expect_reading(dana, r"1\) Ana: Vorsicht Lehrer! \(.*\), full, spectators welcome",
                       [ana, ben])  # fmt: skip
        dana.type("1")
        expect_reading(dana, "Join code", [ana, ben])
        dana.type(CODE)
        expect_reading(dana, "You are watching: no seat, no hand", [ana, ben])
        # Dana's terminal is read too: a terminal nobody reads stops its process.
        play_together([ana, ben, dana], timeout=240)
        assert ana.wait(timeout=60) == 0 and ben.wait(timeout=60) == 0
        assert cleo.wait(timeout=60) == 0
        assert dana.wait(timeout=60) == 0, dana.text[-1500:]
        assert "| final " in dana.text and "Your hand" not in dana.text
    finally:
        for person in (ana, ben, dana):
            if person is not None:
                person.close()
    blobs = {(tmp_path / f"{n}.p2pt").read_bytes() for n in ("ana", "ben", "cleo", "dana")}
    assert len(blobs) == 1, "replays differ"
    report = verify_file(tmp_path / "dana.p2pt")
    assert report.valid and report.audited, report.error
