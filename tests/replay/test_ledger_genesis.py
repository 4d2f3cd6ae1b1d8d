"""The ledger's admission rules: which genesis starts a game and which entry comes next.

Specification tests for protocol/replay.md sections 4 (entry bodies) and 6
(validation): the genesis, every later kind of entry, abort entries, and the rule
that a refused entry changes nothing.  Each test says the rule it checks.
Entries are built by hand (``pack`` and the seats' keys) so that exactly one thing
is wrong with each of them.
"""

from __future__ import annotations

import hashlib
import os

import msgpack
import pytest
from nacl.bindings import (
    crypto_core_ed25519_scalar_add,
    crypto_core_ed25519_scalar_mul,
    crypto_core_ed25519_scalar_reduce,
    crypto_scalarmult_ed25519_base_noclamp,
)

from p2ptable.crypto.encoding import pack
from p2ptable.crypto.signing import SigningKey, verify_signature
from p2ptable.engine.api import Action
from p2ptable.replay import authoring
from p2ptable.replay.entries import (
    PROTOCOL,
    Entry,
    MalformedEntry,
    game_id_of,
    make_body,
    sign_body,
    signed_message,
)
from p2ptable.replay.ledger import MAX_CHAIN_LEN, InvalidEntry, Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.replay.verify import verify_bytes
from p2ptable.sim import simulate

SEED = b"ledger-spec"
CHAIN_LEN = 8
NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus")
OPTIONS = {"scoring": "basic", "variant": "standard"}


def secrets(n: int = 2, chain_len: int = CHAIN_LEN) -> list[authoring.SeatSecrets]:
    return [authoring.SeatSecrets.from_seed(SEED, seat, chain_len) for seat in range(n)]


def genesis_fields(seats: list[authoring.SeatSecrets], **changes) -> dict:
    fields = {
        "t": "genesis",
        "protocol": PROTOCOL,
        "game": "pet-quartet",
        "options": dict(OPTIONS),
        "seats": [
            {"name": NAMES[i], "key": s.key.public, "chain": s.chain.head, "link": s.link_public}
            for i, s in enumerate(seats)
        ],
        "chain_len": CHAIN_LEN,
        "nonce": bytes(range(16)),
    }
    fields.update(changes)
    return fields


def signed_genesis(fields: dict, keys: list[SigningKey], order=None) -> Entry:
    """``fields`` packed (with no shape check) and signed by ``keys`` in ``order``."""
    body = pack(fields)
    message = signed_message(game_id_of(body), body)
    order = range(len(keys)) if order is None else order
    return Entry(body, tuple((seat, keys[seat].sign(message)) for seat in order))


def genesis(n: int = 2, **changes) -> Entry:
    seats = secrets(n)
    return signed_genesis(genesis_fields(seats, **changes), [s.key for s in seats])


def refused(entry: Entry, match: str) -> InvalidEntry:
    """The genesis is refused as entry 0; nobody is blamed (no move was made yet)."""
    with pytest.raises(InvalidEntry, match=match) as info:
        Ledger(entry)
    assert info.value.index == 0
    assert info.value.culprit is None
    assert info.value.reason.startswith("genesis: ")
    return info.value


# -- a good genesis ------------------------------------------------------------------------


def test_a_well_formed_genesis_starts_the_game():
    # "The game id is SHA-256(GAME_ID_DOMAIN || genesis body)"; the genesis is entry 0
    # and the next entry links to its hash.
    entry = genesis()
    ledger = Ledger(entry)
    assert ledger.game_id == game_id_of(entry.body_bytes)
    assert ledger.game_id != entry.hash  # the id leaves the signatures out
    assert ledger.next_index == 1
    assert ledger.head == entry.hash
    assert ledger.options == OPTIONS
    assert [s.name for s in ledger.seats] == ["Ana", "Ben"]
    assert ledger.expected().kind == "chance"  # Pet Quartet starts by choosing a player


@pytest.mark.parametrize("chain_len", [1, MAX_CHAIN_LEN])
def test_chain_len_bounds_are_inclusive(chain_len):
    # "chain_len must be 1..65536"
    assert Ledger(genesis(chain_len=chain_len)).chain_len == chain_len


# -- who is at the table -------------------------------------------------------------------


def test_duplicate_chain_heads_are_refused():
    # "The genesis is rejected if two seats have the same chain head": a copied chain
    # would make one seat's random contributions a copy of another's.
    seats = secrets()
    fields = genesis_fields(seats)
    fields["seats"][1]["chain"] = fields["seats"][0]["chain"]
    refused(signed_genesis(fields, [s.key for s in seats]), "share a randomness chain head")


def test_duplicate_keys_are_refused():
    # "... or the same key": one identity may hold only one seat.
    seats = secrets()
    fields = genesis_fields(seats)
    fields["seats"][1]["key"] = fields["seats"][0]["key"]
    refused(signed_genesis(fields, [seats[0].key, seats[0].key]), "share a public key")


def test_duplicate_link_keys_are_refused():
    # Two seats with one X25519 link key would share a wire key with everyone alike:
    # each seat's link key must be its own.
    seats = secrets()
    fields = genesis_fields(seats)
    fields["seats"][1]["link"] = fields["seats"][0]["link"]
    refused(signed_genesis(fields, [s.key for s in seats]), "share a link key")


def test_duplicate_names_are_refused():
    # Names tell seats apart on screens and in verify reports: they must differ.
    seats = secrets()
    fields = genesis_fields(seats)
    fields["seats"][1]["name"] = "Ana"
    refused(signed_genesis(fields, [s.key for s in seats]), "share a name")


