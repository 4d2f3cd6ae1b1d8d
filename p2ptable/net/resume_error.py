"""What `p2ptable resume` says when a seat cannot be rebuilt or is still running."""

from __future__ import annotations


class ResumeError(Exception):
    """The replay or its secrets cannot be resumed from (a one-line reason)."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))  # always one line
