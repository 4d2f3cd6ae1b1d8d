"""What a peer keeps on disk besides its replay: where replays go, the seat's
secrets (owner-only), and rebuilding a seat from both for `p2ptable resume`."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.ledger import Applied, InvalidEntry, Ledger


@dataclass(frozen=True)
class Resume:
    """What `p2ptable resume` restores: the log so far and the seat's secrets."""

    ledger: Ledger
    seat: int
    secrets: authoring.SeatSecrets
    endpoints: list[str]
    port: int
    replay: Path
    applied: tuple[Applied, ...] = ()  # what the log's entries did, for the screen


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "p2ptable" / "replays"


def default_replay_path(ledger: Ledger, name: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    safe = "".join(c if c.isalnum() else "_" for c in name)
    return data_dir() / f"{stamp}-{ledger.game.name}-{ledger.game_id.hex()[:8]}-{safe}.p2pt"


def load_resume(replay: Path) -> Resume:
    """Rebuild a seat from its replay file and secrets file, for `p2ptable resume`.

    A torn last record (the process died mid-write) is cut off: it was never
    acknowledged by anyone, and the peers will send it again.  Anything else wrong
    with the file is an error: resuming must never build on a log that does not
    verify.
    """
    from p2ptable.crypto.signing import SigningKey
    from p2ptable.randomness.chain import HashChain
    from p2ptable.replay.logfile import parse_frames

    secrets_path = replay.with_name(replay.name + ".secrets")
    try:
        saved = json.loads(secrets_path.read_text())
    except FileNotFoundError:
        raise ResumeError(f"no secrets file next to the replay ({secrets_path})") from None
    frames = parse_frames(replay.read_bytes())
    if frames.error is not None:
        if not frames.error.torn or not frames.payloads:
            raise ResumeError(f"entry {frames.error.index}: {frames.error.reason}")
        with open(replay, "r+b") as f:
            f.truncate(frames.good_length)
    secrets = authoring.SeatSecrets(
        SigningKey(bytes.fromhex(saved["key"])),
        HashChain(bytes.fromhex(saved["chain_secret"]), saved["chain_len"]),
        bytes.fromhex(saved["link"]),
        _deck_secret(saved),
    )
    seat = saved["seat"]
    try:
        genesis = Ledger(Entry.decode(frames.payloads[0]))
        if genesis.seats[seat].key != secrets.key.public:
            raise ResumeError("the secrets file belongs to another game or seat")
        # Our own hidden cards are read again as the log deals them.
        ledger = Ledger(Entry.decode(frames.payloads[0]), readers={seat: secrets.deck})
        applied = [ledger.append(Entry.decode(payload)) for payload in frames.payloads[1:]]
    except (InvalidEntry, MalformedEntry) as exc:
        raise ResumeError(f"the replay does not verify: {exc}") from None
    endpoints = saved["endpoints"]
    return Resume(ledger, seat, secrets, endpoints, saved["port"], replay, tuple(applied))


def _deck_secret(saved: dict) -> int:
    if "deck" not in saved:
        raise ResumeError(
            "the secrets file has no deck secret (it was written by an older p2ptable)"
        )
    return int(saved["deck"], 16)


class ResumeError(Exception):
    """The replay or its secrets cannot be resumed from."""


def save_secrets(
    replay: Path, secrets: authoring.SeatSecrets, seat: int, endpoints: list[str], port: int
) -> Path:
    """Store what `p2ptable resume` needs, readable by the owner only."""
    path = replay.with_name(replay.name + ".secrets")
    data = {
        "seat": seat,
        "key": secrets.key.seed.hex(),
        "chain_secret": secrets.chain.preimage(secrets.chain.length - 1).hex(),
        "chain_len": secrets.chain.length,
        "link": secrets.link.hex(),
        "deck": f"{secrets.deck:064x}",
        "endpoints": endpoints,
        "port": port,
    }
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    os.chmod(path, 0o600)
    return path