K32, C32, L32 = bytes(32), bytes([1]) * 32, bytes([2]) * 32
EXACTLY = "seat 0 must have exactly name, key, chain and link"


def seat_item(**changes) -> dict:
    return {"name": "Ana", "key": K32, "chain": C32, "link": L32, **changes}


@pytest.mark.parametrize(
    "seat, match",
    [
        ("not a map", EXACTLY),
        ({"name": "Ana", "key": K32, "chain": C32}, EXACTLY),
        (seat_item(colour="red"), EXACTLY),
        (seat_item(name=""), "seat 0 name must be 1..32"),
        (seat_item(name="x" * 33), "seat 0 name must be 1..32"),
        (seat_item(name="A\nna"), "seat 0 name must be 1..32"),
        (seat_item(name=b"Ana"), "seat 0 name must be 1..32"),
        (seat_item(key=bytes(31)), "seat 0 key must be 32 bytes"),
        (seat_item(key="00" * 32), "seat 0 key must be 32 bytes"),
        (seat_item(chain=bytes(33)), "seat 0 chain head must be 32"),
        (seat_item(link=bytes(31)), "seat 0 link key must be 32 bytes"),
        (seat_item(link="02" * 32), "seat 0 link key must be 32 bytes"),
    ],
    ids=[
        "not-a-map",
        "missing-link",
        "extra-field",
        "empty-name",
        "long-name",
        "unprintable-name",
        "name-as-bytes",
        "short-key",
        "key-as-text",
        "long-chain-head",
        "short-link",
        "link-as-text",
    ],
)
def test_malformed_seats_are_refused(seat, match):
    # "seats[i] is a map with exactly name (1..32 printable characters), key (32-byte
    # Ed25519 public key), chain (32-byte chain head) and link (32-byte X25519 key)."
    seats = secrets()
    fields = genesis_fields(seats)
    fields["seats"][0] = seat
    refused(signed_genesis(fields, [s.key for s in seats]), match)


def test_a_32_character_name_is_allowed():
    seats = secrets()
    fields = genesis_fields(seats)
    fields["seats"][0]["name"] = "é" * 32  # characters, not bytes
    assert Ledger(signed_genesis(fields, [s.key for s in seats])).seats[0].name == "é" * 32


@pytest.mark.parametrize("n", [0, 1, 7])
def test_seat_count_outside_the_games_range_is_refused(n):
    # Pet Quartet "takes 2 to 6 players".
    seats = secrets(n)
    fields = genesis_fields(seats)
    refused(signed_genesis(fields, [s.key for s in seats]), "takes 2 to 6 players")


# -- signatures ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "order", [[0], [], [0, 1, 2], [1, 0], [0, 0], [0, 0, 1]], ids=lambda o: str(o)
)
def test_genesis_needs_one_signature_per_seat_in_seat_order(order):
    # "needs exactly one signature from each seat, in seat order": missing, extra,
    # repeated or reordered signatures are all refused, even if each one is valid.
    seats = secrets(3)
    fields = genesis_fields(seats[:2])
    refused(signed_genesis(fields, [s.key for s in seats], order), "exactly one signature")


def test_a_bad_genesis_signature_names_the_seat():
    # Every seat signs SIG_DOMAIN || game id || body; a signature that does not verify
    # under the key the seat itself lists is refused, naming that seat.
    seats = secrets()
    stranger = SigningKey(bytes([7]) * 32)
    entry = signed_genesis(genesis_fields(seats), [seats[0].key, stranger])
    refused(entry, r"bad signature from seat 1 \(Ben\)")


def test_a_signature_of_another_genesis_is_refused():
    # The signed message contains the game id, and the id covers the nonce: a
    # signature made for one game is useless in another, even with the same seats.
    seats = secrets()
    keys = [s.key for s in seats]
    mine = signed_genesis(genesis_fields(seats), keys)
    other = signed_genesis(genesis_fields(seats, nonce=bytes(16)), keys)
    spliced = Entry(mine.body_bytes, (mine.sigs[0], other.sigs[1]))
    refused(spliced, r"bad signature from seat 1 \(Ben\)")


# Ed25519 order of the base point (RFC 8032), for the libsodium edge cases below.
ED25519_L = 2**252 + 27742317777372353535851937790883648493


def test_a_small_order_key_is_refused_even_with_a_matching_signature():
    # Signatures are checked with libsodium's rules (replay.md section 5), which
    # refuse small-order public keys.  With the identity point as its key, the
    # signature R = identity, S = 0 satisfies the verification equation for every
    # message, so a verifier that allowed such keys would accept it.
    seats = secrets()
    identity = bytes([1]) + bytes(31)
    fields = genesis_fields(seats)
    fields["seats"][1]["key"] = identity
    body = pack(fields)
    message = signed_message(game_id_of(body), body)
    entry = Entry(body, ((0, seats[0].key.sign(message)), (1, identity + bytes(32))))
    assert not verify_signature(identity, identity + bytes(32), message)
    refused(entry, r"bad signature from seat 1 \(Ben\)")


def test_a_non_canonical_s_is_refused():
    # S must be below the group order: S + L is the same scalar but not the same
    # signature, so it is refused (no signature has two valid encodings).
    seats = secrets()
    good = signed_genesis(genesis_fields(seats), [s.key for s in seats])
    seat, sig = good.sigs[1]
    s_plus_l = (int.from_bytes(sig[32:], "little") + ED25519_L).to_bytes(32, "little")
    refused(Entry(good.body_bytes, (good.sigs[0], (seat, sig[:32] + s_plus_l))), "seat 1")
    Ledger(good)


