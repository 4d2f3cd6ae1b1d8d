"""The replay page in a real browser: headless Chromium driven by Playwright (issue 28).

Issue 28: "a real browser ... that opens each golden replay's page from `file://`,
reads the verdict, steps forward and back, switches the view, and checks a tampered
file shows the failing entry; a seat name with markup shows as text.  The browser
tests are marked and skipped with a clear reason where no Chromium is installed."

One browser for the module (every golden in one session); Playwright is pointed at
the distribution's Chromium and never downloads a browser of its own.  Every request
the page makes that is not its own file is refused and counted: there must be none.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import msgpack
import pytest

from p2ptable.crypto.encoding import pack
from p2ptable.replay.logfile import MAGIC, encode_frame, parse_frames
from p2ptable.sim import simulate
from p2ptable.ui.html_page import page as html_page
from p2ptable.ui.record import check

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')"
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium on this machine: install the distribution's package "
        "(apt-get install chromium) to run the replay page in a browser",
    ),
]

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GOLDEN = sorted(REPLAYS.glob("*.p2pt"))
SCHOOL = REPLAYS / "teachers-pet-4p.p2pt"
VALID = "valid: every signature and link checks"
DATA = re.compile(r'(<script type="application/json" id="replay-data">)(.*?)(</script>)', re.S)


@pytest.fixture(scope="module")
def browser():  # noqa: ANN201
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture()
def tab(browser):  # noqa: ANN001, ANN201
    context = browser.new_context(viewport={"width": 780, "height": 900})
    outside: list[str] = []

    def refuse(route) -> None:  # noqa: ANN001
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", refuse)
    tab = context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))
    tab.dialogs = []
    tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))
    yield tab
    assert outside == [], "the page asked the network for something"
    assert tab.errors == []
    context.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every golden's page, as export writes it."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for path in GOLDEN:
        target = folder / f"{path.stem}.html"
        target.write_text(html_page(check(str(path), path.read_bytes())), encoding="utf-8")
        out[path.stem] = target
    return out


def verdict(tab) -> str:  # noqa: ANN001
    tab.wait_for_function("document.getElementById('verdict').className !== 'unknown'")
    return tab.inner_text("#verdict")


def number(tab) -> int:  # noqa: ANN001
    return int(re.match(r"Entry (\d+) of", tab.inner_text("#number")).group(1))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_golden_replays_page_opens_from_file_and_verifies(tab, pages, path: Path) -> None:
    # "shows 'valid: every signature and link checks' or the first entry that fails"
    tab.goto(pages[path.stem].as_uri())
    entries = len(parse_frames(path.read_bytes()).payloads)
    assert verdict(tab) == f"{VALID} ({entries} entries)"
    assert tab.locator("#table svg").count() == 1


def test_stepping_with_keys_buttons_slider_and_a_link_to_an_entry(tab, pages) -> None:
    # "Stepping: buttons, a slider and keys (←/→, Home/End), and a link to a given
    # entry (#entry-120), so a moment can be shared"
    url = pages[SCHOOL.stem].as_uri()
    last = len(parse_frames(SCHOOL.read_bytes()).payloads) - 1
    tab.goto(url)
    assert number(tab) == 0
    tab.keyboard.press("ArrowRight")
    tab.keyboard.press("ArrowRight")
    assert number(tab) == 2
    tab.keyboard.press("ArrowLeft")
    assert number(tab) == 1
    tab.keyboard.press("End")
    assert number(tab) == last
    assert "Teacher's Pet with" in tab.inner_text("#words")
    tab.keyboard.press("Home")
    assert number(tab) == 0
    tab.click("#next")
    assert number(tab) == 1
    tab.click("#last")
    tab.click("#prev")
    assert number(tab) == last - 1
    tab.click("#first")
    tab.fill("#slider", "57")
    assert number(tab) == 57
    assert tab.evaluate("location.hash") == "#entry-57"
    tab.goto(url + "#entry-120")
    assert number(tab) == 120
    assert tab.inner_text("#moment").startswith("Day ")
    words = json.loads(DATA.search(pages[SCHOOL.stem].read_text()).group(2))["words"]
    assert tab.inner_text("#words") == words[120]


def test_the_view_switches_without_reloading(tab, pages) -> None:
    # "Whose view: public, or any seat's ..., or every card for an audited game,
    # switched without reloading"
    tab.goto(pages[SCHOOL.stem].as_uri() + "#entry-200")
    tab.evaluate("window.stayed = true")
    svg = "#table svg"
    assert "Hands are hidden in this view" in tab.text_content(svg)
    tab.click("text=Ben's view")
    assert "Ben's hand" in tab.text_content(svg) and "Ana's hand" not in tab.text_content(svg)
    tab.click("text=Every card (audit)")
    seen = tab.text_content(svg)
    assert all(f"{name}'s hand" in seen for name in ("Ana", "Ben", "Cleo", "Dev"))
    tab.keyboard.press("ArrowRight")
    assert number(tab) == 201 and "Dev's hand" in tab.text_content(svg)  # the view stays
    tab.click("text=Everyone (public)")
    assert "Hands are hidden in this view" in tab.text_content(svg)
    assert tab.evaluate("window.stayed") is True


def tampered(page: Path, index: int, change) -> str:  # noqa: ANN001
    """The page's HTML with entry ``index`` of its embedded data changed."""
    html = page.read_text(encoding="utf-8")
    head, text, tail = DATA.search(html).groups()
    data = json.loads(text)
    data["entries"][index] = base64.b64encode(change(base64.b64decode(data["entries"][index])))
    data["entries"][index] = data["entries"][index].decode()
    spliced = json.dumps(data).replace("<", "\\u003c")
    return html.replace(head + text + tail, head + spliced + tail)


