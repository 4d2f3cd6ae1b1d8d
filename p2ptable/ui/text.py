"""Plain-text lines shared by every command: event lines, results, verify summaries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2ptable.engine.api import Outcome

if TYPE_CHECKING:
    from p2ptable.replay.ledger import Applied, Ledger
    from p2ptable.replay.verify import VerifyReport


def seat_name(names: Sequence[str], seat: int | None) -> str:
    return "chance" if seat is None else names[seat]


def event_line(applied: Applied, ledger: Ledger) -> str:
    """One narrative line: index, who, what."""
    names = [s.name for s in ledger.seats]
    text = name_seats(applied.text, names)
    if applied.kind in ("result", "abort", "secrets"):
        return f"{applied.index:5d}  {applied.kind:<9} {text}"
    if applied.kind == "open":  # a deal: the line names the receivers already
        return f"{applied.index:5d}  deal      {text}"
    if applied.kind == "chance" or applied.seat is None:
        return f"{applied.index:5d}  {applied.kind:<9} {text}"
    return f"{applied.index:5d}  {names[applied.seat]:<9} {text}"


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


def name_seats(textline: str, names: Sequence[str]) -> str:
    """``textline`` with every "seat N" replaced by that seat's name."""
    # Games speak of "seat N"; people read names.  Replace longest numbers first.
    for seat in sorted(range(len(names)), reverse=True):
        textline = textline.replace(f"seat {seat}", names[seat])
    return textline


def verify_summary(path: str, report: VerifyReport) -> str:
    lines = []
    if report.game is not None:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(report.options.items()))
        lines.append(f"game:    {report.game} ({opts}), {len(report.seats)} seats")
        for number, seat in enumerate(report.seats):
            lines.append(f"  seat {number}: {seat['name']:<12} key {seat['key'][:16]}…")
        lines.append(f"entries: {report.entries} checked")
    if report.result is not None:
        names = [s["name"] for s in report.seats]
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, report.result["scores"], strict=True))
        winners = " and ".join(names[w] for w in report.result["winners"])
        lines.append(f"result:  {scores}; winner: {winners}")
    if report.audited is not None:
        lines.append(
            "hidden:  every shuffle, deal and played card proved; audited with every "
            "seat's secret, every hand at every moment re-checked"
            if report.audited
            else "hidden:  every shuffle, deal and played card proved (no audit: "
            "the seats' secrets are not in the log)"
        )
    if report.valid:
        lines.append(f"{path}: VALID — every signature, random value and rule checks out.")
    else:
        err = report.error or {}
        who = ""
        if err.get("culprit") is not None:
            who = f" Cheater: seat {err['culprit']} ({err.get('culprit_name', '?')})."
        lines.append(f"{path}: INVALID at entry {err.get('entry')}: {err.get('reason')}.{who}")
    return "\n".join(lines)
