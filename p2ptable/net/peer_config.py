"""How a peer is asked to play: the settings `host`, `join` and `play` give it (net/peer.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

# For tests and drills with real processes: seconds of silence after which a seat
# is named as having abandoned the game (5 minutes unless this is set).
ABANDON_ENV = "P2PTABLE_ABANDON_TIMEOUT"


def _abandon_timeout() -> float:
    value = os.environ.get(ABANDON_ENV, "")
    try:
        return max(1.0, float(value)) if value else 300.0
    except ValueError:
        return 300.0


@dataclass
class PeerConfig:
    name: str
    host: bool
    game: str = ""
    options: dict = field(default_factory=dict)
    seats: int = 0
    connect: str = ""  # host address for joiners, "ip:port"
    code: str = ""
    port: int = 0
    bind: str = "0.0.0.0"
    advertise: str = "127.0.0.1"
    replay: Path | None = None
    stats: Path | None = None
    timeout: float = 1800.0  # give up on a table that does not fill (the game has no limit)
    connect_timeout: float = 15.0  # a joiner gives up when the host does not answer
    # A bot peer started by `play`: its stdin is a pipe from the person's process,
    # and end-of-file on it means that process is gone, so this seat leaves too
    # (and can be resumed with it; play.py).
    lifeline: bool = False
    withhold_timeout: float = 20.0
    abandon_timeout: float = field(default_factory=_abandon_timeout)
    spectators: bool = False  # host --spectators: watchers may follow the log (gallery.py)
    # host --spectators-talk: they may write in their own channel (net/spectator_talk.py)
    spectators_talk: bool = False
    keep_going: bool = False  # host --keep-going: escrowed deck secrets (issue 27)
    clock: int | None = None  # host --clock: seconds per decision (bots/clock.py)
    bots: int = 0  # host --bots (and play): bot peers started beside the host, coming
    # A rematch (p2ptable/rematch.py): the host's codes by old seat, a joiner's old seat.
    again: dict[int, str] = field(default_factory=dict)
    again_seat: int | None = None
    rotation: tuple[str, ...] = ()  # a rematch's first players in turn (net/rotation.py)
    listed_table: str = ""  # a joiner's table id as the LAN's list announced it, if picked
