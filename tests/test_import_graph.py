"""No import circle anywhere in p2ptable/ (issue 24: "No import circle anywhere
in `p2ptable/`, checked by a test that walks the imports").

Every import statement counts, wherever it stands: at module level, under
``TYPE_CHECKING``, or inside a function (an import deferred to run time still
ties the two modules together: it only hides the circle from the interpreter).
A module is a file; ``from package import name`` counts as an import of the
module ``package.name`` when there is one, else of the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "p2ptable"


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the p2ptable modules it imports."""
    known = modules()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                names = [f"{base}.{alias.name}" for alias in node.names]
            for name in names:
                target = resolve(name)
                if target is not None and target != module:
                    targets.add(target)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_anywhere_in_the_package():
    graph = import_graph()
    assert len(graph) > 100  # the walk found the package
    assert circles(graph) == []


def test_the_walk_finds_a_circle_when_there_is_one():
    # The test above can fail: a circle made by hand is found.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


#: What each lower layer must not import (README, How it fits together): the
#: replay format imports the rules, never the network or the people's layer
#: (STYLE.md 8); the rules import neither the format nor anything above it.
LAYERS = {
    "p2ptable.replay": ("p2ptable.net", "p2ptable.ui", "p2ptable.bots", "p2ptable.cli"),
    "p2ptable.games": ("p2ptable.replay", "p2ptable.net", "p2ptable.ui", "p2ptable.cli"),
    "p2ptable.engine": ("p2ptable.games", "p2ptable.replay", "p2ptable.net", "p2ptable.ui"),
}


def test_no_layer_imports_one_above_it():
    graph = import_graph()
    wrong = [
        f"{module} imports {target}"
        for module, targets in graph.items()
        for layer, above in LAYERS.items()
        if module == layer or module.startswith(layer + ".")
        for target in targets
        if any(target == a or target.startswith(a + ".") for a in above)
    ]
    assert wrong == []