def test_a_signature_without_the_domain_is_refused():
    # Signatures are over SIG_DOMAIN || game id || body, not over the body alone.
    seats = secrets()
    good = signed_genesis(genesis_fields(seats), [s.key for s in seats])
    bare = seats[0].key.sign(good.body_bytes)
    refused(Entry(good.body_bytes, ((0, bare), good.sigs[1])), r"bad signature from seat 0")


# -- what is being played ------------------------------------------------------------------


def test_unknown_game_is_refused():
    refused(genesis(game="chess"), "unknown game 'chess'")


@pytest.mark.parametrize("protocol", ["p2ptable/4", "p2ptable/1 ", "p2ptable/0", ""])
def test_wrong_protocol_is_refused(protocol):
    # The genesis names the protocol version; a peer refuses any it does not read.
    known = r"\(p2ptable/1, p2ptable/2, p2ptable/3\)"
    refused(genesis(protocol=protocol), r"is not one this version reads " + known)


def test_a_protocol_1_genesis_is_read_with_the_legacy_value_of_newer_options():
    # Issue 14: "Bump the protocol version; a replay of the previous version still
    # verifies."  Vorsicht Lehrer!'s teacher-choices came with protocol 2; a
    # protocol-1 genesis does not list it, and was played in turn.
    from p2ptable.replay.genesis import read_genesis

    seats = [authoring.SeatSecrets.from_seed(b"legacy", i, 8) for i in range(2)]
    body = dict(
        t="genesis", protocol="p2ptable/1", game="vorsicht-lehrer", options={"track": "200"},
        seats=[{"name": n, "key": s.key.public, "chain": s.chain.head, "link": s.link_public,
                "deck": s.deck_key(bytes(16))} for n, s in zip(("Ana", "Ben"), seats, strict=True)],
        chain_len=8, nonce=bytes(16),
    )  # fmt: skip
    raw = make_body(**body)
    entry = authoring.assemble_genesis(raw, [authoring.sign_genesis(raw, s) for s in seats])
    assert read_genesis(entry).options == {"teacher-choices": "in-turn", "track": "200"}
    # In protocol 2 every option must be listed, the new one too.
    raw = make_body(**{**body, "protocol": "p2ptable/2"})
    entry = authoring.assemble_genesis(raw, [authoring.sign_genesis(raw, s) for s in seats])
    refused(entry, "options must list every option explicitly")


def test_a_genesis_without_an_option_that_came_later_is_read_with_its_before_value():
    # Issue 23: Teacher's Pet's rulings became options; a genesis written before
    # lists none of them (whatever its protocol) and was played with the rulings
    # of then, so it is read with each option's ``before`` value.  Partly listed,
    # the listed ones count.
    from p2ptable.games.teachers_pet.rulings import BEFORE
    from p2ptable.replay.genesis import read_genesis

    seats = [authoring.SeatSecrets.from_seed(b"before", i, 8) for i in range(2)]
    body = dict(
        t="genesis", protocol="p2ptable/3", game="teachers-pet", options={},
        seats=[{"name": n, "key": s.key.public, "chain": s.chain.head, "link": s.link_public,
                "deck": s.deck_key(bytes(16))} for n, s in zip(("Ana", "Ben"), seats, strict=True)],
        chain_len=8, nonce=bytes(16),
    )  # fmt: skip
    for given, read in (
        ({}, BEFORE.options()),
        ({"tie": "shared"}, {**BEFORE.options(), "tie": "shared"}),
    ):
        raw = make_body(**{**body, "options": given})
        entry = authoring.assemble_genesis(raw, [authoring.sign_genesis(raw, s) for s in seats])
        assert read_genesis(entry).options == read


@pytest.mark.parametrize(
    "n, options, match",
    [
        (2, {**OPTIONS, "speed": "fast"}, "no option 'speed'"),
        (2, {"scoring": "basic", "variant": "turbo"}, "variant must be one of"),
        (2, {"scoring": "basic", "variant": 1}, "variant must be one of"),
        (3, {"scoring": "basic", "variant": "duet"}, "duet variant is for 2 players"),
    ],
    ids=["unknown-option", "invalid-value", "value-not-text", "duet-with-3"],
)
def test_bad_options_are_refused(n, options, match):
    # Options are checked by the game itself, including combinations only the set-up
    # refuses ("the duet variant is for 2 players").
    refused(genesis(n, options=options), match)


def test_duet_with_three_players_is_a_verify_error_not_a_crash():
    # Regression: Ledger used to let the game's BadOptions escape from set-up, so
    # `verify` crashed on such a file instead of reporting it.
    report = verify_bytes(
        MAGIC + encode_frame(genesis(3, options={"scoring": "basic", "variant": "duet"}).encode())
    )
    assert not report.valid
    assert report.error["entry"] == 0
    assert "duet" in report.error["reason"]


@pytest.mark.parametrize(
    "options", [{}, {"variant": "standard"}, {"scoring": "basic"}], ids=["none", "one", "other"]
)
def test_options_must_be_listed_explicitly(options):
    # "options must list every option explicitly": defaults may change between
    # versions, the replay must not.
    refused(genesis(options=options), "options must list every option explicitly")


@pytest.mark.parametrize("length", [0, 15, 17, 32])
def test_nonce_must_be_16_bytes(length):
    refused(genesis(nonce=bytes(length)), "nonce must be 16 bytes")


@pytest.mark.parametrize("chain_len", [-1, 0, MAX_CHAIN_LEN + 1])
def test_chain_len_out_of_range_is_refused(chain_len):
    refused(genesis(chain_len=chain_len), "chain_len must be 1..65536")


