"""parse_text's memo (what the language server keeps between keystrokes): a parse through it gives
exactly what a parse from scratch gives, edit after edit, and parses again only the definitions an
edit touched."""
import random
from pathlib import Path

from magewars.dsl import fastparse
from magewars.dsl.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "spells" / "core" / "creatures.mw"


def _edit(rng: random.Random, text: str) -> str:
    """One keystroke-sized change somewhere in the file, of the kinds an author makes (and breaks)."""
    i = rng.randrange(len(text))
    kind = rng.choice(["type", "delete", "newline", "join lines", "syntax error", "long number", "undo"])
    if kind == "type":
        return text[:i] + rng.choice("abcxyz 12+{}\"") + text[i:]
    if kind == "delete":
        return text[:i] + text[i + 1:]
    if kind == "newline":
        return text[:i] + "\n" + text[i:]
    if kind == "join lines":
        j = text.find("\n", i)
        return text if j < 0 else text[:j] + " " + text[j + 1:]
    if kind == "syntax error":
        return text[:i] + " } } // " + text[i:]
    if kind == "long number":
        return text[:i] + " 9" * 3 + "9" * 40 + " " + text[i:]
    return FILE.read_text(encoding="utf-8")  # the file as it was (an undo back to a clean version)


def _same(a, b):
    (tree_a, diags_a), (tree_b, diags_b) = a, b
    assert tree_a == tree_b
    assert [(d.code, d.message, d.span, d.severity) for d in diags_a] == \
        [(d.code, d.message, d.span, d.severity) for d in diags_b]


def test_a_parse_through_the_memo_equals_a_parse_from_scratch_edit_after_edit():
    rng = random.Random(7)
    text = FILE.read_text(encoding="utf-8")
    memo: dict = {}
    path = str(FILE)
    for _ in range(120):
        _same(parse_text(text, path, memo=memo), parse_text(text, path))
        fresh, _ = parse_text(text, path)
        kept = [d for defs in memo.values() for d in defs]
        assert set(kept) <= set(fresh.definitions if fresh else ())  # this version's definitions only
        text = _edit(rng, text)


def test_an_edit_inside_one_definition_parses_that_definition_alone(monkeypatch):
    text = FILE.read_text(encoding="utf-8")
    path = str(FILE)
    memo: dict = {}
    first, _ = parse_text(text, path, memo=memo)
    parsed = []
    real = fastparse.parse_chunk
    monkeypatch.setattr(fastparse, "parse_chunk", lambda *a: parsed.append(1) or real(*a))
    assert parse_text(text, path, memo=memo)[0] == first
    assert parsed == []  # nothing changed: nothing parsed
    name = first.definitions[3].name
    edited = text.replace(f'"{name}"', f'"{name} Prime"', 1)  # a rename on the definition's first line
    tree, diags = parse_text(edited, path, memo=memo)
    assert len(parsed) == 1 and diags == []
    assert [d.name for d in tree.definitions] == [d.name for d in first.definitions[:3]] + [f"{name} Prime"] \
        + [d.name for d in first.definitions[4:]]
    assert tree.definitions[:3] == first.definitions[:3] and tree.definitions[4:] == first.definitions[4:]
