"""The fast parser of valid files (magewars/dsl/fastparse.py) gives Lark's AST, or gives up.

Compared through the cache's codec, which writes every field, the spans included (the AST's
`==` ignores spans)."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from magewars.dsl import _codec, fastparse, parser, parsetable
from magewars.dsl.chunks import _chunks
from magewars.resources import grammar_path, shipped_sources

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(shipped_sources()) + sorted((ROOT / "tests").rglob("*.mw"))


def lark_only(text: str, path: str, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(fastparse, "tables", lambda: None)
        return parser.parse_text(text, path)


def enc(result):
    return _codec().encode([result[0], result[1]])


def test_the_shipped_fast_tables_are_current():
    assert fastparse.tables() is not None, "magewars/data/fast_parse.mwc is stale: python -m magewars.dsl.parsetable"
    text = grammar_path().read_text(encoding="utf-8")
    assert parsetable.fast_tables(parsetable.build(text)) is not None


def test_lark_version_is_read_without_importing_it():
    import lark
    assert parsetable.lark_version() == lark.__version__


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_card_file_gives_larks_ast(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    want = lark_only(text, str(path), monkeypatch)
    assert enc(parser.parse_text(text, str(path))) == enc(want)
    fast = fastparse.parse_text(text, str(path))
    if fast is not None:
        assert not want[1] and enc(fast) == enc(want)
    elif "tests" not in path.parts:
        pytest.fail(f"the fast parser gave up on a shipped file: {path}")


def test_mutated_definitions_give_larks_result(monkeypatch):
    """Random edits of definitions (inserted words and symbols, deletions, copies): whatever the
    fast parser reads is what Lark reads without an error; every diagnostic is Lark's."""
    rng = random.Random(12)
    words = ["armor", "life", "{", "}", "(", ")", "1", "X", "+", "-", "vs", '"a"', "\n", " ", "#", "creature",
             "Melee", "and", "or", ",", "2X", "if", "when", "static", "9" * 40]
    read = 0
    for _ in range(250):
        f = rng.choice(FILES)
        offset, chunk = rng.choice(_chunks(f.read_text(encoding="utf-8")))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chunk) + 1)
            op = rng.random()
            if op < 0.4:
                chunk = chunk[:i] + rng.choice(words) + chunk[i:]
            elif op < 0.8:
                chunk = chunk[:i] + chunk[i + rng.randint(1, 8):]
            else:
                j = rng.randrange(len(chunk) + 1)
                chunk = chunk[:i] + chunk[j:j + 10] + chunk[i:]
        src = "\n" * offset + chunk
        want = lark_only(src, "m.mw", monkeypatch)
        assert enc(parser.parse_text(src, "m.mw")) == enc(want), src
        fast = fastparse.parse_text(src, "m.mw")
        if fast is not None:
            read += 1
            assert not want[1] and enc(fast) == enc(want), src
    assert read > 20  # the comparison saw valid edits too


def test_a_file_with_one_bad_definition_reads_the_others_fast(monkeypatch):
    good = (ROOT / "spells" / "promo" / "equipment.mw").read_text(encoding="utf-8")
    text = good + '\n\ncreature "Bad" {\n  life 5\n  armor two\n}\n'
    assert fastparse.parse_text(text, "x.mw") is None
    assert enc(parser.parse_text(text, "x.mw")) == enc(lark_only(text, "x.mw", monkeypatch))


def test_a_valid_file_is_parsed_without_importing_lark(tmp_path):
    f = tmp_path / "edited.mw"
    f.write_text((ROOT / "spells" / "promo" / "equipment.mw").read_text(encoding="utf-8") + "\n# edited\n")
    code = ("import sys\nfrom magewars.dsl.parser import parse_text\n"
            f"tree, diags = parse_text(open({str(f)!r}).read(), 'x.mw')\n"
            "assert tree.definitions and not diags\nassert 'lark' not in sys.modules, 'lark imported'\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env={"PYTHONPATH": str(ROOT), "MAGEWARS_NO_CACHE": "1", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr


def test_an_edited_files_lint_equals_a_cold_compile(tmp_path, monkeypatch):
    """`magewars lint FILE` on a file just edited (its parse and the compilation missing from a
    warm cache) reports what a compilation with no cache at all reports."""
    from magewars.dsl import compile_paths
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MAGEWARS_NO_CACHE", raising=False)
    src = (ROOT / "spells" / "core" / "creatures.mw").read_text(encoding="utf-8")
    f = tmp_path / "mine.mw"
    f.write_text(src)
    compile_paths([f])  # the cache is warm
    for edit in (src.replace("life 5", "life 6", 1) + "\n# edited\n",
                 src.replace("armor 1", "armor one", 1),
                 src + '\ncreature "Newt" {\n  cost 2\n  life x\n}\n'):
        f.write_text(edit)
        corpus, diags = compile_paths([f])
        monkeypatch.setenv("MAGEWARS_NO_CACHE", "1")
        cold_corpus, cold = compile_paths([f])
        monkeypatch.delenv("MAGEWARS_NO_CACHE")
        assert [d.format() for d in diags] == [d.format() for d in cold]
        assert list(corpus.cards) == list(cold_corpus.cards) and len(corpus.codex) == len(cold_corpus.codex)
