"""The replay file on disk: framed entries, appended as the game goes.

Layout (protocol/replay.md)::

    magic  = b"P2PTABLE" 0x00 0x01          (10 bytes)
    frame* = u32be(len(payload)) || payload || u32be(crc32(payload))

``payload`` is one encoded :class:`~p2ptable.replay.entries.Entry`.  The CRC is not
security (signatures and hash links are): it tells a torn write after a crash (the
file ends inside a frame) apart from a damaged or tampered frame.

The writer hands every frame to the operating system (unbuffered, straight to the
file descriptor) before returning, so a killed process loses nothing it had
appended.  A power cut can still lose what the operating system had not written
to the disk yet: :meth:`LogWriter.sync` puts everything appended so far on stable
storage (``fdatasync``), and the session calls it before an entry it signed
leaves (protocol/wire.md 6.10).
Reading never silently drops anything: a torn or damaged frame is reported with its
entry index, and whether intact frames follow it (damage in the middle of the
file) or not (a damaged last record, which a resume may cut off).
"""

from __future__ import annotations

import os
import shutil
import struct
import time
import zlib
from dataclasses import dataclass
from io import FileIO
from pathlib import Path
from typing import Literal

MAGIC = b"P2PTABLE\x00\x01"
MAX_FRAME = 1 << 20
_HEAD = struct.Struct(">I")


@dataclass(frozen=True)
class FrameError:
    """Why reading stopped early: the entry index and a reason for a person."""

    index: int
    reason: str
    torn: bool  # True when the file simply ends mid-frame (a crash while writing)
    # True when no intact frame follows the bad one: the damage is confined to the
    # last record (always so for a torn one).  False for damage in the middle, and
    # for a file that is not a replay at all.
    tail: bool = False


@dataclass(frozen=True)
class ReadResult:
    payloads: list[bytes]
    error: FrameError | None
    good_length: int  # bytes up to the end of the last intact frame


def encode_frame(payload: bytes) -> bytes:
    return _HEAD.pack(len(payload)) + payload + _HEAD.pack(zlib.crc32(payload))


def parse_frames(data: bytes) -> ReadResult:
    """Split a whole file into frame payloads, stopping at the first bad frame."""
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            error = FrameError(0, "file ends inside the header", torn=True, tail=True)
            return ReadResult([], error, 0)
        return ReadResult([], FrameError(0, "not a p2ptable replay (bad magic)", torn=False), 0)
    pos = len(MAGIC)
    payloads: list[bytes] = []
    while pos < len(data):
        index = len(payloads)
        if len(data) - pos < 4:
            return ReadResult(payloads, _torn(index, len(data) - pos, 4), pos)
        (length,) = _HEAD.unpack_from(data, pos)
        if length > MAX_FRAME:
            reason = f"frame length {length} is over the {MAX_FRAME}-byte limit (damaged)"
            return ReadResult(payloads, _damaged(data, pos, index, reason), pos)
        end = pos + 4 + length + 4
        if end > len(data):
            later = next_intact_frame(data, pos + 1)
            if later is None:
                return ReadResult(payloads, _torn(index, len(data) - pos, end - pos), pos)
            # Bug found in review: a damaged length prefix in the middle of a file
            # looked like a torn last record, and resume cut the rest of the game off.
            reason = (
                f"frame length {length} runs past the end of the file, but an intact "
                f"frame follows at byte {later}: the length field was damaged"
            )
            return ReadResult(payloads, FrameError(index, reason, torn=False), pos)
        payload = data[pos + 4 : pos + 4 + length]
        (crc,) = _HEAD.unpack_from(data, pos + 4 + length)
        if crc != zlib.crc32(payload):
            reason = "checksum mismatch: the entry was damaged or altered on disk"
            return ReadResult(payloads, _damaged(data, pos, index, reason), pos)
        payloads.append(payload)
        pos = end
    return ReadResult(payloads, None, pos)


def _torn(index: int, have: int, need: int) -> FrameError:
    reason = f"torn record: the file ends {have} bytes into a {need}-byte frame (writer crashed?)"
    return FrameError(index, reason, torn=True, tail=True)


def _damaged(data: bytes, pos: int, index: int, reason: str) -> FrameError:
    later = next_intact_frame(data, pos + 1)
    if later is not None:
        reason += f" (an intact frame follows at byte {later})"
    return FrameError(index, reason, torn=False, tail=later is None)


def next_intact_frame(data: bytes, start: int) -> int | None:
    """The offset of the first intact frame at or after ``start``: a length within
    the limit and the file, a non-empty payload and a matching CRC.

    Used to tell a damaged last record (nothing intact follows: cutting it loses
    nothing else) from damage in the middle (entries follow that a cut would
    lose).  A torn record is a prefix of one frame, so a false match inside it
    needs a 32-bit CRC to match by chance."""
    size = len(data)
    for pos in range(max(start, len(MAGIC)), size - 8):
        (length,) = _HEAD.unpack_from(data, pos)
        if 0 < length <= MAX_FRAME and pos + 8 + length <= size:
            payload = data[pos + 4 : pos + 4 + length]
            if _HEAD.unpack_from(data, pos + 4 + length)[0] == zlib.crc32(payload):
                return pos
    return None


