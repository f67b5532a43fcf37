"""No Python in magewars/ tests a trait, condition or keyword by its name (issue 9).

Every string constant in magewars/**/*.py (read with `ast`, docstrings included) is compared with the
keys of the shipped codex.  A match means the engine, the checker or a tool keys behaviour (or a label)
on a codex name instead of reading the codex entry.  The one exception is
tests/data/codex_names_in_python_allowlist.txt: names another engineer's branch is removing, by file.
An allow-list line that no longer matches anything fails too, so the list only shrinks.

Stat labels a page prints ("Armor 2 · Life 12") are made from the language's stat keywords
(`magewars.dsl.vocab.STAT_WORDS`), not written out, so they are not exceptions either.
"""
from __future__ import annotations

import ast
from pathlib import Path

from magewars.dsl import load_corpus

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "magewars"
ALLOW = ROOT / "tests" / "data" / "codex_names_in_python_allowlist.txt"


def _allowed() -> set[tuple[str, str]]:
    out = set()
    for line in ALLOW.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            path, _, name = line.partition(":")
            out.add((path, name))
    return out


def _hits(keys: set[str], root: Path = ROOT, package: Path = PACKAGE) -> dict[tuple[str, str], list[int]]:
    hits: dict[tuple[str, str], list[int]] = {}
    for f in sorted(package.rglob("*.py")):
        rel = f.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), filename=rel)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in keys:
                hits.setdefault((rel, node.value), []).append(node.lineno)
    return hits


def test_no_codex_key_is_a_string_constant_in_the_package():
    keys = set(load_corpus().codex)
    assert len(keys) > 100  # the shipped codex, not an empty stand-in
    hits = _hits(keys)
    allowed = _allowed()
    found = [f"{path}:{lines[0]}: {name!r}" for (path, name), lines in sorted(hits.items())
             if (path, name) not in allowed]
    assert not found, "codex names written as Python strings (read the codex entry instead):\n" + "\n".join(found)
    stale = sorted(f"{p}:{n}" for (p, n) in allowed - set(hits))
    assert not stale, "allow-list lines that match nothing any more (delete them):\n" + "\n".join(stale)


def test_the_scan_sees_a_codex_name_anywhere_in_a_module(tmp_path):
    """The scan itself works: a codex key in a call, a comparison or a nested function is caught, with its
    line; a longer string that merely contains the key is not."""
    keys = set(load_corpus().codex)
    name = sorted(keys)[0]
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "sub" / "m.py").write_text(
        f"def f(obj):\n    def g():\n        return obj.kind == {name!r}\n    return g\n"
        f"DOC = 'mentions {name} inside a sentence'\n", encoding="utf-8")
    assert _hits(keys, tmp_path, pkg) == {("pkg/sub/m.py", name): [3]}


def test_stat_labels_are_the_grammars_stat_words():
    """Pages label stats with the language's stat words; those are the grammar's `stat_kw`."""
    import re

    from magewars.dsl.vocab import STAT_WORDS
    from magewars.resources import grammar_path

    rule = next(line for line in grammar_path().read_text(encoding="utf-8").splitlines()
                if line.startswith("!stat_kw:"))
    assert tuple(re.findall(r'"(\w+)"', rule)) == STAT_WORDS
