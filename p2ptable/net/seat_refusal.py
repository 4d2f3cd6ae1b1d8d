"""Why a joiner who proved the join code takes no seat: the host's checks of a
``join`` (net/lobby_messages.py), pure, in the order a person reads them (their
p2ptable, the table, their name, then their endpoint and keys).

Every refusal is words for the joiner's screen (the host denies with them);
only a join no p2ptable sends (no chain head) is a LobbyError, counted as a
bad frame.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2ptable.crypto.links import is_usable_link
from p2ptable.net.lobby_binding import BIND_VERSION
from p2ptable.net.lobby_frames import MAX_NAME, LobbyError, Member
from p2ptable.net.lobby_messages import Join, printable_name
from p2ptable.replay.sealed_book import parse_deck_key

# A join or watch without `bind` comes from a p2ptable of before lobby frames
# were bound to the handshake (lobby_binding.py): its frames would all be refused.
OLDER = "the host's p2ptable is newer than yours: update p2ptable to join this table"


def seat_refusal(
    members: Sequence[Member], table: bytes, full: bool, key: bytes, join: Join, endpoint: str
) -> str | None:
    """Why the joiner with ``key``, answering at ``endpoint``, takes no seat at
    ``table`` (seated: ``members``), or None: it may sit."""
    if join.bind != BIND_VERSION:
        return OLDER
    if full:
        return "the table is full"
    name = join.name
    if not (isinstance(name, str) and printable_name(name)):
        return f"a name must be 1..{MAX_NAME} printable characters"
    if any(m.name.casefold() == name.casefold() for m in members):
        return f"the name {name!r} is taken"
    return _keys_refusal(members, table, key, join, endpoint)


def _keys_refusal(
    members: Sequence[Member], table: bytes, key: bytes, join: Join, endpoint: str
) -> str | None:
    """Why a joiner's endpoint or keys cannot sit at this table, or None."""
    chain, link = join.chain, join.link
    if not (isinstance(chain, bytes) and len(chain) == 32):
        raise LobbyError("join without a chain head")
    if any(m.endpoint == endpoint for m in members):
        return f"the endpoint {endpoint} is already at the table"
    if not is_usable_link(link):
        return "the link key is not a usable X25519 public key"
    if any(m.key == key or m.chain == chain or m.link == link for m in members):
        return "key, randomness chain or link key already at the table"
    try:
        deck_key = parse_deck_key(join.deck, table, key)
    except ValueError as exc:
        return f"deck key: {exc}"
    # Members' keys were checked when they joined; a point has one encoding.
    if any(m.deck and m.deck["key"] == deck_key.to_bytes() for m in members):
        return "deck key already at the table"
    return None