def test_the_first_entry_must_be_a_genesis():
    seats = secrets()
    body = pack({"t": "action", "i": 0, "prev": bytes(32), "seat": 0, "action": "draw"})
    entry = sign_body(game_id_of(body), body, {0: seats[0].key})
    refused(entry, "the first entry must be a genesis, not action")


@pytest.mark.parametrize(
    "changes, match",
    [
        ({"extra": 1}, r"unexpected \['extra'\]"),
        ({"chain_len": "8"}, "genesis.chain_len must be int"),
        ({"chain_len": True}, "genesis.chain_len must be int"),
        ({"nonce": "00" * 16}, "genesis.nonce must be bytes"),
        ({"t": "prologue"}, "unknown entry kind 'prologue'"),
    ],
    ids=["extra-field", "chain-len-text", "chain-len-bool", "nonce-text", "unknown-kind"],
)
def test_a_malformed_genesis_is_refused_when_decoded(changes, match):
    # Shape comes first: a body with the wrong fields or field types never reaches
    # the ledger's rules; verify reports it as a malformed genesis at entry 0.
    entry = genesis(**changes)
    with pytest.raises(MalformedEntry, match=match):
        Entry.decode(entry.encode())
    report = verify_bytes(MAGIC + encode_frame(entry.encode()))
    assert (report.valid, report.error["entry"]) == (False, 0)
    assert report.error["reason"].startswith("malformed genesis")
    # A Ledger given such an entry directly (never decoded) refuses it the same way:
    # an InvalidEntry at index 0, not a MalformedEntry escaping from the body.
    refused(entry, f"genesis: malformed: .*{match}")


def test_a_genesis_body_that_is_not_msgpack_is_refused():
    refused(Entry(b"\xc1", ()), "genesis: malformed: body: malformed msgpack")


# -- the entries after the genesis ---------------------------------------------------------


@pytest.fixture
def ledger() -> Ledger:
    """A fresh 2-seat game: the first chance step (who goes first) is pending."""
    return Ledger(genesis())


def good_chance(ledger: Ledger) -> Entry:
    seats = secrets()
    values = {s: authoring.reveal(ledger, s, seats[s]) for s in range(2)}
    return authoring.chance_entry(ledger, values)


def action_by(ledger: Ledger, seat: int, text: str, **changes) -> Entry:
    fields = {"t": "action", "i": ledger.next_index, "prev": ledger.head, "seat": seat}
    fields.update(action=text, **changes)
    body = pack(fields)
    return sign_body(ledger.game_id, body, {seat: secrets()[seat].key})


def rejected(ledger: Ledger, entry: Entry, match: str, culprit: int | None = None) -> None:
    index = ledger.next_index
    with pytest.raises(InvalidEntry, match=match) as info:
        ledger.append(entry)
    assert (info.value.index, info.value.culprit) == (index, culprit)


def at_first_action(ledger: Ledger) -> int:
    """Advance past the first chance step; return the seat to act."""
    ledger.append(good_chance(ledger))
    expected = ledger.expected()
    assert expected.kind == "action"
    return expected.seat


def test_an_entry_with_the_wrong_index_is_rejected(ledger):
    # "i is the entry's position in the log": a duplicated or reordered entry fails.
    seat = at_first_action(ledger)
    for wrong in (ledger.next_index + 1, ledger.next_index - 1, 0):
        rejected(ledger, action_by(ledger, seat, "draw", i=wrong), "claims to be entry")


def test_an_entry_with_the_wrong_prev_is_rejected(ledger):
    # "prev is the SHA-256 of the previous entry's encoding".
    seat = at_first_action(ledger)
    previous = ledger.entries[-2].hash  # the genesis: one entry too far back
    for wrong in (bytes(32), previous, ledger.game_id):
        entry = action_by(ledger, seat, "draw", prev=wrong)
        rejected(ledger, entry, "does not link to the previous entry's hash")


def test_a_second_genesis_is_rejected(ledger):
    # A log has exactly one genesis, at index 0.
    rejected(ledger, ledger.entries[0], "a second genesis entry")
    rejected(ledger, genesis(nonce=bytes(16)), "a second genesis entry")


def test_an_entry_of_the_wrong_kind_is_rejected(ledger):
    # The rules say a chance step is pending: a correctly signed action is refused.
    rejected(ledger, action_by(ledger, 0, "draw"), "expected a chance entry, found action")


def test_an_action_out_of_turn_is_rejected_without_blame(ledger):
    # Only the seat whose turn it is may act; the other seat's valid signature on an
    # out-of-turn action is not itself proof of cheating (it may be a race).
    seat = at_first_action(ledger)
    rejected(ledger, action_by(ledger, 1 - seat, "draw"), "acted out of turn")


def test_an_illegal_action_names_its_signer(ledger):
    # "when a valid signature proves who wrote it, the culprit seat".
    seat = at_first_action(ledger)
    rejected(ledger, action_by(ledger, seat, "take 99"), "illegal action", culprit=seat)
    rejected(ledger, action_by(ledger, seat, "draw  "), "illegal action", culprit=seat)


def test_an_action_with_a_bad_signature_blames_nobody(ledger):
    # Anyone can write a seat number: without a valid signature nobody is proven guilty.
    seat = at_first_action(ledger)
    body = pack(
        {"t": "action", "i": ledger.next_index, "prev": ledger.head, "seat": seat, "action": "x"}
    )
    forged = Entry(body, ((seat, secrets()[1 - seat].key.sign(body)),))
    rejected(ledger, forged, f"bad signature \\(claimed by seat {seat}\\)")
    unsigned = Entry(body, ())
    rejected(ledger, unsigned, f"exactly one signature, by seat {seat}")


