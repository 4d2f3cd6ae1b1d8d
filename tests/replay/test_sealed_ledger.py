"""Sealed decks in the signed log: hidden hands that every verifier can still check.

Specification tests for replay/sealed_book.py (its table: ``shuffle``, ``open`` and
``secrets`` entries, a ``reveal`` proof in every action that plays a hand card), the
deck keys in the genesis, and the cheating evidence of replay/evidence.py, all
played through Vorsicht Lehrer!, the hidden-hand game.

One short game (2 seats, track 100) is simulated once.  Each test replays it up to
the position it needs and puts exactly one wrong thing there, signed (when the kind
is signed) by the seat it blames, with that seat's real secrets: a cheat that only
a stranger could write would prove nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptable.engine.api import Action, normalize_options
from p2ptable.games import get_game
from p2ptable.games.vorsicht_lehrer.state import full_school_deck
from p2ptable.net.accusations import Accusation, abort_body
from p2ptable.replay import authoring
from p2ptable.replay.entries import Entry, MalformedEntry, make_body, sign_body
from p2ptable.replay.evidence import part_problem
from p2ptable.replay.kinds import Reason
from p2ptable.replay.ledger import Expected, InvalidEntry, Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.replay.verify import audit_states, verify_bytes, verify_file
from p2ptable.sealed import elgamal
from p2ptable.sealed.deck import decode_plaintext, make_shuffle, read_hand
from p2ptable.sealed.group import G, N, SeededRandom, decode_point
from p2ptable.sealed.messages import SecretMessage
from p2ptable.sim import simulate

GAME = "vorsicht-lehrer"
SEED = "sealed-ledger"
PLAYERS = 2
SHORT = {"track": "100"}
NONCE = bytes(range(16))


def seat_secrets(seed: str = SEED, players: int = PLAYERS) -> list[authoring.SeatSecrets]:
    """The secrets ``simulate`` derives from its seed (so we can cheat as any seat)."""
    return [authoring.SeatSecrets.from_seed(seed.encode(), i) for i in range(players)]


SEATS = seat_secrets()


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("sealed") / "game.p2pt"
    simulate(GAME, PLAYERS, SEED, path, options=SHORT)
    return path


@pytest.fixture(scope="module")
def log(game_file) -> list[bytes]:
    frames = parse_frames(game_file.read_bytes())
    assert frames.error is None
    return frames.payloads


# -- helpers ----------------------------------------------------------------------------


def body(payload: bytes) -> dict:
    return Entry.decode(payload).body


def nth(log: list[bytes], kind: str, n: int = 0, plays: bool = False) -> int:
    """The index of the n-th entry of ``kind`` (with ``plays``: the n-th card played)."""
    found = [
        i
        for i, p in enumerate(log)
        if body(p)["t"] == kind and (not plays or body(p)["action"].startswith("play"))
    ]
    return found[n]


def ledger_at(log: list[bytes], index: int, readers: tuple[int, ...] = ()) -> Ledger:
    """A ledger that has accepted entries 1 .. index-1 and reads ``readers``' hands."""
    ledger = Ledger(Entry.decode(log[0]), readers={s: SEATS[s].deck for s in readers})
    for payload in log[1:index]:
        ledger.append(Entry.decode(payload))
    return ledger


def signed(ledger: Ledger, seat: int, **fields) -> Entry:
    """A body for the ledger's next position, signed by ``seat``'s real key."""
    fields = dict(i=ledger.next_index, prev=ledger.head, seat=seat, **fields)
    return sign_body(ledger.game_id, make_body(**fields), {seat: SEATS[seat].key})


def unsigned(ledger: Ledger, kind: str, parts: list, *, sign: bool = True) -> Entry:
    """An open or secrets entry bundling ``parts`` (message maps, seat by seat), each
    signed by its seat as a bundle carries it; the entry itself is not signed."""
    bundled = []
    for seat, msg in enumerate(parts):
        part = signed(ledger, seat, t="part", msg=msg)
        sig = part.sigs[0][1] if sign else bytes(64)
        bundled.append([msg, sig])
    return Entry(make_body(t=kind, i=ledger.next_index, prev=ledger.head, parts=bundled), ())


def honest_parts(ledger: Ledger) -> list[dict]:
    return [authoring.part_entry(ledger, s, SEATS[s]).body["msg"] for s in range(PLAYERS)]


def with_bad_share(msg: dict) -> dict:
    """The shares message with its first share moved off ``x·A`` (its proof stays)."""
    (share, proof), *rest = msg["shares"]
    moved = (decode_point(share) + G).to_bytes()
    return {**msg, "shares": [[moved, proof], *rest]}


