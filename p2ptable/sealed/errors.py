"""Who was wrong: a peer that cheated, or the code that called us.

How it works: every verifying function of ``p2ptable.sealed`` raises
:class:`SealedDeckError` when a message from a seat does not check out, and the
error names that seat and what was wrong.  Whoever drives the protocol turns it
into evidence (the seat's signed message).  :class:`SealedUsageError` is our own
mistake: an operation the current state does not allow, a wrong secret, an index
out of range.  A peer's bytes never cause a ``SealedUsageError``.
"""

from __future__ import annotations


class SealedDeckError(Exception):
    """A seat sent something that does not verify; ``seat`` is the cheater."""

    def __init__(self, seat: int | None, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}" if seat is not None else reason)
        self.seat = seat
        self.reason = reason

    def __repr__(self) -> str:
        return f"SealedDeckError(seat={self.seat!r}, reason={self.reason!r})"


class SealedUsageError(ValueError):
    """The caller asked for something the sealed-deck state does not allow."""
