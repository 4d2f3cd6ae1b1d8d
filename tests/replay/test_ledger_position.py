"""A refused entry changes nothing: the ledger's position is one value.

replay/ledger.py: "A rejected entry leaves the ledger unchanged, so a live peer can
keep going after bad input", and ``rejection()``: "The ledger is left exactly as it
was".  Issue 13: "The ledger's position is one value, so refusing an entry leaves
nothing to restore."

So these tests take the golden replays (a Pet Quartet game, a Vorsicht Lehrer! game
with its sealed deck) and a game of the toy hidden-hand game that gives cards face
down (tests/sealed/toy_game.py: the only game with transfers), stop a ledger at
positions before each kind of entry, and offer it damaged entries: a changed field
anywhere in the body, re-signed with the author's real key (so the content checks
run, not only the signature), or the old signatures kept, stripped or replaced by
another seat's; and aborts of every reason.  Whatever the ledger answers, it holds
the very same position object afterwards, equal to a record of its contents taken
before (nothing inside it was changed in place either), ``append`` refuses exactly
what ``rejection`` refuses, and the honest next entry is still accepted.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptable.crypto.encoding import pack
from p2ptable.replay import authoring
from p2ptable.replay import genesis as genesis_module
from p2ptable.replay.entries import Entry, MalformedEntry, make_body, sign_body, signed_message
from p2ptable.replay.ledger import InvalidEntry, Ledger
from p2ptable.replay.logfile import parse_frames
from p2ptable.replay.position import Applied, Position, advanced, applied
from p2ptable.sealed.group import SeededRandom
from p2ptable.sim import _next_entry
from tests.budget import examples
from tests.sealed.toy_game import GAME as TOY

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
# The golden replays' seeds (replays/README.md): the seats' real keys, to re-sign.
GOLDEN = {
    "pet-quartet": ("pet-quartet-4p-standard.p2pt", b"golden-standard"),
    "vorsicht-lehrer": ("vorsicht-lehrer-4p.p2pt", b"golden-vorsicht"),
}
TOY_SEED = b"ledger-position"


# -- the logs and the ledgers stopped along them ------------------------------------------


class Log:
    """A whole valid log, its seats' secrets and the kind of ledger to replay it with."""

    def __init__(self, entries: list[Entry], seats: list[authoring.SeatSecrets], readers):
        self.entries = entries
        self.seats = seats
        self.readers = readers  # seat -> deck secret, for the ledgers that replay it

    def ledger(self, index: int) -> Ledger:
        """A fresh ledger that has accepted entries 1 .. index-1."""
        ledger = Ledger(self.entries[0], readers=self.readers)
        for entry in self.entries[1:index]:
            ledger.append(entry)
        return ledger


def golden(name: str) -> Log:
    file, seed = GOLDEN[name]
    payloads = parse_frames((REPLAYS / file).read_bytes()).payloads
    entries = [Entry.decode(p) for p in payloads]
    seats = [authoring.SeatSecrets.from_seed(seed, i) for i in range(len(entries[0].sigs))]
    keys = [seat["key"] for seat in entries[0].body["seats"]]
    assert [s.key.public for s in seats] == keys, "the golden replay's seed changed"
    readers = {0: seats[0].deck} if name == "vorsicht-lehrer" else None  # as seat 0 sees it
    return Log(entries, seats, readers)


def toy_log() -> Log:
    """A whole game of the toy game, giving a card face down whenever it may."""
    seats = [authoring.SeatSecrets.from_seed(TOY_SEED, i, 64) for i in range(3)]
    nonce = b"\x05" * 16
    body = authoring.genesis_body(
        TOY.name,
        {},
        ["Ana", "Ben", "Cleo"],
        [s.key.public for s in seats],
        [s.chain.head for s in seats],
        [s.link_public for s in seats],
        64,
        nonce,
        [s.deck_key(nonce) for s in seats],
    )
    genesis = authoring.assemble_genesis(body, [authoring.sign_genesis(body, s) for s in seats])
    readers = {i: s.deck for i, s in enumerate(seats)}
    ledger = Ledger(genesis, readers=readers)

    def gives_first(game, state, seat):
        legal = game.legal_actions(state, seat)
        return next((a for a in legal if a.verb == "give"), legal[0])

    entries = [genesis]
    for _ in range(200):
        entry = _next_entry(ledger, seats, [gives_first] * 3)
        if entry is None:
            break
        ledger.append(entry)
        entries.append(entry)
    assert any("transfer" in e.body for e in entries) and any("reveal" in e.body for e in entries)
    return Log(entries, seats, {1: seats[1].deck})