def test_a_non_canonical_body_is_rejected(ledger):
    # "Every body must be the canonical encoding": the same map with its keys in
    # another order is a different byte string, so it is refused even when signed.
    seat = at_first_action(ledger)
    fields = {"t": "action", "seat": seat, "i": ledger.next_index, "prev": ledger.head}
    fields["action"] = "draw"
    body = msgpack.packb(fields, use_bin_type=True)  # insertion order, not sorted
    assert body != pack(fields)
    entry = sign_body(ledger.game_id, body, {seat: secrets()[seat].key})
    rejected(ledger, entry, "malformed: body: not in canonical form")
    with pytest.raises(MalformedEntry, match="canonical"):
        Entry.decode(entry.encode())


def test_a_non_canonical_entry_wrapper_is_rejected(ledger):
    # The outer [body, sigs] array is canonical too: here the seat number is a uint8
    # (0xcc 0x00) instead of a positive fixint.
    seat = at_first_action(ledger)
    entry = action_by(ledger, seat, "draw")
    encoded = entry.encode()
    fixint = bytes([0x92, seat, 0xC4, 0x40])
    sneaky = encoded.replace(fixint, bytes([0x92, 0xCC, seat, 0xC4, 0x40]), 1)
    assert sneaky != encoded
    with pytest.raises(MalformedEntry, match="canonical"):
        Entry.decode(sneaky)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"t": "vote"}, "unknown entry kind 'vote'"),
        ({"note": "hi"}, r"unexpected \['note'\]"),
        ({"i": "2"}, "action.i must be int"),
        ({"seat": True}, "action.seat must be int"),
        ({"prev": bytes(31)}, "prev must be a 32-byte hash"),
    ],
    ids=["unknown-kind", "extra-field", "index-as-text", "seat-as-bool", "short-prev"],
)
def test_a_malformed_body_is_rejected(ledger, change, match):
    seat = at_first_action(ledger)
    fields = {"t": "action", "i": ledger.next_index, "prev": ledger.head, "seat": seat}
    fields.update(action="draw", **change)
    entry = sign_body(ledger.game_id, pack(fields), {seat: secrets()[seat].key})
    rejected(ledger, entry, f"malformed: .*{match}")


def test_a_body_missing_a_field_is_rejected(ledger):
    seat = at_first_action(ledger)
    fields = {"t": "action", "i": ledger.next_index, "prev": ledger.head, "action": "draw"}
    entry = sign_body(ledger.game_id, pack(fields), {seat: secrets()[seat].key})
    rejected(ledger, entry, r"missing \['seat'\]")


def test_randomness_chains_run_out_after_chain_len_steps():
    # "Chance step t consumes s[t+1]": with chain_len 1 there is exactly one step.
    seats = secrets(chain_len=1)
    ledger = Ledger(signed_genesis(genesis_fields(seats, chain_len=1), [s.key for s in seats]))
    ledger.append(
        authoring.chance_entry(ledger, {s: authoring.reveal(ledger, s, seats[s]) for s in range(2)})
    )
    seat = ledger.expected().seat
    ledger.append(action_by(ledger, seat, "draw"))
    expected = ledger.expected()
    assert (expected.kind, expected.step_number) == ("chance", 1)
    pre = [bytes(32), bytes(32)]
    body = pack(
        {
            "t": "chance",
            "i": ledger.next_index,
            "prev": ledger.head,
            "step": 1,
            "purpose": expected.chance.purpose,
            "pre": pre,
            "outcome": [0],
        }
    )
    rejected(ledger, Entry(body, ()), "chains exhausted")


def test_a_chance_entry_with_signatures_is_rejected(ledger):
    # "chance: sigs must be empty": the values are authenticated by the seats' hash
    # chains, so a signature adds nothing and is refused, even a valid one.
    good = good_chance(ledger)
    signature = secrets()[0].key.sign(signed_message(ledger.game_id, good.body_bytes))
    rejected(ledger, Entry(good.body_bytes, ((0, signature),)), "carries no signatures")
    sigs = tuple(
        (seat, secrets()[seat].key.sign(signed_message(ledger.game_id, good.body_bytes)))
        for seat in range(2)
    )
    rejected(ledger, Entry(good.body_bytes, sigs), "carries no signatures")
    ledger.append(good)


def test_a_value_off_its_chain_blames_nobody(ledger):
    # "A preimage off its chain in a log has no culprit": nobody signed the chance
    # entry, so whoever wrote the log made the value up; the seat is not to blame.
    body = good_chance(ledger).body
    for seat in range(2):
        pre = list(body["pre"])
        pre[seat] = bytes(32)
        entry = Entry(pack({**body, "pre": pre}), ())
        rejected(ledger, entry, f"the value for seat {seat} is not on its chain", culprit=None)


def test_a_value_must_be_the_next_one_down_the_chain(ledger):
    # "Chance step t consumes s[t+1]": an older value (the head itself) or a later one
    # (s[t+2]) does not hash to the chain tip and is refused.
    body = good_chance(ledger).body
    chain = secrets()[0].chain
    for wrong in (chain.head, chain.preimage(1)):
        pre = [wrong, body["pre"][1]]
        entry = Entry(pack({**body, "pre": pre}), ())
        rejected(ledger, entry, "the value for seat 0 is not on its chain")


# -- a rejected entry changes nothing ------------------------------------------------------


def snapshot(ledger: Ledger) -> tuple:
    return (
        ledger.state,
        ledger.head,
        ledger.next_index,
        list(ledger.chain_tips),
        ledger.chance_steps,
        ledger.result,
        ledger.expected(),
    )


