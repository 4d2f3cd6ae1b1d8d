"""`p2ptable export`: a record a person can read (issue 16).

Issue 16: "`p2ptable export REPLAY [--format text|json] [--seat N]` writes the game
as text, in the spirit of PGN and SGF: a header of tag pairs (Game, Variant, Date,
Seats, Result, the log's head hash, the command that verifies it), then one
numbered line per entry in words ... Hidden cards read as 'a card' unless `--seat`
is given or the game was audited.  The text is derived from the signed log and says
so; it is not a replay itself."  And: "The same per-entry words serve
`verify --events`, `show` and `export`, from one place."
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from p2ptable.cli import main
from p2ptable.crypto.encoding import pack
from p2ptable.replay import verify as verifying
from p2ptable.replay.entries import Entry, make_body
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.ui import record as records

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
GOLDEN = sorted(REPLAYS.glob("*.p2pt"))
HIDDEN = REPLAYS / "vorsicht-lehrer-4p.p2pt"  # seats Ana, Ben, Cleo, Dev; audited
SCHOOL = REPLAYS / "teachers-pet-4p.p2pt"  # Bully's blind picks hand cards over
TAGS = ("Game", "Variant", "Date", "Seats", "Result", "Entries", "Head", "Verify", "Hidden")
NAMES = ["Ana", "Ben", "Cleo", "Dev"]
CUT = 60  # entries kept of HIDDEN: past the first deals and plays, far from the end


def run(*args: str):  # noqa: ANN201
    return CliRunner().invoke(main, list(args))


@functools.cache  # a record is the same every time: each is made once per run
def export(*args: str) -> str:
    result = run("export", *args)
    assert result.exit_code == 0, result.output
    return result.output


def tags(text: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.M))


def numbered(text: str) -> list[tuple[int, str]]:
    return [(int(n), rest) for n, rest in re.findall(r"^(\d+)\. (.*)$", text, re.M)]


def payloads(path: Path) -> list[bytes]:
    return parse_frames(path.read_bytes()).payloads


def write(path: Path, frames: list[bytes]) -> Path:
    path.write_bytes(MAGIC + b"".join(encode_frame(p) for p in frames))
    return path


@functools.cache
def events(path: Path) -> dict[int, str]:
    """``verify --events``: entry index -> the words after the column."""
    output = run("verify", "--events", str(path)).output
    return {int(n): words for n, words in re.findall(r"^ {0,4}(\d+)  \S+\s+(.*)$", output, re.M)}


@pytest.fixture(scope="module", autouse=True)
def verified_once():
    """Each file is verified once for all this module asks of it.  `export`
    verifies a file before it writes a word, and `verify --json` and `verify
    --events` verify it again: a golden file with hidden hands was verified nine
    times here, half a second each.  ``verify_bytes`` is a function of the bytes
    alone, so its report is kept for the module, for `export` (ui/record.py) and
    `verify` (replay/verify.py) alike; a file that differs by a byte is verified
    afresh."""
    real, kept = verifying.verify_bytes, {}

    def verify_bytes(data: bytes, **options: bool) -> verifying.VerifyReport:
        # parallel or not, the report is the same (tests/replay, section 8)
        if data not in kept:
            kept[data] = real(data)
        return kept[data]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verifying, "verify_bytes", verify_bytes)
        patch.setattr(records, "verify_bytes", verify_bytes)
        yield


@pytest.fixture(scope="module")
def cut(tmp_path_factory) -> Path:
    """HIDDEN's first CUT entries: a log without its end, so without the deck secrets."""
    return write(tmp_path_factory.mktemp("export") / "cut.p2pt", payloads(HIDDEN)[:CUT])


