"""The replay page (``p2ptable export --format html``): one self-contained HTML file.

How it works
------------
:func:`page` wraps :func:`ui.html_data.page_data` in a document that needs nothing
but itself: the stylesheet (``replay_page.css``), the data (a JSON script element),
the vendored Ed25519 and SHA-2 libraries (``vendor/``, @noble/ed25519 and
@noble/hashes, made one classic script by ``ui/inline_js.py``) and the page's
script (``replay_page.js``) are all inline, so it opens from ``file://`` with
no network, on a phone too.  The JSON is written with ``<``, ``>`` and ``&`` escaped
(``\\u003c``...), so nothing in the log can close its script element; every text
from the log is put in by the script as text, and the pictures were escaped when
they were drawn (``ui/svg_table.py``).
"""

from __future__ import annotations

import json
from html import escape
from importlib.resources import files
from typing import Any

from p2ptable.ui.html_data import page_data
from p2ptable.ui.inline_js import bundle
from p2ptable.ui.record import Checked, record

CHECKS = (
    "This page checks, in your browser, every entry's Ed25519 signatures (and the "
    "signed parts of the entries made of several seats' parts) and every hash link "
    "(each entry names the SHA-256 of the one before), with the keys in the signed "
    "genesis. It does not check the rules, the random values, the hidden cards' "
    "proofs or the choices' commitments: only p2ptable verify does. The pictures and "
    "words were made by p2ptable export from the log after it verified."
)


#: the vendored modules (name, file), dependencies first (vendor/README.md)
VENDORED = (
    ("utils", "vendor/noble-hashes/utils.js"),
    ("_u64", "vendor/noble-hashes/_u64.js"),
    ("_md", "vendor/noble-hashes/_md.js"),
    ("sha2", "vendor/noble-hashes/sha2.js"),
    ("noble-ed25519", "vendor/noble-ed25519.js"),
)
LIBRARIES = "@noble/ed25519 3.2.0 and @noble/hashes 2.4.0 (MIT, Paul Miller)"


def _resource(name: str) -> str:
    return files("p2ptable.ui").joinpath(*name.split("/")).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """JSON that can sit inside a <script> element whatever its strings hold."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


#: the record's tag pairs (ui/record.py) the page shows under "About this game"
ABOUT = ("Variant", "Seats", "Result", "Entries", "Verify")


def _about(checked: Checked) -> str:
    """The game's facts as ``p2ptable export`` writes them in its header."""
    tags = dict(record(checked).tags())
    rows = "".join(f"<tr><th>{escape(tag)}</th><td>{escape(tags[tag])}</td></tr>" for tag in ABOUT)
    return (
        f'<details><summary>About this game</summary><table class="tags">{rows}</table></details>'
    )


def page(checked: Checked, seat: int | None = None) -> str:
    """The whole HTML document for a checked log."""
    data = page_data(checked, seat)
    names = ", ".join(data["names"])
    title = f"{data['title']}: {names}"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title>",
            f"<style>{_resource('replay_page.css')}</style>",
            "</head><body>",
            f"<h1>{escape(title)}</h1>",
            '<p id="verdict" class="unknown">checking every signature and link…</p>',
            f"<details><summary>What this page checks</summary><p>{escape(CHECKS)}</p>"
            f"<p>Log head: <code>{data['head']}</code></p></details>",
            _about(checked),
            '<div class="controls" id="views" aria-label="Whose view"></div>',
            '<div id="table"></div>',
            '<div class="controls">'
            '<button id="first" title="First entry (Home)">«</button>'
            '<button id="prev" title="Back (←)">‹</button>'
            '<input id="slider" type="range" min="0" value="0" aria-label="Entry">'
            '<button id="next" title="Forward (→)">›</button>'
            '<button id="last" title="Last entry (End)">»</button>'
            '<a id="share" href="#entry-0">link to this entry</a></div>',
            '<p><strong id="number"></strong> <span id="moment"></span></p>',
            '<p id="words"></p>',
            '<ul id="talk" aria-label="Said at the table after this entry"></ul>',
            f'<script type="application/json" id="replay-data">{script_json(data)}</script>',
            "<script>",
            f"// {LIBRARIES}: vendored unchanged, their modules inlined (ui/inline_js.py)",
            bundle([(name, _resource(path)) for name, path in VENDORED]),
            _resource("replay_page.js"),
            "</script>",
            "</body></html>",
        ]
    )