def bad_chances(ledger: Ledger) -> list[Entry]:
    seats = secrets()
    good = good_chance(ledger)
    body = good.body
    wrong_outcome = pack({**body, "outcome": [(body["outcome"][0] + 1) % 2]})
    off_chain = pack({**body, "pre": [body["pre"][0], bytes(32)]})
    signature = seats[0].key.sign(signed_message(ledger.game_id, good.body_bytes))
    return [
        Entry(good.body_bytes, ((0, signature),)),  # a chance entry carries no signatures
        Entry(pack({**body, "pre": body["pre"][:1]}), ()),  # a value missing
        Entry(wrong_outcome, ()),  # outcome not the derived one
        Entry(off_chain, ()),  # a value off its chain
        Entry(pack({**body, "pre": [body["pre"][1], body["pre"][0]]}), ()),  # swapped
        Entry(pack({**body, "step": 1}), ()),  # wrong step number
        Entry(pack({**body, "purpose": "draw"}), ()),  # wrong purpose
        Entry(pack({**body, "i": 2}), ()),  # wrong index
        Entry(b"\xc1", ()),  # not msgpack at all
        ledger.entries[0],  # a second genesis
    ]


def test_rejected_chance_entries_leave_the_ledger_unchanged(ledger):
    # "A rejected entry leaves the ledger unchanged, so a live peer can keep going
    # after bad input": after every refusal the correct entry is still accepted.
    before = snapshot(ledger)
    for bad in bad_chances(ledger):
        with pytest.raises(InvalidEntry):
            ledger.append(bad)
        assert snapshot(ledger) == before
        assert len(ledger.entries) == len(ledger.hashes) == 1
    applied = ledger.append(good_chance(ledger))
    assert (applied.index, applied.kind) == (1, "chance")
    assert ledger.chance_steps == 1 and ledger.next_index == 2


def test_rejected_actions_leave_the_ledger_unchanged(ledger):
    seat = at_first_action(ledger)
    before = snapshot(ledger)
    bad = [
        action_by(ledger, seat, "take 99"),  # illegal
        action_by(ledger, 1 - seat, "draw"),  # out of turn
        action_by(ledger, seat, "draw", i=5),  # wrong index
        action_by(ledger, seat, "draw", prev=bytes(32)),  # wrong link
        Entry(action_by(ledger, seat, "draw").body_bytes, ()),  # unsigned
    ]
    for entry in bad:
        with pytest.raises(InvalidEntry):
            ledger.append(entry)
        assert snapshot(ledger) == before
    legal = ledger.game.legal_actions(ledger.state, seat)
    assert Action("draw") in legal
    applied = ledger.append(action_by(ledger, seat, "draw"))
    assert (applied.index, applied.kind, applied.seat) == (2, "action", seat)


# -- the end of the game -------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_payloads(tmp_path_factory) -> list[bytes]:
    path = tmp_path_factory.mktemp("ledger") / "game.p2pt"
    simulate("pet-quartet", 2, "ledger-spec", path, bots=["random"] * 2)
    return parse_frames(path.read_bytes()).payloads


def replayed(payloads: list[bytes]) -> Ledger:
    ledger = Ledger(Entry.decode(payloads[0]))
    for payload in payloads[1:]:
        ledger.append(Entry.decode(payload))
    return ledger


def test_nothing_may_follow_the_result(finished_payloads):
    # "after result: nothing": the result entry closes the log.
    ledger = replayed(finished_payloads)
    assert ledger.finished and ledger.expected().kind == "none"
    sim_keys = [authoring.SeatSecrets.from_seed(b"ledger-spec", s).key for s in range(2)]
    body = pack(
        {"t": "action", "i": ledger.next_index, "prev": ledger.head, "seat": 0, "action": "draw"}
    )
    entry = sign_body(ledger.game_id, body, {0: sim_keys[0]})
    rejected(ledger, entry, "entry after the game's result")
    result = Entry.decode(finished_payloads[-1]).body
    again = pack({**result, "i": ledger.next_index, "prev": ledger.head})
    rejected(ledger, sign_body(ledger.game_id, again, dict(enumerate(sim_keys))), "after")


def test_the_result_needs_every_seat_in_order(finished_payloads):
    # "result: signed by every seat", in seat order, over SIG_DOMAIN || game id || body.
    ledger = replayed(finished_payloads[:-1])
    last = Entry.decode(finished_payloads[-1])
    before = snapshot(ledger)
    for sigs in (last.sigs[:1], last.sigs[::-1], last.sigs + last.sigs[:1]):
        rejected(ledger, Entry(last.body_bytes, sigs), "one signature from each seat")
    forged = (last.sigs[0], (1, last.sigs[0][1]))
    rejected(ledger, Entry(last.body_bytes, forged), r"bad result signature \(claimed by seat 1")
    assert snapshot(ledger) == before
    ledger.append(last)
    assert ledger.finished


# -- stopping the game: abort entries ------------------------------------------------------


def abort_by(ledger: Ledger, detector: int, key: SigningKey | None = None, **changes) -> Entry:
    """An abort written by ``detector`` (default: naming the other seat, withheld)."""
    fields = {
        "t": "abort",
        "i": ledger.next_index,
        "prev": ledger.head,
        "reason": "withheld",
        "culprit": 1 - detector,
        "detail": "spec",
        "evidence": [],
    }
    fields.update(changes)
    signer = key if key is not None else secrets()[detector].key
    return sign_body(ledger.game_id, pack(fields), {detector: signer})


