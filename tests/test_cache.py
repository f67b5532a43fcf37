"""The compiled-corpus cache (magewars/cache.py) and the shipped parse tables.

Every test here runs on the shipped grammar, codex and cards, with the cache in a
temporary folder.
"""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from magewars import cache
from magewars.dsl import _codec, compile_paths, parser as parser_mod
from magewars.dsl import parsetable
from magewars.dsl.model import Corpus
from magewars.resources import data_dir, grammar_path, shipped_sources


@pytest.fixture
def cache_in(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(d))
    monkeypatch.delenv("MAGEWARS_NO_CACHE", raising=False)
    return d


@pytest.fixture
def count_parses(monkeypatch):
    """Count calls of the parser on file texts (the work the cache is there to save)."""
    calls: list[str] = []
    real = parser_mod.parse_text

    def counting(text, path="<string>"):
        calls.append(path)
        return real(text, path)

    monkeypatch.setattr(parser_mod, "parse_text", counting)
    return calls


def _spans(x, out):
    """Every Span in a value, in order (spans do not take part in dataclass equality)."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        if type(x).__name__ == "Span":
            out.append(x)
            return out
        for f in dataclasses.fields(x):
            _spans(getattr(x, f.name), out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _spans(v, out)
    elif isinstance(x, dict):
        for v in x.values():
            _spans(v, out)
    return out


def test_codec_round_trips_the_shipped_corpus():
    from magewars.dsl import load_corpus
    corpus = load_corpus()
    c = _codec()
    back = c.loads(c.dumps(corpus, "k"), "k")
    assert isinstance(back, Corpus)
    assert back.cards == corpus.cards and back.codex == corpus.codex
    assert list(back.cards) == list(corpus.cards)  # order kept (lint and export print in this order)
    some = list(corpus.cards)[::97]
    for name in some:
        assert _spans(back.cards[name], []) == _spans(corpus.cards[name], [])
        assert _spans(back.cards[name], [])  # the comparison above compared something


@pytest.mark.parametrize("damage", ["flip", "truncate", "other-key", "garbage"])
def test_damaged_entries_are_refused(damage):
    c = _codec()
    blob = c.dumps({"a": (1, 2)}, "k")
    if damage == "flip":
        blob = blob[:-3] + bytes([blob[-3] ^ 0xFF]) + blob[-2:]
    elif damage == "truncate":
        blob = blob[: len(blob) // 2]
    elif damage == "garbage":
        blob = b"not a cache entry at all"
    with pytest.raises(cache.CacheError):
        c.loads(blob, "other" if damage == "other-key" else "k")


@pytest.mark.parametrize("payload", [
    [999, 1, 2],             # a class tag outside the registry
    [0],                     # a registered class with too few fields
    [-3, "k"],               # a dict with a key and no value
    [-42, 1],                # an unknown container tag
    ["x", 1],                # an untagged list
    [-3, [-2], 1],           # an unhashable dict key
    [-6, "9" * 500],         # an oversized integer
])
def test_decoder_checks_tags_and_shapes(payload):
    with pytest.raises(cache.CacheError):
        _codec().decode(payload)


def test_codec_refuses_foreign_objects():
    class Foreign:
        pass

    with pytest.raises(cache.CacheError):
        _codec().encode([Foreign()])
    assert cache.put("compiled", "k", Foreign(), _codec()) is False


def test_second_compile_parses_nothing_and_gives_the_same_result(cache_in, count_parses):
    first, d1 = compile_paths(shipped_sources(), with_codex=False)
    assert len(count_parses) == len(shipped_sources())
    count_parses.clear()
    second, d2 = compile_paths(shipped_sources(), with_codex=False)
    assert count_parses == []
    assert second.cards == first.cards and second.codex == first.codex
    assert [x.format() for x in d2] == [x.format() for x in d1]


def test_a_corrupt_entry_is_recompiled(cache_in, count_parses):
    first, _ = compile_paths(shipped_sources(), with_codex=False)
    for entry in (cache_in / f"v{cache.FORMAT}" / "compiled").iterdir():
        entry.write_bytes(entry.read_bytes()[:100] + b"\0" * 50)
    count_parses.clear()
    again, _ = compile_paths(shipped_sources(), with_codex=False)
    assert again.cards == first.cards
    assert count_parses == []  # the per-file parses were still good: only the check ran again


def test_editing_one_card_file_reparses_only_that_file(cache_in, tmp_path, count_parses):
    spells = tmp_path / "spells"
    src = sorted(data_dir("spells").rglob("*.mw"))[:3]
    spells.mkdir()
    for i, f in enumerate(src):
        shutil.copy(f, spells / f"{i}-{f.name}")
    files = sorted(spells.iterdir())
    corpus, diags = compile_paths(files)
    assert not [d for d in diags if d.severity == "error"]
    count_parses.clear()
    edited = files[1]
    edited.write_text(edited.read_text(encoding="utf-8") + "\n// an edit\n", encoding="utf-8")
    again, _ = compile_paths(files)
    assert count_parses == [str(edited)]
    assert again.cards == corpus.cards


def test_linting_one_file_reads_names_not_the_corpus(cache_in, tmp_path, count_parses, monkeypatch):
    """Linting one file checks it against the codex and the names the other files declare;
    with a warm cache, the other files are neither parsed nor loaded as ASTs."""
    compile_paths(shipped_sources(), with_codex=False)  # warm the per-file entries
    one = tmp_path / "one.mw"
    one.write_text(sorted(data_dir("spells").rglob("*.mw"))[0].read_text(encoding="utf-8"), encoding="utf-8")
    count_parses.clear()
    loaded: list[str] = []
    real_get = cache.get

    def spying_get(kind, key, c):
        loaded.append(kind)
        return real_get(kind, key, c)

    monkeypatch.setattr(cache, "get", spying_get)
    corpus, diags = compile_paths([one])
    assert count_parses == [str(one)]
    n_codex = len(list(data_dir("codex").rglob("*.mw")))
    assert loaded.count("ast") == n_codex + 1  # the codex and the file itself, nothing else
    assert corpus.cards and not [d for d in diags if d.severity == "error"]


def test_cache_can_be_turned_off(tmp_path, monkeypatch, count_parses):
    d = tmp_path / "cache"
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(d))
    monkeypatch.setenv("MAGEWARS_NO_CACHE", "1")
    compile_paths(sorted(data_dir("codex").rglob("*.mw")), with_codex=False)
    compile_paths(sorted(data_dir("codex").rglob("*.mw")), with_codex=False)
    assert not d.exists()
    assert len(count_parses) == 2 * len(list(data_dir("codex").rglob("*.mw")))


def test_cache_dir_defaults_to_the_platform_cache(monkeypatch):
    import platformdirs
    monkeypatch.delenv("MAGEWARS_CACHE_DIR", raising=False)
    assert cache.cache_dir() == cache.Path(platformdirs.user_cache_dir("magewars", appauthor=False))


def test_shipped_parse_table_matches_the_grammar():
    """The shipped LALR tables are those of the grammar in this checkout
    (after editing grammar/magewars.lark, run `python -m magewars.dsl.parsetable`)."""
    text = grammar_path().read_text(encoding="utf-8")
    shipped = parsetable.load_shipped(text)
    assert shipped is not None, "magewars/data/parse_table.mwc is stale: python -m magewars.dsl.parsetable"
    # Lark numbers its LALR states in no fixed order, so the two tables are compared by what they do.
    fresh = parsetable.build(text)
    assert sorted(t.name for t in shipped.terminals) == sorted(t.name for t in fresh.terminals)
    assert len(shipped.rules) == len(fresh.rules)
    for f in shipped_sources()[::12]:
        src = f.read_text(encoding="utf-8")
        assert shipped.parse(src) == fresh.parse(src)
    from lark import UnexpectedInput
    for broken in ('creature "X" {\n  life 5\n  armor\n}\n', 'trait "T" { param number\n'):
        errs = []
        for p in (shipped, fresh):
            try:
                p.parse(broken)
                errs.append(None)
            except UnexpectedInput as e:
                errs.append((type(e).__name__, e.line, e.column, sorted(getattr(e, "expected", ()) or ())))
        assert errs[0] == errs[1] and errs[0] is not None


def test_a_stale_parse_table_is_rebuilt_into_the_cache(cache_in, tmp_path, monkeypatch):
    grammar = grammar_path().read_text(encoding="utf-8")
    assert parsetable.load_shipped(grammar + "\n// edited\n") is None
    bad = tmp_path / "table.mwc"
    bad.write_bytes(b"MWC1" + b"\0" * 64)
    assert parsetable.load_shipped(grammar, bad) is None
    monkeypatch.setattr(parsetable, "parse_table_path", lambda: bad)
    p = parsetable.load_parser()
    assert list((cache_in / f"v{cache.FORMAT}" / "parser").iterdir())
    assert p.parse(shipped_sources()[0].read_text(encoding="utf-8"))


def test_cached_yaml_equals_safe_load(cache_in):
    import yaml
    from magewars.lookup.loader import data_dir as rules_dir
    for item in sorted(rules_dir().iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            text = item.read_text(encoding="utf-8")
            want = yaml.safe_load(text)
            assert cache.load_yaml(text) == want
            assert cache.load_yaml(text) == want  # the second one comes from the cache
    assert list((cache_in / f"v{cache.FORMAT}" / "yaml").iterdir())


def test_only_spans_are_shared_objects_in_a_compiled_corpus():
    """The cache stores values, not object identity: a decoded corpus has one object per place.
    That is only faithful while the compiler shares no node between two places (the engine keys
    once-per-round abilities by identity); spans and selectors, which nothing compares by identity,
    may be."""
    from magewars.dsl import load_corpus
    seen: dict[int, int] = {}
    shared: set[str] = set()

    def walk(x):
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            if id(x) in seen:
                shared.add(type(x).__name__)
                return
            seen[id(x)] = 1
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)

    walk(load_corpus())
    # compiled selectors are immutable values shared by equal phrases; nothing keys them by identity
    from magewars.dsl import selectors as S
    selector_types = {n for n, c in vars(S).items() if dataclasses.is_dataclass(c)}
    assert shared <= {"Span"} | selector_types


def test_an_edited_compiler_misses_the_cache(cache_in, count_parses, monkeypatch):
    """The key covers the compiler's source too: a changed checker must not reuse old results."""
    import magewars.dsl as dsl
    files = sorted(data_dir("codex").rglob("*.mw"))
    compile_paths(files, with_codex=False)
    count_parses.clear()
    compile_paths(files, with_codex=False)
    assert count_parses == []
    monkeypatch.setattr(dsl, "_grammar_hash", lambda: "a checker edited since")
    compile_paths(files, with_codex=False)
    assert len(count_parses) == len(files)
    names = {p.name for p in dsl._compiler_sources()}
    assert {"magewars.lark", "parser.py", "transform.py", "checker.py", "vocab.py", "cache.py",
            "limits.py", "matching.py"} <= names  # limits and hints shape diagnostics too
    assert all(p.is_file() for p in dsl._compiler_sources())


