"""No import cycle inside the `magewars` package, counting every import statement wherever it stands
(module level, inside functions, under TYPE_CHECKING): a cycle hidden in a function is still a knot in
the design.  The graph is built from the source with `ast`; cycles are its strongly connected components.

No cycle is allowed (the engine's former six-file knot and the lookup book/render pair are split).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "magewars"

# The engine's former six-file knot is split (game imports the procedures and nothing in the engine
# imports game) and lookup/render no longer imports lookup/book for its types: no cycle is allowed.


def _modules(root: Path) -> dict[str, Path]:
    mods = {}
    for f in root.rglob("*.py"):
        parts = f.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = f
    return mods


def _targets(mods: dict[str, Path], cur: str, node) -> set[str]:
    """The package modules one import statement loads (the nearest module for a dotted name)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = cur.split(".")
            if mods[cur].name != "__init__.py":
                base = base[:-1]
            base = base[:len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        # `from pkg import sub` loads pkg.sub when that is a module, else pkg itself
        for a in node.names:
            full = f"{prefix}.{a.name}"
            names.append(full if full in mods else prefix)
    out = set()
    for n in names:
        while n and n not in mods:
            n = n.rpartition(".")[0]
        if n and n != cur:
            out.add(n)
    return out


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    mods = _modules(root)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), str(f))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[m] |= {t for t in _targets(mods, m, node) if t.split(".")[0] == root.name}
    # Importing a submodule runs its package's __init__ first; a package that re-exports its own
    # submodules is not a knot of design, so the __init__ -> own-submodule edges are left out.
    for m in graph:
        if mods[m].name == "__init__.py":
            graph[m] = {t for t in graph[m] if not t.startswith(m + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(comp)
    return out


def _fmt(c: set[str]) -> str:
    return " <-> ".join(sorted(c))


def test_the_finder_sees_a_function_level_cycle(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("from .b import f\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n    return a\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    assert cycles(import_graph(pkg)) == [{"pkg.a", "pkg.b"}]


def test_no_import_cycle_in_the_package():
    """No cycle at all inside magewars/, function-level and type-checking imports included."""
    found = cycles(import_graph())
    assert not found, "import cycle(s) inside magewars/: " + "; ".join(_fmt(c) for c in found)