def refused(ledger: Ledger, entry: Entry, match: str, culprit: int | None) -> InvalidEntry:
    """``entry`` is refused as the ledger's next entry, blaming ``culprit``."""
    head = ledger.head
    error = ledger.rejection(entry)
    assert error is not None, "the entry was accepted"
    assert error.index == ledger.next_index
    assert re.search(match, error.reason), error.reason
    assert error.culprit == culprit, error
    assert ledger.head == head  # a refused entry changes nothing
    return error


def build(payloads: list[bytes]) -> bytes:
    return MAGIC + b"".join(encode_frame(p) for p in payloads)


def abort(ledger: Ledger, detector: int, culprit: int, reason: str, evidence: list) -> Entry:
    """An abort as a live session writes it today (net/stopping.py): unsigned, its
    body made by ``accusations.abort_body`` from the accusation alone, so that
    honest peers catching the same thing write the same bytes.  ``detector`` no
    longer signs it; it is kept so each case still says who caught the cheat."""
    del detector  # the evidence proves it, or nothing does
    accusation = Accusation(Reason(reason), "spec", culprit, evidence)
    return Entry(abort_body(ledger, accusation), ())


def signed_abort(ledger: Ledger, detector: int, culprit: int, reason: str, evidence: list) -> Entry:
    """An abort as protocol p2ptable/1 and /2 sessions wrote it: signed by the
    detector (still read in old replays)."""
    fields = dict(
        t="abort",
        i=ledger.next_index,
        prev=ledger.head,
        reason=reason,
        culprit=culprit,
        detail="spec",
        evidence=evidence,
    )
    return sign_body(ledger.game_id, make_body(**fields), {detector: SEATS[detector].key})


# -- 1. a whole game ---------------------------------------------------------------------


def test_a_simulated_hidden_hand_game_verifies_and_passes_the_audit(game_file, log):
    # "A game with hidden hands is checked twice": by its proofs alone, then, with the
    # secrets published at the end, re-checked reading every hand.
    report = verify_file(game_file)
    assert report.valid, report.error
    assert report.audited is True
    bodies = [body(p) for p in log]
    kinds = [b["t"] for b in bodies]
    # "cards went into the deck since every seat last shuffled it: shuffle by the
    # lowest seat that has not shuffled since": every seat once, before any deal.
    shuffles = [b["seat"] for b in bodies if b["t"] == "shuffle"]
    assert shuffles == list(range(PLAYERS))
    assert kinds.index("open") > max(i for i, k in enumerate(kinds) if k == "shuffle")
    # "the game is over: secrets, then the result".
    assert kinds[-2:] == ["secrets", "result"] and kinds.count("secrets") == 1
    # "an action that shows a hand card: action carrying reveal", and only those.
    actions = [b for b in bodies if b["t"] == "action"]
    plays = [b for b in actions if b["action"].startswith("play")]
    assert plays and all("reveal" in b for b in plays)
    assert not any("reveal" in b for b in actions if b not in plays)
    # An open entry and a secrets entry hold one part per seat and no signature.
    for payload in log:
        entry = Entry.decode(payload)
        if entry.kind in ("open", "secrets"):
            assert entry.sigs == () and len(entry.body["parts"]) == PLAYERS


# -- 2. hidden from peers, known to the audit ---------------------------------------------

LONG_SEED = "sealed-ledger-long"
LONG_PLAYERS = 3


@pytest.fixture(scope="module")
def long_log(tmp_path_factory) -> list[bytes]:
    """A 3-seat game on the full track: long enough that the discards are reshuffled
    into a new sealed deck ("cards go into the deck without an entry")."""
    path = tmp_path_factory.mktemp("sealed") / "long.p2pt"
    simulate(GAME, LONG_PLAYERS, LONG_SEED, path, options={"track": "200"})
    payloads = parse_frames(path.read_bytes()).payloads
    shuffles = sum(body(p)["t"] == "shuffle" for p in payloads)
    assert shuffles > LONG_PLAYERS, "precondition: this game must reshuffle its discards"
    return payloads


def masked(state, readers: set[int]):
    """The full state with every hand card of the other seats unknown."""
    hands = tuple(
        hand if seat in readers else (None,) * len(hand) for seat, hand in enumerate(state.hands)
    )
    return dataclasses.replace(state, hands=hands)


