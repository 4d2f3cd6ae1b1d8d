"""What a peer keeps on disk besides its replay: where replays go, the seat's
secrets (owner-only), rebuilding a seat from both for `p2ptable resume`, and the
lock that says a seat is running.

How it works:

* :func:`save_secrets` writes ``NAME.p2pt.secrets`` durably (a temporary file,
  synced, renamed over, and the directory synced): resume depends on it, so a
  power cut leaves the old file or the new one, never half of one.
* :func:`load_resume` checks everything before it changes anything: the secrets
  file (JSON, every field's type and range, and that it is this game's seat), the
  replay (every intact entry verifies), then, only if the LAST record is torn or
  damaged, cuts it off after keeping a copy of the whole file
  (``NAME.p2pt.torn-STAMP``) and says so in :attr:`Resume.notice`.  Damage with
  intact entries after it is refused with the entry index, and nothing on disk is
  changed.  Every problem is a :class:`ResumeError` with a one-line message.
* ``NAME.p2pt.choice`` (net/choice_file.py) keeps our last secret choice durably
  too; :func:`load_resume` reads it back as a hint only, and reports a lost,
  damaged or forged one in :attr:`Resume.notice`.
* :func:`hold_seat_lock` (net/seat_lock.py) takes an exclusive ``flock`` on
  ``NAME.p2pt.lock`` for the life of a running peer; :func:`load_resume` is
  refused while another process holds it.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from p2ptable.net.choice_file import load_choice
from p2ptable.net.events import Seen
from p2ptable.net.resume_error import ResumeError
from p2ptable.net.seat_lock import held_here, hold_seat_lock
from p2ptable.net.session import Choice
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, MalformedEntry
from p2ptable.replay.ledger import Applied, InvalidEntry, Ledger
from p2ptable.replay.seen_cards import append_seeing

MAX_SECRETS_BYTES = 64 * 1024  # a real one is under 1 KiB
_HEX32 = re.compile(r"[0-9a-fA-F]{64}")
_ENDPOINT = re.compile(r"tcp://(\[[0-9a-fA-F:.]+\]|[0-9.]+):([0-9]{1,5})")
_FIELDS = {
    "seat": int,
    "key": str,
    "chain_secret": str,
    "chain_len": int,
    "link": str,
    "deck": str,
    "endpoints": list,
    "port": int,
}


@dataclass(frozen=True)
class Resume:
    """What `p2ptable resume` restores: the log so far and the seat's secrets.

    ``notice`` is a sentence for the player when resuming changed the replay (a
    torn last record was cut off, and where the original was kept); else None."""

    ledger: Ledger
    seat: int
    secrets: authoring.SeatSecrets
    endpoints: list[str]
    port: int
    replay: Path
    notice: str | None = None
    # What the log's entries did, for the screen, with the hidden cards our seat saw move.
    applied: tuple[Applied | Seen, ...] = ()
    boot: int = 1  # the start counter of the run that wrote the secrets
    peer_boots: dict[int, int] = field(default_factory=dict)
    choice: Choice | None = None  # our last secret choice (ChoiceKeeper)
    # The join code, kept by a host that admits spectators, so that a resumed
    # host admits them again (net/arrival.py); None for any other seat.
    spectators_code: str | None = None


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "p2ptable" / "replays"


def replay_path_for(game: str, game_id: bytes, name: str) -> Path:
    """Where a new replay goes by default: the data directory, a name that says
    when, which game and whose seat."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    safe = "".join(c if c.isalnum() else "_" for c in name)
    return data_dir() / f"{stamp}-{game}-{game_id.hex()[:8]}-{safe}.p2pt"


def secrets_path(replay: Path) -> Path:
    return replay.with_name(replay.name + ".secrets")


# -- resuming --------------------------------------------------------------------------


