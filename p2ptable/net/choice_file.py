"""Our secret choice on disk (``NAME.p2pt.choice``), kept before our commit to it leaves.

How it works
------------
:class:`ChoiceKeeper` keeps our last secret choice (net/session.py, ``Choice``)
durably, so a resumed person is not asked again: one fixed record overwritten in
place and synced (``CHOICE_RECORD``).  :func:`load_choice` reads it back, for
``resume`` (net/persistence.py), as a hint only: the truth is our signed commit,
which the other seats hand back after a resume (net/parts.py), so a lost,
damaged or forged file is reported and ignored, and never makes us sign a
second commit.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.engine.api import Action
from p2ptable.net.session import Choice


class _Unreadable(Exception):
    """The file is there and cannot be read as one record."""


def choice_path(replay: Path) -> Path:
    return replay.with_name(replay.name + ".choice")


# The choice file is one record of CHOICE_RECORD bytes, overwritten in place: a
# 4-byte length, the canonical {i, action}, its CRC-32, zeros.  Within one disk
# sector, and the file never changes size after it is made, so keeping a choice
# is one write and one fdatasync (like a move's), not a new file and a rename.
CHOICE_RECORD = 512


class ChoiceKeeper:
    """Keeps our secret choices in ``REPLAY.choice``, one record overwritten in
    place (``CHOICE_RECORD``): each is on stable storage when ``keep`` returns."""

    def __init__(self, replay: Path) -> None:
        from p2ptable.replay.logfile import sync_dir, sync_fd

        path = choice_path(replay)
        made = not path.exists()
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        self._sync = sync_fd
        if made or os.fstat(self._fd).st_size != CHOICE_RECORD:
            os.pwrite(self._fd, bytes(CHOICE_RECORD), 0)
            os.fsync(self._fd)
            sync_dir(path.parent)

    def keep(self, choice: Choice) -> None:
        payload = pack({"i": choice.index, "action": choice.action})
        record = struct.pack(">I", len(payload)) + payload + struct.pack(">I", zlib.crc32(payload))
        if len(record) > CHOICE_RECORD:
            raise ValueError(f"a choice of {len(payload)} bytes does not fit its record")
        os.pwrite(self._fd, record.ljust(CHOICE_RECORD, b"\0"), 0)
        self._sync(self._fd)

    def close(self) -> None:
        os.close(self._fd)


def load_choice(replay: Path) -> tuple[Choice | None, str | None]:
    """Our kept secret choice, if any, and a sentence for the player when the
    file could not be read.  The file is a hint, never the truth: a seat's
    commit, if one left, comes back from the others (net/parts.py), and a lost,
    damaged or forged file is reported and ignored, never trusted over it."""
    path = choice_path(replay)
    if not path.exists():
        return None, None
    try:
        raw = _read(path)
        if not raw.strip(b"\0"):
            return None, None  # made, never written: no choice was kept
        (length,) = struct.unpack_from(">I", raw, 0)
        payload = raw[4 : 4 + length]
        crc = raw[4 + length : 8 + length]
        if len(crc) != 4 or struct.unpack(">I", crc)[0] != zlib.crc32(payload):
            raise ValueError("its checksum does not match")
        data = unpack_canonical(payload)
        index, action = data["i"], data["action"]
        if type(index) is not int or not isinstance(action, str) or set(data) != {"i", "action"}:
            raise ValueError("not {i, action}")
        Action.parse(action)  # the session takes it up again: it must be an action
    except (EncodingError, ValueError, TypeError, KeyError, struct.error, _Unreadable) as exc:
        why = exc if not isinstance(exc, _Unreadable) else "it cannot be read"
        return None, (
            f"{path.name} is damaged ({why}) and was ignored: if this seat had sent a "
            "commit to a secret choice, it is taken back from the other seats"
        )
    return Choice(index, action), None


def _read(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read(CHOICE_RECORD + 1)
    except OSError as exc:
        raise _Unreadable(str(exc)) from None
    if len(data) > CHOICE_RECORD:
        raise _Unreadable("too big to be one")
    return data