# -- every golden replay, as text and as JSON -----------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_golden_replay_exports_a_header_and_one_line_per_entry(path: Path) -> None:
    text = export(str(path))
    frames = payloads(path)
    header = tags(text)
    assert set(TAGS) <= set(header), header
    assert header["Entries"] == str(len(frames))
    # The head is the hash of the log's last entry, as a hex string.
    assert header["Head"] == Entry.decode(frames[-1]).hash.hex()
    assert header["Verify"] == f"p2ptable verify {path}"
    assert header["Date"].startswith("unknown")  # the genesis holds no date
    assert "not a replay" in header["Note"] and "derived from the signed log" in header["Note"]
    verified = json.loads(run("verify", "--json", str(path)).output)
    assert header["Seats"] == ", ".join(
        f"{n} {seat['name']}" for n, seat in enumerate(verified["seats"], start=1)
    )
    assert "winner: " in header["Result"]
    # One numbered line per entry, 0 (the genesis) to the last, in order.
    assert [n for n, _ in numbered(text)] == list(range(verified["entries"]))
    assert verified["entries"] == len(frames)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_the_json_export_is_the_same_record(path: Path) -> None:
    data = json.loads(export(str(path), "--format", "json"))
    text = export(str(path))
    header, entries = data["header"], data["entries"]
    assert header["game"] == tags(text)["Game"]
    assert header["head"] == tags(text)["Head"]
    assert header["entries"] == len(entries) == len(payloads(path))
    assert header["ends"] == "result" and header["outcome"]["winners"]
    assert [e["index"] for e in entries] == list(range(len(entries)))
    for entry, (_, line) in zip(entries, numbered(text), strict=True):
        assert line.endswith(entry["words"])  # the text line is the moment, then the words
        assert set(entry) >= {"index", "kind", "seat", "moment", "words"}
        assert ("action" in entry) == (entry["kind"] == "action")
    actions = [e for e in entries if e["kind"] == "action"]
    assert actions and all(e["action"] and e["seat"] is not None for e in actions)


def readme_example() -> list[str]:
    """The lines the README shows under ``$ p2ptable export replays/teachers-pet-4p.p2pt``."""
    readme = (REPLAYS.parent / "README.md").read_text(encoding="utf-8").splitlines()
    start = readme.index("    $ p2ptable export replays/teachers-pet-4p.p2pt") + 1
    shown = []
    for line in readme[start:]:
        if line and not line.startswith("    "):
            break
        shown.append(line.removeprefix("    "))
    return [line for line in shown if line not in ("", "...")]


def test_the_readme_example_is_what_export_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPLAYS.parent)  # the README names the file from the repository
    text = run("export", "replays/teachers-pet-4p.p2pt").output.splitlines()
    shown = readme_example()
    assert len(shown) > 15
    assert all(line in text for line in shown), [line for line in shown if line not in text]
    # Teacher's Pet says when each entry falls in the school week, and a Move and
    # its sneak roll are two lines, one per entry.
    assert "91. Day 2, Period 1: Cleo moves to the Gymnasium" in text
    assert (
        "92. Day 2, Period 1: Cleo rolls 2 to sneak into the Gymnasium (needs 4) and is "
        "caught by the Hall Monitor"
    ) in text
    assert text[-1].startswith("415. After Day 5: ")


def test_a_game_without_moments_has_no_prefix_and_pet_quartet_counts_rounds() -> None:
    assert numbered(export(str(HIDDEN)))[1] == (1, "Ben starts")
    quartet = numbered(export(str(REPLAYS / "pet-quartet-3p-maestro.p2pt")))
    assert quartet[2] == (2, "Round 1: Cleo goes first")


def test_the_record_can_be_written_to_a_file(tmp_path: Path) -> None:
    # Any record will do (every golden record is plain ASCII): a quick one.
    game = str(REPLAYS / "pet-quartet-3p-maestro.p2pt")
    out = tmp_path / "game.txt"
    assert run("export", game, "-o", str(out)).output == ""
    assert out.read_text(encoding="utf-8") == export(game)


# -- the same words as verify --events ----------------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_export_says_what_verify_events_says_for_every_entry(path: Path) -> None:
    said = events(path)
    entries = json.loads(export(str(path), "--format", "json"))["entries"]
    assert set(said) == {e["index"] for e in entries} - {0}
    for entry in entries[1:]:
        # An audited record adds the hidden cards in brackets after the same words.
        words = re.sub(r" \[[^\]]*\]$", "", entry["words"])
        assert words.endswith(said[entry["index"]]), entry


# -- hidden cards ----------------------------------------------------------------------


def test_a_log_without_its_end_is_not_audited(cut: Path) -> None:
    result = run("verify", "--json", str(cut))
    report = json.loads(result.output)
    assert result.exit_code == 1 and "audited" not in report
    assert report["error"] == {
        "entry": CUT,
        "reason": "the log ends before the game is over (no result entry)",
        "culprit": None,
    }