def test_a_peer_knows_its_own_hand_and_nothing_of_the_others(long_log):
    # "A book made with readers reads those seats' cards as they are dealt: a peer
    # reads its own."  Everything else the peer holds is what the audit holds:
    # hidden information is exactly the other seats' hand cards.
    secrets = tuple(s.deck for s in seat_secrets(LONG_SEED, LONG_PLAYERS))
    peer = Ledger(Entry.decode(long_log[0]), readers={0: secrets[0]})
    stranger = Ledger(Entry.decode(long_log[0]))
    played_by_others = 0
    for applied, audit in audit_states(long_log, secrets):
        entry = Entry.decode(long_log[applied.index])
        peer.append(entry)
        stranger.append(entry)
        assert all(card is not None for card in peer.state.hands[0])
        assert peer.state.hands[0] == peer.book.hand(0)
        assert peer.state == masked(audit.state, {0})
        assert stranger.state == masked(audit.state, set())
        # Until it is played: the card a seat plays is then known to everyone.
        if entry.kind == "action" and entry.body["seat"] != 0 and "reveal" in entry.body:
            played_by_others += 1
            assert peer.state.played == stranger.state.played == audit.state.played
            assert peer.state.played is not None
    assert played_by_others > 0
    assert stranger.finished and peer.finished


def test_the_audit_knows_every_card_and_none_is_ever_created_or_lost(long_log):
    # With every secret, every hand card is known at every moment, the rules' hands
    # are the sealed deck's hands, and the 58 school cards are always all there:
    # the face-down sealed deck (decrypted with the joint secret), the hands and the
    # discards together are the full deck, before and after the reshuffle.
    secrets = tuple(s.deck for s in seat_secrets(LONG_SEED, LONG_PLAYERS))
    joint = sum(secrets) % N
    full = Counter(full_school_deck())
    assert sum(full.values()) == 58
    for _, ledger in audit_states(long_log, secrets):
        state, book = ledger.state, ledger.book
        for seat, hand in enumerate(state.hands):
            assert None not in hand
            assert hand == book.hand(seat)
        face_down = [
            decode_plaintext(book.state, elgamal.decrypt(ct, joint)) for ct in book.state.deck
        ]
        assert len(face_down) == len(state.deck)
        if None not in state.deck:  # the known cards just put in, before any deal
            assert Counter(face_down) == Counter(state.deck)
        cards = Counter(face_down) + Counter(state.discard)
        for hand in state.hands:
            cards.update(hand)
        assert cards == full


# -- 3. deck keys in the genesis ------------------------------------------------------------


def genesis(game: str, decks: list | None) -> Entry:
    """A genesis for ``game`` with these deck fields, signed by every seat."""
    options = normalize_options(get_game(game), PLAYERS, SHORT if game == GAME else {})
    body_bytes = authoring.genesis_body(
        game,
        options,
        ["Ana", "Ben"],
        [s.key.public for s in SEATS],
        [s.chain.head for s in SEATS],
        [s.link_public for s in SEATS],
        64,
        NONCE,
        decks,
    )
    signatures = [authoring.sign_genesis(body_bytes, s) for s in SEATS]
    return authoring.assemble_genesis(body_bytes, signatures)


OWN_DECKS = [s.deck_key(NONCE) for s in SEATS]


def test_a_genesis_with_every_seats_deck_key_starts_a_sealed_game():
    ledger = Ledger(genesis(GAME, OWN_DECKS))
    assert ledger.book is not None and ledger.book.seats == PLAYERS
    assert len(ledger.book.state.deck) == 58  # the school deck went in, face up, known
    assert ledger.expected().kind == "chance"  # the first player, then the shuffles


def twin_deck_keys() -> list:
    # Seat 1 holds seat 0's deck secret and proves it honestly, bound to its own key.
    twin = dataclasses.replace(SEATS[1], deck=SEATS[0].deck)
    return [OWN_DECKS[0], twin.deck_key(NONCE)]


@pytest.mark.parametrize(
    "game, decks, match",
    [
        (GAME, None, r"seat 0 has no deck key \(vorsicht-lehrer deals hidden hands\)"),
        (
            GAME,
            [OWN_DECKS[0], SEATS[1].deck_key(bytes(16))],
            "seat 1 deck key: the proof of knowledge of the deck key fails",
        ),
        (
            GAME,
            [OWN_DECKS[0], OWN_DECKS[0]],
            "seat 1 deck key: the proof of knowledge of the deck key fails",
        ),
        (GAME, twin_deck_keys(), "seat 1 reuses the deck key of seat 0"),
        (
            GAME,
            [OWN_DECKS[0], {"key": OWN_DECKS[1]["key"]}],
            "seat 1 deck key: a deck key is a map of exactly key and proof",
        ),
        (
            GAME,
            [OWN_DECKS[0], {**OWN_DECKS[1], "key": b"\x05" * 33}],
            "seat 1 deck key: malformed deck key",
        ),
        ("pet-quartet", OWN_DECKS, "pet-quartet has no hidden hands: no deck keys"),
        # nil is not "absent": one genesis, one encoding
        ("pet-quartet", [None, None], "seat 0 deck key must be a map"),
    ],
    ids=[
        "missing",
        "made-for-another-nonce",
        "copied-from-seat-0",
        "same-key-twice",
        "no-proof",
        "not-a-point",
        "pet-quartet-has-no-deck",
        "nil-deck",
    ],
)
def test_a_genesis_with_a_bad_deck_key_is_refused(game, decks, match):
    # "Every seat's deck key is in the signed genesis with a Schnorr proof bound to
    # the table nonce and the seat's signing key (so nobody can copy or cancel
    # another seat's key)"; two equal keys would let one seat read another's hand.
    with pytest.raises(InvalidEntry, match=match) as info:
        Ledger(genesis(game, decks))
    assert (info.value.index, info.value.culprit) == (0, None)
    assert info.value.reason.startswith("genesis: ")


