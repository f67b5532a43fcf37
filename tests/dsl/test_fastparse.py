"""The fast parser (magewars/dsl/fastparse.py) gives Lark's AST, and for a syntax error Lark's
diagnostics and recovery (or gives up, and Lark parses).

Compared through the cache's codec, which writes every field, the spans included (the AST's
`==` ignores spans); a diagnostic's code, message, place and hint all count."""
from __future__ import annotations

import random
import re
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


@pytest.fixture
def lark_calls(monkeypatch):
    """Every parse Lark makes (the fast parser answers for every syntax error it can)."""
    calls: list[str] = []
    real = parser._lark_parse

    def counting(p):
        parse = real(p)

        def counted(text):
            calls.append(text)
            return parse(text)
        return counted

    monkeypatch.setattr(parser, "_lark_parse", counting)
    return calls


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|\d+|\s+|.', re.S)


def _mutations(rng: random.Random, chunk: str) -> str:
    """One definition broken the ways an author breaks one: tokens deleted, doubled, swapped or
    replaced, brackets left open or closed twice, bad numbers and words, stray characters, the
    text cut short, an unterminated string, brackets nested too deep."""
    toks = _TOKEN.findall(chunk)
    real = [i for i, t in enumerate(toks) if not t.isspace()]
    if not real:
        return chunk + rng.choice(["}", "{", "creature", "@"])
    i = rng.choice(real)
    op = rng.randrange(12)
    if op == 0:
        del toks[i]
    elif op == 1:
        toks.insert(i, toks[i] + " ")
    elif op == 2:
        j = rng.choice(real)
        toks[i], toks[j] = toks[j], toks[i]
    elif op == 3:
        toks[i] = rng.choice(["armor", "life", "cost", "when", "static", "vs", "X", "and", "or", "Melee",
                              "creature", "traits", "attack", "if", "then", "Flying", "lif", "armr", "xyz"])
    elif op == 4:
        toks[i] = rng.choice(["{", "}", "(", ")", "[", "]", ",", "+", "-", ":", "=", "<", ">", "/", "*", "."])
    elif op == 5:  # an unclosed bracket
        opens = [k for k, t in enumerate(toks) if t in "({["]
        if opens:
            toks.insert(rng.choice(opens), rng.choice("({["))
        else:
            toks.insert(i, "(")
    elif op == 6:  # a bracket closed twice, or a close deleted
        closes = [k for k, t in enumerate(toks) if t in ")}]"]
        if closes:
            k = rng.choice(closes)
            if rng.random() < 0.5:
                del toks[k]
            else:
                toks.insert(k, toks[k])
    elif op == 7:  # bad numbers
        toks[i] = rng.choice(["1.5", "-", "0x1", "12a", "9" * 12, "+", "1e3", "3-", "+-2"])
    elif op == 8:  # stray characters
        toks.insert(i, rng.choice(["@", "$", "%", "!", "?", "~", "`", "^", "&", "|", "\\", ";", "'", "é"]))
    elif op == 9:  # the text cut short
        return "".join(toks[:i])
    elif op == 10:  # an unterminated string
        toks.insert(i, '"open')
    else:  # brackets nested too deep, or just deep
        n = rng.choice([3, 20, 40, 70])
        toks.insert(i, "(" * n + "1" + ")" * rng.choice([0, n]))
    return "".join(toks)


def test_syntax_errors_of_every_kind_give_larks_diagnostics(monkeypatch, lark_calls):
    """Definitions broken in every way (_mutations, one to three breaks each): the diagnostics (code,
    message, place, hint), the recovery and the definitions read after the error are Lark's; and the
    fast parser answered for them itself (Lark was not asked)."""
    rng = random.Random(2026)
    broken = deep = 0
    for _ in range(600):
        f = rng.choice(FILES)
        offset, chunk = rng.choice(_chunks(f.read_text(encoding="utf-8")))
        for _ in range(rng.choice([1, 1, 2, 3])):
            chunk = _mutations(rng, chunk)
        src = "\n" * offset + chunk
        lark_calls.clear()
        got = parser.parse_text(src, "m.mw")
        fast_asked_lark = list(lark_calls)
        want = lark_only(src, "m.mw", monkeypatch)
        assert enc(got) == enc(want), src
        assert [d.format() for d in got[1]] == [d.format() for d in want[1]]
        if want[1]:
            broken += 1
        if fast_asked_lark:  # only a tree too deep for the AST's recursive build (Lark's E001 says so)
            assert any("nested too deeply to read" in d.message for d in want[1]), src
            deep += 1
    assert broken > 400 and deep < 10


def test_a_file_with_an_error_in_every_card_gives_larks_diagnostics(monkeypatch, lark_calls):
    for name in ("core/creatures.mw", "core/attacks.mw", "core/enchantments.mw"):
        text = (ROOT / "spells" / name).read_text(encoding="utf-8")
        for broken in (text.replace("  armor ", "  armor two "), text.replace("}", "", 3),
                       text.replace("cost ", "cost (", 5), text + "\n// edit 1\n", text[:len(text) // 2]):
            lark_calls.clear()
            got = parser.parse_text(broken, name)
            assert not lark_calls
            assert enc(got) == enc(lark_only(broken, name, monkeypatch))


def test_the_tables_name_larks_terminals():
    got = fastparse.tables().terminals
    from lark.lexer import PatternStr
    want = [(t.name, isinstance(t.pattern, PatternStr), t.pattern.value) for t in parser.get_parser().terminals]
    assert got == want


def test_a_file_with_one_bad_definition_reads_the_others_fast(monkeypatch):
    good = (ROOT / "spells" / "promo" / "equipment.mw").read_text(encoding="utf-8")
    text = good + '\n\ncreature "Bad" {\n  life 5\n  armor two\n}\n'
    assert fastparse.parse_text(text, "x.mw") is None
    assert enc(parser.parse_text(text, "x.mw")) == enc(lark_only(text, "x.mw", monkeypatch))


@pytest.mark.parametrize("edit, errors", [("# edited", 0), ("// edited", 1), ("armor two {", 1)])
def test_a_file_is_parsed_without_importing_lark(tmp_path, edit, errors):
    f = tmp_path / "edited.mw"
    f.write_text((ROOT / "spells" / "promo" / "equipment.mw").read_text(encoding="utf-8") + f"\n{edit}\n")
    code = ("import sys\nfrom magewars.dsl.parser import parse_text\n"
            f"tree, diags = parse_text(open({str(f)!r}).read(), 'x.mw')\n"
            f"assert tree.definitions and len(diags) == {errors}, diags\n"
            "assert 'lark' not in sys.modules, 'lark imported'\n")
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
