"""What a peer keeps on disk for `p2ptable resume` (net/persistence.py).

Issue 3: "a player whose process died (kill -9) starts again from its replay file
and its saved secrets ... Secrets are stored with owner-only permissions."
Issue 4: the seat's deck secret is kept with them, so a resumed seat reads its hand.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from p2ptable.net.persistence import ResumeError, load_resume, save_secrets
from p2ptable.replay import authoring
from p2ptable.replay.logfile import LogWriter

NONCE = b"\x03" * 16


def write_game(tmp_path, seat: int = 1):
    seats = [authoring.SeatSecrets.from_seed(b"persist", i, 64) for i in range(2)]
    genesis = authoring.local_genesis(
        "vorsicht-lehrer", {"track": "100"}, ["Ana", "Ben"], seats, 64, NONCE
    )
    replay = tmp_path / "Ben.p2pt"
    with LogWriter(replay, new=True) as writer:
        writer.append(genesis.encode())
    save_secrets(replay, seats[seat], seat, ["tcp://a:1", "tcp://b:2"], 2)
    return replay, seats


def test_the_deck_secret_is_saved_owner_only_and_read_back(tmp_path):
    replay, seats = write_game(tmp_path)
    secrets = replay.with_name(replay.name + ".secrets")
    assert stat.S_IMODE(os.stat(secrets).st_mode) == 0o600
    resumed = load_resume(replay)
    assert resumed.seat == 1 and resumed.secrets.deck == seats[1].deck
    assert resumed.ledger.book.readers == {1: seats[1].deck}


def test_a_secrets_file_without_a_deck_secret_is_a_clear_error(tmp_path):
    # Found in review: a secrets file written before deck secrets existed made
    # resume fail with a bare KeyError.
    replay, _ = write_game(tmp_path)
    secrets = replay.with_name(replay.name + ".secrets")
    data = json.loads(secrets.read_text())
    del data["deck"]
    secrets.write_text(json.dumps(data))
    with pytest.raises(ResumeError, match="no deck secret"):
        load_resume(replay)
