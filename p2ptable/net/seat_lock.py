"""The lock that says a seat is running (``NAME.p2pt.lock``).

:func:`hold_seat_lock` takes an exclusive ``flock`` on the lock file for the life
of a running peer; a second ``resume`` (or a second game writing the same
replay) is refused with the holder's pid (a :class:`ResumeError`).  The kernel
drops the lock when the process dies, however it dies, so a crash never leaves a
seat locked.
"""

from __future__ import annotations

import os
from pathlib import Path

from p2ptable.net.resume_error import ResumeError


def lock_path(replay: Path) -> Path:
    return replay.with_name(replay.name + ".lock")


_HELD: dict[Path, SeatLock] = {}  # lock file -> our lock on it, in this process


class SeatLock:
    """An exclusive lock on a seat's replay, held while its peer runs.

    Release it with :meth:`release` or by leaving a ``with`` block; the kernel
    releases it anyway when the process ends."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        _HELD.pop(self.path, None)
        try:
            # Unlink while still holding it: a process that opened the old file
            # finds it gone after locking it, and tries again (hold_seat_lock).
            if os.stat(self.path).st_ino == os.fstat(self._fd).st_ino:
                self.path.unlink()
        except OSError:
            pass
        os.close(self._fd)  # drops the flock
        self._fd = None

    def __enter__(self) -> SeatLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def hold_seat_lock(replay: Path) -> SeatLock:
    """Lock the seat whose replay is ``replay`` for as long as this process plays
    it: call it before `host`, `join` or `resume` writes the replay, and release it
    when the peer ends.  ResumeError (with the holder's pid) if another process,
    or another lock in this one, holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no flock, no lock
        return SeatLock(lock_path(Path(replay)), None)
    path = lock_path(Path(replay)).absolute()
    for _ in range(100):  # another process may keep releasing and taking it
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise ResumeError(f"cannot create the lock file {path}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise ResumeError(
                f"the seat of {Path(replay).name} is still running (pid {pid}): "
                "end that process first, or let it finish"
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # we locked a file its holder removed on release: again
    else:  # pragma: no cover - a lock file that changes 100 times in a row
        raise ResumeError(f"could not lock {path}")
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    lock = SeatLock(path, fd)
    _HELD[path] = lock
    return lock


def held_here(replay: Path) -> bool:
    """Whether this process holds the lock of the seat whose replay is ``replay``."""
    return lock_path(Path(replay)).absolute() in _HELD
