"""Errors are messages, never tracebacks: every command walked with bad input.

Issue 11: "`sim --out` into a missing folder, `verify --json` on a missing file or a
folder (print the JSON error object, as for an invalid file), every command with a
bad argument: one line, `Error: …`, non-zero exit.  Add one test that walks every
command with bad input and asserts that no output ever contains a traceback."

How it works: ``CASES`` holds, for every command registered on ``main``, the bad
inputs it must refuse and a piece of the message that says what was wrong (so an
error is specific, not just present).  A command without cases fails
``test_every_command_has_bad_input_cases``, so a new command is covered from the
day it is added.  Arguments name the files of the ``files`` fixture in braces
(``{missing}``, ``{garbage}``...).

Each case runs through click's CliRunner, in this process, under a deadline.  A
case marked ``todo`` (a live command that today reaches the network, or hangs,
before refusing its input: the lead's part) runs instead in its own process
started with all the others at once, with a timeout and its process group killed
after it, so that no case can hang the suite or leave a peer running.  A few
record cases run that way too (``real``), to see the real stderr.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from p2ptable.cli import main

LIVE = ("host", "join", "play", "resume")
TIMEOUT = 8.0  # seconds a subprocess case may take (they all start at once)
DEADLINE = 10  # seconds an in-process case may take before it counts as hanging


@dataclass(frozen=True)
class Bad:
    """One bad input: the arguments after the command, and what the message says."""

    args: tuple[str, ...]
    says: str  # a part of the "Error: ..." line (or of the JSON error's reason)
    form: str = "error"  # "error" (Error: line), "verdict" (verify's INVALID line), "json"
    todo: bool = False  # a live case that fails today: the lead's part
    real: bool = False  # also run in a real subprocess, to check its stderr


def bad(*args: str, says: str, **kw: object) -> Bad:
    return Bad(tuple(args), says, **kw)  # type: ignore[arg-type]


SIM = ("pet-quartet", "-n", "2", "--seed", "s", "-q")
HOST = ("pet-quartet", "--seats", "2", "--name", "Ana", "--port", "0")
JOIN = ("127.0.0.1:1", "--code", "ABC-DEF", "--name", "Ben")  # nothing listens on port 1
PLAY = ("pet-quartet", "--quiet")

CASES: dict[str, list[Bad]] = {
    "games": [
        bad("extra", says="unexpected extra argument (extra)"),
        bad("--players", "2", says="--players"),
    ],
    "rules": [
        bad(says="Missing argument 'GAME'"),
        bad(
            "chess",
            says="unknown game 'chess' (known: pet-quartet, teachers-pet, vorsicht-lehrer)",
        ),
        bad("", says="unknown game ''"),
        bad("pet-quartet", "extra", says="unexpected extra argument (extra)"),
    ],
    "sim": [
        bad(says="Missing argument 'GAME'"),
        bad("pet-quartet", "--seed", "s", "-o", "{out}", says="Missing option '--players'"),
        bad("pet-quartet", "-n", "2", "-o", "{out}", says="Missing option '--seed'"),
        bad("pet-quartet", "-n", "2", "--seed", "s", says="Missing option '--out'"),
        bad("pet-quartet", "-n", "two", "--seed", "s", "-o", "{out}", says="'two' is not a valid"),
        bad("pet-quartet", "-n", "2.5", "--seed", "s", "-o", "{out}", says="'2.5' is not a valid"),
        bad("pet-quartet", "-n", "0", "--seed", "s", "-o", "{out}", says="2 to 6 players, not 0"),
        bad("pet-quartet", "-n", "-1", "--seed", "s", "-o", "{out}", says="players, not -1"),
        bad("pet-quartet", "-n", "7", "--seed", "s", "-o", "{out}", says="players, not 7"),
        bad("pet-quartet", "-n", "9" * 30, "--seed", "s", "-o", "{out}", says="not " + "9" * 30),
        bad("chess", "-n", "2", "--seed", "s", "-o", "{out}", says="unknown game 'chess'"),
        bad(*SIM, "-o", "{out}", "--variant", "nope", says="one of standard, maestro, duet"),
        bad(*SIM, "-o", "{out}", "--scoring", "nope", says="option scoring must be one of"),
        bad(*SIM[:2], "3", *SIM[3:], "-o", "{out}", "--variant", "duet", says="2 players"),
        bad(*SIM, "-o", "{out}", "--option", "colour=red", says="has no option 'colour'"),
        bad(*SIM, "-o", "{out}", "--option", "novalue", says="expected NAME=VALUE"),
        bad(*SIM, "-o", "{out}", "--bots", "foo,bar", says="unknown bot 'foo'"),
        bad(*SIM, "-o", "{out}", "--bots", "greedy", says="2 players need 2 bot kinds, got 1"),
        bad(*SIM, "-o", "{nodir}/x.p2pt", says="the folder {nodir} does not exist", real=True),
        bad(*SIM, "-o", "{plain}/x.p2pt", says="{plain} is not a folder"),
        bad(*SIM, "-o", "{folder}", says="is a directory"),
        bad(*SIM, "-o", "", says="cannot write"),
        # Issue 22: never over a replay (--force or not), other files only with --force.
        bad(*SIM, "-o", "{good}", says="{good} is a p2ptable replay: no command writes over one"),
        bad(*SIM, "-o", "{good}", "--force", says="{good} is a p2ptable replay"),
        bad(*SIM, "-o", "{plain}", says="{plain} already exists: add --force to replace it"),
    ],
    "verify": [
        bad(says="Missing argument 'FILE...'"),  # several are checked at once (issue 29)
        bad("--nope", "{good}", says="--nope"),
        bad("{missing}", says="no such file: {missing}", real=True),
        bad("{folder}", says="{folder} is a folder, not a replay file"),
        bad("--json", "{missing}", says="no such file: {missing}", form="json", real=True),
        bad("--json", "{folder}", says="is a folder, not a replay file", form="json"),
        bad("--json", "{empty}", says="file ends inside the header", form="json"),
        bad("--json", "{garbage}", says="not a p2ptable replay (bad magic)", form="json"),
        bad("{empty}", says="INVALID at entry 0: file ends inside the header", form="verdict"),
        bad("{garbage}", says="INVALID at entry 0: not a p2ptable replay", form="verdict"),
        bad("{text}", says="INVALID at entry 0: not a p2ptable replay", form="verdict"),
        bad("{torn_genesis}", says="INVALID at entry 0: torn record", form="verdict"),
        bad("{torn}", says="torn record", form="verdict"),
        bad("{junk_frame}", says="INVALID at entry 0: malformed genesis", form="verdict"),
        bad("{foreign}", says="INVALID at entry 0: genesis: unknown game 'chess'", form="verdict"),
        bad("{swapped}", says="INVALID at entry 20: claims to be entry 21", form="verdict"),
    ],
    "show": [
        bad(says="Missing argument 'FILE'"),
        bad("{missing}", says="does not exist"),
        bad("{folder}", says="is a directory"),
        bad("{empty}", says="the replay is invalid at entry 0: file ends inside the header"),
        bad("{garbage}", says="invalid at entry 0: not a p2ptable replay (bad magic)"),
        bad("{torn_genesis}", says="invalid at entry 0: torn record"),
        bad("{torn}", says="torn record"),
        bad("{junk_frame}", says="invalid at entry 0: malformed genesis"),
        bad("{foreign}", says="invalid at entry 0: genesis: unknown game 'chess'"),
        bad("{swapped}", says="invalid at entry 20: claims to be entry 21"),
        bad("{good}", "--at", "100000", says="100000 is past the end: the last entry of"),
        bad("{good}", "--at", "9" * 30, says="is past the end"),
        bad("{good}", "--at", "-1", says="-1 is not in the range x>=0"),
        bad("{good}", "--at", "x", says="'x' is not a valid integer"),
        bad("{good}", "--seat", "0", says="seats count from 1, not 0", real=True),
        bad("{good}", "--seat", "-1", says="seats count from 1, not -1"),
        bad("{good}", "--seat", "3", says="no seat 3: this game has 2 seats: 1 Ana, 2 Ben"),
        bad("{good}", "--seat", "Zed", says="no seat named 'Zed'"),
        bad("{good}", "--seat", "", says="no seat named ''"),
    ],
    "export": [
        bad(says="Missing argument 'FILE'"),
        bad("{missing}", says="no such file: {missing}", real=True),
        bad("{folder}", says="{folder} is a folder, not a replay file"),
        bad("{empty}", says="INVALID at entry 0: file ends inside the header"),
        bad("{garbage}", says="INVALID at entry 0: not a p2ptable replay (bad magic)"),
        bad("{torn}", says="torn record"),
        bad("{foreign}", says="INVALID at entry 0: genesis: unknown game 'chess'"),
        bad("{swapped}", says="INVALID at entry 20: claims to be entry 21"),
        bad("{good}", "--format", "pgn", says="'pgn' is not one of 'text', 'json'"),
        bad("{good}", "--seat", "0", says="seats count from 1, not 0"),
        bad("{good}", "--seat", "Zed", says="no seat named 'Zed'"),
        bad("{good}", "-o", "{nodir}/x.txt", says="the folder {nodir} does not exist"),
        bad("{good}", "-o", "{folder}", says="is a directory"),
        bad("{good}", "-o", "{good}", says="{good} is the replay being read", real=True),
        bad("{good}", "-o", "{torn}", "--force", says="{torn} is a p2ptable replay"),
        bad("{good}", "-o", "{plain}", says="{plain} already exists: add --force to replace it"),
    ],
    "replays": [
        bad("extra", says="unexpected extra argument (extra)"),
        bad("--dir", "{missing}", says="no such folder: {missing}", real=True),
        bad("--dir", "{good}", says="is a file"),
    ],
    "host": [
        bad(says="Missing argument 'GAME'"),
        bad("pet-quartet", says="Missing option '--seats'"),
        bad("pet-quartet", "--seats", "2", "--bot-delay", "nan", says="'nan' is not a number"),
        bad("pet-quartet", "--seats", "two", "--name", "Ana", says="'two' is not a valid"),
        bad("pet-quartet", "--seats", "0", "--name", "Ana", says="2 to 6 players, not 0"),
        bad("pet-quartet", "--seats", "7", "--name", "Ana", says="players, not 7"),
        bad("chess", "--seats", "2", "--name", "Ana", says="unknown game 'chess'"),
        bad(*HOST, "--variant", "nope", says="one of standard, maestro, duet"),
        bad(*HOST, "--option", "novalue", says="expected NAME=VALUE"),
        bad(*HOST, "--code", "LIV-EG", says="not a join code: 'LIV-EG'"),
        bad(*HOST, "--code", "!!!!!!", says="not a join code: '!!!!!!'"),
        bad(*HOST, "--replay", "{good}", says="already exists"),
        bad(*HOST, "--replay", "{folder}", says="is a directory"),
        bad(*HOST, "--replay", "{nodir}/x.p2pt", says="the folder {nodir} does not exist"),
        bad(*HOST, "--bot", "nope", says="'nope' is not one of 'random', 'greedy'"),
        bad(*HOST, "--bots", "2", says="--bots must be 0 to 1 (a table of 2 has you too)"),
        bad(*HOST, "--bots", "-1", says="-1 is not in the range 0<=x<=5"),
        bad(*HOST, "--bots", "1", "--opponents", "nope", says="'nope' is not one of"),
        bad(*HOST, "--port", "x", says="'x' is not a valid integer"),
        bad(*HOST[:-1], "70000", says="70000 is not in the range 0<=x<=65535"),
        bad(*HOST[:-1], "65536", says="65536 is not in the range"),
        bad(*HOST[:-1], "-1", says="-1 is not in the range"),
        bad(*HOST[:-1], "9" * 30, says="9" * 30 + " is not in the range"),
        bad(*HOST, "--code", "", says="not a join code: ''"),
        bad(
            "pet-quartet",
            "--seats",
            "2",
            "--name",
            "",
            "--port",
            "0",
            says="a name must be 1 to 32",
        ),
        bad(
            "pet-quartet", "--seats", "2", "--name", "A" * 40, "--port", "0", says="a name must be"
        ),  # fmt: skip
        bad(
            *HOST, "--bot", "greedy", "--bot-delay", "-1", says="-1.0 is not in the range 0<=x<=60"
        ),
        bad(*HOST, "--advertise", "not an address", says="must be this machine's IPv4 address"),
        bad(*HOST, "--advertise", "198.51.100.7", says="198.51.100.7 is not one of its network"),
        bad(*HOST, "--stats", "{good}", says="{good} is a p2ptable replay"),
        bad(*HOST, "--spectators-talk", says="--spectators-talk needs --spectators"),
    ],
    "join": [
        # Without ADDRESS, join lists the tables heard (cli/tables.py); what was
        # typed wrong is said before it listens.
        bad("--name", "", says="a name must be 1"),
        bad("127.0.0.1:1", "--code", "ABC-DEF", "--timeout", "nan", says="'nan' is not a number"),
        bad("--code", "bad", "--name", "Ben", says="not a join code: 'bad'"),
        bad("--name", "Ben", "--wait", "0", says="0.0 is not in the range 0.5<=x<=60"),
        bad("127.0.0.1:1", "--code", "ABC-DEF", "--bot-delay", "inf", says="inf is not in the"),
        bad("nowhere", "--name", "Ben", says="expected HOST:PORT"),  # before the code is asked
        bad("nowhere", *JOIN[1:], says="expected HOST:PORT"),
        bad("127.0.0.1:-1", *JOIN[1:], says="expected HOST:PORT"),
        bad(":47001", *JOIN[1:], says="expected HOST:PORT"),
        bad(*JOIN[:2], "bad", *JOIN[3:], says="not a join code: 'bad'"),
        bad(*JOIN[:2], "", *JOIN[3:], says="not a join code: ''"),
        bad(*JOIN, "--replay", "{good}", says="already exists"),
        bad(*JOIN, "--replay", "{nodir}/x.p2pt", says="the folder {nodir} does not exist"),
        bad(*JOIN, "--port", "x", says="'x' is not a valid integer"),
        bad(
            "nosuchhost.invalid:47001", *JOIN[1:], says="cannot find the host 'nosuchhost.invalid'"
        ),
        bad("127.0.0.1:70001", *JOIN[1:], says="from 1 to 65535, not 70001"),
        bad("127.0.0.1:65537", *JOIN[1:], says="from 1 to 65535, not 65537"),
        bad("127.0.0.1:0", *JOIN[1:], says="from 1 to 65535, not 0"),
        bad(*JOIN, "--port", "70002", says="70002 is not in the range"),
        bad(*JOIN, "--port", "-3", says="-3 is not in the range"),
        bad(*JOIN[:-1], "", says="a name must be 1"),
    ],
    "watch": [
        bad("nowhere", says="expected HOST:PORT"),  # said before the code is asked for
        bad("127.0.0.1:1", "--code", "bad", says="not a join code: 'bad'"),
        bad("nowhere", "--code", "ABC-DEF", says="expected HOST:PORT"),
        bad("127.0.0.1:70001", "--code", "ABC-DEF", says="from 1 to 65535, not 70001"),
        bad("127.0.0.1:1", "--code", "ABC-DEF", "--name", "", says="a name must be 1"),
        bad("127.0.0.1:1", "--code", "ABC-DEF", "--replay", "{good}", says="already exists"),
        bad("127.0.0.1:1", "--code", "ABC-DEF", "--timeout", "0", says="0.0 is not in the range"),
    ],
    "tables": [
        bad("--wait", "x", says="'x' is not a valid float"),
        bad("--wait", "0.1", says="0.1 is not in the range 0.5<=x<=60"),
        bad("--wait", "61", says="61.0 is not in the range"),
        bad("--wait", "nan", says="'nan' is not a number of seconds"),
        bad("--interface", "nowhere", says="expected this machine's IPv4 address"),
        bad("--interface", "224.0.0.251", says="not '224.0.0.251'"),
        bad("extra", says="unexpected extra argument (extra)"),
    ],
    "play": [
        bad(says="Missing argument 'GAME'"),
        bad("chess", says="unknown game 'chess'"),
        bad(*PLAY, "--bots", "0", says="--bots must be 1 to 5, not 0"),
        bad(*PLAY, "--bots", "-1", says="--bots must be 1 to 5, not -1"),
        bad(*PLAY, "--bots", "99", says="--bots must be 1 to 5, not 99"),
        bad(*PLAY, "--bots", "x", says="'x' is not a valid integer"),
        bad(*PLAY, "--variant", "nope", says="one of standard, maestro, duet"),
        bad(*PLAY, "--option", "novalue", says="expected NAME=VALUE"),
        bad(*PLAY, "--opponents", "nope", says="'nope' is not one of 'random', 'greedy'"),
        bad(*PLAY, "--replay", "{good}", says="already exists"),
        bad(*PLAY, "--replay", "{folder}", says="is a directory"),
        bad(*PLAY, "--replay", "{nodir}/x.p2pt", says="the folder {nodir} does not exist"),
        bad(*PLAY, "--name", "", says="a name must be 1"),
        bad(*PLAY, "--bot-delay", "-1", says="-1.0 is not in the range 0<=x"),
        bad(*PLAY, "--bot-delay", "nan", says="'nan' is not a number of seconds"),
    ],
    "resume": [
        bad(says="Missing argument 'FILE'"),
        bad("{missing}", says="nor a game beginning there"),
        bad("{folder}", says="is a directory"),
        bad("{good}", says="no secrets file next to the replay"),
        bad("{resume_empty}", says="holds no entries"),
        bad("{resume_garbage}", says="not a p2ptable replay (bad magic)"),
        bad("{resume_torn}", says="holds no entries"),
        bad("{resume_other_seat}", says="the secrets file belongs to another game or seat"),
        bad("{resume_good}", "--bot", "nope", says="'nope' is not one of 'random', 'greedy'"),
        bad("{resume_bad_json}", says="secrets"),
        bad("{resume_empty_json}", says="secrets"),
        bad("{resume_bad_hex}", says="secrets"),
        bad("{resume_no_seat}", says="seat"),
        # (Resuming a finished game is not an error: it says so and exits 0;
        # tests/integration/test_people.py has it.)
    ],
}


# -- the files the cases name ----------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """Every file a case can name, made once: good, damaged, foreign and missing."""
    from p2ptable.net.persistence import save_secrets
    from p2ptable.randomness.chain import DEFAULT_LENGTH
    from p2ptable.replay.authoring import SeatSecrets
    from p2ptable.replay.entries import Entry, make_body
    from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
    from p2ptable.sim import simulate

    root = tmp_path_factory.mktemp("walk")
    good = simulate("pet-quartet", 2, "walk", root / "good.p2pt").path
    data = good.read_bytes()
    payloads = parse_frames(data).payloads
    swapped = list(payloads)
    swapped[20], swapped[21] = swapped[21], swapped[20]
    chess = make_body(t="genesis", protocol="p2ptable/1", game="chess", options={}, seats=[],
                      chain_len=1, nonce=bytes(16))  # fmt: skip

    def write(name: str, content: bytes) -> str:
        (root / name).write_bytes(content)
        return str(root / name)

    paths = {
        "good": str(good),
        "out": str(root / "out.p2pt"),
        "missing": str(root / "no-such-file.p2pt"),
        "nodir": str(root / "no-such-folder"),
        "plain": write("plain-file", b"a file, not a folder\n"),
        "empty": write("empty.p2pt", b""),
        "garbage": write("garbage.p2pt", random.Random(11).randbytes(4096)),
        "text": write("notes.txt", b"hello\n"),
        "torn_genesis": write("torn-genesis.p2pt", data[:300]),
        "torn": write("torn.p2pt", data[: len(data) // 2]),
        "junk_frame": write("junk-frame.p2pt", MAGIC + encode_frame(b"\x93junk")),
        "foreign": write("foreign.p2pt", MAGIC + encode_frame(Entry(chess, ()).encode())),
        "swapped": write("swapped.p2pt", MAGIC + b"".join(map(encode_frame, swapped))),
    }
    (root / "a-folder.p2pt").mkdir()
    paths["folder"] = str(root / "a-folder.p2pt")

    # `resume` reads the replay and the secrets file next to it: one folder each.
    own = SeatSecrets.from_seed(b"walk", 0, DEFAULT_LENGTH)
    other = SeatSecrets.from_seed(b"someone else", 0, DEFAULT_LENGTH)

    def resumable(name: str, replay: bytes, secrets: SeatSecrets | str, **change: object) -> str:
        """A replay with a secrets file next to it: ``secrets`` saved as a seat would
        (then ``change`` applied to its fields), or that text as it is."""
        folder = root / name
        folder.mkdir()
        path = folder / "game.p2pt"
        path.write_bytes(replay)
        secrets_path = path.with_name("game.p2pt.secrets")
        if isinstance(secrets, str):
            secrets_path.write_text(secrets)
        else:
            save_secrets(path, secrets, 0, ["tcp://127.0.0.1:1", "tcp://127.0.0.1:2"], 1)
            secrets_path.write_text(json.dumps(json.loads(secrets_path.read_text()) | change))
        return str(path)

    paths |= {
        "resume_good": resumable("resume-good", data, own),
        "resume_empty": resumable("resume-empty", b"", own),
        "resume_garbage": resumable("resume-garbage", random.Random(12).randbytes(999), own),
        "resume_torn": resumable("resume-torn", data[:300], own),
        "resume_other_seat": resumable("resume-other", data, other),
        "resume_bad_json": resumable("resume-bad-json", data, "{not json"),
        "resume_empty_json": resumable("resume-empty-json", data, "{}"),
        "resume_bad_hex": resumable("resume-bad-hex", data, own, key="zz"),
        "resume_no_seat": resumable("resume-no-seat", data, own, seat=9),
    }
    return paths


def filled(values: tuple[str, ...] | str, files: dict[str, str]):  # noqa: ANN201
    if isinstance(values, str):
        return values.format(**files)
    return [v.format(**files) for v in values]


# -- the walk ----------------------------------------------------------------------


def test_every_command_has_bad_input_cases():
    assert set(CASES) == set(main.loaded()), "a command without bad-input cases (or stale ones)"
    assert all(CASES.values())


def _params(select):  # noqa: ANN001, ANN202
    out = []
    for name, cases in CASES.items():
        for case in cases:
            if not select(name, case):
                continue
            marks = ()
            if case.todo:
                marks = (pytest.mark.xfail(strict=True, reason="live commands: lead's part"),)
            ident = " ".join([name, *case.args]) or name
            out.append(pytest.param(name, case, marks=marks, id=ident[:70]))
    return out


@pytest.mark.parametrize("command,case", _params(lambda name, case: not case.todo))
def test_bad_input_is_refused_with_a_message(files, command, case):
    runner = _runner()
    with _deadline(DEADLINE):
        result = runner.invoke(main, [command, *filled(case.args, files)])
    assert not isinstance(result.exception, Exception), result.exception  # no crash
    _check(case, files, result.exit_code, result.stdout, result.stderr)


@pytest.mark.parametrize("command,case", _params(lambda name, case: case.todo or case.real))
def test_bad_input_is_refused_by_the_real_program(real_runs, command, case):
    code, out, err = real_runs.result(command, case)
    _check(case, real_runs.files, code, out, err)


def _check(case: Bad, files: dict[str, str], code: int, out: str, err: str) -> None:
    says = filled(case.says, files)
    assert "Traceback" not in out + err
    assert "This is a bug in p2ptable" not in out + err
    assert code != 0, out + err
    if case.form == "json":
        assert code == 1 and not err
        report = json.loads(out)
        assert report["valid"] is False
        assert says in report["error"]["reason"]
    elif case.form == "verdict":
        assert code == 1 and not err
        assert says in out.strip().splitlines()[-1]
    else:
        # One Error: line, last; before it at most click's usage lines.
        lines = err.rstrip("\n").splitlines()
        assert lines and lines[-1].startswith("Error: "), err
        assert says in lines[-1]
        assert all(line.startswith(("Usage: ", "Try '")) or not line for line in lines[:-1]), err


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click 8.1: keep stderr apart
    except TypeError:
        return CliRunner()  # click 8.2 and later always keep it apart


@contextmanager
def _deadline(seconds: int):  # noqa: ANN202
    """Turn a hang into a failure: SIGALRM interrupts whatever is waiting."""

    def expire(signum, frame):  # noqa: ANN001
        raise TimeoutError(f"the command did not end within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- real processes, all started at once -----------------------------------------


class RealRuns:
    """Every subprocess case, started together (each alone would wait its timeout).

    Each runs ``python -m p2ptable`` in a new session with its own data directory
    (a case that goes on to open a table writes nothing outside the test's folder)
    and an open, silent pipe for stdin (a person yet to type: at the end of its
    input a seat would give up, or spin).  After its timeout, its whole process
    group (any bot peers included) is interrupted, then killed."""

    def __init__(self, files: dict[str, str], root: Path) -> None:
        self.files = files
        self.procs: dict[tuple[str, Bad], tuple[subprocess.Popen, Path, float]] = {}
        env = dict(os.environ, XDG_DATA_HOME=str(root / "data"), NO_COLOR="1")
        env.pop("P2PTABLE_DEBUG", None)
        for number, (name, case) in enumerate(
            (name, case) for name, cases in CASES.items() for case in cases
        ):
            if not (case.todo or case.real):
                continue
            log = root / f"case-{number}"
            with open(f"{log}.out", "wb") as out, open(f"{log}.err", "wb") as err:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "p2ptable", name, *filled(case.args, files)],
                    stdin=subprocess.PIPE,  # open and silent: a person yet to type
                    stdout=out,
                    stderr=err,
                    env=env,
                    cwd=root,
                    start_new_session=True,
                )
            self.procs[(name, case)] = (proc, log, time.monotonic() + TIMEOUT)

    def result(self, name: str, case: Bad) -> tuple[int, str, str]:
        proc, log, deadline = self.procs[(name, case)]
        try:
            code = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            proc.stdin.close()
        except subprocess.TimeoutExpired:
            self._end(proc)
            pytest.fail(f"still running after {TIMEOUT} s (it must refuse at once)")
        out = Path(f"{log}.out").read_text(errors="replace")
        return code, out, Path(f"{log}.err").read_text(errors="replace")

    @staticmethod
    def _end(proc: subprocess.Popen) -> None:
        """Interrupt the case's process group (its own, made by start_new_session),
        give it a moment to stop its bot peers, then kill whatever is left."""
        proc.stdin.close()
        for sig, grace in ((signal.SIGINT, 3.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass

    def close(self) -> None:
        for proc, _, _ in self.procs.values():
            proc.stdin.close()
            if proc.poll() is None:
                self._end(proc)
            else:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # anything it left behind
                except ProcessLookupError:
                    pass


@pytest.fixture(scope="module")
def real_runs(files, tmp_path_factory):  # noqa: ANN201
    root = tmp_path_factory.mktemp("real")
    runs = RealRuns(files, root)
    try:
        yield runs
    finally:
        runs.close()
        shutil.rmtree(root / "data", ignore_errors=True)


# -- the last resort: what no command expected ------------------------------------


def test_an_unexpected_exception_is_one_line_that_says_it_is_a_bug(monkeypatch, files):
    def broken(path, **options):  # noqa: ANN001
        raise KeyError("seats")

    monkeypatch.delenv("P2PTABLE_DEBUG", raising=False)
    monkeypatch.setattr("p2ptable.replay.verify.verify_file", broken)
    result = _runner().invoke(main, ["verify", files["good"]])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.stderr.startswith("Error: unexpected KeyError: 'seats' (at test_cli_errors.py:")
    assert result.stderr.endswith(
        "This is a bug in p2ptable: please report it with the command you ran "
        "(P2PTABLE_DEBUG=1 shows the traceback).\n"
    )
    assert len(result.stderr.splitlines()) == 1


def test_the_machine_failing_is_not_called_a_bug(monkeypatch):
    def full():
        raise OSError(28, "No space left on device", "game.p2pt")

    monkeypatch.delenv("P2PTABLE_DEBUG", raising=False)
    monkeypatch.setattr("p2ptable.cli.games.all_games", full)
    result = _runner().invoke(main, ["games"])
    assert (result.exit_code, result.stderr) == (1, "Error: game.p2pt: No space left on device\n")


def test_an_unexpected_message_stays_on_one_line(monkeypatch, files):
    def broken(path, **options):  # noqa: ANN001
        raise ValueError("first line\nsecond line")

    monkeypatch.delenv("P2PTABLE_DEBUG", raising=False)
    monkeypatch.setattr("p2ptable.replay.verify.verify_file", broken)
    result = _runner().invoke(main, ["verify", files["good"]])
    assert result.stderr.startswith("Error: unexpected ValueError: first line second line (at ")
    assert len(result.stderr.splitlines()) == 1


def test_p2ptable_debug_lets_the_traceback_through(monkeypatch, files):
    monkeypatch.setenv("P2PTABLE_DEBUG", "1")
    monkeypatch.setattr("p2ptable.replay.verify.verify_file", lambda path, **options: 1 / 0)
    result = _runner().invoke(main, ["verify", files["good"]])
    assert isinstance(result.exception, ZeroDivisionError)
