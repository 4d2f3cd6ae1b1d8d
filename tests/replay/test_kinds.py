"""Each entry kind is one row (replay/kinds.py, replay/rows.py): its body type
reads every recorded entry of its kind and writes it back byte for byte.

Issue 24: "Each entry kind is one row: a frozen body type with ``to_body()``/
``parse()``" with "no behaviour change, not one byte on the wire or on disk".
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from p2ptable.crypto.encoding import pack
from p2ptable.replay.entries import Entry, MalformedEntry, bundled_parts
from p2ptable.replay.kinds import BODIES, BUNDLE_KINDS, KIND_OF, Kind, Reason
from p2ptable.replay.logfile import parse_frames

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((ROOT / "replays").glob("*.p2pt"))


def recorded() -> dict[Kind, list[Entry]]:
    """Every entry of every golden replay, and every part its bundles hold, by kind."""
    found: dict[Kind, list[Entry]] = {kind: [] for kind in BODIES}
    for path in REPLAYS:
        for payload in parse_frames(path.read_bytes()).payloads:
            entry = Entry.decode(payload)
            found[entry.kind].append(entry)
            if entry.kind in BUNDLE_KINDS:
                found[Kind.PART].extend(bundled_parts(entry.body))
    return found


RECORDED = recorded()


@pytest.mark.parametrize("kind", list(BODIES), ids=str)
def test_each_row_writes_back_every_recorded_body_byte_for_byte(kind):
    body_type = BODIES[kind]
    seen = RECORDED[kind]
    # The goldens all end with a result, and in none does a seat leave (the
    # departure's bodies are written back in tests/replay/test_departure_ledger.py).
    if kind not in (Kind.ABORT, Kind.DEPARTURE, Kind.SHARE):
        assert seen, f"no {kind} entry in the recorded games"
    for entry in seen:
        value = body_type.parse(entry.body)
        assert value.kind is kind
        assert value.to_body() == entry.body
        assert pack(value.to_body()) == entry.body_bytes
        assert value.encode() == entry.body_bytes
        assert entry.typed == value


def test_a_body_of_another_kind_is_not_parsed():
    action = RECORDED[Kind.ACTION][0]
    with pytest.raises(MalformedEntry, match="not a result entry"):
        BODIES[Kind.RESULT].parse(action.body)
    with pytest.raises(MalformedEntry, match="unknown entry kind"):
        BODIES[Kind.RESULT].parse({"t": "bogus"})


def test_an_optional_field_is_absent_not_empty():
    plain = [
        e for e in RECORDED[Kind.ACTION] if "reveal" not in e.body and "transfer" not in e.body
    ]
    value = BODIES[Kind.ACTION].parse(plain[0].body)
    assert value.reveal is None and "reveal" not in value.to_body()


def test_kinds_print_and_compare_as_their_wire_text():
    for text, kind in KIND_OF.items():
        assert kind == text and f"{kind}" == text and str(kind) == text
        assert pack(kind) == pack(text)
    assert str(Reason.CHEATED) == "cheated" and Reason.of("cheated") is Reason.CHEATED
    assert Reason.of("bogus") is None and Reason.of(["cheated"]) is None
    assert [r.proved for r in Reason] == [True, True, False, False]
    assert sorted(Reason, key=lambda r: r.rank) == list(Reason)


# -- the registry is the only place kinds are named ------------------------------------

PACKAGE = ROOT / "p2ptable"
KIND_TEXTS = frozenset(kind.value for kind in Kind)
# Where the text of a kind may be written: the Kind enum itself.
REGISTRY = {"replay/kinds.py"}
# The rules and the sealed deck know no log entries (they may not import the log:
# tests/test_import_graph.py, tests/games/): the same words there name other
# things (a chance step's kind, a proof's context, a playout's events).
BELOW_THE_LOG = ("engine/", "sealed/", "games/")
# Calls whose arguments are an entry's kind (the values the ledger makes).
KIND_TAKERS = {"Expected", "Applied", "applied", "EntryWords"}


def _is_kind(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in KIND_TEXTS


def _names_kinds(node: ast.AST) -> bool:
    """A kind's text, or a tuple, list or set of them (not of field names:
    ``{"i", "action"}`` names the fields of a map)."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_is_kind(e) for e in node.elts)
    return _is_kind(node)


def kind_literals(source: str) -> list[tuple[int, str]]:
    """(line, what) for every place ``source`` compares to or builds an entry
    kind from its text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
            _names_kinds(side) for side in [node.left, *node.comparators]
        ):
            found.append((node.lineno, "compares a kind to its text"))
        elif isinstance(node, ast.MatchValue) and _is_kind(node.value):
            found.append((node.lineno, "matches a kind against its text"))
        elif isinstance(node, ast.keyword) and node.arg == "t" and _is_kind(node.value):
            found.append((node.value.lineno, "builds a body of a kind named by its text"))
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None]
            pairs = zip(node.keys, node.values, strict=True)
            if any(
                isinstance(k, ast.Constant) and k.value == "t" and _is_kind(v) for k, v in pairs
            ):
                found.append((node.lineno, "builds a body of a kind named by its text"))
            elif len(keys) >= 2 and all(_is_kind(k) for k in keys):
                found.append((node.lineno, "a table keyed by kinds' texts"))
        elif isinstance(node, (ast.Tuple, ast.Set, ast.List)):
            if len(node.elts) >= 2 and all(_is_kind(e) for e in node.elts):
                found.append((node.lineno, "a list of kinds' texts"))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in KIND_TAKERS and any(_is_kind(a) for a in node.args):
                found.append((node.lineno, f"{name} of a kind named by its text"))
    return found


def test_no_module_but_the_registry_names_an_entry_kind_by_its_text():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name in REGISTRY or name.startswith(BELOW_THE_LOG):
            continue
        for line, what in kind_literals(path.read_text(encoding="utf-8")):
            offenders.append(f"p2ptable/{name}:{line}: {what}")
    assert offenders == []


@pytest.mark.parametrize(
    "source",
    [
        'if body["t"] == "action": pass',
        'ok = entry.kind in ("open", "secrets")',
        'body = make_body(t="result", i=1)',
        'raw = pack({"t": "part", "i": 1})',
        'HANDLERS = {"action": a, "chance": c}',
        'KINDS = ("action", "shuffle")',
        'did = Applied(index, "abort", None, "text")',
        'if "commits" != expected.kind: pass',
        'match kind:\n    case "open": pass',
    ],
)
def test_the_walk_finds_a_kind_named_by_its_text(source):
    assert kind_literals(source)


@pytest.mark.parametrize(
    "source",
    [
        'text = body["action"]',  # a field, not a kind
        'msg = {"action": text, "salt": salt}',
        "if expected.kind == Kind.ACTION: pass",
        'step = ChanceStep("shuffle", "tiles", (3,))',  # a chance step's kind
        'position = {"state": s, "result": None, "commits": None}',
        'fields = set(data) != {"i", "action"}',
    ],
)
def test_the_walk_leaves_fields_and_kinds_by_name_alone(source):
    assert kind_literals(source) == []