def test_an_abort_stops_the_game_whatever_was_expected(ledger):
    # "abort: one signature, by a seat, naming another seat"; it may come at any
    # point (here a chance step is pending) and nothing may follow it.
    chance = good_chance(ledger)
    applied = ledger.append(abort_by(ledger, 0))
    assert (applied.kind, applied.seat) == ("abort", 1)
    stopped = ledger.stopped
    assert (stopped.index, stopped.reason, stopped.culprit, stopped.detector) == (
        1,
        "withheld",
        1,
        0,
    )
    assert stopped.proved is False  # a withheld abort is the detector's word only
    assert ledger.expected().kind == "none"
    rejected(ledger, chance, "claims to be entry 1")  # the abort took its place
    rejected(
        ledger, Entry(pack({**chance.body, "i": 2, "prev": ledger.head}), chance.sigs), "stopped"
    )
    rejected(ledger, abort_by(ledger, 1), "entry after the game was stopped")


@pytest.mark.parametrize(
    "changes, match",
    [
        ({"culprit": 0}, "must name another seat"),
        ({"culprit": 2}, "must name another seat"),
        ({"culprit": -1}, "must name another seat"),
        ({"reason": "sore-loser"}, "unknown abort reason 'sore-loser'"),
        ({"evidence": [b"proof"]}, "a withheld abort carries no evidence"),
        ({"reason": "abandoned", "evidence": [b"proof"]}, "abandoned abort carries no evidence"),
        (
            {"reason": "bad-reveal", "evidence": [bytes(32), bytes(64)]},
            "unknown abort reason 'bad-reveal'",
        ),
    ],
    ids=[
        "names-itself",
        "names-no-seat",
        "negative-seat",
        "unknown-reason",
        "withheld-evidence",
        "abandoned-evidence",
        "bad-reveal-is-gone",
    ],
)
def test_a_false_accusation_blames_its_signer(ledger, changes, match):
    # Once the abort's signature is valid, whatever is wrong with it is its signer's.
    before = snapshot(ledger)
    rejected(ledger, abort_by(ledger, 0, **changes), match, culprit=0)
    assert snapshot(ledger) == before and ledger.stopped is None


def test_an_abort_needs_one_valid_signature_by_a_seat(ledger):
    stranger = SigningKey(bytes([9]) * 32)
    rejected(ledger, abort_by(ledger, 0, key=stranger), r"bad abort signature \(claimed by seat 0")
    rejected(ledger, abort_by(ledger, 2, key=stranger), "exactly one signature, by a seat")
    good = abort_by(ledger, 0)
    rejected(ledger, Entry(good.body_bytes, good.sigs * 2), "exactly one signature, by a seat")
    assert ledger.stopped is None
    ledger.append(good)
    assert ledger.stopped is not None


def test_an_abort_is_refused_after_the_result(finished_payloads):
    # "An abort is refused after a result entry": a finished game cannot be stopped,
    # so a loser cannot taint a log everybody already signed.
    ledger = replayed(finished_payloads)
    for reason, evidence in (("withheld", []), ("abandoned", [])):
        entry = abort_by(ledger, 0, reason=reason, evidence=evidence)
        rejected(ledger, entry, "entry after the game's result")
    assert ledger.stopped is None and ledger.finished


def resigned(seed: bytes, message: bytes) -> bytes:
    """Another valid Ed25519 signature of ``message`` by the key ``seed``: RFC 8032
    with a random nonce instead of the deterministic one.  Only the signer can make
    it, and it verifies like the deterministic signature does."""
    digest = hashlib.sha512(seed).digest()
    a = bytearray(digest[:32])
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    scalar = crypto_core_ed25519_scalar_reduce(bytes(a) + bytes(32))
    public = SigningKey(seed).public
    r = crypto_core_ed25519_scalar_reduce(os.urandom(64))
    big_r = crypto_scalarmult_ed25519_base_noclamp(r)
    k = crypto_core_ed25519_scalar_reduce(hashlib.sha512(big_r + public + message).digest())
    return big_r + crypto_core_ed25519_scalar_add(r, crypto_core_ed25519_scalar_mul(k, scalar))


@pytest.fixture
def equivocation(ledger):
    """The ledger with one action at ``index`` by ``seat``, and a second signed
    action by the same seat for the same position (index and prev)."""
    seat = at_first_action(ledger)
    index = ledger.next_index
    ledger.append(action_by(ledger, seat, "draw"))
    other = action_by(ledger, seat, "pass", i=index, prev=ledger.entries[index - 1].hash)
    return ledger, seat, index, other


def accuse(ledger: Ledger, seat: int, evidence: list[bytes]) -> Entry:
    return abort_by(ledger, 1 - seat, reason="equivocation", culprit=seat, evidence=evidence)


def test_equivocation_is_proved_by_two_signed_actions_for_one_position(equivocation):
    # "equivocation: evidence is two action entries by the accused, for the same index
    # AND the same prev, with different body bytes, each signed by exactly the
    # accused seat".
    ledger, seat, index, other = equivocation
    ledger.append(accuse(ledger, seat, [ledger.entries[index].encode(), other.encode()]))
    assert (ledger.stopped.culprit, ledger.stopped.detector) == (seat, 1 - seat)
    assert ledger.stopped.proved is True


