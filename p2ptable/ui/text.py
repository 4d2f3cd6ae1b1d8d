"""Plain-text lines shared by every command: seats named, results, verify summaries
(the words of each log entry are in ``ui/narrative.py``).

How seats are named for people: the games, the ledger and the error messages speak
of "seat N" with N counted from 0 (the index in the log).  Everything a person reads
goes through :func:`name_seats`, which puts the seat's name in its place, or says
"seat N" counted from 1 (:func:`seat_label`), as the seat list of ``verify`` and the
player lists on the screens number them.  JSON output keeps the 0-based indexes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from p2ptable.engine.api import FIRST, Outcome

# The small English helpers are the games' (their log phrases and menu words use
# them too): named here as well, where the screens look for them.
from p2ptable.games.words import NAME_WIDTH as NAME_WIDTH
from p2ptable.games.words import listed as listed
from p2ptable.games.words import plural as plural
from p2ptable.games.words import possessive_name as possessive_name
from p2ptable.games.words import pronoun_name as pronoun_name
from p2ptable.games.words import short_name as short_name
from p2ptable.replay.entries import READABLE
from p2ptable.replay.kinds import Kind

if TYPE_CHECKING:
    from p2ptable.replay.verify import VerifyReport


_SEAT = re.compile(r"\bseat (\d+)\b")


def seat_label(seat: int) -> str:
    """How a person reads seat index ``seat``: counted from 1 ("seat 1" is index 0)."""
    return f"seat {seat + 1}"


def result_lines(outcome: Outcome, names: Sequence[str]) -> str:
    sign = 1 if outcome.lower_is_better else -1
    ranking = sorted(
        range(len(names)), key=lambda s: (s not in outcome.winners, sign * outcome.scores[s])
    )
    lines = ["", "Final scores:"]
    for seat in ranking:
        star = "  *winner*" if seat in outcome.winners else ""
        lines.append(f"  {names[seat]:<12} {outcome.scores[seat]:>4}{star}")
    if outcome.explanation:
        lines.append(name_seats(outcome.explanation, names))
    return "\n".join(lines)


class Verbatim(str):
    """A line shown as it is: what a person said (table talk), never reworded."""


class SpectatorSaid(Verbatim):
    """A line of the spectators' channel, shown as it is: a screen that can
    mark it apart from a seat's talk (the full-screen table) does."""


def name_seats(textline: str, names: Sequence[str]) -> str:
    """``textline`` with every "seat N" (N from 0) replaced by that seat's name; a
    number that is no seat here becomes "seat N+1" all the same, never a 0-based
    number a person would misread.  A :class:`Verbatim` line is left as it is:
    "seat 2, your move" said at the table is not the log's "seat 2"."""
    if isinstance(textline, Verbatim):
        return textline

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else seat_label(seat)

    return _SEAT.sub(named, textline)


def options_words(options: Iterable[tuple[str, str]], names: Sequence[str]) -> str:
    """Options (name, value pairs) as ``name=value``, sorted; the seat a rematch
    names to play first (engine.api.FIRST, a seat index) as a person counts seats,
    with its name: ``first=seat 2 (Bea)``.  Empty when there are none."""
    words = []
    for name, value in sorted(options):
        if name == FIRST and value.isascii() and value.isdigit() and len(value) < 6:
            seat = int(value)
            who = f" ({names[seat]})" if seat < len(names) else ""
            value = f"{seat_label(seat)}{who}"
        words.append(f"{name}={value}")
    return ", ".join(words)


def verify_summary(path: str, report: VerifyReport) -> str:
    lines = []
    if report.game is not None:
        names = [seat["name"] for seat in report.seats]
        opts = options_words(report.options.items(), names) or "no options"
        lines.append(f"game:    {report.game} ({opts}), {len(report.seats)} seats")
        unnamed = _unnamed_options(report)
        if unnamed:
            said = ", ".join(f"{k}={report.options[k]}" for k in unnamed)
            they, them = ("it", "it") if len(unnamed) == 1 else ("they", "them")
            lines.append(
                f"options: read by default, as the game was played before {they} existed "
                f"(the genesis does not name {them}): {said}"
            )
        if report.protocol is not None:
            lines.append(f"format:  {report.protocol} (this version reads {', '.join(READABLE)})")
        for number, seat in enumerate(report.seats):
            lines.append(f"  {seat_label(number)}: {seat['name']:<12} key {seat['key'][:16]}…")
        lines.append(f"entries: {report.entries} checked")
    if report.result is not None:
        lines.append(f"result:  {result_summary(report)}")
    if report.audited is not None:
        lines.append(
            "hidden:  every shuffle, deal and played card proved; audited with every "
            "seat's secret, every hand at every moment re-checked"
            if report.audited
            else "hidden:  every shuffle, deal and played card proved (no audit: "
            "the seats' secrets are not in the log)"
        )
    for did in report.events:
        if did.kind == Kind.DEPARTURE and did.seat is not None:
            name = report.seats[did.seat]["name"]
            lines.append(
                f"left:    {name} at entry {did.index}, its deck secret in the log and checked "
                "against its deck key; every move of the bot that played for it re-made and checked"
            )
    lines.append(verdict(path, report))
    return "\n".join(lines)


def _unnamed_options(report: VerifyReport) -> list[str]:
    """The options the verified genesis does not list, read with their rule of then
    (replay/genesis.py: a replay written before an option existed)."""
    ledger = report.ledger
    if ledger is None or not ledger.entries:
        return []
    given = ledger.entries[0].body.get("options")
    if not isinstance(given, dict):
        return []
    return [name for name in sorted(report.options) if name not in given]


def result_summary(report: VerifyReport) -> str:
    """The scores and the winners of a finished game: "Ana 6, Ben 7; winner: Ben"."""
    assert report.result is not None
    names = [s["name"] for s in report.seats]
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, report.result["scores"], strict=True))
    winners = " and ".join(names[w] for w in report.result["winners"])
    return f"{scores}; winner: {winners}"


def verdict(path: str, report: VerifyReport) -> str:
    """The last line of ``verify``: VALID, or INVALID with the entry, the reason and
    the cheater when a signature proves who it was."""
    if report.valid:
        return f"{path}: VALID — every signature, random value and rule checks out."
    err = report.error or {}
    names = [s["name"] for s in report.seats]
    reason = name_seats(str(err.get("reason")), names)
    who = ""
    if err.get("culprit") is not None:
        who = f" Cheater: {seat_label(err['culprit'])} ({err.get('culprit_name', '?')})."
    return f"{path}: INVALID at entry {err.get('entry')}: {reason}.{who}"
