"""Shuffle checks handed to a forked worker process while the caller goes on.

How it works: inside :func:`shuffle_checks_deferred`, ``verify_shuffle`` sends a
check it has not seen pass (``proofs.KNOWN_GOOD``) to a child process, forked on
entry, and answers "holds" at once; the caller goes on as if it did, on another
core than the worker.  On exit every check sent is waited for: all held, and
their fingerprints are kept as checks that passed (so a later pass finds them);
one failed, and :class:`Recheck` is raised, for the caller to start again without
deferring, so that what it reports (the reason, the entry, the seat) is exactly
what checking in turn gives.  Nothing decided while deferring is kept when a
check fails.

The worker ends whatever happens: it reads jobs until its pipe is closed and then
exits; the parent closes the pipe on leaving the block (an exception, Ctrl-C
included) and waits for it.  Only for a process that runs no other thread (a fork
copies only the thread that forks, and locks other threads held), on a system
with ``fork`` and more than one core; otherwise the block defers nothing.
"""

from __future__ import annotations

import os
import pickle
import struct
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from p2ptable.sealed import shuffle
from p2ptable.sealed.elgamal import Ciphertext
from p2ptable.sealed.group import Point, decode_point
from p2ptable.sealed.proofs import KNOWN_GOOD, Context
from p2ptable.sealed.shuffle import ShuffleProof

_LENGTH = struct.Struct(">I")


class Recheck(Exception):
    """A deferred check failed: do the work again, checking in turn."""


def can_defer() -> bool:
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    try:
        return len(os.sched_getaffinity(0)) > 1
    except AttributeError:  # not on Linux
        return (os.cpu_count() or 1) > 1


@contextmanager
def shuffle_checks_deferred(enabled: bool = True) -> Iterator[None]:
    """Defer the shuffle checks made inside the block (see the module's text)."""
    if not enabled or not can_defer() or shuffle.DEFER is not None:
        yield
        return
    jobs_read, jobs_write = os.pipe()
    results_read, results_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        status = 1
        try:
            os.close(jobs_write)
            os.close(results_read)
            status = _work(jobs_read, results_write)
        finally:
            os._exit(status)
    os.close(jobs_read)
    os.close(results_write)
    sent: list[bytes] = []
    jobs = os.fdopen(jobs_write, "wb")

    _widen(jobs_write)

    def defer(fingerprint: bytes, *args: object) -> None:
        if fingerprint in sent:  # the same check twice in the block: once is enough
            return
        sent.append(fingerprint)
        data = pickle.dumps(_encoded(*args))  # type: ignore[arg-type]
        jobs.write(_LENGTH.pack(len(data)) + data)
        jobs.flush()

    def finish() -> bool:
        """Close the worker's input, wait for it to end: did every check hold?"""
        shuffle.DEFER = None
        try:
            jobs.close()  # the worker's end of the input: it answers and exits
        except BrokenPipeError:  # the worker died: nothing it said counts
            pass
        with os.fdopen(results_read, "rb") as results:
            answers = results.read()
        _, status = os.waitpid(pid, 0)
        return status == 0 and answers == b"\x01" * len(sent)

    shuffle.DEFER = defer
    try:
        yield
    except Exception:
        # An error found after a bad shuffle was taken as good is no error of the
        # log: the caller starts again in turn, and finds the shuffle's.
        if not finish():
            raise Recheck from None
        raise
    except BaseException:  # Ctrl-C and the like stay what they are
        finish()
        raise
    if not finish():
        raise Recheck
    for fingerprint in sent:
        KNOWN_GOOD.add(fingerprint)


def _widen(fd: int) -> None:
    """A pipe of 1 MiB where Linux allows it: a 58-card job is about 27 KB, and the
    pass should not wait for the worker to read (64 KiB by default)."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass  # a narrower pipe: the pass waits now and then, the results are the same


def _encoded(
    context: Context,
    key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
) -> tuple[object, ...]:
    def cards(cts: Sequence[Ciphertext]) -> list[tuple[bytes, bytes]]:
        return [(ct.a.to_bytes(), ct.b.to_bytes()) for ct in cts]

    return list(context), key.to_bytes(), cards(inputs), cards(outputs), proof.to_value()


def _work(jobs_fd: int, results_fd: int) -> int:
    """Check each job in turn, answering one byte each: 1 held, 0 failed."""
    with os.fdopen(jobs_fd, "rb") as jobs, os.fdopen(results_fd, "wb", buffering=0) as out:
        while header := jobs.read(_LENGTH.size):
            context, key, inputs, outputs, value = pickle.loads(
                jobs.read(_LENGTH.unpack(header)[0])
            )

            def cards(pairs: list[tuple[bytes, bytes]]) -> list[Ciphertext]:
                return [Ciphertext(decode_point(a), decode_point(b)) for a, b in pairs]

            try:
                ins, outs = cards(inputs), cards(outputs)
                proof = ShuffleProof.from_value(value, len(ins))
                held = shuffle._verify(context, decode_point(key), ins, outs, proof) is None
            except Exception:  # anything unexpected counts as a failure: checked again
                held = False
            out.write(b"\x01" if held else b"\x00")
    return 0
