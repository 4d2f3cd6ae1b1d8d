"""What a replay page holds (``p2ptable export --format html``): the log and its pictures.

How it works
------------
:func:`page_data` takes a log that verified (``ui/record.check``) and reads it once
more through a ledger, as ``show`` does: with every seat's deck secret when the log
is audited, with the exporting seat's own (below) or none otherwise.  After every
entry it asks the game for its views, exactly the ones the terminal screens draw
from (``game.view(state, seat)``):

* ``public``: ``view(state, None)``, what everyone saw;
* ``seat-k``: ``view(state, k)``, what seat k knew then (its own hand; a seat's view
  never holds another seat's cards, so reading it from the audit's state shows no
  more than that seat's own ledger would have);
* ``all``: the public view with every seat's hand (audited logs only).

With ``seat``, the page has the public view and that seat's only: from the audit's
secrets, or, in a log that is not audited (a game cut short), from the exporting
seat's own secrets file next to the replay (:func:`own_deck_secret`, refused when it
is not there).  Without ``seat`` a log that is not audited has the public view only.

Each view is drawn by ``ui/svg_table.py`` as a few SVG fragments; a fragment is
stored once and every entry of every view lists the fragments it is made of, so the
board that every view shares, or a hand that did not change, costs its bytes once.  The words are
``ui/narrative.py``'s: the public sentence for every view, and, where a view could
read a hidden card the entry moved, that view's own sentence ("[Gift 2]").

The table's talk kept beside the replay (``REPLAY.talk``, the lines that check,
as ``export``'s text has them: ui/record.py) goes in as ``talk``: for each
entry, the lines said after it (a line said when the log held ``at`` entries
is shown at entry ``at - 1``), with the speaker's name.  The page sets them as
text, never as markup.  Without talk the data has no ``talk`` at all.

The page re-checks the signatures and links itself, so the entries go in as they are
in the file (base64), never re-encoded.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from p2ptable.games import get_game
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.seen_cards import moved_cards
from p2ptable.replay.verify import secrets_in_log
from p2ptable.ui import seat_secret
from p2ptable.ui.narrative import entry_words, genesis_words
from p2ptable.ui.record import Checked, RecordRefused, Said, talk_beside
from p2ptable.ui.svg_table import WIDTH, draw, height


def page_data(checked: Checked, seat: int | None = None) -> dict[str, Any]:
    """The page's data for a checked log: header, entries, views, pictures, words."""
    report, payloads, names = checked.report, checked.payloads, checked.names
    game = get_game(str(report.game))
    hidden = bool(getattr(game, "hidden_hands", False))
    secrets = secrets_in_log(list(payloads)) if hidden and report.audited else None
    readers = dict(enumerate(secrets)) if secrets else {}
    if seat is not None and hidden and secrets is None:  # the exporting seat's own secret
        readers = {seat: own_deck_secret(checked, seat)}
    views = _views(names, hidden, bool(readers), seat)
    ledger = Ledger(Entry.decode(payloads[0]), readers=readers)
    moment = getattr(game, "moment", None)
    name_card = getattr(game, "card_name", None) or (lambda c: f"card {c}")
    pieces: dict[str, int] = {}
    frames: dict[str, list[list[int]]] = {v["id"]: [] for v in views}
    words = [genesis_words(names, game.title).sentence]
    own_words: dict[str, dict[str, str]] = {v["id"]: {} for v in views}
    moments: list[str | None] = [None]
    most = [0]  # the most cards in one hand, for the audit picture's height
    _picture(game, ledger, names, views, pieces, frames, most)
    for payload in payloads[1:]:
        entry = Entry.decode(payload)
        moments.append(None if moment is None else moment(ledger.state))
        book = ledger.book
        applied = ledger.append(entry)
        words.append(entry_words(applied, names).sentence)
        if readers and book is not None and ledger.book is not None:
            for v in views:
                sees = _readers_of(v["id"], readers)
                if not sees:
                    continue
                moved = moved_cards(book, ledger.book, sees, entry, applied.seat)
                if moved:
                    seen = {s: [name_card(c) for c in cards] for s, cards in moved.items()}
                    text = entry_words(applied, names, seen).sentence
                    if text != words[-1]:
                        own_words[v["id"]][str(applied.index)] = text
        _picture(game, ledger, names, views, pieces, frames, most)
    data = {
        "game": game.name,
        "title": game.title,
        "names": names,
        "options": dict(report.options),
        "audited": bool(report.audited),
        "ends": checked.ends,
        "head": ledger.head.hex(),
        "entries": [base64.b64encode(p).decode("ascii") for p in payloads],
        "views": views,
        "pieces": sorted(pieces, key=pieces.__getitem__),
        "frames": frames,
        "width": WIDTH,
        "heights": {v["id"]: height(v["id"], len(names), most[0]) for v in views},
        "words": words,
        "own_words": {k: v for k, v in own_words.items() if v},
        "moments": moments,
    }
    talk = _talk_by_entry(talk_beside(checked, ledger), len(payloads) - 1)
    if talk:
        data["talk"] = talk
    return data


