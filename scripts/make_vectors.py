#!/usr/bin/env python3
"""Regenerate the test vectors in protocol/vectors/ from the reference implementation.

Run only when the protocol deliberately changes (and bump the protocol version);
tests/replay/test_vectors.py checks that the code still reproduces the committed files.

``replay.json`` holds one entry of each kind built by hand from fixed keys (their
encodings and signatures are the vector; they are not promised to be a legal game),
a complete simulated replay file with the report ``verify`` gives for it, a
``wire`` section (protocol/wire.md): the two seats' X25519 link keys, the link key
they share and one sealed game frame, and a ``sealed`` section (protocol/replay.md
section 9): the two seats' genesis ``deck`` fields for fixed deck secrets, a signed
Vorsicht Lehrer! genesis carrying them, and the first bytes of ``sealed_rand`` for
that game.  The complete file depends on Pet Quartet's rules and bots as well as on
the format: regenerate it when those change on purpose.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.hazmat.primitives.asymmetric.x25519 import (  # noqa: E402
    X25519PrivateKey,
    X25519PublicKey,
)

from p2ptable.crypto.encoding import pack  # noqa: E402
from p2ptable.crypto.links import (  # noqa: E402
    LINK_INFO,
    TAG_LEN,
    TAG_PERSON,
    link_key,
    link_public,
)
from p2ptable.crypto.signing import SigningKey, sha256  # noqa: E402
from p2ptable.net.wire import Message, open_frame, seal  # noqa: E402
from p2ptable.randomness.chain import HashChain  # noqa: E402
from p2ptable.randomness.derive import chance_seed, derive_outcome, uniform_values  # noqa: E402
from p2ptable.replay import choices  # noqa: E402
from p2ptable.replay.entries import (  # noqa: E402
    GAME_ID_DOMAIN,
    PROTOCOL,
    SIG_DOMAIN,
    Entry,
    game_id_of,
    make_body,
    signed_message,
)
from p2ptable.replay.ledger import Ledger  # noqa: E402
from p2ptable.replay.logfile import MAGIC, MAX_FRAME, encode_frame  # noqa: E402
from p2ptable.replay.sealed_book import (  # noqa: E402
    DECK_KEY_DOMAIN,
    RAND_DOMAIN,
    make_deck_key,
    sealed_rand,
)
from p2ptable.replay.verify import verify_bytes  # noqa: E402
from p2ptable.sealed.group import N, scalar_bytes  # noqa: E402
from p2ptable.sim import simulate  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "protocol" / "vectors"


def randomness_vectors() -> dict:
    chain = HashChain(bytes.fromhex("11" * 32), length=4)
    chains = {
        "secret": "11" * 32,
        "length": 4,
        "values_head_first": [chain.head.hex()] + [chain.preimage(i).hex() for i in range(4)],
    }
    game_id = bytes(range(32))
    cases = []
    for step, purpose, n, ranges in [
        (0, "first-player", 4, [4]),
        (1, "draw", 4, [88]),
        (7, "roll", 3, [6, 6, 6]),
        (12, "maestro-tiles", 6, [6, 5, 4, 3, 2, 1]),
        (3, "stress", 2, [2**63 + 1, 2**63 + 1, 2**63 + 1, 2**63 + 1]),
    ]:
        pre = [bytes([0xA0 + seat]) * 32 for seat in range(n)]
        seed = chance_seed(game_id, step, purpose, pre)
        cases.append(
            {
                "game_id": game_id.hex(),
                "step": step,
                "purpose": purpose,
                "preimages": [p.hex() for p in pre],
                "seed": seed.hex(),
                "ranges": ranges,
                "outcome": list(uniform_values(seed, ranges)),
            }
        )
    return {"chain": chains, "chance": cases}


# -- replay.json ------------------------------------------------------------------------

# Fixed identities: seat s signs with the 32-byte RFC 8032 private key (s+1)*32,
# commits to a hash chain of length 4 grown from the secret (0x11*(s+1))*32 and
# holds the X25519 link private key (0x33*(s+1))*32.
NAMES = ("Ana", "Ben")
SIGNING_SEEDS = tuple(bytes([seat + 1]) * 32 for seat in range(2))
CHAIN_SECRETS = tuple(bytes([0x11 * (seat + 1)]) * 32 for seat in range(2))
LINK_PRIVATE = tuple(bytes([0x33 * (seat + 1)]) * 32 for seat in range(2))
CHAIN_LEN = 4
NONCE = bytes(range(16))
OPTIONS = {"scoring": "basic", "variant": "standard"}
REPLAY_SEED = "vector"


def as_json(value: Any) -> Any:
    """A msgpack value as JSON: byte strings become {"bin": hex}, the rest as is."""
    if isinstance(value, bytes):
        return {"bin": value.hex()}
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    return value


def entry_vector(entry: Entry, game_id: bytes, extra: dict[str, Any]) -> dict[str, Any]:
    encoded = entry.encode()
    vector = {
        "kind": entry.kind,
        "body": as_json(entry.body),
        "body_hex": entry.body_bytes.hex(),
        **extra,
        "signatures": [{"seat": seat, "sig": sig.hex()} for seat, sig in entry.sigs],
        "entry_hex": encoded.hex(),
        "entry_hash": entry.hash.hex(),
        "frame_hex": encode_frame(encoded).hex(),
    }
    assert Entry.decode(encoded) == entry
    return vector


def replay_vectors() -> dict:
    keys = [SigningKey(seed) for seed in SIGNING_SEEDS]
    chains = [HashChain(secret, CHAIN_LEN) for secret in CHAIN_SECRETS]
    links = [link_public(private) for private in LINK_PRIVATE]
    seats = [
        {
            "seat": seat,
            "name": NAMES[seat],
            "signing_seed": SIGNING_SEEDS[seat].hex(),
            "public_key": keys[seat].public.hex(),
            "chain_secret": CHAIN_SECRETS[seat].hex(),
            "chain_head": chains[seat].head.hex(),
            "link_public": links[seat].hex(),
        }
        for seat in range(2)
    ]
    everyone = range(2)

    def signed(body: bytes, game_id: bytes) -> tuple[Entry, dict[str, Any]]:
        message = signed_message(game_id, body)
        entry = Entry(body, tuple((seat, keys[seat].sign(message)) for seat in everyone))
        return entry, {"signed_message_hex": message.hex()}

    # Genesis: every seat signs SIG_DOMAIN || game_id || body.
    genesis_body = make_body(
        t="genesis",
        protocol=PROTOCOL,
        game="pet-quartet",
        options=OPTIONS,
        seats=[
            {"name": NAMES[s], "key": keys[s].public, "chain": chains[s].head, "link": links[s]}
            for s in everyone
        ],
        chain_len=CHAIN_LEN,
        nonce=NONCE,
    )
    game_id = game_id_of(genesis_body)
    genesis, extra = signed(genesis_body, game_id)
    vectors = [entry_vector(genesis, game_id, {"game_id": game_id.hex(), **extra})]

    # Chance step 0: each seat reveals chain value s[1]; the entry carries no
    # signature (each value hashes to its seat's chain head in the signed genesis).
    prev = genesis.hash
    pre = [chains[s].preimage(0) for s in everyone]
    outcome = derive_outcome(game_id, 0, "first-player", pre, (2,))
    chance_body = make_body(
        t="chance", i=1, prev=prev, step=0, purpose="first-player", pre=pre, outcome=list(outcome)
    )
    chance = Entry(chance_body, ())
    vectors.append(
        entry_vector(
            chance,
            game_id,
            {"ranges": [2], "seed": chance_seed(game_id, 0, "first-player", pre).hex()},
        )
    )

    # An action by one seat, signed by that seat alone.
    seat = outcome[0]
    action_body = make_body(t="action", i=2, prev=chance.hash, seat=seat, action="draw")
    message = signed_message(game_id, action_body)
    action = Entry(action_body, ((seat, keys[seat].sign(message)),))
    vectors.append(entry_vector(action, game_id, {"signed_message_hex": message.hex()}))

    # A result, signed by every seat (not the result of a real game).
    result_body = make_body(t="result", i=3, prev=action.hash, scores=[1, 3], winners=[1])
    result, extra = signed(result_body, game_id)
    vectors.append(entry_vector(result, game_id, extra))

    # An abort in place of entry 3: seat 0 stops the game, naming seat 1.  A withheld
    # abort carries no evidence; it is the detecting seat's signed word.
    abort_body = make_body(
        t="abort",
        i=3,
        prev=action.hash,
        reason="withheld",
        culprit=1,
        detail="seat 1 withheld its contribution to entry 3",
        evidence=[],
    )
    message = signed_message(game_id, abort_body)
    abort = Entry(abort_body, ((0, keys[0].sign(message)),))
    abort_vector = entry_vector(abort, game_id, {"signed_message_hex": message.hex()})
    # The same accusation as an agreed abort (wire.md 6.8): no signature, and every
    # field a function of what it accuses, so every honest peer writes these bytes.
    agreed_body = make_body(
        t="abort",
        i=3,
        prev=action.hash,
        reason="withheld",
        culprit=1,
        detail="seat 1 did not send its part of entry 3 in time",
        evidence=[],
    )
    agreed_vector = entry_vector(Entry(agreed_body, ()), game_id, {})

    return {
        "about": (
            "protocol/replay.md test vectors. Byte strings are hex; inside 'body' a msgpack "
            "bin value is written {'bin': hex}. The four entries are well-formed, correctly "
            "linked and signed, but they are NOT a legal game (the result is made up); "
            "'abort_instead_of_entry_3' is an alternative last entry, in the signed form "
            "of earlier logs, and 'agreed_abort_instead_of_entry_3' the same accusation "
            "as the unsigned agreed abort peers write now. 'replay' is a "
            "complete game file with the report verify gives for it. 'wire' is the "
            "link key the two seats share and one frame sealed with it (wire.md)."
        ),
        "constants": {
            "magic": MAGIC.hex(),
            "max_frame": MAX_FRAME,
            "protocol": PROTOCOL,
            "game_id_domain": GAME_ID_DOMAIN.hex(),
            "sig_domain": SIG_DOMAIN.hex(),
            "crc32_of_123456789": f"{zlib.crc32(b'123456789'):08x}",
        },
        "seats": seats,
        "chain_len": CHAIN_LEN,
        "entries": vectors,
        "abort_instead_of_entry_3": abort_vector,
        "agreed_abort_instead_of_entry_3": agreed_vector,
        "replay": complete_replay(),
        "wire": wire_vectors(game_id, prev, pre[0]),
        "choices": choices_vectors(game_id, keys, action.hash),
        "pick": pick_vector(game_id, chains, action.hash),
        "sealed": sealed_vectors(),
    }


def pick_vector(game_id: bytes, chains: list[HashChain], prev: bytes) -> dict[str, Any]:
    """A blind pick after the vector game's entry 2 (replay.md section 9.3): a
    chance entry of kind ``pick`` over a 3-card hand (purpose ``steal``), from
    each seat's next chain value s[2]."""
    pre = [chain.preimage(1) for chain in chains]
    outcome = derive_outcome(game_id, 1, "steal", pre, (3,))
    body = make_body(
        t="chance", i=3, prev=prev, step=1, purpose="steal", pre=pre, outcome=list(outcome)
    )
    return {
        "about": (
            "replay.md section 9.3, a blind pick: an ordinary chance entry at index 3, "
            "chance step 1, picking one of the 3 positions of the victim's hand. Then "
            "(not shown: it needs a sealed hand) the victim shuffles its hand if it is "
            "not fresh and hands over the card at that position with a transfer proof."
        ),
        "ranges": [3],
        "seed": chance_seed(game_id, 1, "steal", pre).hex(),
        "entry": entry_vector(Entry(body, ()), game_id, {}),
    }