# -- 4. cheating is caught at once, naming the seat -------------------------------------


def test_a_shuffle_must_be_a_proved_shuffle_of_this_deck_at_this_step(log):
    # "shuffle by the lowest seat that has not shuffled since", checked by its proof;
    # a wrong one is refused at once and its signature names the shuffler.
    first, second = nth(log, "shuffle", 0), nth(log, "shuffle", 1)
    ledger = ledger_at(log, second)
    seat = ledger.expected().seat
    assert (ledger.expected().kind, seat) == ("shuffle", 1)
    rand = SeededRandom(b"cheat")
    earlier = ledger_at(log, first).book.state  # the deck before seat 0 shuffled it
    stale = make_shuffle(earlier, seat, rand).to_value()
    restamped = make_shuffle(
        dataclasses.replace(earlier, step=ledger.book.state.step), seat, rand
    ).to_value()
    honest = body(log[second])["msg"]
    cards = list(honest["cards"])
    swapped = {**honest, "cards": [cards[1], cards[0], *cards[2:]]}
    duplicated = {**honest, "cards": [cards[0], *cards[:-1]]}
    hand = {**honest, "hand": True}
    for msg, match in [
        (stale, r"message for step \d+ at step \d+"),
        (restamped, "bad shuffle of the deck"),
        (swapped, "bad shuffle of the deck"),
        (duplicated, "bad shuffle of the deck"),
        (hand, "a shuffle entry must hold a shuffle of the deck"),
    ]:
        refused(ledger, signed(ledger, seat, t="shuffle", msg=msg), match, culprit=seat)
    ledger.append(Entry.decode(log[second]))  # the honest shuffle still goes in


@pytest.fixture
def at_play(log):
    """A peer's ledger (it reads only its own seat) where the other seat is to play a
    card, that seat, and its hand as only it can read it."""
    index = nth(log, "action", 0, plays=True)
    seat = body(log[index])["seat"]
    ledger = ledger_at(log, index, readers=(1 - seat,))
    assert ledger.expected() == Expected("action", seat=seat)
    hand = read_hand(ledger.book.state, seat, SEATS[seat].deck)
    assert ledger.state.hands[seat] == (None,) * len(hand)  # the peer cannot see it
    return ledger, seat, hand


def play_entry(ledger: Ledger, seat: int, action: str, reveal: dict | None) -> Entry:
    fields = {"t": "action", "action": action}
    if reveal is not None:
        fields["reveal"] = reveal
    return signed(ledger, seat, **fields)


def test_a_played_card_must_carry_the_proof_of_that_very_card(at_play):
    # "an action that shows a hand card: action carrying reveal": the reveal must show
    # the slot the action names and the card it claims; the peer cannot see the hand,
    # so only the proof stands between a seat and a card it does not hold.
    ledger, seat, hand = at_play
    secret = SEATS[seat].deck
    slot0 = ledger.book.make_reveal(seat, secret, 0, SeededRandom(b"reveal"))
    slot1 = ledger.book.make_reveal(seat, secret, 1, SeededRandom(b"reveal"))
    assert (slot0["card"], slot1["card"]) == hand[:2]
    real, other = f"play 0 {hand[0]}", f"play 0 {hand[1]}"
    cases = [
        (real, slot1, "reveals slot 1"),  # shows another of its cards
        (other, slot0, f"reveal of '{other}'"),  # claims another card than it shows
        (other, {**slot0, "card": hand[1]}, f"claims card {hand[1]} but hand card 0 is"),
        (real, None, f"plays a hand card without its proof: {real}"),
    ]
    for action, reveal, match in cases:
        refused(ledger, play_entry(ledger, seat, action, reveal), match, culprit=seat)
    honest = authoring.action_entry(ledger, seat, SEATS[seat], Action.parse(real))
    assert (honest.body["reveal"]["index"], honest.body["reveal"]["card"]) == (0, hand[0])
    ledger.append(honest)
    assert ledger.state.discard.count(hand[0]) == 1 and ledger.state.played == hand[0]


