"""A simulated replay with table talk beside it (REPLAY.talk), for the replay
page's tests: the seats' keys are the simulation's, so every line checks."""

from __future__ import annotations

from pathlib import Path

from p2ptable.net.talk import TalkLine, make_record
from p2ptable.randomness.chain import DEFAULT_LENGTH
from p2ptable.replay.entries import Entry
from p2ptable.replay.genesis import read_genesis
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.seat_secrets import SeatSecrets
from p2ptable.replay.talk_file import TalkWriter
from p2ptable.sim import simulate

SEED = "talk-page"
# (seat, the log length when it was said, the text): shown after entry at - 1
LINES = ((0, 1, "good luck, Ben"), (1, 4, "<b>thanks</b> & you"), (0, 4, "nice"))


def talking_replay(folder: Path) -> Path:
    """A 2-seat Pet Quartet game with LINES said beside it."""
    path = folder / "talk.p2pt"
    simulate("pet-quartet", 2, SEED, path)
    genesis = Entry.decode(parse_frames(path.read_bytes()).payloads[0])
    game_id = read_genesis(genesis).game_id
    keys = [SeatSecrets.from_seed(SEED.encode(), i, DEFAULT_LENGTH).key for i in range(2)]
    counts = [0, 0]
    writer = TalkWriter(path)
    for seat, at, text in LINES:
        counts[seat] += 1
        writer.append(make_record(keys[seat], game_id, TalkLine(seat, counts[seat], at, text)))
    writer.close()
    return path