def choices_vectors(game_id: bytes, keys: list[SigningKey], prev: bytes) -> dict[str, Any]:
    """A secret simultaneous choice after the vector game's entry 2 (replay.md
    section 4, commits and choices): Ana commits to "take", Ben to "risk", each
    with the salt the reference derives from its signing seed and the position,
    then both reveal.  Well formed and correctly signed, not a legal Pet Quartet
    move (no registered game with simultaneous choices has a two-seat vector)."""
    at = 3
    chosen = {0: "take", 1: "risk"}
    salts = {
        s: hashlib.sha256(choices.SALT_DOMAIN + pack([SIGNING_SEEDS[s], game_id, at])).digest()
        for s in chosen
    }

    def part(seat: int, index: int, before: bytes, msg: dict) -> Entry:
        body = make_body(t="part", i=index, prev=before, seat=seat, msg=msg)
        return Entry(body, ((seat, keys[seat].sign(signed_message(game_id, body))),))

    commit_parts = []
    for seat, action in chosen.items():
        preimage = choices.COMMIT_DOMAIN + pack([game_id, at, seat, action, salts[seat]])
        commit = hashlib.sha256(preimage).digest()
        assert commit == choices.commitment(game_id, at, seat, action, salts[seat])
        entry = part(seat, at, prev, {"commit": commit})
        commit_parts.append((seat, action, preimage, entry))
    commits = Entry(
        make_body(
            t="commits",
            i=at,
            prev=prev,
            seats=[0, 1],
            parts=[[e.body["msg"], e.sigs[0][1]] for *_, e in commit_parts],
        ),
        (),
    )
    reveal_parts = [
        part(seat, at + 1, commits.hash, {"action": action, "salt": salts[seat]})
        for seat, action, *_ in commit_parts
    ]
    revealed = Entry(
        make_body(
            t="choices",
            i=at + 1,
            prev=commits.hash,
            seats=[0, 1],
            parts=[e.body["msg"] for e in reveal_parts],  # openings alone (protocol 3)
        ),
        (),
    )
    return {
        "about": (
            "replay.md section 4: a commits entry at index 3 (after the vector game's "
            "action), each seat's signed commit part in it, and the choices entry that "
            "opens it, which holds each seat's opening alone; choice_part is the signed "
            "part a seat sends its opening in (wire only: its signature is evidence "
            "if the opening opens nothing). "
            "commit = SHA-256(commit_domain || canonical([game_id, 3, seat, action, "
            "salt])); salt = SHA-256(salt_domain || canonical([signing_seed, game_id, "
            "3])) in the reference (a verifier never derives it)."
        ),
        "commit_domain": choices.COMMIT_DOMAIN.hex(),
        "salt_domain": choices.SALT_DOMAIN.hex(),
        "seats": [
            {
                "seat": seat,
                "action": action,
                "salt": salts[seat].hex(),
                "commit_preimage_hex": preimage.hex(),
                "commit": entry.body["msg"]["commit"].hex(),
                "commit_part": entry_vector(entry, game_id, {}),
                "choice_part": entry_vector(reveal_parts[seat], game_id, {}),
            }
            for seat, action, preimage, entry in commit_parts
        ],
        "commits": entry_vector(commits, game_id, {}),
        "choices": entry_vector(revealed, game_id, {}),
    }