def test_an_unfinished_log_is_recorded_as_far_as_it_goes(cut: Path) -> None:
    result = run("export", str(cut))
    assert result.exit_code == 0, result.output
    header = tags(result.output)
    assert header["Result"] == (
        "unfinished: the log ends before the game is over (no result entry)"
    )
    assert header["Entries"] == str(CUT)
    assert [n for n, _ in numbered(result.output)] == list(range(CUT))


def test_a_stopped_game_is_recorded_to_its_abort(tmp_path: Path) -> None:
    # An agreed abort (no signature: withholding proves nothing) after the cut.
    frames = payloads(HIDDEN)[:CUT]
    fields = dict(t="abort", i=CUT, prev=Entry.decode(frames[-1]).hash, reason="withheld")
    body = make_body(**fields, culprit=1, detail="no part for 20 s", evidence=[])
    path = write(tmp_path / "stopped.p2pt", [*frames, Entry(body, ()).encode()])
    result = run("export", str(path))
    assert result.exit_code == 0, result.output
    assert tags(result.output)["Result"] == (
        f"stopped at entry {CUT}: Ben accused of withheld by a seat (not provable from the log)"
    )
    assert numbered(result.output)[-1] == (CUT, "game stopped: Ben withheld (reported, not proved)")


def test_without_seat_an_unaudited_log_never_names_a_hidden_card(cut: Path) -> None:
    text = export(str(cut))
    assert tags(text)["Hidden"].startswith("every hidden card read as 'a card'")
    said = events(cut)
    lines = dict(numbered(text))
    deals = [n for n, line in lines.items() if "dealt" in line]
    assert len(deals) > 5
    for n in deals:
        assert "[" not in lines[n] and lines[n] == said[n]
    # Every line is the public words verify --events prints (after its subject).
    assert all("[" not in lines[n] and lines[n].endswith(said[n]) for n in said)
    # The same deals in the audited file do name their cards: the check above bites.
    audited = dict(numbered(export(str(HIDDEN))))
    assert all("[" in audited[n] for n in deals)


def test_seat_on_a_log_without_the_deck_secrets_is_refused(cut: Path) -> None:
    result = run("export", str(cut), "--seat", "2")
    assert result.exit_code == 1
    assert "Error: cannot show what Ben saw: the log holds no deck secrets" in result.output


def test_your_own_log_of_a_game_not_over_is_read_with_your_secrets_file(tmp_path: Path) -> None:
    # Issue 25: your own cards named to you "in `show --seat` for your own replay while
    # the game is unfinished (your secrets file is beside it)"; export reads it too.
    from p2ptable.net.persistence import save_secrets
    from p2ptable.randomness.chain import DEFAULT_LENGTH
    from p2ptable.replay.seat_secrets import SeatSecrets
    from p2ptable.sim import simulate

    whole = simulate("teachers-pet", 3, "own", tmp_path / "whole.p2pt").path
    mine = write(tmp_path / "ben.p2pt", payloads(whole)[:60])
    secrets = SeatSecrets.from_seed(b"own", 1, DEFAULT_LENGTH)  # sim's seat 1: Ben
    save_secrets(mine, secrets, 1, [f"tcp://127.0.0.1:{47001 + k}" for k in range(3)], 47002)
    text = export(str(mine), "--seat", "Ben")
    assert tags(text)["Hidden"] == (
        "as Ben saw it, read with Ben's secrets file: Ben's own cards named, every other "
        "hidden card read as 'a card'"
    )
    told = dict(numbered(text))
    audited = dict(numbered(run("export", str(whole), "--seat", "Ben").output))
    assert told == {n: audited[n] for n in told}  # the words the audit gives Ben
    assert any("[" in words for words in told.values())
    refused = run("export", str(mine), "--seat", "Ana")
    assert refused.exit_code == 1 and "ben.p2pt.secrets is another seat's" in refused.output


def test_an_audited_log_names_every_card_it_deals() -> None:
    text = export(str(HIDDEN))
    assert tags(text)["Hidden"].startswith("every card named: the log is audited")
    lines = dict(numbered(text))
    assert lines[6].startswith("16 cards are dealt, 4 to each [Ana: ")
    assert all(f"{name}: " in lines[6] for name in NAMES)
    assert re.fullmatch(r"a card is dealt to Ben \[[^;\]]+\]", lines[10])


