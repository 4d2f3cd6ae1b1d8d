"""ES modules made one classic script, for a page that must need nothing but itself.

How it works
------------
A page opened from ``file://`` cannot import a module from a file next to it (the
browser refuses cross-origin module loads there), and must not fetch one from the
network.  So the vendored JavaScript libraries, which are ES modules, are inlined:
:func:`bundle` wraps each file in a function of its own, in dependency order, with
its ``import`` lines turned into reads of the modules before it and its ``export``
list returned, into ``__modules[name]``.  The files themselves stay exactly as the
npm registry ships them (their checksums are in ``vendor/README.md``); only the
import and export syntax is rewritten, and only the plain forms the vendored files
use (a test checks that every ``import``/``export`` was understood: anything else
is an error here, never a broken page).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_IMPORT = re.compile(r'^import\s+(?P<what>.+?)\s+from\s+["\'](?P<src>[^"\']+)["\'];?\s*$', re.M)
_EXPORT_DECL = re.compile(
    r"^export\s+(?P<kind>(?:async\s+)?function\*?|class|const|let|var)\s+(?P<name>[\w$]+)", re.M
)
_EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\};?\s*$", re.M)


class BundleError(Exception):
    """A vendored file uses a form of import or export this bundler does not read."""


def _module_name(src: str) -> str:
    return src.rsplit("/", 1)[-1].removesuffix(".js")


def _binding(what: str, src: str) -> str:
    source = f"__modules[{_module_name(src)!r}]"
    if what.startswith("* as "):
        return f"const {what[5:].strip()} = {source};"
    if what.startswith("{") and what.endswith("}"):
        names = []
        for part in what[1:-1].split(","):
            if part.strip():
                name, _, alias = part.strip().partition(" as ")
                names.append(f"{name.strip()}: {alias.strip()}" if alias else name.strip())
        return f"const {{ {', '.join(names)} }} = {source};"
    raise BundleError(f"cannot read the import {what!r} from {src!r}")


def wrap(name: str, text: str) -> str:
    """One module as a function that fills ``__modules[name]`` with its exports."""
    exported: list[str] = []
    text = _IMPORT.sub(lambda m: _binding(m["what"], m["src"]), text)

    def declared(match: re.Match) -> str:
        exported.append(match["name"])
        return f"{match['kind']} {match['name']}"

    def listed(match: re.Match) -> str:
        for part in match["names"].split(","):
            if part.strip():
                local, _, alias = part.strip().partition(" as ")
                exported.append(f"{alias.strip()}: {local.strip()}" if alias else local.strip())
        return ""

    text = _EXPORT_DECL.sub(declared, text)
    text = _EXPORT_LIST.sub(listed, text)
    left = re.search(r"^\s*(import|export)\b.*$", text, re.M)
    if left:
        raise BundleError(f"{name}: cannot read {left.group(0).strip()!r}")
    return f"__modules[{name!r}] = (() => {{\n{text}\nreturn {{ {', '.join(exported)} }};\n}})();"


def bundle(files: Sequence[tuple[str, str]]) -> str:
    """Several modules (name, text), dependencies first, as one classic script."""
    return "\n".join(["const __modules = {};", *(wrap(name, text) for name, text in files)])