def wire_vectors(game_id: bytes, prev: bytes, pre: bytes) -> dict[str, Any]:
    """The link key Ana and Ben share in the vector game, and one frame Ana seals for
    Ben: her reveal for chance entry 1 (protocol/wire.md)."""
    publics = [link_public(private) for private in LINK_PRIVATE]
    key = link_key(LINK_PRIVATE[0], publics[0], publics[1], game_id)
    assert key == link_key(LINK_PRIVATE[1], publics[1], publics[0], game_id)
    message = Message(
        "reveal",
        game_id,
        0,
        bytes.fromhex("b007b007b007b007"),
        5,
        {"i": 1, "prev": prev, "step": 0, "pre": pre},
    )
    frame = seal(message, key)
    assert open_frame(frame, game_id, [key, None]) == message
    envelope = pack(
        {
            "k": message.kind,
            "table": message.table,
            "from": message.sender,
            "boot": message.boot,
            "seq": message.seq,
            "d": message.data,
        }
    )
    tag = frame[:TAG_LEN]
    assert frame == tag + envelope
    return {
        "about": (
            "protocol/wire.md: the link key seats 0 and 1 of the vector game share, and "
            "the frame seat 0 sends seat 1 with its reveal for chance entry 1."
        ),
        "tag_person": TAG_PERSON.hex(),
        "link_info": LINK_INFO.hex(),
        "tag_len": TAG_LEN,
        "game_id": game_id.hex(),
        "seats": [
            {
                "seat": seat,
                "link_private": LINK_PRIVATE[seat].hex(),
                "link_public": publics[seat].hex(),
            }
            for seat in range(2)
        ],
        "x25519_shared": X25519PrivateKey.from_private_bytes(LINK_PRIVATE[0])
        .exchange(X25519PublicKey.from_public_bytes(publics[1]))
        .hex(),
        "hkdf_info_hex": (LINK_INFO + b"".join(sorted(publics))).hex(),
        "link_key": key.hex(),
        "message": {
            "kind": message.kind,
            "from": message.sender,
            "boot": message.boot.hex(),
            "seq": message.seq,
            "data": as_json(message.data),
        },
        "envelope_hex": envelope.hex(),
        "tag": tag.hex(),
        "frame_hex": frame.hex(),
    }


