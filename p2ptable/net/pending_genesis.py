"""A seat whose process dies while the genesis is being signed can come back.

How it works
------------
A replay file begins with the genesis entry, which exists only once every seat
has signed; until then there is nothing to resume from (wire.md section 9 used
to list this as a gap).  So when the genesis round starts, before our signature
leaves, the peer saves the genesis body next to where its replay will be
(``REPLAY.pending``, written durably) together with its secrets (``REPLAY.secrets``,
net/persistence.py, holding every seat's endpoint).  When the genesis is complete
and the replay file exists, the pending file is removed.  ``p2ptable resume
REPLAY`` of a seat that has a pending file and no replay starts the genesis round
again, with the next start counter: the others are still sending their
signatures every second, or, if they already hold the genesis, answer ours with
theirs (net/session.py), and the game starts as it would have.

The replay is made in three steps once the genesis is complete: the file, its
header, the genesis frame (synced), and only then is the pending file removed.
A seat killed in between leaves a replay that holds no whole entry next to an
intact pending file (:func:`unborn`): the pending genesis is the truth, so
``resume`` keeps that file aside (:func:`set_aside`) and comes back to the
genesis round, as if there were no replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.errors import InvalidEntry
from p2ptable.replay.genesis import read_genesis

MAX_PENDING_BYTES = 1 << 20


def pending_path(replay: Path) -> Path:
    return replay.with_name(replay.name + ".pending")


@dataclass(frozen=True)
class PendingGenesis:
    """What resuming a seat during the genesis round needs."""

    body: bytes
    seat: int
    secrets: authoring.SeatSecrets
    endpoints: list[str]
    port: int
    replay: Path
    boot: int = 1
    peer_boots: dict[int, int] = field(default_factory=dict)


def save_pending(replay: Path, body: bytes) -> None:
    """The genesis body we are about to sign, durably, next to the replay-to-be."""
    from p2ptable.replay.logfile import write_durably

    write_durably(pending_path(replay), body)


def drop_pending(replay: Path) -> None:
    pending_path(replay).unlink(missing_ok=True)


def unborn(replay: Path) -> bool:
    """Whether ``replay`` exists and holds no whole entry, only what its making
    leaves before the genesis frame is on disk: nothing, a part of the header,
    the header with a torn frame or zeros after it."""
    from p2ptable.replay.logfile import MAGIC, parse_frames

    try:
        with open(replay, "rb") as f:
            data = f.read(MAX_PENDING_BYTES + len(MAGIC) + 8)
    except OSError:
        return False
    if len(data) > MAX_PENDING_BYTES + len(MAGIC) + 4:
        return False  # more than a genesis frame could be
    if MAGIC.startswith(data):
        return True
    if not data.startswith(MAGIC):
        return False  # another kind of file: not ours to move
    rest = data[len(MAGIC) :]
    if rest.count(0) == len(rest):
        return True  # zeros (which read as empty frames): never written
    frames = parse_frames(data)
    return not frames.payloads and frames.error is not None and frames.error.torn


def set_aside(replay: Path) -> Path:
    """Rename an :func:`unborn` replay out of the way (``NAME.torn-STAMP``),
    durably: nothing is lost, and the genesis round may make the replay anew."""
    import os

    from p2ptable.replay.logfile import sync_dir, torn_name

    copy = torn_name(replay)
    os.rename(replay, copy)
    sync_dir(replay.parent)
    return copy


def load_pending(replay: Path) -> PendingGenesis:
    """The seat of a genesis round that did not finish; ResumeError if its files
    do not fit together."""
    from p2ptable.crypto.signing import SigningKey
    from p2ptable.net.persistence import (
        ResumeError,
        _check_endpoints,
        _read,
        _read_secrets,
        secrets_path,
    )
    from p2ptable.randomness.chain import HashChain

    body = _read(pending_path(replay), "pending genesis", MAX_PENDING_BYTES)
    try:
        info = read_genesis(Entry(body, ()))
    except (InvalidEntry, ValueError, TypeError) as exc:
        raise ResumeError(f"{pending_path(replay).name} is not a genesis body ({exc})") from None
    saved = _read_secrets(secrets_path(replay))
    seats = info.seats
    seat = saved["seat"]
    if not 0 <= seat < len(seats):
        raise ResumeError(f"the secrets file says seat {seat}, but the table has {len(seats)}")
    key = SigningKey(bytes.fromhex(saved["key"]))
    if key.public != seats[seat].key:
        raise ResumeError("the secrets file belongs to another table or seat")
    chain = HashChain(bytes.fromhex(saved["chain_secret"]), saved["chain_len"])
    if chain.head != seats[seat].chain_head or saved["chain_len"] != info.chain_len:
        raise ResumeError("the secrets file's randomness chain is not the one the seat announced")
    secrets = authoring.SeatSecrets(
        key, chain, bytes.fromhex(saved["link"]), int(saved["deck"], 16)
    )
    if secrets.link_public != seats[seat].link:
        raise ResumeError("the secrets file's link key is not the one the seat announced")
    _check_endpoints(saved, len(seats))
    peer_boots = {int(k): v for k, v in saved["peer_boots"].items()}
    return PendingGenesis(
        body, seat, secrets, saved["endpoints"], saved["port"], replay, saved["boot"], peer_boots
    )