def _talk_by_entry(talk: tuple[Said, ...], last: int) -> dict[str, list[dict[str, str]]]:
    """The lines of talk by the entry they are shown at (``at - 1``), each
    seat's in its order (the text export's order, ui/record.py)."""
    out: dict[str, list[dict[str, str]]] = {}
    for said in sorted(talk, key=lambda s: s.at):
        at = str(min(max(said.at - 1, 0), last))
        out.setdefault(at, []).append({"name": said.name, "text": said.text})
    return out


def own_deck_secret(checked: Checked, seat: int) -> int:
    """Seat ``seat``'s deck secret from its secrets file next to the replay
    (``REPLAY.secrets``, which a seat keeps to resume), for a log that holds no
    secrets; RecordRefused unless the file is there and its secret is behind that
    seat's deck key in the signed genesis (ui/seat_secret.py)."""
    try:
        return seat_secret.own_deck_secret(checked.path, checked.payloads[0], checked.names, seat)
    except seat_secret.NoOwnSecret as exc:
        name = checked.names[seat]
        raise RecordRefused(
            f"cannot show what {name} saw: the log holds no deck secrets (every seat "
            f"publishes its own at the end of the game), and {exc}; export it without --seat"
        ) from None


def _views(names: list[str], hidden: bool, readable: bool, seat: int | None) -> list[dict]:
    """Which views the page offers, in the order its switch lists them."""
    if not hidden:  # every card is face up: a seat knows what everyone knows
        return [{"id": "public", "label": "Everyone (every card is face up)"}]
    public = {"id": "public", "label": "Everyone (public)"}
    seats = [{"id": f"seat-{k}", "label": f"{name}'s view"} for k, name in enumerate(names)]
    if seat is not None:  # a seat sharing the game as it saw it (the audit's or its own secret)
        return [public, seats[seat]]
    if not readable:  # no secret to read any hand with
        return [public]
    return [public, *seats, {"id": "all", "label": "Every card (audit)"}]


def _readers_of(view_id: str, readers: Mapping[int, int]) -> dict[int, int]:
    """The seats whose hidden cards a view may name."""
    if view_id == "all":
        return dict(readers)
    if view_id.startswith("seat-"):
        k = int(view_id.removeprefix("seat-"))
        return {k: readers[k]} if k in readers else {}
    return {}


def table_views(game: Any, state: Any, seats: int, view_id: str) -> dict[str, Any]:
    """The view a page's view id stands for, from the game's own view function."""
    if view_id == "public":
        return game.view(state, None)
    if view_id == "all":
        whole = dict(game.view(state, None))
        whole["hands"] = [game.view(state, k).get("hand") for k in range(seats)]
        return whole
    return game.view(state, int(view_id.removeprefix("seat-")))


def _picture(game, ledger, names, views, pieces, frames, most) -> None:  # noqa: ANN001
    """Append the table after the ledger's last entry to every view's frames."""
    for v in views:
        view = table_views(game, ledger.state, len(names), v["id"])
        for hand in view.get("hands") or ():
            most[0] = max(most[0], len(hand or ()))
        ids = []
        for fragment in draw(view, names, finished=ledger.finished):
            if fragment not in pieces:
                pieces[fragment] = len(pieces)
            ids.append(pieces[fragment])
        frames[v["id"]].append(ids)


__all__ = ["RecordRefused", "page_data", "table_views"]