def test_a_substituted_card_is_refused_saying_which_card_the_proof_shows(at_play):
    ledger, seat, hand = at_play
    reveal = ledger.book.make_reveal(seat, SEATS[seat].deck, 0, SeededRandom(b"reveal"))
    entry = play_entry(ledger, seat, f"play 0 {hand[1]}", reveal)
    refused(ledger, entry, f"card {hand[0]}", culprit=seat)


def test_an_action_that_plays_no_card_carries_no_reveal(log):
    index = nth(log, "action", 0, plays=True)
    after = ledger_at(log, index + 1)
    expected = after.expected()
    assert expected.kind == "action" and after.state.phase == "choose"
    reveal = body(log[index])["reveal"]
    entry = play_entry(after, expected.seat, "take", reveal)
    refused(after, entry, "carries a reveal but plays no hand card", culprit=expected.seat)


def test_an_open_entry_needs_every_seats_proved_share(log):
    # "a deal to a seat: open, every seat's decryption shares for the top card".  The
    # entry is unsigned (its proofs prove it), so nobody is the culprit of the entry,
    # but the reason names the seat whose part fails.
    index = nth(log, "open", 2)
    ledger = ledger_at(log, index)
    to = ledger.expected().seat
    giver = 1 - to
    parts = honest_parts(ledger)
    assert parts[to]["shares"] == []  # the receiver gives no share of its own card
    stale = honest_parts(ledger_at(log, nth(log, "open", 0)))[giver]
    for part, match in [
        (with_bad_share(parts[giver]), "decryption share proof fails for card 0"),
        (stale, r"message for step \d+ at step \d+"),
        ({**parts[giver], "shares": []}, "sent 0 shares for 1 cards"),
        (SecretMessage(giver, SEATS[giver].deck).to_value(), "its part of an opening is not"),
    ]:
        wrong = list(parts)
        wrong[giver] = part
        refused(ledger, unsigned(ledger, "open", wrong), f"the part of seat {giver}: {match}", None)
    refused(ledger, unsigned(ledger, "open", parts[:1]), "one part per seat", None)
    # Each bundled part carries its seat's signature, so two different bundles for
    # one position always hold two parts that one seat signed (equivocation).
    refused(ledger, unsigned(ledger, "open", parts, sign=False), "not signed by it", None)
    ledger.append(unsigned(ledger, "open", parts))


def receivers_shares(ledger: Ledger) -> tuple[int, dict]:
    """The receiver of the pending deal, and a part from it that holds a share."""
    to = ledger.expected().seat
    return to, {**honest_parts(ledger)[1 - to], "seat": to}


def test_a_receiver_that_sends_shares_for_its_own_card_is_refused(log):
    # The receiver of a deal has no share to give; a part from it that holds one is
    # that seat's wrong part, like any other bad part: the entry is refused (today
    # Ledger.append, and so verify_bytes, crash with SealedUsageError instead).
    ledger = ledger_at(log, nth(log, "open", 0))
    to, part = receivers_shares(ledger)
    parts = honest_parts(ledger)
    parts[to] = part
    refused(ledger, unsigned(ledger, "open", parts), f"the part of seat {to}", None)


def test_a_receivers_signed_share_for_its_own_card_proves_cheating(log):
    # The same wrong part, signed, is evidence ("a part ... whose share proof is
    # wrong"); today check_cheat turns the SealedUsageError into "cheating evidence
    # rejected: already have the shares of seat r" and blames the accuser.
    ledger = ledger_at(log, nth(log, "open", 0))
    to, part = receivers_shares(ledger)
    evidence = signed(ledger, to, t="part", msg=part)
    ledger.append(abort(ledger, 1 - to, to, "cheated", [evidence.encode()]))
    assert (ledger.stopped.culprit, ledger.stopped.proved) == (to, True)


@pytest.mark.parametrize("secret", ["another-seats", "off-by-one", "zero"])
def test_a_secrets_entry_needs_every_seats_own_secret(log, secret):
    # "the game is over: secrets, every seat's deck secret"; "a secret is checked
    # against its key" from the genesis.
    ledger = ledger_at(log, nth(log, "secrets"))
    parts = honest_parts(ledger)
    cheat = {"another-seats": SEATS[0].deck, "off-by-one": SEATS[1].deck + 1, "zero": 0}[secret]
    parts[1] = SecretMessage(1, cheat).to_value()
    refused(ledger, unsigned(ledger, "secrets", parts), "does not match its key", None)
    assert ledger.book.secrets is None