def test_every_class_the_codec_stores_is_defined_in_a_compiler_source():
    """A compilation's key has no codec schema (a cache hit builds no codec): it relies on the
    source of every class the codec stores being among the files _grammar_hash covers."""
    import sys
    import magewars.dsl as dsl
    sources = {p.resolve() for p in dsl._compiler_sources()}
    classes = _codec().classes
    assert len(classes) > 50
    for c in classes:
        assert Path(sys.modules[c.__module__].__file__).resolve() in sources, c


def test_a_lint_answered_from_the_cache_imports_no_definitions(cache_in, tmp_path):
    """`magewars lint FILE` with the compilation stored: the diagnostics and the number of
    definitions come from the store; neither the syntax tree nor the definitions are imported."""
    import os
    import subprocess
    import sys
    f = data_dir("spells") / "promo" / "equipment.mw"
    env = {**os.environ, "MAGEWARS_CACHE_DIR": str(tmp_path / "c")}
    # (the process's own entry, whose quick exit is made an exception here, so the probe can look after it)
    probe = ("import os, sys, runpy; sys.argv = ['magewars', 'lint', sys.argv[1]]\n"
             "def _exit(code):\n    raise SystemExit(code)\n"
             "os._exit = _exit\n"
             "try:\n    runpy.run_module('magewars', run_name='__main__')\nexcept SystemExit as e:\n"
             "    print(e.code, sorted(m for m in ('magewars.dsl.ast', 'magewars.dsl.model', 'magewars.dsl.selectors',"
             " 'lark') if m in sys.modules))\n")
    runs = [subprocess.run([sys.executable, "-c", probe, str(f)], env=env, capture_output=True, text=True)
            for _ in range(2)]
    first, second = (r.stdout.strip().splitlines()[-1] for r in runs)
    assert first.startswith("0 ") and "magewars.dsl.ast" in first  # compiled: the tree was needed
    assert second == "0 []", runs[1].stderr  # answered from the store
