"""Sealed hands dealt and revealed between real peer processes on 127.0.0.1.

Brief: sealed decks must "work between real peer processes, shown by tests and a
small command or script that deals and reveals hands".  scripts/sealed_demo.py
starts one process per seat and checks what they printed; here it runs small.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "scripts" / "sealed_demo.py"


def test_three_processes_deal_disjoint_hands_and_reveal_cards():
    args = ["--seats", "3", "--cards", "12", "--hand", "3", "--reveals", "2", "--timeout", "30"]
    done = subprocess.run(
        [sys.executable, str(DEMO), *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == (
        "ok: 3 seats each hold 3 of 12 cards, hands disjoint; 6 reveals seen alike by every seat"
    )
    assert sum(line.startswith(f"seat {s} holds: ") for s in range(3) for line in lines) == 3
    assert sum("hold every revealed card" in line for line in lines) == 3