def test_a_refused_secrets_entry_names_the_seat_whose_secret_is_wrong(log):
    ledger = ledger_at(log, nth(log, "secrets"))
    parts = honest_parts(ledger)
    parts[1] = SecretMessage(1, SEATS[0].deck).to_value()
    refused(ledger, unsigned(ledger, "secrets", parts), "seat 1", None)


# -- 5. abort evidence -------------------------------------------------------------------


def verified(log: list[bytes], entry: Entry):
    """The verify report of the log up to ``entry``'s position, then ``entry``."""
    report = verify_bytes(build(log[: entry.body["i"]] + [entry.encode()]))
    assert not report.valid
    return report


# Each evidence case as live sessions write the abort today (unsigned: the
# evidence proves it, or nothing does) and as p2ptable/1 and /2 sessions did
# (signed by the detector, who is then to blame for a false accusation).
BUILDERS = pytest.mark.parametrize("signer", [False, True], ids=["live-unsigned", "legacy-signed"])


def build_abort(signer: bool):  # noqa: ANN201
    return signed_abort if signer else abort


@BUILDERS
def test_a_signed_bad_part_proves_cheating(log, signer):
    # "cheated: one body signed by the culprit for this position that fails its
    # check: a part of an open entry whose share proof is wrong."
    ledger = ledger_at(log, nth(log, "open", 0))
    cheat, detector = 1 - ledger.expected().seat, ledger.expected().seat
    honest = authoring.part_entry(ledger, cheat, SEATS[cheat])
    bad = signed(ledger, cheat, t="part", msg=with_bad_share(honest.body["msg"]))
    entry = build_abort(signer)(ledger, detector, cheat, "cheated", [bad.encode()])
    assert (entry.sigs == ()) is not signer  # live aborts carry no signature
    ledger.append(entry)
    stopped = ledger.stopped
    expected_detector = detector if signer else None
    assert (stopped.culprit, stopped.detector, stopped.proved) == (cheat, expected_detector, True)
    report = verified(log, entry)
    assert report.stopped["proved"] is True and report.stopped["culprit"] == cheat
    assert report.error["culprit"] == cheat
    assert "proved by the signed evidence" in report.error["reason"]


def test_a_signed_false_reveal_proves_cheating(at_play, log):
    # "... an entry the ledger refuses with the culprit named (a false reveal)".
    ledger, seat, hand = at_play
    reveal = ledger.book.make_reveal(seat, SEATS[seat].deck, 1, SeededRandom(b"lie"))
    lie = play_entry(ledger, seat, f"play 0 {hand[0]}", reveal)
    entry = abort(ledger, 1 - seat, seat, "cheated", [lie.encode()])
    ledger.append(entry)
    assert (ledger.stopped.culprit, ledger.stopped.proved) == (seat, True)
    report = verified(log, entry)
    assert report.stopped["culprit"] == seat and report.error["culprit"] == seat


@BUILDERS
def test_evidence_that_checks_out_blames_the_accuser(log, at_play, signer):
    # An honest part or an honest play proves nothing: the abort is refused.  A
    # signed one blames its signer, who made a false accusation; a live one is
    # unsigned, so it names nobody (no one signed it: the frame that carried it
    # is refused, and the game goes on).
    ledger = ledger_at(log, nth(log, "open", 0))
    make = build_abort(signer)
    for seat in range(PLAYERS):  # the receiver's (empty) part and the giver's
        part = authoring.part_entry(ledger, seat, SEATS[seat])
        entry = make(ledger, 1 - seat, seat, "cheated", [part.encode()])
        accuser = (1 - seat) if signer else None
        refused(ledger, entry, "the evidence checks out: it proves nothing", culprit=accuser)
    played, seat, hand = at_play
    honest = authoring.action_entry(played, seat, SEATS[seat], Action("play", (0, hand[0])))
    entry = make(played, 1 - seat, seat, "cheated", [honest.encode()])
    refused(played, entry, "proves nothing", culprit=(1 - seat) if signer else None)


@BUILDERS
def test_cheating_evidence_must_be_for_the_position_the_game_stopped_at(log, signer):
    # A bad part signed for an earlier position is not evidence against this one.
    index = nth(log, "open", 0)
    ledger, earlier = ledger_at(log, index), ledger_at(log, index - 1)
    detector = ledger.expected().seat
    accused = 1 - detector
    good = authoring.part_entry(ledger, accused, SEATS[accused]).body["msg"]
    stale = signed(earlier, accused, t="part", msg=with_bad_share(good))
    entry = build_abort(signer)(ledger, detector, accused, "cheated", [stale.encode()])
    refused(
        ledger, entry, "for the position the game stopped at", culprit=detector if signer else None
    )