def load_resume(replay: Path) -> Resume:
    """Rebuild a seat from its replay file and secrets file, for `p2ptable resume`.

    A torn or damaged LAST record (the process or the machine died mid-write) is
    cut off after a copy of the file is kept: it was never sent by us (we sync an
    entry we sign before it leaves), and the peers send what it held again.
    Anything else wrong is a ResumeError and the files are left as they were:
    resuming must never build on a log that does not verify, nor lose entries.
    Refused while the seat is running (see :func:`hold_seat_lock`)."""
    from p2ptable.replay.logfile import MAGIC, cut_tail, frame_offsets, parse_frames

    replay = Path(replay)
    if not replay.is_file():
        raise ResumeError(f"no replay file at {replay}")
    probe = None if held_here(replay) else hold_seat_lock(replay)
    try:
        data = _read(replay, "replay", None)
        saved = _read_secrets(secrets_path(replay))
        frames = parse_frames(data)
        payloads, cut, why = frames.payloads, None, ""
        if frames.error is not None:
            error = frames.error
            if not error.tail:
                if not data.startswith(MAGIC):
                    raise ResumeError(f"{replay.name} is not a p2ptable replay: {error.reason}")
                raise ResumeError(
                    f"{replay.name}: entry {error.index} is damaged ({error.reason}) and "
                    "entries follow it, so it is not a torn last record: refusing to "
                    "resume, nothing was changed (`p2ptable verify` shows the damage)"
                )
            cut, why = frames.good_length, f"entry {error.index}: {error.reason}"
        offsets = frame_offsets(payloads)
        entries: list[Entry] = []
        for index, payload in enumerate(payloads):
            try:
                entries.append(Entry.decode(payload))
            except MalformedEntry as exc:
                rest = data[offsets[index] :]
                if payload or rest.count(0) != len(rest):
                    raise ResumeError(
                        f"{replay.name}: entry {index} is malformed ({exc}): refusing to "
                        "resume, nothing was changed"
                    ) from None
                # Zeros to the end: the file's size reached the disk and its data
                # did not (a power cut on some file systems).  A tail like a torn one.
                cut = offsets[index]
                why = f"entry {index}: the file ends in {len(rest)} zero bytes (never written)"
                break
        if not entries:
            raise ResumeError(f"{replay.name} holds no entries (not even the genesis)")
        ledger, seat, secrets, applied = _rebuild(replay, entries, saved)
        if cut is not None:
            copy = cut_tail(replay, cut)
            notice = (
                f"the last record of {replay.name} was incomplete ({why}); it was cut off "
                f"and the original file kept as {copy.name}"
            )
        else:
            notice = None
        endpoints, port = saved["endpoints"], saved["port"]
        peer_boots = {int(k): v for k, v in saved["peer_boots"].items()}
        choice, unread = load_choice(replay)
        if unread is not None:
            notice = unread if notice is None else f"{notice}; {unread}"
        return Resume(
            ledger, seat, secrets, endpoints, port, replay, notice, tuple(applied),
            saved["boot"], peer_boots, choice, saved["spectators"],
        )  # fmt: skip
    finally:
        if probe is not None:
            probe.release()


def _rebuild(
    replay: Path, entries: list[Entry], saved: dict
) -> tuple[Ledger, int, authoring.SeatSecrets, list[Applied | Seen]]:
    """The seat's ledger and secrets, once the secrets are checked against the
    signed genesis (they are this game's, this seat's, and complete)."""
    from p2ptable.crypto.signing import SigningKey
    from p2ptable.randomness.chain import HashChain
    from p2ptable.sealed.group import N

    try:
        public = Ledger(entries[0])
    except InvalidEntry as exc:
        raise ResumeError(f"{replay.name}: the genesis does not verify ({exc})") from None
    seats = public.seats
    seat = saved["seat"]
    if not 0 <= seat < len(seats):
        raise ResumeError(
            f"the secrets file says seat {seat}, but the game has seats 0 to {len(seats) - 1}"
        )
    key = SigningKey(bytes.fromhex(saved["key"]))
    if key.public != seats[seat].key:
        owner = [i for i, s in enumerate(seats) if s.key == key.public]
        if owner:
            raise ResumeError(
                f"the secrets file says seat {seat}, but its key is seat {owner[0]}'s"
            )
        raise ResumeError(
            f"the secrets file belongs to another game or seat (its key is not seat {seat}'s)"
        )
    if saved["chain_len"] != public.chain_len:
        raise ResumeError(
            f"the secrets file's chain_len {saved['chain_len']} is not the game's "
            f"({public.chain_len})"
        )
    chain = HashChain(bytes.fromhex(saved["chain_secret"]), saved["chain_len"])
    if chain.head != seats[seat].chain_head:
        raise ResumeError("the secrets file's chain_secret is not the one seat committed to")
    deck = int(saved["deck"], 16)
    if not 1 <= deck < N:
        raise ResumeError("the secrets file's deck secret is out of range")
    secrets = authoring.SeatSecrets(key, chain, bytes.fromhex(saved["link"]), deck)
    if secrets.link_public != seats[seat].link:
        raise ResumeError("the secrets file's link key is not the one the seat announced")
    _check_endpoints(saved, len(seats))
    try:
        # Our own hidden cards are read again as the log deals them.
        ledger = Ledger(entries[0], readers={seat: deck})
    except InvalidEntry:  # the genesis verified above: only the reader is new
        raise ResumeError(f"the secrets file's deck secret is not seat {seat}'s deck key") from None
    applied: list[Applied | Seen] = []
    for entry in entries[1:]:
        try:
            done, seen = append_seeing(ledger, entry)  # seen: our own cards, read by us
        except InvalidEntry as exc:
            raise ResumeError(
                f"{replay.name}: entry {exc.index} does not verify ({exc.reason}): "
                "refusing to resume, nothing was changed"
            ) from None
        applied.append(done)
        if seen:
            applied.append(Seen(done.index, seen))
    return ledger, seat, secrets, applied


