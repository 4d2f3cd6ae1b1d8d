"""A peer's diagnostic log (``REPLAY.peer.log``), bounded whatever others send.

How it works
------------
Lines about the lobby, the game and our own bugs are written as they come.  What
peers and strangers send that is refused is aggregated: the first refusal of a
kind from a sender is written in full, the rest of that kind are counted and
written as one line ("... 312 more like it") once a minute and when the peer
ends.  A kind is the reason with its numbers taken out, so "replayed message
(seq 7 already seen)" and "(seq 8 ...)" are one kind; past ``MAX_KINDS`` kinds
every new one is counted under one line.  Lines written before the replay file
exists (the lobby) are kept, at most ``MAX_EARLY``, and written with the first
line after it does.  So a flood of junk costs a few lines a minute, not a line a
frame.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

MAX_KINDS = 128
MAX_EARLY = 500
SUMMARY_EVERY = 60.0
_NUMBERS = re.compile(r"\d+")
_SEAT = re.compile(r"\bseat (\d+)\b")


def seats_named(text: str, names: list[str]) -> str:
    """``text`` from the library, whose "seat N" counts from 0, as the log's other
    lines and the screens say it: "seat 3 (Cleo)", counted from 1."""

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        name = f" ({names[seat]})" if seat < len(names) else ""
        return f"seat {seat + 1}{name}"

    return _SEAT.sub(named, text)


class PeerLog:
    def __init__(self) -> None:
        self.path: Path | None = None  # set when the replay file exists
        self._early: list[str] = []
        self._counts: dict[tuple[str, str], int] = {}
        self._next_summary = 0.0

    def note(self, text: str) -> None:
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n"
        if self.path is None:
            if len(self._early) < MAX_EARLY:
                self._early.append(line)
            return
        with open(self.path, "a") as f:
            f.writelines(self._early)
            f.write(line)
        self._early.clear()

    def rejected(self, who: str, reason: str, now: float) -> None:
        """A message from ``who`` was refused for ``reason``."""
        kind = _NUMBERS.sub("N", reason)
        key = (who, kind)
        if key in self._counts:
            self._counts[key] += 1
        elif len(self._counts) < MAX_KINDS:
            self._counts[key] = 0
            self.note(f"rejected a message from {who}: {reason}")
        else:
            other = ("anyone", "other reasons (too many kinds to list)")
            self._counts[other] = self._counts.get(other, 0) + 1
        if now >= self._next_summary:
            self.summarize(now)

    def summarize(self, now: float) -> None:
        """One line per kind refused since the last summary."""
        self._next_summary = now + SUMMARY_EVERY
        for (who, kind), count in self._counts.items():
            if count:
                self.note(f"rejected {count} more messages from {who} like: {kind}")
                self._counts[(who, kind)] = 0