def evidence_cases(ledger: Ledger, seat: int, index: int, other: Entry) -> list:
    first = ledger.entries[index]
    key = secrets()[seat].key
    message = signed_message(ledger.game_id, first.body_bytes)
    again = resigned(key.seed, message)
    assert again != first.sigs[0][1] and verify_signature(key.public, again, message)
    other_message = signed_message(ledger.game_id, other.body_bytes)
    other_sig = other.sigs[0][1]
    forked = action_by(ledger, seat, "pass", i=index, prev=bytes(32))
    later = action_by(ledger, seat, "pass", i=index + 1, prev=first.hash)
    detector_key = secrets()[1 - seat].key
    return [
        ([first.encode(), first.encode()], "say the same thing"),
        # The same move signed twice (a second, valid signature made with a random
        # nonce) is one move, not two: the bodies are compared, not the encodings.
        ([first.encode(), Entry(first.body_bytes, ((seat, again),)).encode()], "same thing"),
        ([first.encode()], "needs two encoded entries"),
        ([first.encode(), other.encode(), other.encode()], "needs two encoded entries"),
        ([first.encode(), 7], "needs two encoded entries"),
        ([first.encode(), b"\xc1"], "malformed msgpack"),
        # Different prev: the two moves were made on two different logs, which is
        # what an honest seat does when someone else forked the log before it.
        ([first.encode(), forked.encode()], "same position \\(index and prev\\)"),
        ([first.encode(), later.encode()], "same position"),
        ([first.encode(), ledger.entries[index - 1].encode()], "parts by the accused seat"),
        ([first.encode(), Entry(other.body_bytes, ()).encode()], "not signed by the accused"),
        # The accused's valid signature, filed under another seat's number.
        (
            [first.encode(), Entry(other.body_bytes, ((1 - seat, other_sig),)).encode()],
            "not signed by the accused seat",
        ),
        # Two signatures on one entry, even both by the accused.
        (
            [first.encode(), Entry(other.body_bytes, ((seat, other_sig),) * 2).encode()],
            "not signed by the accused seat",
        ),
        # Signed by another seat's key under the accused's number.
        (
            [
                first.encode(),
                Entry(other.body_bytes, ((seat, detector_key.sign(other_message)),)).encode(),
            ],
            "not signed by the accused seat",
        ),
    ]


def test_equivocation_evidence_that_does_not_hold_up_blames_the_detector(equivocation):
    ledger, seat, index, other = equivocation
    before = snapshot(ledger)
    for evidence, match in evidence_cases(ledger, seat, index, other):
        entry = accuse(ledger, seat, evidence)
        rejected(ledger, entry, f"equivocation evidence rejected: .*{match}", culprit=1 - seat)
        assert snapshot(ledger) == before and ledger.stopped is None


def test_equivocation_evidence_is_for_an_earlier_position_or_the_aborts_own(equivocation):
    # Issue 12: "Honest logs end identical after a proved stop: one agreed abort
    # entry".  Two honest peers that each took one of two moves signed for one
    # position both put the abort in its place: so the evidence may be for the
    # abort's own position (the same index and previous hash), never a later one.
    ledger, seat, index, other = equivocation
    here = ledger.next_index
    a = action_by(ledger, seat, "draw", i=here, prev=ledger.head)
    b = action_by(ledger, seat, "pass", i=here, prev=ledger.head)
    ahead = [action_by(ledger, seat, t, i=here + 1, prev=ledger.head) for t in ("draw", "pass")]
    accuser = 1 - seat
    rejected(ledger, accuse(ledger, seat, [e.encode() for e in ahead]), "or this", accuser)
    elsewhere = [action_by(ledger, seat, t, i=here, prev=bytes(32)) for t in ("draw", "pass")]
    rejected(ledger, accuse(ledger, seat, [e.encode() for e in elsewhere]), "or this", accuser)
    ledger.append(accuse(ledger, seat, [a.encode(), b.encode()]))
    assert ledger.stopped is not None and ledger.stopped.proved


def test_verify_reports_a_withheld_abort_without_a_culprit():
    # "an unproved one (withheld/abandoned) gives error.culprit = None": the log
    # names the accused only on the detector's signed word, which proves nothing.
    ledger = Ledger(genesis())
    abort = abort_by(ledger, 0, detail="seat 1 went quiet")
    report = verify_bytes(
        MAGIC + encode_frame(ledger.entries[0].encode()) + encode_frame(abort.encode())
    )
    assert not report.valid
    assert report.error["entry"] == 1 and report.error["culprit"] is None
    assert "culprit_name" not in report.error
    assert "not provable from the log" in report.error["reason"]
    assert report.to_json()["stopped"] == {
        "entry": 1,
        "reason": "withheld",
        "culprit": 1,
        "detector": 0,
        "detail": "seat 1 went quiet",
        "proved": False,
    }


def test_verify_names_a_proved_equivocator(equivocation):
    # "a proved abort (equivocation) gives error.culprit = the seat".
    ledger, seat, index, other = equivocation
    abort = accuse(ledger, seat, [ledger.entries[index].encode(), other.encode()])
    ledger.append(abort)
    data = MAGIC + b"".join(encode_frame(e.encode()) for e in ledger.entries)
    report = verify_bytes(data)
    assert not report.valid
    assert (report.error["entry"], report.error["culprit"]) == (index + 1, seat)
    assert report.error["culprit_name"] == NAMES[seat]
    assert "proved by the signed evidence" in report.error["reason"]
    stopped = report.to_json()["stopped"]
    assert (stopped["culprit"], stopped["detector"], stopped["proved"]) == (seat, 1 - seat, True)


def test_a_low_order_link_key_is_refused_in_the_genesis():
    # Found in review: a zero link key passed the genesis checks and then stopped
    # every peer when it derived its frame keys.
    seats = [authoring.SeatSecrets.from_seed(b"low-order", i, 4) for i in range(2)]
    body = authoring.genesis_body(
        "pet-quartet",
        {"scoring": "basic", "variant": "standard"},
        ["Ana", "Ben"],
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [seats[0].link_public, bytes(32)],
        4,
        bytes(16),
    )
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    with pytest.raises(InvalidEntry, match="seat 1 link key is a low-order point"):
        Ledger(genesis)
