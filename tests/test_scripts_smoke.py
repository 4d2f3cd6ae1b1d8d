"""Every script in scripts/ runs, with its smallest arguments (issue 24: "Every
script in scripts/ is run by the test suite with its smallest arguments (a smoke
run), so a refactor cannot break one unseen": `bench_fsync.py` and
`bench_sealed.py` had stopped running, and nothing noticed).

A smoke run proves only that a script still works end to end and prints what it
measures; its figures mean nothing at this size (README, Figures, says how each
is run for real).  The vector generators are held to more: run into a temporary
folder, they must write exactly the committed vectors.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

# script -> (its smallest arguments, a line it must print)
SMOKE = {
    "bench_ab.py": (["HEAD", "WORK", "--runs", "1", "--seats", "2", "--games", "1",
                     "--think", "0"], "median of the runs' medians"),
    "bench_budget.py": (["--peers", "2", "--rounds", "5", "--moves", "5", "--evict-mb", "0.1"],
                        "bare checks"),
    "bench_cold.py": (["--players", "2", "--moves", "5", "--evict-mb", "0.1"], "Ed25519"),
    "bench_escrow.py": (["--seats", "3", "--runs", "1"], "escrow's cost at the start"),
    "bench_floor.py": (["--peers", "2", "--rounds", "5"], "p50"),
    "bench_fsync.py": (["--entries", "3", "--moves", "3", "--dir", "{tmp}"], "per move"),
    "bench_latency.py": (["--games", "1", "--seats", "2", "--think", "0", "--mesh-rounds", "10"],
                         "against the durable signed mesh"),
    "bench_knocks.py": (["--knocks", "3"], "knock"),
    "bench_ledger.py": (["HEAD", "WORK", "--runs", "1", "--repeat", "1"], "WORK"),
    "bench_profile.py": (["--players", "2", "--moves", "5", "--top", "3"], "signing"),
    "bench_sealed.py": (["--repeat", "1"], "shuffle phase"),
    "bench_verify.py": (["HEAD", "WORK", "--runs", "1", "--seats", "3"], "ratio HEAD / WORK"),
    "bench_spectators.py": (["--rounds", "1", "--think", "0", "--game", "pet-quartet",
                             "--configs", "1"], "| 1 |"),
    "bot_winrate.py": (["--games", "2", "--seats", "2"], "0."),
    "drill.py": (["--games", "1", "--seats", "2", "--faults", "junk", "--seed", "1",
                  "--min-games", "1"], "bar (100 % completed"),
    "bench_discovery.py": (["--runs", "1", "--wait", "3"], "heard after"),
    "bench_trace.py": (["--seats", "2", "--think", "0"], "the median move"),
    "bench_stand_in.py": (["--games", "1", "--seats", "3", "--think", "0"],
                          "departure → stand-in's first move"),
    # seed 7: a 3-seat Vorsicht Lehrer! table (seed 1 drew 5 seats of Teacher's Pet: 17 s)
    "drill_killed_for_good.py": (["--games", "1", "--seed", "7"], "1 of 1 games complete"),
}  # fmt: skip
NEEDS_NAMESPACES = {"bench_discovery.py"}


def namespaces_here() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("ip") is not None


def test_every_script_has_a_smoke_run():
    scripts = {p.name for p in SCRIPTS.glob("*.py")}
    generators = {"make_vectors.py", "make_sealed_vectors.py", "make_escrow_vectors.py"}
    assert scripts == set(SMOKE) | generators, "a script without a smoke run (or a stale one)"


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_a_script_runs_with_its_smallest_arguments(script, tmp_path):
    if script in NEEDS_NAMESPACES and not namespaces_here():
        pytest.skip("needs root and `ip` to make network namespaces")
    args, printed = SMOKE[script]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), NO_COLOR="1")
    run = subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-3000:]
    assert printed in output, output[-3000:]


@pytest.mark.parametrize(
    "script", ["make_vectors.py", "make_sealed_vectors.py", "make_escrow_vectors.py"]
)
def test_the_vector_generators_write_exactly_the_committed_vectors(script, tmp_path):
    run = subprocess.run(
        [sys.executable, str(SCRIPTS / script), "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    written = sorted(tmp_path.iterdir())
    assert written
    for path in written:
        committed = ROOT / "protocol" / "vectors" / path.name
        assert path.read_bytes() == committed.read_bytes(), f"{path.name} differs"