def _entry(payload: bytes) -> tuple[dict, list]:
    body, sigs = msgpack.unpackb(payload, raw=False)
    return msgpack.unpackb(body, raw=False), sigs


def test_a_tampered_page_names_the_first_entry_that_fails(tab, pages, tmp_path: Path) -> None:
    # "checks a tampered file shows the failing entry"
    page = pages["vorsicht-lehrer-4p"]
    payloads = parse_frames((REPLAYS / "vorsicht-lehrer-4p.p2pt").read_bytes()).payloads
    kinds = [_entry(p)[0]["t"] for p in payloads]
    action, chance = kinds.index("action", 10), kinds.index("chance", 10)

    def other_move(payload: bytes) -> bytes:  # another move, under the seat's signature
        body, sigs = _entry(payload)
        body["action"] = "take" if body["action"] != "take" else "risk"
        return pack([pack(body), sigs])

    def cut_link(payload: bytes) -> bytes:
        body, sigs = _entry(payload)
        body["prev"] = bytes(32)
        return pack([pack(body), sigs])

    def other_dice(payload: bytes) -> bytes:  # an unsigned chance entry: its link catches it
        body, sigs = _entry(payload)
        body["pre"][0] = bytes(b ^ 1 for b in body["pre"][0])
        return pack([pack(body), sigs])

    def forged_signature(payload: bytes) -> bytes:
        body, sigs = msgpack.unpackb(payload, raw=False)
        sigs[0][1] = bytes([sigs[0][1][0] ^ 1]) + sigs[0][1][1:]
        return pack([body, sigs])

    def long_form(payload: bytes) -> bytes:  # the same value, not in its one encoding
        assert payload[0] == 0x92
        return b"\xdc\x00\x02" + payload[1:]  # array16 of 2 for fixarray 2

    def signature_as_text(payload: bytes) -> bytes:  # well formed msgpack, a wrong type
        body, sigs = msgpack.unpackb(payload, raw=False)
        return pack([body, [[sigs[0][0], "not a signature"]]])

    cases = [
        (action, signature_as_text, f"entry {action} fails: malformed"),
        (action, long_form, f"entry {action} fails: malformed (not canonical)"),
        (action, other_move, f"entry {action} fails: the signature of"),
        (action, cut_link, f"entry {action} fails: its link (prev)"),
        (chance, other_dice, f"entry {chance + 1} fails: its link (prev)"),
        (action, forged_signature, f"entry {action} fails: the signature of"),
        (0, forged_signature, "entry 0 fails: the signature of Ana does not verify"),
    ]
    for index, change, said in cases:
        target = tmp_path / f"tampered-{index}-{change.__name__}.html"
        target.write_text(tampered(page, index, change), encoding="utf-8")
        tab.goto(target.as_uri())
        assert verdict(tab).startswith(said)
        assert tab.get_attribute("#verdict", "class") == "invalid"


def test_a_departure_s_shares_and_the_stand_in_s_unsigned_entries(tab, pages, tmp_path) -> None:
    # replay.md 9.8: after a departure "nobody signs for it"; the departure's parts
    # are `share` bodies signed by their seats; the result is signed by the seats
    # still there.  The page checked none of it and called both departure goldens
    # invalid (CI of 2026-12-02); here each of those rules is what catches a change.
    stem = "teachers-pet-4p-killed-for-good"
    payloads = parse_frames((REPLAYS / f"{stem}.p2pt").read_bytes()).payloads
    entries = [_entry(p) for p in payloads]
    leave = next(i for i, (body, _) in enumerate(entries) if body["t"] == "departure")
    gone = entries[leave][0]["of"]
    stand_in = next(
        i
        for i, (body, _) in enumerate(entries)
        if i > leave and body["t"] == "action" and body["seat"] == gone
    )
    last = len(payloads) - 1
    assert entries[last][0]["t"] == "result" and gone not in [s for s, _ in entries[last][1]]

    def other_share(payload: bytes) -> bytes:  # a share not the one its seat signed
        body, sigs = _entry(payload)
        share, sig = body["parts"][0]
        body["parts"][0] = [bytes([share[0] ^ 1]) + share[1:], sig]
        return pack([pack(body), sigs])

    def signed_for_the_gone(payload: bytes) -> bytes:  # someone signs for the gone seat
        body, _ = msgpack.unpackb(payload, raw=False)
        return pack([body, [[gone, bytes(64)]]])

    def signed_by_the_gone_too(payload: bytes) -> bytes:  # a result signed by all four
        body, sigs = msgpack.unpackb(payload, raw=False)
        return pack([body, sorted([*sigs, [gone, bytes(64)]])])

    cases = [
        (leave, other_share, f"entry {leave} fails: the signed part of"),
        (stand_in, signed_for_the_gone, f"entry {stand_in} fails: signed by seats [{gone}], not"),
        (last, signed_by_the_gone_too, f"entry {last} fails: signed by seats"),
    ]
    for index, change, said in cases:
        target = tmp_path / f"departure-{index}-{change.__name__}.html"
        target.write_text(tampered(pages[stem], index, change), encoding="utf-8")
        tab.goto(target.as_uri())
        assert verdict(tab).startswith(said)
        assert tab.get_attribute("#verdict", "class") == "invalid"