# -- 6. one message per position ----------------------------------------------------------


@pytest.mark.parametrize("kind", ["shuffle", "open", "secrets"])
def test_a_resumed_seat_makes_byte_identical_sealed_messages(log, kind):
    # "Every sealed message a seat makes draws its randomness from sealed_rand ...
    # bound to the log position: a seat that restarts makes exactly the same message
    # again, so it can never equivocate by accident."  A restarted seat rebuilds its
    # ledger from its log (reading only its own hand) and signs again.
    index = nth(log, kind)
    ledger = ledger_at(log, index)
    if kind == "shuffle":
        seat = ledger.expected().seat
        first = authoring.shuffle_entry(ledger, seat, SEATS[seat])
        again = authoring.shuffle_entry(ledger_at(log, index, (seat,)), seat, SEATS[seat])
        assert first.encode() == again.encode() == log[index]  # what the game recorded
        return
    parts = {}
    for seat in range(PLAYERS):
        first = authoring.part_entry(ledger, seat, SEATS[seat])
        assert authoring.part_entry(ledger, seat, SEATS[seat]).encode() == first.encode()
        resumed = ledger_at(log, index, readers=(seat,))
        assert authoring.part_entry(resumed, seat, SEATS[seat]).encode() == first.encode()
        parts[seat] = first
    assert authoring.bundle_entry(ledger, parts).encode() == log[index]


def test_two_different_signed_parts_for_one_position_prove_equivocation(log):
    # "equivocation: two different bodies signed by the culprit for one position
    # (same index and previous hash): ... two parts."  Each part alone checks out; a
    # seat that sends different ones to different peers is caught by the pair.
    ledger = ledger_at(log, nth(log, "open", 0))
    detector = ledger.expected().seat
    seat = 1 - detector
    honest = authoring.part_entry(ledger, seat, SEATS[seat])
    rand = SeededRandom(b"a seat that restarts with fresh randomness")
    msg = ledger.book.make_part("open", ledger.expected().targets, seat, SEATS[seat].deck, rand)
    other = signed(ledger, seat, t="part", msg=msg)
    assert other.body_bytes != honest.body_bytes
    assert part_problem(ledger, seat, msg) is None
    pair = [honest.encode(), other.encode()]
    ledger.check_equivocation(seat, pair, detector)  # accepted: no exception
    with pytest.raises(InvalidEntry, match="the two entries say the same thing"):
        ledger.check_equivocation(seat, [honest.encode()] * 2, detector)
    entry = abort(ledger, detector, seat, "equivocation", pair)
    ledger.append(entry)
    assert (ledger.stopped.culprit, ledger.stopped.proved) == (seat, True)
    report = verified(log, entry)
    assert report.stopped["reason"] == "equivocation" and report.error["culprit"] == seat


# -- 7. tampering with a recorded sealed game ---------------------------------------------

SEALED_KINDS = ("shuffle", "open", "secrets")


def flipped(data: bytes, position: int, bit: int = 0) -> bytes:
    changed = bytearray(data)
    changed[position] ^= 1 << bit
    return bytes(changed)


@pytest.mark.parametrize("kind", SEALED_KINDS)
def test_a_flipped_byte_in_a_sealed_entry_fails_verify_at_that_entry(log, kind):
    index = nth(log, kind)
    middle = len(log[index]) // 2
    # On disk: the frame's CRC no longer matches.
    offset = len(MAGIC) + sum(8 + len(p) for p in log[:index]) + 4 + middle
    report = verify_bytes(flipped(build(log), offset))
    assert (report.valid, report.error["entry"]) == (False, index)
    # Re-framed with a fresh CRC: the entry's own checks (signature, proofs) catch it.
    tampered = list(log)
    tampered[index] = flipped(log[index], middle)
    report = verify_bytes(build(tampered))
    assert (report.valid, report.error["entry"]) == (False, index)
    assert "CRC" not in report.error["reason"]


@pytest.fixture(scope="module")
def before(log) -> dict[str, Ledger]:
    """For each sealed kind, a ledger just before its first entry (only .rejection is
    called on these, which leaves them unchanged)."""
    return {kind: ledger_at(log, nth(log, kind)) for kind in SEALED_KINDS}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_flipped_bit_of_a_sealed_entry_is_refused_at_that_entry(log, before, data):
    kind = data.draw(st.sampled_from(SEALED_KINDS), label="kind")
    ledger = before[kind]
    payload = log[ledger.next_index]
    position = data.draw(st.integers(0, len(payload) - 1), label="byte")
    bit = data.draw(st.integers(0, 7), label="bit")
    try:
        entry = Entry.decode(flipped(payload, position, bit))
    except MalformedEntry:
        return  # verify reports it as a malformed entry at this index
    error = ledger.rejection(entry)
    assert error is not None and error.index == ledger.next_index


