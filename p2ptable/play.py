"""Live play entry points behind `host`, `join`, `play` and `resume`.

Each builds a :class:`~p2ptable.net.peer.PeerConfig`, picks a frontend (a person
at the terminal, a bot, or a bot the person watches) and runs the peer loop.  The
CLI only parses arguments and prints what these return; what a person typed
wrong raises ValueError (or LobbyError, ResumeError) with the words to show.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import zmq

from p2ptable.bots import opponent_for
from p2ptable.checks import check_advertise, check_name, check_new_replay, check_seats, check_stats
from p2ptable.engine.api import normalize_options
from p2ptable.frontends import make_frontend
from p2ptable.games import get_game
from p2ptable.games.words import plural
from p2ptable.net import lobby as lobbies
from p2ptable.net.addresses import (
    DEFAULT_PORT,
    address_towards,
    check_port,
    lan_address,
    split_address,
)
from p2ptable.net.discovery import announce_lobby
from p2ptable.net.frontend import Frontend
from p2ptable.net.lobby_frames import KEEP_GOING_WORDS, NO_ESCROW
from p2ptable.net.local_table import BotProcesses, BotsBeside, read_record
from p2ptable.net.peer import Peer, PeerConfig
from p2ptable.net.pending_genesis import (
    PendingGenesis,
    drop_pending,
    load_pending,
    pending_path,
    set_aside,
    unborn,
)
from p2ptable.net.persistence import Resume, ResumeError, load_resume
from p2ptable.net.seat_lock import SeatLock, hold_seat_lock
from p2ptable.play_result import (  # noqa: F401 - every status is play's surface too
    FINISHED,
    LEFT,
    NO_ANSWER,
    PAUSED,
    STOPPED,
    TIMED_OUT,
    PlayResult,
)
from p2ptable.play_result import result_of as _result
from p2ptable.replay.genesis import MAX_CLOCK, escrows_at

LOOPBACK = "127.0.0.1"  # where `play` sits: a table for its own bot peers, on this machine


def _peer(config: PeerConfig, frontend: Frontend, resume: Resume | None = None) -> Peer:
    port = resume.port if resume is not None else config.port
    return _peer_for_port(config, frontend, resume, port)


def _peer_for_port(config: PeerConfig, frontend: Frontend, resume, port: int) -> Peer:  # noqa: ANN001
    try:
        return Peer(config, frontend, resume=resume)
    except zmq.ZMQError as exc:
        if exc.errno == zmq.EADDRINUSE:
            raise ValueError(
                f"port {port} is already in use (another p2ptable, or another program): "
                "choose another with --port, or --port 0 for any free one"
            ) from None
        raise ValueError(f"cannot listen on port {port}: {exc}") from None


def _run(peer: Peer) -> PlayResult:
    # The full-screen table runs the loop in a thread of its own (ui/tui/link.py).
    run_peer = getattr(peer.ui, "run_peer", None)
    status = peer.run() if run_peer is None else run_peer(peer.run)
    ledger = peer.session.ledger if peer.session is not None else None
    result = _result(status, peer.replay_path, ledger).with_hint()
    if peer.session is not None and peer.session.left_for_good:
        result = replace(result, left_for_good=True)
    return result


def host(
    game: str,
    seats: int,
    name: str,
    options: dict[str, str],
    port: int = DEFAULT_PORT,
    code: str | None = None,
    bot: str | None = None,
    replay: Path | None = None,
    bind: str = "0.0.0.0",
    advertise: str | None = None,
    quiet: bool = False,
    announce=print,  # noqa: ANN001 - where to print the join instructions
    stats: Path | None = None,
    bot_delay: float = 0.0,
    on_genesis=None,  # noqa: ANN001 - called with our replay path once it exists
    listed: bool = True,  # announce the table on the LAN (net/discovery.py)
    spectators: bool = False,
    bell: bool = True,  # ring the terminal bell when it becomes our turn (ui/bell.py)
    plain: bool = False,  # the line mode, not the full-screen table
    bots: int = 0,
    bot_kind: str | None = None,
    keep_going: bool = False,
    clock: int | None = None,
    again: dict[int, str] | None = None,
    spectators_talk: bool = False,
    hide_spectators: bool = False,
    rotation: tuple[str, ...] = (),
) -> PlayResult:
    """Open a table and play at seat 0 once every seat is filled; ``bots`` of the
    seats are bot peers started beside us (``bot_kind``, by default the game's
    choice), and people join the rest (``play``: nobody).  ``keep_going``:
    every seat escrows its deck secret among the others (where that applies:
    hidden hands, 3 seats or more; sealed-decks.md section 15).  ``clock``: the
    seconds each person has per decision (bots/clock.py), or no clock; ``again``:
    a rematch's codes by old seat (p2ptable/rematch.py).  ``spectators_talk``:
    spectators may write in their own channel (net/spectator_talk.py);
    ``hide_spectators``: our screen starts with that channel hidden."""
    check_new_replay(replay)
    check_stats(stats, replay)
    check_port(port)
    check_name(name)
    check_seats(game, seats)
    if clock is not None and not 1 <= clock <= MAX_CLOCK:
        raise ValueError(f"--clock must be 1 to {MAX_CLOCK} seconds, not {clock}")
    if spectators_talk and not spectators:
        raise ValueError("--spectators-talk needs --spectators: nobody watches to talk")
    if not 0 <= bots <= seats - 1:
        raise ValueError(f"--bots must be 0 to {seats - 1} (a table of {seats} has you too)")
    the_game = get_game(game)
    opts = normalize_options(the_game, seats, options)
    the_game.initial(seats, opts)  # refuse impossible combinations before anyone joins
    # A code the host chose must be strong; a generated one is.
    if code is None:
        code = lobbies.new_code()
    else:
        lobbies.check_host_code(code)
    advertise = check_advertise(advertise) if advertise is not None else lan_address()
    config = PeerConfig(
        name=name,
        host=True,
        game=the_game.name,
        options=opts,
        seats=seats,
        code=code,
        port=port,
        bind=bind,
        advertise=advertise,
        replay=replay,
        stats=stats,
        spectators=spectators,
        spectators_talk=spectators_talk,
        keep_going=keep_going and escrows_at(the_game, seats),
        clock=clock,
        again=dict(again or {}),
        rotation=rotation,
        bots=bots,
    )
    frontend = make_frontend(bot, quiet, bot_delay, bell, plain, hide_spectators)
    peer = _peer(config, frontend)
    if hasattr(frontend, "run_peer"):
        # what the others must type stays in view on the full-screen table too
        def announce(line: str, printed=announce) -> None:  # noqa: ANN001
            printed(line)
            frontend.say(line)

    # The bot peers beside us: ``bots`` now, and more if the host types `bots`
    # in the lobby (net/lobby_commands.py) for the seats nobody came for; they
    # knock on our own loopback (or the one address we listen on).
    beside = BotsBeside(bot_kind or opponent_for(the_game), bot_delay)
    near = LOOPBACK if bind in ("0.0.0.0", LOOPBACK) else bind

    def more_bots(count: int) -> None:
        beside.start(f"{near}:{peer.transport.port}", code, count)

    def noted(path: Path, then=on_genesis) -> None:  # noqa: ANN001
        beside.note(path)  # resume brings them back
        if then is not None:
            then(path)

    peer.on_genesis = noted
    peer.on_bots = more_bots
    where = f"{advertise}:{peer.transport.port}"
    people = seats - 1 - bots
    timed = f", {clock} s a decision" if clock is not None else ""
    if bots:
        more_bots(bots)
    if people:
        announce(f"Table open: {the_game.title} for {seats} players{timed}. Others join with:")
        announce(f"  p2ptable join {where} --code {code} --name <their name>")
    else:
        announce(f"Table open: {the_game.title} for {seats} players{timed}.")
    if bots and people:
        peers = plural(bots, "bot peer")
        announce(f"Started {peers} for {bots} of the seats; {people} left for people.")
    elif bots:  # `play`: nobody else comes
        peers = plural(bots, "bot peer")
        announce(f"Started {peers} for the other seats; waiting for them to join...")
    if spectators:
        announce(f"Spectators watch with: p2ptable watch {where} --code {code}")
    if spectators_talk:
        announce("Spectators may talk, in a channel of their own (`hide spectators` hides it).")
    if config.keep_going:
        announce(f"{KEEP_GOING_WORDS}.")
    elif keep_going:  # nothing to escrow: a game without hidden hands, or 2 seats
        announce(f"Note: {NO_ESCROW}; this table plays as usual.")
    announcer = announce_lobby(peer, advertise, announce) if listed else None
    result: PlayResult | None = None
    try:
        result = _run(peer)
        kinds = tuple(s.kind for s in beside.procs.seats) if beside.procs else ()
        return replace(result, bots=kinds)
    finally:
        if announcer is not None:
            announcer.close(wait=1.0)  # the goodbye, best effort
        if beside.procs is not None:
            _end_bots(beside.procs, result)


def join(
    address: str,
    code: str,
    name: str,
    bot: str | None = None,
    replay: Path | None = None,
    port: int = 0,
    quiet: bool = False,
    stats: Path | None = None,
    bot_delay: float = 0.0,
    connect_timeout: float = 15.0,
    lifeline: bool = False,
    say=print,  # noqa: ANN001 - where to print "Connecting to ..."
    plain: bool = False,
    listed_table: str = "",
    bell: bool = True,
    again: int | None = None,
    hide_spectators: bool = False,
    rotation: tuple[str, ...] = (),
) -> PlayResult:
    """Join the table at ``address`` (HOST:PORT) and play; ``listed_table``, the
    id of the table picked from the LAN's list, is checked against the host's;
    ``again``: a rematch, our old seat (``code`` is the one derived with the host)."""
    check_new_replay(replay)
    check_stats(stats, replay)
    check_port(port)
    check_name(name)
    host_ip, host_port = split_address(address)
    lobbies.normalize_code(code)
    advertise = address_towards(host_ip)
    bind = "127.0.0.1" if advertise.startswith("127.") else "0.0.0.0"
    config = PeerConfig(
        name=name,
        host=False,
        connect=f"{host_ip}:{host_port}",
        code=code,
        port=port,
        bind=bind,
        advertise=advertise,
        replay=replay,
        stats=stats,
        connect_timeout=connect_timeout,
        lifeline=lifeline,
        listed_table=listed_table,
        again_seat=again,
        rotation=rotation,
    )
    frontend = make_frontend(bot, quiet, bot_delay, bell, plain, hide_spectators)
    peer = _peer(config, frontend)
    if not quiet:
        say(f"Connecting to {address}…")
        if hasattr(frontend, "run_peer"):
            frontend.say(f"Connecting to {address}…")
    return _run(peer)


def play(
    game: str,
    bots: int,
    name: str,
    options: dict[str, str],
    bot_kind: str | None = None,
    you: str | None = None,
    replay: Path | None = None,
    quiet: bool = False,
    bot_delay: float = 0.5,
    bell: bool = True,
    plain: bool = False,
) -> PlayResult:
    """You against ``bots`` local bot peers, each its own process on loopback:
    :func:`host` on loopback with every other seat a bot (``bot_kind``, by default
    the game's choice, ``GamePackage.opponent``); ``you``: a bot at your seat too.

    The bots live as long as this process: if you leave (Ctrl-C, a crash), they
    leave too, and `p2ptable resume REPLAY` brings the whole table back."""
    the_game = get_game(game)
    if not the_game.min_seats <= bots + 1 <= the_game.max_seats:
        low, high = max(1, the_game.min_seats - 1), the_game.max_seats - 1
        raise ValueError(
            f"{the_game.title} takes {the_game.min_seats} to {the_game.max_seats} players: "
            f"--bots must be {low} to {high}, not {bots}"
        )
    return host(
        game,
        bots + 1,
        name,
        options,
        port=0,
        bot=you,
        replay=replay,
        bind=LOOPBACK,
        advertise=LOOPBACK,
        quiet=quiet,
        announce=(lambda _: None) if quiet else print,
        bot_delay=bot_delay,
        listed=False,
        bell=bell,
        plain=plain,
        bots=bots,
        bot_kind=bot_kind,
    )


def _resume_genesis(
    pending: PendingGenesis,
    lock: SeatLock,
    bot: str | None,
    quiet: bool,
    bot_delay: float,
    lifeline: bool,
    bell: bool = True,
    plain: bool = False,
) -> PlayResult:
    """Back in a genesis round our process left before the replay existed."""
    advertise = pending.endpoints[pending.seat].split("//", 1)[1].rsplit(":", 1)[0]
    config = PeerConfig(
        name="",
        host=False,
        bind="127.0.0.1" if advertise.startswith("127.") else "0.0.0.0",
        advertise=advertise,
        lifeline=lifeline,
    )
    frontend = make_frontend(bot, quiet, bot_delay, bell, plain)
    peer = _peer_for_port(config, frontend, pending, pending.port)
    peer.seat_lock = lock
    return _run(peer)


def _end_bots(procs: BotProcesses, result: PlayResult | None) -> None:
    """Every bot process ends; their files go only when the game is over.  When
    our player left for good, the bots play on to the end instead."""
    if result is not None and result.left_for_good:
        procs.detach()
        return
    finished = result is not None and result.status in (FINISHED, STOPPED, PAUSED)
    procs.stop(grace=3.0 if finished else 0.0)
    if result is not None and result.status == FINISHED and procs.all_done():
        procs.clean_up(result.replay)


def resume(
    replay: Path,
    bot: str | None = None,
    quiet: bool = False,
    bot_delay: float = 0.0,
    port: int | None = None,
    lifeline: bool = False,
    announce=print,  # noqa: ANN001 - where to say that a finished game waits for the others
    bell: bool = True,
    plain: bool = False,
) -> PlayResult:
    """Continue a game whose process died (or was left), from its replay and
    secrets files; a `play` table's bots are resumed with it.  Refused while
    another process plays the seat."""
    if port is not None:
        check_port(port)
    if replay.is_dir():
        raise ResumeError(f"{replay} is a folder, not a replay file")
    if not replay.exists() and not pending_path(replay).exists():
        raise ResumeError(f"no replay at {replay}, nor a game beginning there")
    lock = hold_seat_lock(replay)
    try:
        if pending_path(replay).exists() and (not replay.exists() or unborn(replay)):
            pending = load_pending(replay)  # checked before anything is moved
            if replay.exists():
                # Killed as the replay was being made: the pending genesis is
                # the truth (net/pending_genesis.py).
                kept = set_aside(replay)
                announce(
                    f"Note: {replay.name} held no whole entry (the process stopped as it "
                    f"was being made); it was kept as {kept.name}, and the table is "
                    "joined again from the genesis being signed."
                )
            return _resume_genesis(pending, lock, bot, quiet, bot_delay, lifeline, bell, plain)
        state: Resume = load_resume(replay)
        drop_pending(replay)  # the replay holds the genesis: the pending body is done
        record = read_record(replay)
        # A game already over is still resumed, quietly: after a power cut of the
        # whole room another seat's replay may lack the end, and only we can give
        # it; the peer stays until every seat holds the whole log, or a few
        # seconds (net/peer.py, LINGER_SECONDS).
        over = state.ledger.finished or state.ledger.stopped is not None
        endpoint = state.endpoints[state.seat]
        advertise = endpoint.split("//", 1)[1].rsplit(":", 1)[0]
        config = PeerConfig(
            name=state.ledger.seats[state.seat].name,
            host=False,
            bind="127.0.0.1" if advertise.startswith("127.") else "0.0.0.0",
            advertise=advertise,
            lifeline=lifeline,
        )
        if port is not None:
            state = replace(state, port=port)
        if over:
            announce("Checking that every seat holds the whole game (a few seconds)...")
        # A finished seat is asked nothing: a silent bot frontend stands in for a person.
        frontend = make_frontend(bot or "random", True) if over else None
        try:
            peer = _peer(
                config, frontend or make_frontend(bot, quiet, bot_delay, bell, plain), resume=state
            )
        except ValueError:
            if not over:
                raise
            status = FINISHED if state.ledger.stopped is None else STOPPED
            return replace(_result(status, replay, state.ledger), already_over=True)
        peer.seat_lock = lock
        if record is None:
            return replace(_run(peer), already_over=over)
        workdir, seats = record
        procs = BotProcesses(workdir)
        result: PlayResult | None = None
        try:
            procs.resume(seats)
            result = replace(_run(peer), already_over=over, bots=tuple(s.kind for s in seats))
        finally:
            _end_bots(procs, result)
        return result
    finally:
        lock.release()
