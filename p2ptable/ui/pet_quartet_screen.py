"""The Pet Quartet table as text, built from one seat's view (never the full state).

How it works
------------
:func:`render` turns a view (``games/pet_quartet/view.py``) into a screen of at
most :data:`WIDTH` columns, top to bottom: a header (variant, scoring, round, deck),
the Conductors lettered A, B, C... (index 0 is A) with their cards, free places
(``.``), limit and tile, the card drawn and not yet placed, the viewer's own last
drawn card (so it stays on screen however many events follow), then each player's
collection grouped by value (``5 x4*``: four 5s; ``*`` marks a group that scores),
the final-turns state, the recent events (as many as ``rows`` leaves room for), a
line saying what happens now, and the caller's status lines.
:func:`render_final` is the end-of-game screen.  :func:`describe_action_for_menu`
words an action for the numbered menu, with the same Conductor letters.

Everything is laid out as plain text first and styled afterwards (``ui/style.py``),
so ``color=False`` output has no escape codes and columns line up either way.
The actions speak of Conductor 0 (``take 0``); the log phrases and the screen say
"conductor A".  Log phrases say "seat 1" (from 0); the screen says the player's name.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from p2ptable.engine.api import Action
from p2ptable.games.pet_quartet.view import letter
from p2ptable.games.words import a
from p2ptable.ui import menu
from p2ptable.ui.screens import Panes
from p2ptable.ui.style import (  # noqa: F401  (RECENT_LINES: the tests read it here)
    RECENT_LINES,
    Style,
    fit,
    recent_block,
    recent_room,
    wrap_tokens,
)
from p2ptable.ui.text import name_seats, plural, possessive_name, pronoun_name, short_name

WIDTH = 80

VARIANT_WORDS = {"standard": "standard", "maestro": "Maestro tiles", "duet": "Duet tiles"}

#: What each Maestro tile does, short enough for a Conductor's line.
TILE_WORDS = {
    "limit-2": "Maestro tile",
    "bonus-draw": "taker draws a bonus card",
    "return-from-pile": "taker returns one of these cards to the box",
    "return-collected": "taker returns a collected card to the box",
    "take-after-place": "placer may take it at once",
    "pass-left": "taker passes a card to the left",
}


# -- the parts of the screen ---------------------------------------------------------------


def _table_header(view: dict[str, Any]) -> str:
    deck = view["deck_left"]
    parts = [
        "Pet Quartet",
        VARIANT_WORDS.get(view["variant"], view["variant"]),
        f"{view['scoring']} scoring",
        f"round {view['round']}",
        f"deck: {plural(deck, 'card')}" if deck else "deck: empty",
    ]
    return " | ".join(parts)


def _conductor_lines(
    view: dict[str, Any], names: Sequence[str], st: Style, width: int = WIDTH
) -> list[str]:
    tile_kind = "Duet tile" if view["variant"] == "duet" else None
    lines = [st.bold("Conductors")]
    for index, conductor in enumerate(view["conductors"]):
        label = f"  {letter(index)}   "
        if conductor["taken_by"] is not None:
            # A taken Conductor keeps its cards only while its tile is being resolved.
            held = " ".join(str(c) for c in conductor["cards"])
            taken = f"taken by {pronoun_name(view, names, conductor['taken_by'])}"
            lines.append(st.dim(fit(label + taken + (f", with {held}" if held else ""), width)))
            continue
        cards = [str(c) for c in conductor["cards"]]
        slots = " ".join(f"{c:>2}" for c in cards + ["."] * (conductor["limit"] - len(cards)))
        details = f"max {plural(conductor['limit'], 'card')}"
        tile: str = conductor["tile"] or tile_kind or ""  # "": no tile
        if tile == "limit-2" or tile_kind:
            details += f" ({TILE_WORDS.get(tile, tile)})"
        elif tile:
            details += f"; {TILE_WORDS.get(tile, tile)}"
        lines.append(f"{label}{st.bold(slots)}{' ' * (11 - len(slots))}   {details}")
    waiting = view["last_card"]
    if waiting is not None:
        drawn = st.paint(str(waiting), "bold", "yellow")
        lines.append(f"  Drawn card: {drawn} (waiting to be placed)")
    you = view["you"]
    mine = None if you is None else view["last_draws"][you]
    if mine is not None and not (waiting is not None and view["turn_of"] == you):
        lines.append(f"  Your last draw: {a(mine)}.")
    gone = []
    if view["discarded"]:
        gone.append("discarded " + " ".join(str(c) for c in view["discarded"]))
    if view["returned_cards"]:
        gone.append("returned to the box " + " ".join(str(c) for c in view["returned_cards"]))
    text = "Out of play: " + "; ".join(gone)
    return lines + (
        textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="    ") if gone else []
    )


def _collection_tokens(counts: dict[str, int], st: Style) -> list[tuple[str, str]]:
    tokens = []
    for value, n in counts.items():
        if n in (1, 4):
            plain = f"{value} x{n}*"
            tokens.append((plain, st.green(plain)))
        else:
            plain = f"{value} x{n}"
            tokens.append((plain, plain))
    return tokens or [("-", "-")]


def _player_table(
    view: dict[str, Any],
    names: Sequence[str],
    order: Sequence[int],
    statuses: Sequence[str],
    scores: Sequence[int],
    st: Style,
    width: int = WIDTH,
) -> list[str]:
    """One row per seat in ``order``: marker, name, status, points, collection."""
    labels = [
        short_name(n) + (" (you)" if seat == view["you"] else "") for seat, n in enumerate(names)
    ]
    name_w = max([len("Players"), *(len(label) for label in labels)])
    status_w = max([len(s) for s in statuses] + [0])
    indent = 2 + name_w + 2 + (status_w + 2 if status_w else 0) + 6 + 2
    head = "  " + "Players".ljust(name_w) + "  " + (" " * (status_w + 2) if status_w else "")
    scoring = "collection (* scores)" if len(head) + 29 <= width else "collection"
    lines = [st.bold(head + "points  " + scoring)]
    for seat in order:
        marker = "> " if seat == view["turn_of"] and view["phase"] != "over" else "  "
        label = labels[seat]
        styled = st.paint(label, "bold", "cyan") if seat == view["you"] else label
        row = (
            (st.yellow(marker) if marker.strip() else marker)
            + styled
            + " " * (name_w - len(label))
            + "  "
        )
        if status_w:
            status = statuses[seat]
            paint = ("yellow", "bold") if status in ("to play", "winner") else ("dim",)
            row += st.paint(status, *paint) + " " * (status_w - len(status) + 2)
        row += f"{scores[seat]:>6}  "
        tokens = _collection_tokens(view["collections"][seat], st)
        collection = wrap_tokens(tokens, max(12, width - indent))
        lines.append(row + collection[0])
        lines.extend(" " * indent + more for more in collection[1:])
    return lines


def _status(view: dict[str, Any], seat: int) -> str:
    if seat == view["turn_of"] and view["phase"] != "over":
        return "to play"
    for index, conductor in enumerate(view["conductors"]):
        if conductor["taken_by"] == seat:
            return f"out ({letter(index)})"
    return ""


def _final_turns(view: dict[str, Any], names: Sequence[str], width: int = WIDTH) -> list[str]:
    final = view["final_turns"]
    if not final["triggered"] or view["phase"] == "over":
        return []
    drawer = pronoun_name(view, names, final["triggered_by"])
    still = ", ".join(pronoun_name(view, names, s) for s in final["remaining"])
    lines = textwrap.wrap(
        f"End of the game: {drawer} drew the last card; everyone takes one last turn.", width
    )
    if final["remaining"]:
        lines += textwrap.wrap(f"Still to play: {still}.", width)
    return lines


def _now(view: dict[str, Any], names: Sequence[str]) -> str:
    """What happens next, in words."""
    phase, seat = view["phase"], view["turn_of"]
    if phase == "setup-tiles":
        return "Setting up: the Maestro tiles are being dealt."
    if phase == "setup-first":
        return "Setting up: choosing who goes first."
    if phase == "over" or seat is None:
        return "The game is over."
    whose = possessive_name(view, names, seat)
    focus = letter(view["focus"]) if view["focus"] is not None else "?"
    left = pronoun_name(view, names, (seat + 1) % view["seats"])
    todo = {
        "turn": "draw a card, or take a conductor",
        "draw": "a card is being drawn",
        "place": f"place the {view['last_card']} under a conductor",
        "after-place": f"take conductor {focus} now, or leave it",
        "return-from-pile": f"return one card of conductor {focus} to the box",
        "return-collected": "return one collected card to the box",
        "bonus-draw": "a bonus card is being drawn",
        "pass-left": f"give one card to {left}",
        "final": "take a conductor, or pass",
    }.get(phase, phase)
    turn = "last turn" if phase == "final" else "turn"
    return f"{whose} {turn}: {todo}."


# -- the public functions ------------------------------------------------------------------


def render(
    view: dict[str, Any],
    names: Sequence[str],
    recent: Sequence[str],
    status: Sequence[str] = (),
    color: bool = False,
    rows: int | None = None,
    width: int = WIDTH,
) -> str:
    """The live table as ``view``'s seat sees it (no trailing newline), at most
    ``width`` columns wide.

    ``recent`` is the event lines, oldest first; ``rows`` the terminal lines the
    screen may use: the table first, then as many of the latest events as fit (at
    least :data:`~p2ptable.ui.style.MIN_RECENT_LINES`; without ``rows``, the last
    :data:`~p2ptable.ui.style.RECENT_LINES`).
    """
    st = Style(color)
    top = [st.bold(fit(_table_header(view), width)), "-" * width]
    top += _conductor_lines(view, names, st, width)
    top.append("")
    statuses = [_status(view, seat) for seat in range(view["seats"])]
    top += _player_table(view, names, range(view["seats"]), statuses, view["scores"], st, width)
    final = _final_turns(view, names, width)
    if final:
        top += ["", *(st.yellow(line) for line in final)]
    bottom = ["", *(st.bold(line) for line in textwrap.wrap(_now(view, names), width))]
    bottom += [st.yellow(fit(line, width)) for line in status]
    room = recent_room(rows, top, bottom)
    middle = recent_block(recent, lambda r: name_seats(r, names), st, width, room)
    return "\n".join(top + middle + bottom)


def panes(
    view: dict[str, Any], names: Sequence[str], color: bool, width: int, large: bool
) -> Panes:
    """The table in panes for the full-screen table (``ui/tui/``): the board (the
    conductors and their cards, the drawn card, the last turns), the players with
    their collections, your own collection as your hand, and what happens now."""
    st = Style(color)
    board = _conductor_lines(view, names, st, width)
    final = _final_turns(view, names, width)
    board += [st.yellow(line) for line in final]
    statuses = [_status(view, seat) for seat in range(view["seats"])]
    players = _player_table(view, names, range(view["seats"]), statuses, view["scores"], st, width)
    you = view["you"]
    hand = []
    if you is not None:
        tokens = _collection_tokens(view["collections"][you], st)
        hand = [st.bold("Your collection (* scores)")]
        hand += ["  " + line for line in wrap_tokens(tokens, width - 2)]
    return Panes(_table_header(view), board, players, hand, _now(view, names))


def render_final(view: dict[str, Any], names: Sequence[str], color: bool = False) -> str:
    """Final scores, winners first, with how the winner was decided."""
    st = Style(color)
    outcome = view["outcome"]
    scores = outcome["scores"] if outcome else view["scores"]
    winners = outcome["winners"] if outcome else []
    order = sorted(range(view["seats"]), key=lambda s: (s not in winners, -scores[s], s))
    statuses = ["winner" if seat in winners else "" for seat in range(view["seats"])]
    title = f"Pet Quartet | final scores | {view['scoring']} scoring"
    lines = [st.bold(title), "-" * WIDTH]
    lines += _player_table(view, names, order, statuses, scores, st)
    lines.append("")
    if outcome:
        explanation = name_seats(outcome["explanation"], names)
        explanation = explanation[:1].upper() + explanation[1:].rstrip(".") + "."
        lines += [st.bold(line) for line in textwrap.wrap(explanation, WIDTH)]
    else:
        lines.append("The game is not over yet.")
    return "\n".join(lines)


def describe_action_for_menu(
    view: dict[str, Any], action: Action, names: Sequence[str] | None = None
) -> str:
    """``action`` in words for the menu: "take conductor B (3, 5)"."""
    verb, args = action.verb, action.args
    conductors = view["conductors"]

    def pile(index: int) -> str:
        return ", ".join(str(c) for c in conductors[index]["cards"])

    if verb == "draw":
        return "draw a card"
    if verb == "place":
        cards = pile(args[0])
        where = f"with {cards}" if cards else "empty"
        return f"place the {view['last_card']} under conductor {letter(args[0])} ({where})"
    if verb == "take":
        return f"take conductor {letter(args[0])} ({pile(args[0])})"
    if verb == "decline":
        focus = view["focus"]
        return "leave it" if focus is None else f"leave conductor {letter(focus)} where it is"
    if verb == "return":
        if view["phase"] == "return-from-pile" and view["focus"] is not None:
            return f"return {a(args[0])} from conductor {letter(view['focus'])} to the box"
        return f"return {a(args[0])} from your collection to the box"
    if verb == "give":
        seat = view["turn_of"]  # the giver: "pass to the player on your left"
        if names is None or seat is None:
            return f"give {a(args[0])} to the player on your left"
        return f"give {a(args[0])} to {names[(seat + 1) % view['seats']]}"
    if verb == "pass":
        return "pass (take nothing on your last turn)"
    return action.text


def arrange_for_menu(
    view: dict[str, Any], action: Action, words: str, names: Sequence[str]
) -> menu.Placed | None:
    """Where ``action`` goes on the menu (``ui/menu.py``): the conductors a card
    can go under, and those that can be taken, each under one heading."""
    if action.verb == "place":
        head = f"place the {view['last_card']} under conductor"
        return menu.Placed(head, words.removeprefix(head + " "))
    if action.verb == "take":
        return menu.Placed("take conductor", words.removeprefix("take conductor "))
    return menu.Placed("", words)


HELP = """\
Pet Quartet
  Collect soloists (exactly one card of a value) and quartets (exactly four).
  Each scores 1 point; with advanced scoring a soloist scores its value and a
  quartet 4.  Any other number of cards of a value scores nothing.
  On your turn, either draw a card and place it under a conductor with room, or
  take a conductor with all its cards: you are then out until the round ends,
  when every conductor is taken.  Whoever took last starts the next round.
  When the last card is drawn, everyone takes one last turn: take or pass.
The screen
  Conductors are lettered A, B, C...; '.' is a free place under one.
  "5 x4*" means four 5s; * marks a group that scores.  '>' marks whose turn it
  is, "out (B)" a player who took conductor B this round."""