SHUFFLE_FIELDS = ("cards", "c", "k", "kb", "ke", "t", "th", "u")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_shuffle_altered_and_re_signed_by_its_author_is_refused_naming_it(log, before, data):
    # Even the shuffler cannot alter its recorded shuffle and sign it again: any
    # changed byte of a ciphertext or of the proof breaks the proof (or the point),
    # and the signature makes the shuffler the culprit.
    ledger = before["shuffle"]
    honest = body(log[ledger.next_index])
    seat, msg = honest["seat"], honest["msg"]
    field = data.draw(st.sampled_from(SHUFFLE_FIELDS), label="field")
    values = msg["cards"] if field == "cards" else msg["proof"][field]
    item = data.draw(st.integers(0, len(values) - 1), label="item")
    value = values[item]
    if field == "cards":
        half = data.draw(st.integers(0, 1), label="a or b")
        value = value[half]
    position = data.draw(st.integers(0, len(value) - 1), label="byte")
    bit = data.draw(st.integers(0, 7), label="bit")
    changed = flipped(value, position, bit)
    if field == "cards":
        pair = list(msg["cards"][item])
        pair[half] = changed
        cards = list(msg["cards"])
        cards[item] = pair
        new = {**msg, "cards": cards}
    else:
        items = list(values)
        items[item] = changed
        new = {**msg, "proof": {**msg["proof"], field: items}}
    entry = signed(ledger, seat, t="shuffle", msg=new)
    refused(ledger, entry, "bad shuffle of the deck|malformed sealed message", culprit=seat)


# -- 8. the first pass's shuffle checks in a worker process (issue 29) ---------------------
# "defer proof checks to a forked worker process running in parallel with the rest of
# the pass: results must be identical, errors still name the cheater with the same
# message, and the process must always end".


@pytest.fixture
def deferring(monkeypatch):
    """Deferral forced on (a test runner may run threads) and each job counted; every
    check made afresh (none remembered from an earlier test)."""
    from p2ptable.sealed import deferred, proofs

    monkeypatch.setattr(deferred, "can_defer", lambda: True)
    sent = []
    real = deferred._encoded
    monkeypatch.setattr(deferred, "_encoded", lambda *a: sent.append(a[0]) or real(*a))
    proofs.KNOWN_GOOD.clear()
    yield sent
    proofs.KNOWN_GOOD.clear()


def no_child_left() -> bool:
    import os

    try:
        return os.waitpid(-1, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


def test_verify_in_parallel_gives_the_same_report_as_in_turn(log, deferring):
    from p2ptable.sealed import proofs

    data = build(log)
    parallel = verify_bytes(data, parallel=True)
    assert len(deferring) == PLAYERS  # every shuffle of the first pass went to the worker
    proofs.KNOWN_GOOD.clear()
    in_turn = verify_bytes(data)
    assert parallel.valid and parallel.audited
    assert parallel.to_json() == in_turn.to_json()
    assert no_child_left()


def test_a_bad_shuffle_checked_in_parallel_names_its_seat_as_in_turn(log, deferring):
    from p2ptable.sealed import proofs

    second = nth(log, "shuffle", 1)
    ledger = ledger_at(log, second)
    seat = ledger.expected().seat
    earlier = ledger_at(log, nth(log, "shuffle", 0)).book.state
    restamped = make_shuffle(
        dataclasses.replace(earlier, step=ledger.book.state.step), seat, SeededRandom(b"cheat")
    ).to_value()
    bad = signed(ledger, seat, t="shuffle", msg=restamped).encode()
    data = build([*log[:second], bad, *log[second + 1 :]])
    parallel = verify_bytes(data, parallel=True)
    assert deferring, "nothing was checked in the worker"
    proofs.KNOWN_GOOD.clear()
    in_turn = verify_bytes(data)
    assert parallel.to_json() == in_turn.to_json()
    assert (parallel.error["entry"], parallel.error["culprit"]) == (second, seat)
    assert parallel.error["reason"].startswith("bad shuffle of the deck")
    assert no_child_left()


def test_the_worker_ends_when_the_pass_is_interrupted(log, deferring):
    from p2ptable.sealed.deferred import shuffle_checks_deferred

    ledger = Ledger(Entry.decode(log[0]))
    with pytest.raises(KeyboardInterrupt), shuffle_checks_deferred():
        for payload in log[1:]:
            ledger.append(Entry.decode(payload))
            if deferring:  # a check is with the worker
                raise KeyboardInterrupt
    assert deferring
    assert no_child_left()
