"""The words that end a stopped game: who stopped it, how, and how sure we are.

One sentence per kind of abort, said once, in the same words on a person's
screen, a bot's output and the CLI's last line: "Ben abandoned the game (no
contact for 5 minutes)", "Ben withheld …", "Ben cheated: …" with where the proof
is.  An abort that proves nothing (withheld, abandoned) says whose word it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from p2ptable.net.events import Stopped
from p2ptable.replay.kinds import Reason
from p2ptable.ui.text import name_seats


def _duration(seconds: float) -> str:
    if seconds >= 90:
        minutes = round(seconds / 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{round(seconds)} s"


def stop_words(stopped: Stopped, names: Sequence[str]) -> str:
    """The sentence that ends a stopped game (no trailing newline)."""
    who = names[stopped.culprit] if stopped.culprit is not None else "A player"
    by = names[stopped.detector] if stopped.detector is not None else "a player"
    detail = name_seats(stopped.detail, names)
    if stopped.reason == Reason.ABANDONED:
        silent = re.search(r"for (\d+(?:\.\d+)?) s\b", stopped.detail)
        if silent:  # a signed abort of an older log says for how long
            how = f"no contact for {_duration(float(silent.group(1)))}"
        else:
            how = "no contact while the game waited on it"
        return f"{who} abandoned the game ({how}; reported by {by})."
    if stopped.reason == Reason.WITHHELD:
        return (
            f"{who} withheld its part of the game: it stayed connected but did not send "
            f"what the game waited for ({detail}; reported by {by})."
        )
    if stopped.reason == Reason.EQUIVOCATION:
        return (
            f"{who} cheated: it signed two different entries for one position. "
            "Both signed entries are in the replay as proof."
        )
    if stopped.reason == Reason.CHEATED:
        return f"{who} cheated: {detail}. The signed message is in the replay as proof."
    return f"The game was stopped: {detail or stopped.reason}."
