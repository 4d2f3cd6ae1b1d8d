"""What the whole suite shares.

The thorough profile (tests/budget.py): the default run draws half the examples
of the costliest property tests, ``--hypothesis-profile thorough`` all of them.

Bytecode for the processes the tests start.  The integration tests start about
150 `p2ptable` processes (hosts, joiners, resumes, a person's terminal, play's
bots).  Where bytecode caches are switched off (``PYTHONDONTWRITEBYTECODE``, as
in a sandbox that keeps the checkout clean), each of them compiled the whole of
p2ptable from source again: about a fifth of a second of CPU each, on a machine
whose cores the peers of a game share.  So, only then, the processes started
here keep their bytecode in a folder of their own for the run (Python's
``PYTHONPYCACHEPREFIX``), outside the checkout, removed at the end: the
checkout stays clean, and each module is compiled once.  Nothing else changes
for them; this process itself is left as it started.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

from tests import budget

budget.register()  # --hypothesis-profile thorough: every property test's full count

_PYCACHE: list[tuple[str, str]] = []  # (the folder, PYTHONDONTWRITEBYTECODE as it was)


def pytest_configure(config) -> None:  # noqa: ANN001
    # The processes the tests start run as a person whose virtualenv is active
    # (README: ". .venv/bin/activate"), as .ci/run does, so that their hints say
    # "p2ptable resume FILE" (p2ptable/invocation.py) on any machine.
    here = os.path.dirname(sys.executable)
    if os.path.isfile(os.path.join(here, "p2ptable")):
        path = os.environ.get("PATH", "")
        if here not in path.split(os.pathsep):
            os.environ["PATH"] = here + os.pathsep + path
    switched_off = os.environ.get("PYTHONDONTWRITEBYTECODE")
    if switched_off and not os.environ.get("PYTHONPYCACHEPREFIX"):
        prefix = tempfile.mkdtemp(prefix="p2ptable-tests-pycache-")
        _PYCACHE.append((prefix, switched_off))
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = prefix


def pytest_unconfigure(config) -> None:  # noqa: ANN001
    while _PYCACHE:
        prefix, switched_off = _PYCACHE.pop()
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        os.environ["PYTHONDONTWRITEBYTECODE"] = switched_off
        shutil.rmtree(prefix, ignore_errors=True)
