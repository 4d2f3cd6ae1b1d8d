"""The replay page's data and pictures (issue 28), without a browser.

Issue 28: "`p2ptable export REPLAY --format html [-o FILE]` writes one self-contained
HTML file: no network, no external scripts, styles or fonts ... the game's data is
embedded.  A picture of the table at every entry, drawn (SVG) from the same views
the screens use ... Whose view: public, or any seat's (what that seat knew at that
moment), or every card for an audited game ... Hostile input: names, talk and texts
from the log are escaped (a seat named `<script>` must show as text); the file is
built only from a log that verifies."
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from html import escape
from pathlib import Path

import pytest
from click.testing import CliRunner

from p2ptable.cli import main
from p2ptable.games import get_game
from p2ptable.games.teachers_pet.view import window_question
from p2ptable.net.persistence import save_secrets
from p2ptable.randomness.chain import DEFAULT_LENGTH
from p2ptable.replay.entries import Entry
from p2ptable.replay.ledger import Ledger
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.replay.seat_secrets import SeatSecrets
from p2ptable.replay.verify import secrets_in_log
from p2ptable.sim import simulate
from p2ptable.ui import html_data, html_page, inline_js, svg_table
from p2ptable.ui.narrative import entry_words
from p2ptable.ui.record import RecordRefused, check

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GOLDEN = sorted(REPLAYS.glob("*.p2pt"))
SCHOOL = REPLAYS / "teachers-pet-4p.p2pt"
CLASS = REPLAYS / "vorsicht-lehrer-4p.p2pt"
QUARTET = REPLAYS / "pet-quartet-4p-standard.p2pt"
HOSTILE = ("<script>alert(1)</script>", "<img src=x onerror=alert(2)>")


@functools.cache
def data_of(path: Path) -> dict:
    return html_data.page_data(check(str(path), path.read_bytes()))


def as_text(words: str) -> str:
    """Words as an SVG text element holds them."""
    return escape(words, quote=False)


def picture(data: dict, view: str, index: int) -> str:
    return svg_table.svg([data["pieces"][k] for k in data["frames"][view][index]])


def states(path: Path) -> list:
    """The state after every entry, with every secret read (the audit)."""
    payloads = parse_frames(path.read_bytes()).payloads
    secrets = secrets_in_log(payloads)
    ledger = Ledger(Entry.decode(payloads[0]), readers=dict(enumerate(secrets or ())))
    out = [ledger.state]
    for payload in payloads[1:]:
        ledger.append(Entry.decode(payload))
        out.append(ledger.state)
    return out


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_entry_is_embedded_as_it_is_in_the_file_with_a_picture_per_view(path: Path) -> None:
    # "the game's data is embedded": the page checks the file's own bytes
    data = data_of(path)
    payloads = parse_frames(path.read_bytes()).payloads
    assert [base64.b64decode(e) for e in data["entries"]] == payloads
    assert len(data["words"]) == len(data["moments"]) == len(payloads)
    for view in data["views"]:
        frames = data["frames"][view["id"]]
        assert len(frames) == len(payloads)
        assert all(0 <= k < len(data["pieces"]) for ids in frames for k in ids)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_the_views_are_public_each_seat_and_every_card_for_an_audited_game(path: Path) -> None:
    # "public, or any seat's ..., or every card for an audited game"
    data = data_of(path)
    ids = [v["id"] for v in data["views"]]
    if getattr(get_game(data["game"]), "hidden_hands", False) and data["audited"]:
        assert ids == ["public", *(f"seat-{k}" for k in range(len(data["names"]))), "all"]
    else:
        assert ids == ["public"]


def test_the_words_are_the_narratives_and_the_moments_say_day_and_period() -> None:
    # "the entry's words from ui/narrative.py, the Day/Period or round"
    data = data_of(SCHOOL)
    payloads = parse_frames(SCHOOL.read_bytes()).payloads
    ledger = Ledger(Entry.decode(payloads[0]))
    for index, payload in enumerate(payloads[1:40], start=1):
        words = entry_words(ledger.append(Entry.decode(payload)), data["names"])
        assert words.sentence == data["words"][index]
    assert re.fullmatch(r"Day \d, Period \d", data["moments"][40])
    assert data_of(QUARTET)["moments"][40].startswith("Round ")


def test_a_seat_view_names_that_seats_own_cards_only_in_its_words() -> None:
    # record.py's rule: a dealt card is named only for a reader who may know it
    data = data_of(SCHOOL)
    own = data["own_words"]
    assert "public" not in own
    assert own["seat-0"] and own["all"]
    for index, words in own["seat-0"].items():
        assert "[" in words and "[" not in data["words"][int(index)]


def test_teachers_pet_picture_shows_the_school_pawns_monitor_and_expected_room() -> None:
    data = data_of(SCHOOL)
    state = states(SCHOOL)[120]
    view = get_game("teachers-pet").view(state, None)
    drawn = picture(data, "public", 120)
    assert f"Day {view['day']}, Period {view['period']}" in drawn
    for n, room in enumerate(view["room_names"], start=1):
        assert f">{n} {as_text(room)}<" in drawn
    assert drawn.count('class="pawn ') == 2 * len(data["names"])  # school and players
    assert ">M<" in drawn and ">T<" in drawn
    assert 'class="room expected"' in drawn
    assert "Hands are hidden in this view" in drawn


def test_a_seats_picture_holds_its_own_hand_and_the_audit_every_hand() -> None:
    data = data_of(SCHOOL)
    game = get_game("teachers-pet")
    state = states(SCHOOL)[200]
    hands = [game.view(state, k)["hand"] for k in range(4)]
    mine = picture(data, "seat-1", 200)
    every = picture(data, "all", 200)
    public = picture(data, "public", 200)
    for card in hands[1]:
        assert as_text(card["name"][:24]) in mine
    assert "Ben's hand" in mine and "Ana's hand" not in mine
    for k, name in enumerate(data["names"]):
        assert f"{name}'s hand ({len(hands[k])})" in every
        assert f"{name}'s hand" not in public
    assert 'class="you-row"' in mine and 'class="you-row"' not in public


def test_vorsicht_lehrer_picture_shows_the_track_markers_and_the_teacher() -> None:
    data = data_of(CLASS)
    view = get_game("vorsicht-lehrer").view(states(CLASS)[120], None)
    drawn = picture(data, "public", 120)
    assert drawn.count('class="mark"') == len(view["markers"])
    assert 'class="patience"' in drawn and ">Teacher<" in drawn
    for tokens in view["tokens"]:
        assert f">{tokens}<" in drawn  # each seat's negative points in the players' table


def test_pet_quartet_picture_shows_the_conductors_and_sets() -> None:
    data = data_of(QUARTET)
    view = get_game("pet-quartet").view(states(QUARTET)[120], None)
    drawn = picture(data, "public", 120)
    assert f"Round {view['round']}" in drawn
    for k, conductor in enumerate(view["conductors"]):
        assert f"Conductor {chr(65 + k)}" in drawn
        for card in conductor["cards"]:
            assert f'class="card-n" text-anchor="middle">{card}<' in drawn
    assert ">Collections<" in drawn
    for score in view["scores"]:
        assert f">{score}<" in drawn


def test_a_fragment_shared_by_entries_and_views_is_stored_once() -> None:
    # the file stays reasonable: the school's rooms are one fragment for the game
    data = data_of(SCHOOL)
    assert len(set(data["pieces"])) == len(data["pieces"])
    first = {ids[0] for frames in data["frames"].values() for ids in frames}
    assert len(first) == 1


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "hostile.p2pt"
    simulate("vorsicht-lehrer", 2, "issue 28", path, names=HOSTILE)
    return path


def test_a_seat_named_with_markup_is_escaped_in_every_picture_and_in_the_data(
    hostile: Path,
) -> None:
    # "a seat named `<script>` must show as text"
    text = html_page.page(check(str(hostile), hostile.read_bytes()))
    assert text.count("<script") == 2  # the data's element and the module script
    for name in HOSTILE:
        assert name not in text
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', text, re.S).group(1))
    assert data["names"] == list(HOSTILE)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in "".join(data["pieces"])


def test_script_json_cannot_close_its_element() -> None:
    value = {"talk": "</script><script>alert(1)</script> & <!--"}
    text = html_page.script_json(value)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == value


def test_the_page_is_self_contained() -> None:
    # "no network, no external scripts, styles or fonts ... no ES module imports from
    # URLs; inline scripts"
    text = html_page.page(check(str(QUARTET), QUARTET.read_bytes()))
    assert not re.search(r"<(link|img|iframe)\b", text)
    assert not re.search(r"\bsrc\s*=|type=\"module\"|\bimport\s*\(|@import|url\(", text)
    assert not re.search(r"^\s*(import|export)\b", text, re.M)  # every module inlined
    assert not re.search(r"\bfetch\(|XMLHttpRequest|WebSocket|sendBeacon", text)
    assert "@noble/ed25519 3.2.0 and @noble/hashes 2.4.0" in text
    assert "only p2ptable verify does" in text  # what the page checks, and what it does not


def test_each_vendored_file_is_inlined_with_only_its_imports_and_exports_rewritten() -> None:
    folder = Path(html_page.__file__).parent
    for name, path in html_page.VENDORED:
        original = (folder / path).read_text(encoding="utf-8")
        wrapped = inline_js.wrap(name, original)
        kept = [line for line in original.splitlines() if not re.match(r"(import|export)\b", line)]
        assert all(line in wrapped for line in kept)
    readme = (folder / "vendor" / "README.md").read_text(encoding="utf-8")
    for _, path in html_page.VENDORED:
        digest = hashlib.sha256((folder / path).read_bytes()).hexdigest()
        assert digest in readme  # the file is the npm registry's, unchanged


def test_the_inliner_reads_the_plain_forms_and_refuses_any_other() -> None:
    wrapped = inline_js.wrap(
        "m",
        'import { a, b as c } from "./x.js";\nimport * as y from "./y.js";\n'
        "export function f() {}\nexport const k = 1;\nconst g = 2;\nexport { g, g as h };\n",
    )
    assert "const { a, b: c } = __modules['x'];" in wrapped
    assert "const y = __modules['y'];" in wrapped
    assert wrapped.endswith("return { f, k, g, h: g };\n})();")
    with pytest.raises(inline_js.BundleError):
        inline_js.wrap("m", "export default function () {}\n")
    with pytest.raises(inline_js.BundleError):
        inline_js.wrap("m", 'import thing from "./x.js";\n')


def run(*args: str):  # noqa: ANN201
    return CliRunner().invoke(main, list(args))


def test_export_writes_the_page_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = run("export", str(CLASS), "--format", "html", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")


def test_export_refuses_a_log_that_does_not_verify_and_writes_nothing(tmp_path: Path) -> None:
    # "the file is built only from a log that verifies"
    data = bytearray(QUARTET.read_bytes())
    data[-40] ^= 1  # inside the last frame: its CRC no longer matches
    bad, out = tmp_path / "bad.p2pt", tmp_path / "bad.html"
    bad.write_bytes(bytes(data))
    result = run("export", str(bad), "--format", "html", "-o", str(out))
    assert result.exit_code == 1
    assert "Nothing was exported" in result.output
    assert not out.exists()


def test_a_seats_view_of_a_log_without_secrets_is_refused_as_export_refuses_it(
    tmp_path: Path,
) -> None:
    # "in a log that is not audited only the public view ..."
    payloads = parse_frames(CLASS.read_bytes()).payloads
    cut = tmp_path / "cut.p2pt"
    cut.write_bytes(MAGIC + b"".join(encode_frame(p) for p in payloads[:60]))
    checked = check(str(cut), cut.read_bytes())
    assert [v["id"] for v in html_data.page_data(checked)["views"]] == ["public"]
    with pytest.raises(RecordRefused, match="no deck secrets"):
        html_data.page_data(checked, 1)


def test_export_with_seat_offers_that_seats_view_only() -> None:
    data = html_data.page_data(check(str(CLASS), CLASS.read_bytes()), 2)
    assert [v["id"] for v in data["views"]] == ["public", "seat-2"]


@pytest.fixture(scope="module")
def cut_short(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A Vorsicht Lehrer! game cut short (no secrets entry), as one seat keeps it:
    the replay, and next to it the seat's own secrets file (as a live seat has)."""
    folder = tmp_path_factory.mktemp("cut")
    whole = simulate("vorsicht-lehrer", 3, "issue 28 cut", folder / "whole.p2pt").path
    payloads = parse_frames(whole.read_bytes()).payloads[:50]
    cut = folder / "cut.p2pt"
    cut.write_bytes(MAGIC + b"".join(encode_frame(p) for p in payloads))
    secrets = SeatSecrets.from_seed(b"issue 28 cut", 1, DEFAULT_LENGTH)
    save_secrets(cut, secrets, 1, [f"tcp://127.0.0.1:{47001 + k}" for k in range(3)], 47002)
    return cut, "Ben"


