"""The one error a log entry can raise when it is not acceptable."""

from __future__ import annotations


class InvalidEntry(Exception):
    """Entry ``index`` is not acceptable.  ``culprit`` is the seat whose valid
    signature is on the offending content, when there is one."""

    def __init__(self, index: int, reason: str, culprit: int | None = None) -> None:
        super().__init__(f"entry {index}: {reason}")
        self.index = index
        self.reason = reason
        self.culprit = culprit