def _check_endpoints(saved: dict, seats: int) -> None:
    endpoints = saved["endpoints"]
    if len(endpoints) != seats:
        raise ResumeError(
            f"the secrets file lists {len(endpoints)} endpoints for a game of {seats} seats"
        )
    for number, endpoint in enumerate(endpoints):
        match = _ENDPOINT.fullmatch(endpoint) if isinstance(endpoint, str) else None
        try:
            if match is None:
                raise ValueError
            ipaddress.ip_address(match[1].strip("[]"))
            port = int(match[2])
        except ValueError:
            raise ResumeError(
                f"the secrets file's endpoint {number} is {endpoint!r}, not tcp://IP:PORT"
            ) from None
        if not 1 <= port <= 65535:
            raise ResumeError(f"the secrets file's endpoint {number} has port {port}")
    port = saved["port"]
    if not 1 <= port <= 65535:
        raise ResumeError(f"the secrets file's port {port} is not 1 to 65535")
    own = endpoints[saved["seat"]]
    if not own.endswith(f":{port}"):
        # The peers connect to our endpoint: binding another port would hang.
        raise ResumeError(f"the secrets file's port {port} is not its own endpoint's ({own})")


def _read(path: Path, what: str, limit: int | None) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read() if limit is None else f.read(limit + 1)
    except FileNotFoundError:
        raise ResumeError(f"no {what} file at {path}") from None
    except OSError as exc:
        raise ResumeError(f"cannot read the {what} file {path}: {exc.strerror}") from None
    if limit is not None and len(data) > limit:
        raise ResumeError(f"the {what} file {path} is too big to be one")
    return data


def _read_secrets(path: Path) -> dict:
    """The secrets file's fields, each of the right type (ResumeError if not)."""
    if not path.exists():
        raise ResumeError(f"no secrets file next to the replay ({path})")
    raw = _read(path, "secrets", MAX_SECRETS_BYTES)
    try:
        saved = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, absurd nesting
        raise ResumeError(f"the secrets file {path.name} is not JSON") from None
    if not isinstance(saved, dict):
        raise ResumeError(f"the secrets file {path.name} is not a JSON object")
    if "deck" not in saved:
        raise ResumeError(
            "the secrets file has no deck secret (it was written by an older p2ptable)"
        )
    _check_fields(saved, path)
    if saved["chain_len"] < 1:
        raise ResumeError(f"the secrets file's chain_len {saved['chain_len']} is not positive")
    _check_later_fields(saved)
    return saved


def _check_fields(saved: dict, path: Path) -> None:
    """Every field a secrets file has always held, of its type (ResumeError if not)."""
    for name, kind in _FIELDS.items():
        if name not in saved:
            raise ResumeError(f"the secrets file {path.name} has no {name!r}")
        value = saved[name]
        # bool is an int to Python, never to us.
        if type(value) is not kind:
            raise ResumeError(f"the secrets file's {name!r} is not a {kind.__name__}")
        if isinstance(value, str) and not _HEX32.fullmatch(value):  # kind is str
            raise ResumeError(f"the secrets file's {name!r} is not 64 hex digits")


def _check_later_fields(saved: dict) -> None:
    """The fields later versions added, each set to what an older file means
    (ResumeError if one is there and wrong)."""
    # The start counters (wire.md 4.5): ours, and the peers' we accepted.  Files
    # written before they existed have neither: 1 and none.
    boot = saved.setdefault("boot", 1)
    if type(boot) is not int or not 1 <= boot < 2**63:
        raise ResumeError("the secrets file's 'boot' is not a start counter")
    peer_boots = saved.setdefault("peer_boots", {})
    if not isinstance(peer_boots, dict) or not all(
        isinstance(k, str) and k.isdigit() and type(v) is int and 0 <= v < 2**63
        for k, v in peer_boots.items()
    ):
        raise ResumeError("the secrets file's 'peer_boots' is not a map of start counters")
    # A host that admits spectators keeps its join code (files of other seats, and
    # of before, have none).
    code = saved.setdefault("spectators", None)
    if code is not None and not (isinstance(code, str) and 0 < len(code) <= 64):
        raise ResumeError("the secrets file's 'spectators' is not a join code")


def save_secrets(
    replay: Path,
    secrets: authoring.SeatSecrets,
    seat: int,
    endpoints: list[str],
    port: int,
    boot: int = 1,
    peer_boots: dict[int, int] | None = None,
    spectators_code: str | None = None,
) -> Path:
    """Store what `p2ptable resume` needs, readable by the owner only, durably: it
    is on disk (under its name) when this returns.  ``boot`` is this seat's start
    counter and ``peer_boots`` the other seats' we accepted (wire.md 4.5): a
    resume starts with ``boot + 1``, saved before any frame is sent.
    ``spectators_code``: a host that admits spectators keeps its join code, so
    its spectators can prove it again to the resumed host (the file is the
    owner's alone, like every secret in it)."""
    from p2ptable.replay.logfile import write_durably

    path = secrets_path(replay)
    data = {
        "seat": seat,
        "key": secrets.key.seed.hex(),
        "chain_secret": secrets.chain.preimage(secrets.chain.length - 1).hex(),
        "chain_len": secrets.chain.length,
        "link": secrets.link.hex(),
        "deck": f"{secrets.deck:064x}",
        "endpoints": endpoints,
        "port": port,
        "boot": boot,
        "peer_boots": {str(k): v for k, v in sorted((peer_boots or {}).items())},
    }
    if spectators_code is not None:
        data["spectators"] = spectators_code
    write_durably(path, json.dumps(data).encode())
    return path