def test_a_game_cut_short_shows_the_exporting_seats_own_view_from_its_secrets_file(
    cut_short: tuple[Path, str],
) -> None:
    # "in a log that is not audited only the public view and the exporting seat's own
    # (with --seat)"
    cut, name = cut_short
    checked = check(str(cut), cut.read_bytes())
    assert not checked.report.audited
    data = html_data.page_data(checked, 1)
    assert [v["id"] for v in data["views"]] == ["public", "seat-1"]
    drawn = picture(data, "seat-1", 49)
    assert f"{name}'s hand" in drawn and "a card" not in drawn
    assert any("[" in words for words in data["own_words"]["seat-1"].values())
    with pytest.raises(RecordRefused, match="another seat's"):
        html_data.page_data(checked, 0)


def test_export_html_with_seat_of_a_game_cut_short(cut_short: tuple[Path, str], tmp_path) -> None:
    cut, name = cut_short
    out = tmp_path / "cut.html"
    result = CliRunner().invoke(
        main, ["export", str(cut), "--format", "html", "--seat", name, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Note: the game is unfinished; the page goes as far as the log." in result.stderr
    assert f"{name}'s view" in out.read_text(encoding="utf-8")
    refused = run("export", str(cut), "--format", "html", "--seat", "1", "-o", str(out) + "2")
    assert refused.exit_code == 1 and "another seat's" in refused.output


def test_the_page_says_the_games_facts_as_the_text_record_does() -> None:
    # the header of `p2ptable export` (issue 16): options, seats, result, the command
    text = html_page.page(check(str(SCHOOL), SCHOOL.read_bytes()))
    assert "<th>Result</th><td>Ana 49, Ben -18, Cleo -28, Dev -5; winner: Ana</td>" in text
    assert f"<th>Verify</th><td>p2ptable verify {SCHOOL}</td>" in text


def test_export_html_never_writes_over_a_file_without_force_nor_over_a_replay(
    tmp_path: Path,
) -> None:
    # as every export (issue 22): "no command writes over a replay"
    out = tmp_path / "page.html"
    out.write_text("mine", encoding="utf-8")
    result = run("export", str(QUARTET), "--format", "html", "-o", str(out))
    assert result.exit_code == 1 and out.read_text(encoding="utf-8") == "mine"
    assert run("export", str(QUARTET), "--format", "html", "-o", str(out), "--force").exit_code == 0
    copy = tmp_path / "copy.p2pt"
    copy.write_bytes(QUARTET.read_bytes())
    result = run("export", str(QUARTET), "--format", "html", "-o", str(copy), "--force")
    assert result.exit_code == 1 and copy.read_bytes() == QUARTET.read_bytes()


def test_the_picture_says_what_the_table_waits_for_as_the_screens_do() -> None:
    # a reaction window asks its question in the words of view.window_question, the
    # same whatever the asked seat holds; a secret choice names who, never what
    data, game = data_of(SCHOOL), get_game("teachers-pet")
    views = [game.view(state, None) for state in states(SCHOOL)]
    at = next(i for i, view in enumerate(views) if view["window"])
    question = window_question(views[at], lambda s: data["names"][s])
    assert as_text(question) in picture(data, "public", at)
    vorsicht = data_of(CLASS)
    at = next(i for i, s in enumerate(states(CLASS)) if vorsicht_view(s)["choosing"])
    names = ", ".join(vorsicht["names"][s] for s in vorsicht_view(states(CLASS)[at])["choosing"])
    assert f"{names} choose in secret" in picture(vorsicht, "public", at)


def vorsicht_view(state) -> dict:  # noqa: ANN001
    return get_game("vorsicht-lehrer").view(state, None)


def test_the_tables_talk_is_in_the_page_at_the_entry_it_was_said_after(tmp_path) -> None:
    # The brief: "the text export shows talk lines at the moment they were said;
    # make the HTML replay page show them too".
    from talk_replay import talking_replay

    path = talking_replay(tmp_path)
    checked = check(str(path), path.read_bytes())
    data = html_data.page_data(checked)
    assert data["talk"] == {
        "0": [{"name": "Ana", "text": "good luck, Ben"}],
        "3": [{"name": "Ben", "text": "<b>thanks</b> & you"}, {"name": "Ana", "text": "nice"}],
    }
    text = html_page.page(checked)
    assert "<b>thanks</b>" not in text  # in the data as \\u003c..., set as text by the page
    # the text export places the same lines after the same entries
    exported = CliRunner().invoke(main, ["export", str(path)]).output.splitlines()
    said = [i for i, line in enumerate(exported) if "says:" in line]
    assert [exported[i - 1].split()[0].rstrip(".") for i in said[:2]] == ["0", "3"]


def test_a_replay_without_talk_has_no_talk_in_its_data() -> None:
    assert "talk" not in data_of(QUARTET)
