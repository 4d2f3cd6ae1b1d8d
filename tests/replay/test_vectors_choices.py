"""The secret-choice and blind-pick vectors (protocol/vectors/replay.json,
``choices`` and ``pick``) and the protocol-1 and protocol-2 vectors a protocol-3
reader must still accept.

Issue 14, part 4: "protocol/vectors gets vectors for a commit, a reveal and a pick.  Bump
the protocol version; a replay of the previous version still verifies."  The
commit is recomputed here by hand (hashlib and msgpack only), so the vector pins
the byte layout replay.md section 4 gives, not just the reference code.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2ptable.randomness.derive import chance_seed, uniform_values
from p2ptable.replay import choices
from p2ptable.replay.entries import Entry, bundled_parts
from p2ptable.replay.verify import verify_bytes

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
REPLAY = json.loads((VECTORS / "replay.json").read_text())
LEGACY = json.loads((VECTORS / "replay-p2ptable-1.json").read_text())
SIGNED_CHOICES = json.loads((VECTORS / "replay-p2ptable-2.json").read_text())
CHOICES = REPLAY["choices"]
GAME_ID = bytes.fromhex(REPLAY["entries"][0]["game_id"])
KEYS = [bytes.fromhex(s["public_key"]) for s in REPLAY["seats"]]


def canonical(value) -> bytes:  # noqa: ANN001
    return msgpack.packb(value, use_bin_type=True)


def test_the_commit_is_the_hash_replay_md_gives():
    assert bytes.fromhex(CHOICES["commit_domain"]) == b"p2ptable/commit/v1\x00"
    assert choices.COMMIT_DOMAIN == bytes.fromhex(CHOICES["commit_domain"])
    for seat in CHOICES["seats"]:
        salt = bytes.fromhex(seat["salt"])
        preimage = b"p2ptable/commit/v1\x00" + canonical(
            [GAME_ID, 3, seat["seat"], seat["action"], salt]
        )
        assert preimage.hex() == seat["commit_preimage_hex"]
        assert hashlib.sha256(preimage).hexdigest() == seat["commit"]


def test_the_reference_salt_comes_from_the_signing_seed_and_the_position():
    for seat in CHOICES["seats"]:
        seed = bytes.fromhex(REPLAY["seats"][seat["seat"]]["signing_seed"])
        data = bytes.fromhex(CHOICES["salt_domain"]) + canonical([seed, GAME_ID, 3])
        assert hashlib.sha256(data).hexdigest() == seat["salt"]


def test_each_commit_is_signed_and_the_choices_entry_holds_the_openings_alone():
    # Protocol 3 (replay.md section 4, choices): a commit part carries its seat's
    # signature in the log; a choices entry holds each seat's opening, with no
    # signature, because it opens the signed commit.  The opening travels in a
    # signed part (choice_part), whose signature is evidence only.
    commits = Entry.decode(bytes.fromhex(CHOICES["commits"]["entry_hex"]))
    revealed = Entry.decode(bytes.fromhex(CHOICES["choices"]["entry_hex"]))
    assert (commits.kind, commits.sigs, revealed.kind, revealed.sigs) == (
        "commits", (), "choices", ()
    )  # fmt: skip
    assert revealed.body["prev"] == commits.hash and commits.body["seats"] == [0, 1]
    for seat, part in zip(CHOICES["seats"], bundled_parts(commits.body), strict=True):
        assert part.encode().hex() == seat["commit_part"]["entry_hex"]
        message = b"p2ptable/sig/v1\x00" + GAME_ID + part.body_bytes
        Ed25519PublicKey.from_public_bytes(KEYS[seat["seat"]]).verify(part.sigs[0][1], message)
    assert revealed.body["parts"] == [
        {"action": seat["action"], "salt": bytes.fromhex(seat["salt"])} for seat in CHOICES["seats"]
    ]
    for seat, part in zip(CHOICES["seats"], bundled_parts(revealed.body), strict=True):
        assert part.sigs == ()
        sent = Entry.decode(bytes.fromhex(seat["choice_part"]["entry_hex"]))
        assert sent.body_bytes == part.body_bytes  # the part as sent, less its signature
        message = b"p2ptable/sig/v1\x00" + GAME_ID + sent.body_bytes
        Ed25519PublicKey.from_public_bytes(KEYS[seat["seat"]]).verify(sent.sigs[0][1], message)
        msg = part.body["msg"]
        assert choices.commitment(GAME_ID, 3, seat["seat"], msg["action"], msg["salt"]) == (
            bytes.fromhex(seat["commit"])
        )


def test_the_protocol_2_choices_vector_holds_signed_parts_and_its_replay_verifies():
    # The previous version (replay.md section 10): a choices entry of protocol 2
    # bundles each opening with its seat's signature; a protocol-3 reader still
    # verifies such logs (the recorded replays/vorsicht-lehrer-4p-protocol-2.p2pt
    # has them; this is the vector game).
    old = SIGNED_CHOICES["choices"]
    game_id = bytes.fromhex(SIGNED_CHOICES["entries"][0]["game_id"])
    keys = [bytes.fromhex(s["public_key"]) for s in SIGNED_CHOICES["seats"]]
    revealed = Entry.decode(bytes.fromhex(old["choices"]["entry_hex"]))
    for seat, part in zip(old["seats"], bundled_parts(revealed.body), strict=True):
        assert part.encode().hex() == seat["choice_part"]["entry_hex"]
        message = b"p2ptable/sig/v1\x00" + game_id + part.body_bytes
        Ed25519PublicKey.from_public_bytes(keys[seat["seat"]]).verify(part.sigs[0][1], message)
    assert SIGNED_CHOICES["constants"]["protocol"] == "p2ptable/2"
    report = verify_bytes(bytes.fromhex(SIGNED_CHOICES["replay"]["hex"]))
    assert report.valid, report.error
    assert report.entries == SIGNED_CHOICES["replay"]["verify"]["entries"]


def test_the_protocol_1_replay_vector_still_verifies():
    data = bytes.fromhex(LEGACY["replay"]["hex"])
    assert LEGACY["constants"]["protocol"] == "p2ptable/1"
    report = verify_bytes(data)
    assert report.valid, report.error
    assert report.entries == LEGACY["replay"]["verify"]["entries"]
    assert report.result["scores"] == LEGACY["replay"]["verify"]["result"]["scores"]


def test_the_pick_vector_is_a_chance_entry_over_the_hand_positions():
    pick = REPLAY["pick"]
    entry = Entry.decode(bytes.fromhex(pick["entry"]["entry_hex"]))
    body = entry.body
    assert (entry.kind, entry.sigs, body["purpose"], body["i"], body["step"]) == (
        "chance", (), "steal", 3, 1,
    )  # fmt: skip
    for seat, value in enumerate(body["pre"]):  # s[2] of each chain hashes to s[1]
        previous = REPLAY["entries"][1]["body"]["pre"][seat]["bin"]
        assert hashlib.sha256(b"p2ptable/chain/v1\x00" + value).hexdigest() == previous
    seed = chance_seed(GAME_ID, 1, "steal", body["pre"])
    assert seed.hex() == pick["seed"]
    assert list(uniform_values(seed, pick["ranges"])) == body["outcome"]
    assert 0 <= body["outcome"][0] < 3
