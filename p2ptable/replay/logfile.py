"""The replay file on disk: framed entries, appended as the game goes.

Layout (protocol/replay.md)::

    magic  = b"P2PTABLE" 0x00 0x01          (10 bytes)
    frame* = u32be(len(payload)) || payload || u32be(crc32(payload))

``payload`` is one encoded :class:`~p2ptable.replay.entries.Entry`.  The CRC is not
security (signatures and hash links are): it tells a torn write after a crash (the
file ends inside a frame) apart from a damaged or tampered frame.

The writer hands every frame to the operating system (unbuffered, straight to the
file descriptor) before returning, so a killed process loses nothing it had
appended; ``fsync=True`` also survives power loss.
Reading never silently drops anything: a torn or damaged frame is reported with its
entry index.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass
from io import FileIO
from pathlib import Path

MAGIC = b"P2PTABLE\x00\x01"
MAX_FRAME = 1 << 20


@dataclass(frozen=True)
class FrameError:
    """Why reading stopped early: the entry index and a reason for a person."""

    index: int
    reason: str
    torn: bool  # True when the file simply ends mid-frame (a crash while writing)


@dataclass(frozen=True)
class ReadResult:
    payloads: list[bytes]
    error: FrameError | None
    good_length: int  # bytes up to the end of the last intact frame


def encode_frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload + struct.pack(">I", zlib.crc32(payload))


def parse_frames(data: bytes) -> ReadResult:
    """Split a whole file into frame payloads, stopping at the first bad frame."""
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            return ReadResult([], FrameError(0, "file ends inside the header", torn=True), 0)
        return ReadResult([], FrameError(0, "not a p2ptable replay (bad magic)", torn=False), 0)
    pos = len(MAGIC)
    payloads: list[bytes] = []
    while pos < len(data):
        index = len(payloads)
        if len(data) - pos < 4:
            return ReadResult(payloads, _torn(index, len(data) - pos, 4), pos)
        (length,) = struct.unpack_from(">I", data, pos)
        if length > MAX_FRAME:
            reason = f"frame length {length} is over the {MAX_FRAME}-byte limit (damaged)"
            return ReadResult(payloads, FrameError(index, reason, torn=False), pos)
        end = pos + 4 + length + 4
        if end > len(data):
            return ReadResult(payloads, _torn(index, len(data) - pos, end - pos), pos)
        payload = data[pos + 4 : pos + 4 + length]
        (crc,) = struct.unpack_from(">I", data, pos + 4 + length)
        if crc != zlib.crc32(payload):
            reason = "checksum mismatch: the entry was damaged or altered on disk"
            return ReadResult(payloads, FrameError(index, reason, torn=False), pos)
        payloads.append(payload)
        pos = end
    return ReadResult(payloads, None, pos)


def _torn(index: int, have: int, need: int) -> FrameError:
    reason = f"torn record: the file ends {have} bytes into a {need}-byte frame (writer crashed?)"
    return FrameError(index, reason, torn=True)


def read_file(path: str | os.PathLike[str]) -> ReadResult:
    return parse_frames(Path(path).read_bytes())


class LogWriter:
    """Appends frames to a replay file, creating it with the magic if new.

    ``new=True`` (a new game) refuses an existing file rather than appending a
    second game to it; resuming opens with ``new=False`` after cutting any torn
    tail, so new frames never hide behind a partial one.
    """

    def __init__(
        self, path: str | os.PathLike[str], fsync: bool = False, new: bool = False
    ) -> None:
        self.path = Path(path)
        self.fsync = fsync
        mode = "xb" if new else "ab"
        # Unbuffered: each write is one system call, so there is nothing to flush.
        self._file: FileIO = open(self.path, mode, buffering=0)  # noqa: SIM115 - closed in close()
        if self._file.tell() == 0:
            self._write(MAGIC)

    def append(self, payload: bytes) -> None:
        self._write(encode_frame(payload))

    def _write(self, data: bytes) -> None:
        """All of ``data`` to the operating system (a write may take only part of
        it, on a full disk or after a signal), then to the disk if ``fsync``."""
        written = self._file.write(data)
        if written != len(data):
            view = memoryview(data)
            while written < len(data):
                written += self._file.write(view[written:])
        if self.fsync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