def kind_of(entry: Entry) -> str:
    body = entry.body
    extra = "+transfer" if "transfer" in body else "+reveal" if "reveal" in body else ""
    return body["t"] + extra


def stops(log: Log) -> list[int]:
    """The positions to stop a ledger at: before the first entry of each kind, a few
    spread over the game, and after its last entry (where nothing may follow)."""
    n = len(log.entries)
    first: dict[str, int] = {}
    for index, entry in enumerate(log.entries[1:], start=1):
        first.setdefault(kind_of(entry), index)
    spread = range(1, n, max(1, n // 4))
    return sorted({*first.values(), *spread, n})


@contextmanager
def toy_registered():
    """The toy game, known to the genesis checks while ledgers of it are made."""
    with pytest.MonkeyPatch.context() as patch:
        real = genesis_module.get_game
        patch.setattr(genesis_module, "get_game", lambda n: TOY if n == TOY.name else real(n))
        yield


@pytest.fixture(scope="module")
def logs() -> dict[str, Log]:
    with toy_registered():
        return {
            "pet-quartet": golden("pet-quartet"),
            "vorsicht-lehrer": golden("vorsicht-lehrer"),
            "toy": toy_log(),
        }


def halted(log: Log, index: int) -> Ledger:
    """A ledger stopped at ``index`` by a seat's report that another withholds."""
    ledger = log.ledger(index)
    ledger.append(aborts(log, ledger)[0])
    assert ledger.stopped is not None and ledger.stopped.reason == "withheld"
    return ledger


@pytest.fixture(scope="module")
def stopped(logs) -> list[tuple[Log, Ledger]]:
    """Ledgers stopped along every log, and one halted by an abort in each (only
    ``rejection`` is called on these, and ``append`` of entries it refuses: the
    property under test keeps them as they are)."""
    with toy_registered():
        out = [(log, log.ledger(index)) for log in logs.values() for index in stops(log)]
        out += [(log, halted(log, len(log.entries) // 2)) for log in logs.values()]
    return out


def honest_next(log: Log, ledger: Ledger) -> Entry | None:
    """The log's entry after the ledger's last one (None: nothing may follow)."""
    index = ledger.next_index
    if ledger.stopped is not None or index >= len(log.entries):
        return None
    return log.entries[index]


# -- what "unchanged" means ---------------------------------------------------------------


def contents(value, depth: int = 0):
    """Everything ``value`` holds, as nested tuples down to values without parts of
    their own (held, so compared by equality): the same before and after unless
    something inside was changed in place.  (Not ``copy.deepcopy``: a sealed deck's
    points cannot be copied.)"""
    assert depth < 40, "a cycle, or a far deeper state than any game has"
    if isinstance(value, (dict, MappingProxyType)):
        return ("map", tuple((k, contents(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(contents(v, depth + 1) for v in value))
    if isinstance(value, (set, frozenset)):
        return (type(value), frozenset(value))
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return (type(value), contents(vars(value), depth + 1))
    return ("leaf", value)


def snapshot(ledger: Ledger) -> tuple:
    ledger.expected()  # fill the cache, so that it is part of what must not change
    return dict(vars(ledger)), list(ledger.entries), list(ledger.hashes)


def assert_unchanged(ledger: Ledger, before: tuple, deep: tuple) -> None:
    fields, entries, hashes = before
    now = vars(ledger)
    assert now.keys() == fields.keys()
    for name, value in fields.items():
        assert now[name] is value, f"the ledger's {name} was replaced"
    assert ledger.entries == entries and ledger.hashes == hashes
    assert contents(ledger.position) == deep, "something in the position was changed in place"


def offer(ledger: Ledger, entry: Entry, honest: Entry | None) -> InvalidEntry | None:
    """Offer ``entry`` to ``ledger`` every way a peer does; check that nothing changed."""
    before = snapshot(ledger)
    deep = contents(ledger.position)
    refused = ledger.rejection(entry)
    assert_unchanged(ledger, before, deep)
    if refused is not None:
        with pytest.raises(InvalidEntry) as raised:
            ledger.append(entry)
        assert (raised.value.index, raised.value.reason, raised.value.culprit) == (
            refused.index,
            refused.reason,
            refused.culprit,
        )
        assert_unchanged(ledger, before, deep)
    if honest is not None:
        assert ledger.rejection(honest) is None  # the game can still go on
        assert_unchanged(ledger, before, deep)
    return refused


# -- damaging an entry --------------------------------------------------------------------

LEAVES = st.one_of(
    st.integers(-2, 70), st.binary(max_size=33), st.text(max_size=6), st.none(), st.booleans()
)


HEADER = ("t", "i", "prev")  # changing these is refused before any content check


def changed(data: st.DataObject, value, texts: list[str]):
    """``value`` with one thing changed somewhere inside it (a new value: the entry's
    cached body must stay as it is).  Mostly deep inside, where the proofs are."""
    if isinstance(value, dict) and value:
        keys = sorted(value)
        keys += [k for k in keys if k not in HEADER] * 3  # the content, more often
        key = data.draw(st.sampled_from(keys), label="key")
        how = data.draw(st.sampled_from(("inside",) * 6 + ("drop", "replace", "add")))
        if how == "drop":
            return {k: v for k, v in value.items() if k != key}
        if how == "replace":
            return {**value, key: data.draw(LEAVES, label="leaf")}
        if how == "add":
            return {**value, "zz": data.draw(LEAVES, label="leaf")}
        return {**value, key: changed(data, value[key], texts)}
    if isinstance(value, list) and value:
        k = data.draw(st.integers(0, len(value) - 1), label="item")
        how = data.draw(st.sampled_from(("inside",) * 6 + ("drop", "repeat", "reverse")))
        if how == "drop":
            return value[:k] + value[k + 1 :]
        if how == "repeat":
            return value[: k + 1] + value[k:]
        if how == "reverse" and len(value) > 1:
            return value[::-1]
        return value[:k] + [changed(data, value[k], texts)] + value[k + 1 :]
    if isinstance(value, bytes) and value:
        position = data.draw(st.integers(0, len(value) - 1), label="byte")
        bit = data.draw(st.integers(0, 7), label="bit")
        flipped = bytearray(value)
        flipped[position] ^= 1 << bit
        return bytes(flipped)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + data.draw(st.sampled_from((-1, 1, 2, 9)), label="delta")
    if isinstance(value, str):
        return data.draw(st.sampled_from([*texts, value + " 1", value[:-1], "draw"]), label="text")
    return data.draw(LEAVES, label="leaf")


def resigned(log: Log, ledger: Ledger, body: dict, sigs) -> Entry:
    """``body`` signed as its kind is signed, with the real keys of its signers."""
    body_bytes = pack(body)
    signers = [seat for seat, _ in sigs if isinstance(seat, int) and 0 <= seat < len(log.seats)]
    if body.get("t") in ("open", "secrets") and isinstance(body.get("parts"), list):
        parts = []
        for seat, item in enumerate(body["parts"]):
            if isinstance(item, list) and len(item) == 2 and seat < len(log.seats):
                part = {"t": "part", "i": body.get("i"), "prev": body.get("prev")}
                message = signed_message(
                    ledger.game_id, pack({**part, "seat": seat, "msg": item[0]})
                )
                item = [item[0], log.seats[seat].key.sign(message)]
            parts.append(item)
        body_bytes = pack({**body, "parts": parts})
    message = signed_message(ledger.game_id, body_bytes)
    return Entry(body_bytes, tuple((s, log.seats[s].key.sign(message)) for s in signers))


def damaged(data: st.DataObject, log: Log, ledger: Ledger, base: Entry) -> Entry:
    seat = ledger.expected().seat
    texts = []
    if seat is not None and ledger.expected().kind == "action":
        texts = [a.text for a in ledger.game.legal_actions(ledger.state, seat)]
    body = changed(data, dict(base.body), texts)
    how = data.draw(st.sampled_from(("re-signed",) * 6 + ("kept", "stripped", "other")))
    if how == "re-signed":
        return resigned(log, ledger, body, base.sigs)
    if how == "kept":
        return Entry(pack(body), base.sigs)
    if how == "stripped":
        return Entry(pack(body), ())
    other = data.draw(st.integers(0, len(log.seats) - 1), label="other seat")
    return resigned(log, ledger, body, ((other, b""),))


def aborts(log: Log, ledger: Ledger) -> list[Entry]:
    """Aborts a seat could send at this position: a withholding report, cheating
    evidence (the expected action, changed into one the rules refuse) and an
    equivocation (an earlier action of a seat, and a different one it signed)."""
    n, index = len(log.seats), ledger.next_index
    detector = index % n
    culprit = (detector + 1) % n

    def abort(reason: str, culprit: int, evidence: list[bytes]) -> Entry:
        body = make_body(
            t="abort",
            i=index,
            prev=ledger.head,
            reason=reason,
            culprit=culprit,
            detail="spec",
            evidence=evidence,
        )
        return sign_body(ledger.game_id, body, {detector: log.seats[detector].key})

    out = [abort("withheld", culprit, [])]
    expected = ledger.expected()
    if expected.kind == "action" and expected.seat != detector:
        fields = dict(t="action", i=index, prev=ledger.head, seat=expected.seat, action="fly 9")
        keys = {expected.seat: log.seats[expected.seat].key}
        bad = sign_body(ledger.game_id, make_body(**fields), keys)
        out.append(abort("cheated", expected.seat, [bad.encode()]))
    earlier = [e for e in log.entries[1:index] if e.body["t"] == "action"]
    if earlier and earlier[-1].body["seat"] != detector:
        mine = earlier[-1]
        who = mine.body["seat"]
        twin = make_body(**{**mine.body, "action": mine.body["action"] + " 1"})
        other = sign_body(ledger.game_id, twin, {who: log.seats[who].key})
        out.append(abort("equivocation", who, [mine.encode(), other.encode()]))
    return out


# -- the properties -----------------------------------------------------------------------


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_whatever_entry_a_ledger_is_offered_it_keeps_its_position_unless_it_accepts(stopped, data):
    log, ledger = data.draw(st.sampled_from(stopped), label="where")
    honest = honest_next(log, ledger)
    if honest is None:  # the game is over: the last entry again, for this position
        last = log.entries[ledger.next_index - 1]
        body = {**last.body, "i": ledger.next_index, "prev": ledger.head}
        base = resigned(log, ledger, body, last.sigs)
    else:
        base = honest
    base = data.draw(st.sampled_from([base] * 4 + aborts(log, ledger)), label="base")
    entry = damaged(data, log, ledger, base)
    if data.draw(st.booleans(), label="as bytes"):
        # As a peer receives it: encoded, perhaps with a bit flipped on the way.
        encoded = bytearray(entry.encode())
        if data.draw(st.booleans(), label="flip"):
            position = data.draw(st.integers(0, len(encoded) - 1), label="byte")
            encoded[position] ^= 1 << data.draw(st.integers(0, 7), label="bit")
        try:
            entry = Entry.decode(bytes(encoded))
        except MalformedEntry:
            return  # refused before it reaches any ledger (verify: a malformed entry)
    offer(ledger, entry, honest)


def test_every_kind_of_entry_was_offered(stopped):
    # The property above covers each kind of entry, the sealed ones included, and a
    # ledger after the result.
    kinds = set()
    for log, ledger in stopped:
        honest = honest_next(log, ledger)
        kinds.add(kind_of(honest) if honest else "halted" if ledger.stopped else "end")
    assert kinds >= {
        "action",
        "action+reveal",
        "action+transfer",
        "chance",
        "shuffle",
        "open",
        "secrets",
        "result",
        "end",
        "halted",
    }


def test_the_aborts_offered_are_accepted_as_they_are(stopped):
    # The aborts the property damages are real ones: each would be accepted as
    # written, so a damaged one tests the checks of a valid abort, not a typo.
    for log, ledger in stopped:
        if ledger.expected().kind == "none":
            continue
        for abort in aborts(log, ledger):
            before = snapshot(ledger)
            deep = contents(ledger.position)
            assert ledger.rejection(abort) is None, abort.body
            assert_unchanged(ledger, before, deep)


def refusals(log: Log, ledger: Ledger, honest: Entry) -> list[Entry]:
    """A few damaged versions of ``honest``, each of which the ledger must refuse."""
    body = dict(honest.body)
    out = [
        Entry(pack({**body, "i": body["i"] + 1}), honest.sigs),  # not the next index
        Entry(pack({**body, "prev": bytes(32)}), honest.sigs),  # not linked
    ]
    if honest.sigs:
        forged = bytearray(honest.sigs[-1][1])
        forged[0] ^= 1
        out.append(
            Entry(honest.body_bytes, (*honest.sigs[:-1], (honest.sigs[-1][0], bytes(forged))))
        )
    if body["t"] == "action":
        out.append(resigned(log, ledger, {**body, "action": "fly 9"}, honest.sigs))
    if body["t"] == "chance":
        out.append(Entry(pack({**body, "pre": body["pre"][::-1]}), ()))
    if body["t"] in ("open", "secrets"):
        out.append(Entry(pack({**body, "parts": body["parts"][::-1]}), ()))
    if body["t"] == "result":
        out.append(resigned(log, ledger, {**body, "scores": body["scores"][::-1]}, honest.sigs))
    if "reveal" in body:
        msg = body["reveal"]
        out.append(
            resigned(log, ledger, {**body, "reveal": {**msg, "card": msg["card"] + 1}}, honest.sigs)
        )
    if "transfer" in body:
        msg = body["transfer"]
        out.append(
            resigned(log, ledger, {**body, "transfer": {**msg, "to": msg["to"] + 1}}, honest.sigs)
        )
    return out


@pytest.mark.parametrize("name", ["pet-quartet", "vorsicht-lehrer", "toy"])
def test_at_every_position_refusals_leave_the_game_where_it_was(logs, name):
    # "A rejected entry leaves the ledger unchanged, so a live peer can keep going
    # after bad input": before every entry of a whole game the ledger refuses damaged
    # versions of it, and then, accepting the honest entries, ends where the log ends.
    log = logs[name]
    with toy_registered():
        ledger = Ledger(log.entries[0], readers=log.readers)
    for honest in log.entries[1:]:
        for bad in refusals(log, ledger, honest):
            assert offer(ledger, bad, honest) is not None, bad.body
        ledger.append(honest)
    assert ledger.head == log.entries[-1].hash and ledger.finished


def test_a_refused_action_whose_transfer_passes_and_reveal_fails_changes_nothing(logs, monkeypatch):
    """Found in review: an action that both gives a card and shows one had its
    transfer applied to the sealed deck before its reveal failed.  With the sealed
    book a frozen value, the transfer's next book is simply never committed."""
    toy = logs["toy"]
    index = next(i for i, e in enumerate(toy.entries) if "transfer" in e.body)
    with toy_registered():
        ledger = toy.ledger(index)
    body = dict(toy.entries[index].body)
    seat = body["seat"]
    # Pretend the rules also show the given card, and claim a card it is not.
    monkeypatch.setattr(TOY, "hand_card_played", lambda s, seat, a: (a.args[0], 99))
    secret = toy.seats[seat].deck
    body["reveal"] = ledger.book.make_reveal(seat, secret, 1, SeededRandom(b"r"))
    forged = sign_body(ledger.game_id, make_body(**body), {seat: toy.seats[seat].key})
    refused = offer(ledger, forged, None)
    assert refused is not None and refused.culprit == seat
    assert refused.reason.startswith("reveal of")  # the transfer before it passed


# -- the fast constructors are the plain ones ----------------------------------------------


@given(
    state=st.integers(),
    tips=st.tuples(st.binary(max_size=4)),
    steps=st.integers(0, 9),
    index=st.integers(0, 99),
    seat=st.none() | st.integers(0, 5),
    text=st.text(max_size=9),
)
def test_advanced_and_applied_make_the_same_values_as_the_classes(
    state, tips, steps, index, seat, text
):
    # replay/position.py builds the values of every move without __init__: they
    # must be the values __init__ makes, field for field (and frozen all the same).
    position = advanced(state, tips, steps, None)
    assert position == Position(state, tips, steps, None)
    assert vars(position) == vars(Position(state, tips, steps, None))
    described: list[str] = []
    did = applied(index, "action", seat, lambda: described.append(text) or text)
    assert described == []  # the words are worked out when read, not when applied
    assert did == Applied(index, "action", seat, text)
    assert did.text == text and described == [text]  # once
    made = {k: v for k, v in vars(did).items() if k != "_describe"}
    assert made == vars(Applied(index, "action", seat, text))
    with pytest.raises(AttributeError):
        position.state = 1  # type: ignore[misc]