def frame_offsets(payloads: list[bytes]) -> list[int]:
    """Where each frame of ``payloads`` starts in its file (after the magic)."""
    offsets, pos = [], len(MAGIC)
    for payload in payloads:
        offsets.append(pos)
        pos += 8 + len(payload)
    return offsets


def read_file(path: str | os.PathLike[str]) -> ReadResult:
    return parse_frames(Path(path).read_bytes())


def sync_fd(fd: int) -> None:
    """Everything written to ``fd`` onto stable storage.  ``fdatasync`` where the
    system has it: it skips metadata a read does not need (the modification
    time), and still the file size, so an append survives."""
    if hasattr(os, "fdatasync"):
        os.fdatasync(fd)
    else:  # macOS and Windows have no fdatasync
        os.fsync(fd)


def sync_dir(path: Path) -> None:
    """A new or renamed file's directory entry onto stable storage (POSIX only:
    elsewhere directories cannot be opened, and the rename is durable itself)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a directory; nothing more to do
    finally:
        os.close(fd)


def write_durably(path: Path, data: bytes) -> None:
    """``data`` as the whole of ``path``, readable by the owner only, on stable
    storage when this returns: written to a temporary file, synced, renamed over
    ``path``, and the folder synced, so a crash leaves the old file or the new."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o600)  # whatever the umask, and an old file's mode
            f.write(data)
            f.flush()
            sync_fd(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    sync_dir(path.parent)


def torn_name(path: Path) -> Path:
    """A free name next to ``path`` for what is kept of it before it is changed
    (``NAME.torn-YYYYmmdd-HHMMSS``, with ``-2``, ``-3`` ... if taken)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    copy = path.with_name(f"{path.name}.torn-{stamp}")
    number = 1
    while copy.exists():
        number += 1
        copy = path.with_name(f"{path.name}.torn-{stamp}-{number}")
    return copy


def cut_tail(path: Path, length: int) -> Path:
    """Cut ``path`` to ``length`` bytes after keeping a copy of the whole file
    next to it (``NAME.torn-YYYYmmdd-HHMMSS``); the copy's path.

    The copy is on disk before the cut, and the cut before this returns, so a
    crash at any point leaves either the original or both."""
    copy = torn_name(path)
    with open(path, "rb") as source, open(copy, "xb") as target:
        shutil.copyfileobj(source, target)
        target.flush()
        sync_fd(target.fileno())
    sync_dir(path.parent)
    with open(path, "r+b") as f:
        f.truncate(length)
        os.fsync(f.fileno())  # the new size is metadata: fsync, not fdatasync
    return copy


class LogWriter:
    """Appends frames to a replay file, creating it with the magic if new.

    ``new=True`` (a new game) refuses an existing file rather than appending a
    second game to it; resuming opens with ``new=False`` after cutting any torn
    tail, so new frames never hide behind a partial one.

    :meth:`sync` puts every frame appended so far on stable storage; ``fsync=True``
    syncs after every append (simple, and what a slow move costs: see
    scripts/bench_fsync.py).  The session syncs only before an entry we signed
    leaves (protocol/wire.md 6.10)."""

    def __init__(
        self, path: str | os.PathLike[str], fsync: bool = False, new: bool = False
    ) -> None:
        self.path = Path(path)
        self.fsync = fsync
        mode: Literal["xb", "ab"] = "xb" if new else "ab"
        # Unbuffered: each write is one system call, so there is nothing to flush.
        self._file: FileIO = open(self.path, mode, buffering=0)  # noqa: SIM115 - closed in close()
        self._dirty = False
        # A file we created is only there after a power cut once its directory
        # entry is on disk too: the first sync also syncs the directory.
        self._new_name = self._file.tell() == 0
        if self._new_name:
            self._write(MAGIC)

    def append(self, payload: bytes) -> None:
        self._write(encode_frame(payload))

    def sync(self) -> None:
        """Every frame appended so far onto stable storage (nothing to do if none
        was appended since the last sync)."""
        if self._dirty:
            sync_fd(self._file.fileno())
            self._dirty = False
        if self._new_name:
            sync_dir(self.path.parent)
            self._new_name = False

    def _write(self, data: bytes) -> None:
        """All of ``data`` to the operating system (a write may take only part of
        it, on a full disk or after a signal), then to the disk if ``fsync``."""
        written = self._file.write(data)
        if written != len(data):
            view = memoryview(data)
            while written < len(data):
                written += self._file.write(view[written:])
        self._dirty = True
        if self.fsync:
            self.sync()

    def keep_only(self, entries: int) -> None:
        """Cut the file back to its first ``entries`` frames (an agreed abort that
        takes a contested position, wire.md 6.8); what follows is written next."""
        self._file.flush()
        with open(self.path, "rb") as f:
            payloads = parse_frames(f.read()).payloads
        if entries > len(payloads):
            raise ValueError(f"{self.path} holds {len(payloads)} frames, not {entries}")
        offsets = frame_offsets(payloads)
        end = offsets[entries] if entries < len(offsets) else offsets[-1] + 8 + len(payloads[-1])
        self._file.truncate(end)
        self._dirty = True

    def fileno(self) -> int:
        return self._file.fileno()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
