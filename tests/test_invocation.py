"""The words a hint gives to run p2ptable again (p2ptable/invocation.py).

A game that ends says how to go on: "To continue where you stopped: p2ptable
resume FILE", "Check it with: p2ptable verify FILE".  The README's first command
runs ``.venv/bin/p2ptable play ...`` without activating the virtualenv, so for that
person ``p2ptable`` is no command at all (found in the closing notes of
2026-12-06): a hint names the program as they can type it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from p2ptable import invocation


@pytest.fixture
def venv(tmp_path, monkeypatch):
    """A virtualenv's bin folder with its python and its p2ptable script."""
    bin_ = tmp_path / "venv" / "bin"
    bin_.mkdir(parents=True)
    for name in ("python", "p2ptable"):
        (bin_ / name).write_text("#!/bin/sh\n")
        (bin_ / name).chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(bin_ / "python"))
    return bin_


def test_on_the_path_it_is_plain_p2ptable(venv, monkeypatch):
    monkeypatch.setenv("PATH", str(venv))
    monkeypatch.setattr(sys, "argv", [str(venv / "p2ptable"), "play"])
    assert invocation.command() == "p2ptable"


def test_run_by_its_path_it_is_that_path_as_typed(venv, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["venv/bin/p2ptable", "play"])
    assert invocation.command() == "venv/bin/p2ptable"
    assert invocation.command("verify", "/my games/a.p2pt") == (
        "venv/bin/p2ptable verify '/my games/a.p2pt'"
    )


def test_another_p2ptable_on_the_path_is_not_this_one(venv, monkeypatch, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "p2ptable").write_text("#!/bin/sh\n")
    (other / "p2ptable").chmod(0o755)
    monkeypatch.setenv("PATH", str(other))
    monkeypatch.setattr(sys, "argv", [str(venv / "p2ptable"), "play"])
    assert invocation.command() == str(venv / "p2ptable")


def test_run_as_a_module_it_is_the_script_beside_its_python(venv, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    main = Path(invocation.__file__).parent / "__main__.py"
    monkeypatch.setattr(sys, "argv", [str(main), "play"])
    assert invocation.command() == str(venv / "p2ptable")
    monkeypatch.setenv("PATH", str(venv))
    assert invocation.command() == "p2ptable"
    (venv / "p2ptable").unlink()  # no script: the module, with this very python
    assert invocation.command() == f"{venv / 'python'} -m p2ptable"