def seen(words: str) -> dict[str, str]:
    """The cards in a line's brackets, by the seat they went to ('' for one seat)."""
    match = re.search(r" \[([^\]]*)\]$", words)
    if match is None:
        return {}
    parts = match.group(1).split("; ")
    if ": " not in parts[0]:
        return {"": parts[0]}
    return dict(part.split(": ", 1) for part in parts)


def dealt(words: str) -> dict[str, str]:
    """The cards a deal names, by receiver (a deal to one seat names it in the words)."""
    cards = seen(words)
    if "" in cards:
        return {re.search(r"dealt to (\w+)", words).group(1): cards[""]}
    return cards


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_seat_names_that_seats_own_dealt_cards_only(number: int) -> None:
    name = NAMES[number - 1]
    everyone = json.loads(export(str(HIDDEN), "--format", "json"))["entries"]
    mine = json.loads(export(str(HIDDEN), "--format", "json", "--seat", str(number)))
    assert mine["header"]["hidden"].startswith(f"as {name} saw it: {name}'s own cards named")
    named = 0
    for all_seen, own in zip(everyone, mine["entries"], strict=True):
        if all_seen["kind"] != "open":
            assert own["words"] == all_seen["words"]  # only deals move hidden cards here
            continue
        cards = dealt(all_seen["words"])
        expected = {name: cards[name]} if name in cards else {}
        assert dealt(own["words"]) == expected, (own, all_seen)
        named += bool(expected)
    assert named > 5
    if number == 2:  # the name works as well as the number, in any case
        by_name = json.loads(export(str(HIDDEN), "--format", "json", "--seat", name.lower()))
        assert by_name == mine


def test_a_card_handed_over_is_named_for_its_giver_and_its_taker_only() -> None:
    everyone = json.loads(export(str(SCHOOL), "--format", "json"))["entries"]
    gives = [e for e in everyone if "hands a card to" in e["words"]]
    assert len(gives) >= 3
    views = {
        seat: json.loads(export(str(SCHOOL), "--format", "json", "--seat", str(seat + 1)))
        for seat in range(4)
    }
    for give in gives:
        taker = NAMES.index(re.search(r"hands a card to (\w+)", give["words"]).group(1))
        card = seen(give["words"])[""]
        for seat, record in views.items():
            words = record["entries"][give["index"]]["words"]
            if seat in (give["seat"], taker):
                assert words == give["words"] and seen(words) == {"": card}
            else:
                assert "[" not in words, (seat, words)


# -- refusals ---------------------------------------------------------------------------


def test_a_tampered_file_is_refused_with_the_reason_and_nothing_is_exported(
    tmp_path: Path,
) -> None:
    frames = payloads(HIDDEN)
    index = next(i for i, p in enumerate(frames) if Entry.decode(p).kind == "action")
    entry = Entry.decode(frames[index])
    frames[index] = Entry(pack(dict(entry.body, action="take")), entry.sigs).encode()
    path = write(tmp_path / "tampered.p2pt", frames)
    verdict = run("verify", str(path)).output.splitlines()[-1]
    result = run("export", str(path))
    assert result.exit_code == 1
    assert f"INVALID at entry {index}: bad signature" in verdict
    assert result.output.startswith(f"Error: {verdict} Nothing was exported")
    assert "[Game" not in result.output and "0. " not in result.output


def test_a_damaged_tail_is_said_plainly(tmp_path: Path) -> None:
    path = tmp_path / "torn.p2pt"
    path.write_bytes(HIDDEN.read_bytes()[:-10])
    last = len(payloads(HIDDEN)) - 1
    result = run("export", str(path))
    assert result.exit_code == 1
    assert f"INVALID at entry {last}: torn record" in result.output
    assert f"The file is damaged from entry {last} on (entries 0 to {last - 1} are whole)." in (
        result.output
    )


@pytest.mark.parametrize(
    ("seat", "says"),
    [
        ("Zed", "no seat named 'Zed': the seats are 1 Ana, 2 Ben, 3 Cleo, 4 Dev"),
        ("0", "seats count from 1, not 0"),
        ("5", "no seat 5: this game has 4 seats"),
    ],
)
def test_a_bad_seat_is_a_usage_error(cut: Path, seat: str, says: str) -> None:
    # HIDDEN's seats, in its first entries: quicker to verify than the whole game.
    result = run("export", str(cut), "--seat", seat)
    assert result.exit_code == 2
    assert f"Error: Invalid value for --seat: {says}" in result.output