# Sealed decks: seat s's deck secret is the scalar (0x44*(s+1))*32 (below the order).
DECK_SECRETS = tuple(int.from_bytes(bytes([0x44 * (seat + 1)]) * 32, "big") for seat in range(2))
SEALED_GAME = "vorsicht-lehrer"
SEALED_OPTIONS = {"teacher-choices": "together", "track": "100"}


def sealed_vectors() -> dict[str, Any]:
    """Ana's and Ben's genesis ``deck`` fields at the vector nonce, the signed
    Vorsicht Lehrer! genesis that carries them, and ``sealed_rand`` for that game
    (protocol/replay.md section 9)."""
    assert all(0 < secret < N for secret in DECK_SECRETS)
    keys = [SigningKey(seed) for seed in SIGNING_SEEDS]
    chains = [HashChain(secret, CHAIN_LEN) for secret in CHAIN_SECRETS]
    links = [link_public(private) for private in LINK_PRIVATE]
    seats = []
    decks = []
    for seat in range(2):
        secret, public = DECK_SECRETS[seat], keys[seat].public
        # As SeatSecrets.deck_key: the proof's nonce comes from sealed_rand, with the
        # table nonce in the place of the game id and the signing key in that of prev.
        data = RAND_DOMAIN + scalar_bytes(secret) + NONCE + public + b"deck-key"
        seed = hashlib.sha512(data).digest()
        deck = make_deck_key(NONCE, public, secret, sealed_rand(secret, NONCE, public, "deck-key"))
        decks.append(deck)
        seats.append(
            {
                "seat": seat,
                "deck_secret": scalar_bytes(secret).hex(),
                "signing_key": public.hex(),
                "deck_key_rand_seed": seed.hex(),
                "deck": as_json(deck),
            }
        )
    body = make_body(
        t="genesis",
        protocol=PROTOCOL,
        game=SEALED_GAME,
        options=SEALED_OPTIONS,
        seats=[
            {
                "name": NAMES[s],
                "key": keys[s].public,
                "chain": chains[s].head,
                "link": links[s],
                "deck": decks[s],
            }
            for s in range(2)
        ],
        chain_len=CHAIN_LEN,
        nonce=NONCE,
    )
    game_id = game_id_of(body)
    message = signed_message(game_id, body)
    genesis = Entry(body, tuple((seat, keys[seat].sign(message)) for seat in range(2)))
    Ledger(genesis)  # the reference accepts it (deck keys and their proofs included)
    genesis_vector = entry_vector(
        genesis, game_id, {"game_id": game_id.hex(), "signed_message_hex": message.hex()}
    )

    # The randomness of Ana's shuffle if it came right after the genesis: keyed by
    # her deck secret, bound to the game id and the hash of the entry before.
    secret, prev, purpose = DECK_SECRETS[0], genesis.hash, "shuffle"
    data = RAND_DOMAIN + scalar_bytes(secret) + game_id + prev + purpose.encode()
    seed = hashlib.sha512(data).digest()
    stream = sealed_rand(secret, game_id, prev, purpose)(96)
    return {
        "about": (
            "protocol/replay.md section 9: each seat's genesis deck field (deck key and "
            "Schnorr proof bound to the nonce and the seat's Ed25519 key) for a fixed "
            "deck secret, a signed vorsicht-lehrer genesis carrying both (well formed "
            "and accepted by the ledger, not the start of a recorded game), and the "
            "first bytes of sealed_rand for that game."
        ),
        "rand_domain": RAND_DOMAIN.hex(),
        "deck_key_domain": DECK_KEY_DOMAIN,
        "nonce": NONCE.hex(),
        "seats": seats,
        "genesis": genesis_vector,
        "sealed_rand": {
            "secret": scalar_bytes(secret).hex(),
            "game_id": game_id.hex(),
            "prev": prev.hex(),
            "purpose": purpose,
            "seed": seed.hex(),
            "first_32_hex": stream[:32].hex(),
            "first_96_hex": stream.hex(),
        },
    }


def complete_replay() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "vector.p2pt"
        simulate("pet-quartet", 2, REPLAY_SEED, path, options=OPTIONS, bots=["random", "random"])
        data = path.read_bytes()
    report = verify_bytes(data).to_json()
    assert report["valid"], report
    return {
        "made_by": (
            'p2ptable.sim.simulate("pet-quartet", 2, "vector", path, '
            'options={"scoring": "basic", "variant": "standard"}, bots=["random", "random"])'
        ),
        "length": len(data),
        "sha256": sha256(data).hex(),
        # The report's fields that the format fixes (the explanation text and the final
        # view are the game's wording, free to change).
        "verify": {
            **{key: report[key] for key in ("valid", "game", "options", "seats", "entries")},
            "result": {key: report["result"][key] for key in ("scores", "winners")},
        },
        "hex": data.hex(),
    }


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Regenerate protocol/vectors/.")
    parser.add_argument("--out", type=Path, default=OUT, help="default: protocol/vectors")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for name, vectors in [
        ("randomness.json", randomness_vectors()),
        ("replay.json", replay_vectors()),
    ]:
        path = out / name
        path.write_text(json.dumps(vectors, indent=2) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