def test_a_game_cut_short_has_its_page_with_the_public_view(tab, tmp_path: Path) -> None:
    # "in a log that is not audited only the public view"
    payloads = parse_frames((REPLAYS / "vorsicht-lehrer-4p.p2pt").read_bytes()).payloads[:60]
    cut = tmp_path / "cut.p2pt"
    cut.write_bytes(MAGIC + b"".join(encode_frame(p) for p in payloads))
    target = tmp_path / "cut.html"
    target.write_text(html_page(check(str(cut), cut.read_bytes())), encoding="utf-8")
    tab.goto(target.as_uri())
    assert verdict(tab) == f"{VALID} (60 entries)"
    assert tab.locator("#views button").all_inner_texts() == ["Everyone (public)"]
    tab.keyboard.press("End")
    assert number(tab) == 59


def test_a_seat_name_with_markup_shows_as_text(tab, tmp_path: Path) -> None:
    # "a seat named `<script>` must show as text"
    names = ("<script>alert(1)</script>", "<img src=x onerror=alert(2)>")
    log = simulate("vorsicht-lehrer", 2, "issue 28 markup", tmp_path / "markup.p2pt", names=names)
    target = tmp_path / "markup.html"
    target.write_text(html_page(check(str(log.path), log.path.read_bytes())), encoding="utf-8")
    tab.goto(target.as_uri())
    assert verdict(tab).startswith(VALID)
    assert tab.dialogs == []
    assert tab.locator("#table img, #table script").count() == 0
    shown = tab.eval_on_selector_all("#table text", "all => all.map((t) => t.textContent)")
    assert all(name[:18] in shown for name in names)
    assert tab.inner_text("h1").endswith(", ".join(names))
    tab.click(f"text={names[1]}'s view")
    assert f"{names[1][:18]}'s hand" in tab.text_content("#table svg")


def test_without_webcrypto_the_page_hashes_with_the_vendored_sha2(tab, pages) -> None:
    # "WebCrypto only where it is available": a page served over plain http has none
    tab.add_init_script(
        "Object.defineProperty(globalThis.crypto, 'subtle', {value: undefined, configurable: true})"
    )
    tab.goto(pages["teachers-pet-4p"].as_uri())
    assert verdict(tab).startswith(VALID)
    assert tab.get_attribute("#verdict", "data-hashes") == "noble"
    assert tab.evaluate("globalThis.crypto.subtle") is None


def test_with_webcrypto_the_page_hashes_with_it(tab, pages) -> None:
    tab.goto(pages["pet-quartet-4p-standard"].as_uri())
    assert verdict(tab).startswith(VALID)
    assert tab.get_attribute("#verdict", "data-hashes") == "webcrypto"


def test_the_tables_talk_shows_at_the_entry_it_was_said_after_as_text(tab, tmp_path) -> None:
    # The brief: the text export shows talk "at the moment they were said; make
    # the HTML replay page show them too"; issue 28: texts from the log are escaped.
    from talk_replay import talking_replay

    path = talking_replay(tmp_path)
    page = tmp_path / "talk.html"
    page.write_text(html_page(check(str(path), path.read_bytes())), encoding="utf-8")
    tab.goto(page.as_uri())
    assert verdict(tab).startswith(VALID)
    assert tab.locator("#talk li").all_inner_texts() == ["Ana says: good luck, Ben"]
    tab.keyboard.press("ArrowRight")
    assert number(tab) == 1 and tab.locator("#talk li").count() == 0
    tab.goto(page.as_uri() + "#entry-3")
    assert number(tab) == 3
    assert tab.locator("#talk li").all_inner_texts() == [
        "Ben says: <b>thanks</b> & you",
        "Ana says: nice",
    ]
    assert tab.locator("#talk b").count() == 0  # markup in a line is text, never an element
