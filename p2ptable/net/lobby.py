"""Filling a table, sans-IO: the join-code handshake, the roster and the genesis.

Theory of operation
-------------------
The host is only the first contact.  A joiner and the host prove to each other
that they know the join code with SPAKE2 (net/join_code.py), without the code or
anything a guess could be tested against ever crossing the network:

    joiner -> host   knock     {pake: X, endpoint, [again: s]}
    host   -> joiner challenge {re: X, table, game, options, seats, pake: Y,
                                proof: HMAC(C, "host"), bind: 1, [clock]}
    joiner -> host   join      {name, chain, link, deck, proof: HMAC(C, "joiner"), bind: 1}
    host   -> all    roster    {table, members, genesis (empty until full), v, n, tag,
                                [removed], [short]}
    joiner -> host   here      {v, n, tag}   (seated, every second until the genesis)
    host   -> joiner denied    {re: X, reason, wait (refused for the rate)}

(``again``: a rematch's seat, proving the code derived with the host,
p2ptable/rematch.py; ``clock``: the table's seconds per decision; ``removed``
and ``short``: the host removed joiners, or started short-handed,
net/lobby_commands.py.) ``X`` and ``Y`` are the two SPAKE2 messages, ``C`` the
SPAKE2 key bound to the table id and both signing keys
(``join_code.confirmation_key``). The host answers at the knock's ``endpoint``,
which must be on the machine the knock came from; ``re`` ties each answer to the
knock it answers, so a joiner ignores what was meant for another. Every lobby
frame is signed by its sender's key, so once admitted a key cannot be
impersonated, and the key a proof is bound to is the key that signed the frame.
The host shows the table (game, options, seats) to anyone who knocks, but names
seats and endpoints only in the roster, after the joiner proved the code; the
joiner sends nothing about itself but its key and endpoint until the host proved
it. When the roster is full it carries the genesis body, which every member
rebuilds from the roster and checks (including that its own entry is exactly
what it sent) before signing it (``gsig`` over the game mesh).

Bound frames.  A signature can be replayed, so every frame after the handshake
(``roster``, ``here``, and a spectator's ``watching``, ``feed``, ``entries``)
also carries a counter ``n`` and a ``tag`` made with a key from ``C``
(net/lobby_binding.py): a frame recorded and sent again, made for another
handshake, or (at the host) sent from another address than the knock's, is
refused and counted, never acted on.  Only a bound ``here`` keeps a seat.

The roll call.  A joiner that died while seated saved nothing and can never
sign; the host frees a seat it has not heard from for ``SILENT_SEAT`` seconds.
A table that fills within those seconds of a death must not start with the dead
seat in it, so a full table first sends its roster without the genesis, and
proposes the genesis only once every joiner has answered that very roster: a
``here`` that names its number ``v``, which only a process that read it can
sign (an older ``here``, replayed by anyone, names an older number).

What a stranger without the code gets from knocking: the table's description
and one guess at the code per knock the host answers (its own check of the
host's proof tells it the guess was wrong), nothing to test further guesses
against.  The host answers at most 5 knocks per address a minute and 10 a
second in all, fairly (net/knocks.py); a joiner refused for the rate is told how
long to wait and knocks again (``KNOCK_AGAIN`` after silence).  The host keeps
at most ``MAX_PENDING`` unfinished handshakes for ``PENDING_SECONDS``, logs at
most ``LOG_LINES`` rejections per minute, and shows its player one counted line
about strangers at most every 10 s (net/lobby_tally.py), so knocking in a loop
grows nothing.  protocol/wire.md
section 3 has the byte layouts, section 8 what an outsider can and cannot do.
"""

from __future__ import annotations

from p2ptable.net.host_lobby import HostLobby
from p2ptable.net.join_code import CODE_ALPHABET, MIN_CODE
from p2ptable.net.joiner_lobby import JoinerLobby
from p2ptable.net.lobby_frames import (
    HERE_EVERY,
    KNOCK_AGAIN,
    LOBBY_DOMAIN,
    LOG_LINES,
    MAX_NAME,
    MAX_PENDING,
    PENDING_SECONDS,
    SILENT_SEAT,
    LobbyError,
    LobbyIgnored,
    Member,
    WrongCode,
    check_host_code,
    genesis_for,
    new_code,
    normalize_code,
    open_lobby,
    seal_lobby,
)
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry
from p2ptable.replay.genesis import read_genesis

__all__ = [
    "CODE_ALPHABET",
    "HERE_EVERY",
    "KNOCK_AGAIN",
    "LOBBY_DOMAIN",
    "LOG_LINES",
    "MAX_NAME",
    "MAX_PENDING",
    "MIN_CODE",
    "PENDING_SECONDS",
    "SILENT_SEAT",
    "HostLobby",
    "JoinerLobby",
    "LobbyError",
    "LobbyIgnored",
    "WrongCode",
    "Member",
    "check_host_code",
    "genesis_for",
    "new_code",
    "normalize_code",
    "open_lobby",
    "seal_lobby",
    "under_way",
]


def under_way(
    genesis: Entry,
    code: str,
    me: authoring.SeatSecrets,
    endpoint: str,
    members: list[Member],
) -> HostLobby:
    """The lobby of a host that came back (``resume``) to a table admitting
    spectators: every seat is the genesis's and the game is under way, so it
    admits spectators again, with the same code, and tells anyone knocking
    for a seat that the table is full."""
    info = read_genesis(genesis)
    lobby = HostLobby(
        info.game.name,
        dict(info.options),
        len(info.seats),
        code,
        me,
        info.seats[0].name,
        endpoint,
        table=info.nonce,
        spectators=True,
        keep_going=info.keep_going,
        clock=info.clock,
        spectators_talk=info.spectators_talk,
    )
    lobby.members = list(members)
    lobby.genesis = genesis.body_bytes
    return lobby
