"""A card file checked against the stored codex check (`codex` cache entries, magewars/dsl/__init__.py)
gives what checking it with the whole codex gives: the same definitions, selectors and diagnostics, in
the same order, for valid files and for files with mistakes of every kind the checker reports."""
from __future__ import annotations

import pytest

from magewars import corpusstore
from magewars.dsl import checker as checker_mod
from magewars.dsl import compile_paths
from magewars.resources import data_dir

SPELLS = data_dir("spells")
BASE_FILES = ["promo/equipment.mw", "promo/creatures.mw", "forged-in-fire/attacks.mw",
              "druid-vs-necromancer/enchantments.mw"]


def _variants(text: str) -> list[tuple[str, str]]:
    """(what, text): the file edited in the ways an author does, errors included."""
    out = [("comment", text + "\n# an edit\n"),
           ("unknown trait", text.replace("traits ", "traits Flyng, ", 1)),
           ("unknown name in a phrase", text.replace("targets ", "targets Zorblat ", 1)),
           ("duplicate card", text + "\n" + text[text.index("\n", text.index('"') - 20) + 1:]),
           ("syntax error", text.replace("cost ", "cost two ", 1)),
           ("new subtype", text.replace('{\n', '{\n  subtypes Quuxling\n', 1)),
           ("new card name", text.replace('"', '"New ', 1)),
           ("cost out of range", text.replace("range 0-2", "range 2-0", 1)),
           ("empty", "")]
    return [(w, t) for w, t in out if w in ("comment", "empty") or t != text]


def _whole(path, monkeypatch):
    """The file compiled with the whole codex checked (no stored codex check, no stored compilation;
    the per-file parses still come from the cache)."""
    with monkeypatch.context() as m:
        m.setattr(corpusstore, "load", lambda *a: None)
        m.setattr(corpusstore, "load_codex", lambda *a: None)
        m.setattr(corpusstore, "save_codex", lambda *a: False)
        m.setattr(corpusstore, "save", lambda *a: False)
        return compile_paths([path])


def _compare(fast, full):
    (c1, d1), (c2, d2) = fast, full
    assert [(d.code, d.message, d.hint, d.severity, d.source_line, d.span.path, d.span.line, d.span.col, d.span.end_line, d.span.end_col) for d in d1] == \
           [(d.code, d.message, d.hint, d.severity, d.source_line, d.span.path, d.span.line, d.span.col, d.span.end_line, d.span.end_col) for d in d2]
    assert list(c1.cards) == list(c2.cards)
    assert list(c1.cards.values()) == list(c2.cards.values())
    assert list(c1.codex) == list(c2.codex)
    assert list(c1.codex.values()) == list(c2.codex.values())
    assert list(c1.selectors.items()) == list(c2.selectors.items())
    assert len(c1.selectors) == len(c2.selectors)


@pytest.mark.parametrize("name", BASE_FILES)
def test_a_card_file_checked_against_the_stored_codex_is_checked_as_with_the_whole_codex(
        name, tmp_path, monkeypatch):
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MAGEWARS_NO_CACHE", raising=False)
    text = (SPELLS / name).read_text(encoding="utf-8")
    path = tmp_path / "edited.mw"
    path.write_text(text, encoding="utf-8")
    compile_paths([path])  # stores the codex's own check
    codex_checks = []
    real = checker_mod.Checker.compile_codex
    monkeypatch.setattr(checker_mod.Checker, "compile_codex",
                        lambda self, *a: codex_checks.append(1) or real(self, *a))
    for what, variant in _variants(text):
        path.write_text(variant, encoding="utf-8")
        codex_checks.clear()
        fast = compile_paths([path])
        names_changed = what in ("new subtype", "new card name", "empty")
        if what != "empty":  # (an empty file may or may not declare other names than the file did)
            assert bool(codex_checks) == names_changed, what  # the codex is checked again only for new names
        if what == "comment":  # the codex's definitions are decoded only as the file's cards use them
            decoded = [n for n, v in fast[0].codex._items.items() if type(v) is not corpusstore._Raw]
            assert len(decoded) < 20, decoded
        _compare(fast, _whole(path, monkeypatch))
        if names_changed:  # stored for these names now: checked against it the next time
            path.write_text(variant + "\n# again\n", encoding="utf-8")
            codex_checks.clear()
            again = compile_paths([path])
            assert not codex_checks, what
            _compare(again, _whole(path, monkeypatch))
        # and the compilation stored on the way is read back as it was made
        _compare(compile_paths([path]), fast if not names_changed else again)


def test_a_damaged_codex_entry_is_a_miss(tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(cache_dir))
    monkeypatch.delenv("MAGEWARS_NO_CACHE", raising=False)
    path = tmp_path / "edited.mw"
    text = (SPELLS / BASE_FILES[0]).read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    compile_paths([path])
    entries = list((cache_dir).rglob("codex/*.mwc"))
    assert len(entries) == 1
    entries[0].write_bytes(entries[0].read_bytes()[:-7])
    path.write_text(text + "\n# edit\n", encoding="utf-8")
    fast = compile_paths([path])
    assert len(list((cache_dir).rglob("codex/*.mwc"))) == 1  # (stored again)
    _compare(fast, _whole(path, monkeypatch))


def test_a_shipped_file_given_is_known_as_resolve_knows_it(tmp_path):
    """compile_paths leaves a shipped file out of the codex and the context when it is given, by
    `Path.resolve()` equality (a link to it, a path through `..`), and no other file."""
    import os

    from magewars.dsl import _Given
    real = SPELLS / "promo" / "equipment.mw"
    link = tmp_path / "link.mw"
    link.symlink_to(real)
    hard = tmp_path / "hard.mw"
    try:
        os.link(real, hard)
    except OSError:
        hard = None
    dotted = SPELLS / "promo" / ".." / "promo" / "equipment.mw"
    for given in ([link], [dotted], [real]):
        assert real in _Given(given) and SPELLS / "promo" / "creatures.mw" not in _Given(given)
    if hard is not None:  # the same file, another path: resolve() tells them apart
        assert real not in _Given([hard])
    assert real not in _Given([tmp_path / "missing.mw"])


def test_the_shipped_corpus_after_a_card_edit_checks_only_that_file(tmp_path, monkeypatch):
    """`magewars lint` with no paths (and every command that loads the corpus) after a shipped card file
    changed: the codex's check comes from the store and every other card file's own check from the
    cache (magewars/dsl/__init__.py _compile_by_file), and the result is the whole check's; a duplicate
    name or a new name falls back to the whole check (which stores the codex's for the new names)."""
    import shutil
    from magewars import resources
    from magewars.dsl import compile_shipped
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MAGEWARS_NO_CACHE", raising=False)
    for name in ("codex", "spells"):
        shutil.copytree(data_dir(name), tmp_path / "data" / name)
    real_dir = resources.data_dir
    monkeypatch.setattr(resources, "data_dir",
                        lambda name: tmp_path / "data" / name if name in ("codex", "spells") else real_dir(name))
    shipped = resources.shipped_sources()
    assert shipped[0].parent == tmp_path / "data" / "codex" and len(shipped) > 50
    first = compile_shipped()
    assert [d for d in first[1] if d.severity == "error"] == []
    card_files = len(shipped) - len(list((tmp_path / "data" / "codex").rglob("*.mw")))
    codex_checks, card_checks = [], []
    real_codex, real_card = checker_mod.Checker.compile_codex, checker_mod.Checker.compile_card
    monkeypatch.setattr(checker_mod.Checker, "compile_codex",
                        lambda self, *a: codex_checks.append(1) or real_codex(self, *a))
    monkeypatch.setattr(checker_mod.Checker, "compile_card",
                        lambda self, d: card_checks.append(d.span.path) or real_card(self, d))
    edited = tmp_path / "data" / "spells" / BASE_FILES[0]
    text = edited.read_text(encoding="utf-8")
    v = dict(_variants(text))
    # (the edit, the file's text, what is checked: "every" card file once, each against the stored codex
    # check; "one", the edited file; the "whole" corpus, the codex too unless its check is stored for
    # these names; "nothing")
    steps = [
        ("comment", v["comment"], "every"),
        ("unknown trait", v["unknown trait"], "one"),
        ("unknown name in a phrase", v["unknown name in a phrase"], "one"),
        ("duplicate card", v["duplicate card"], "whole"),
        ("new card name", v["new card name"], "whole"),
        ("new card name, a comment", v["new card name"] + "# again\n", "every"),
        ("new card name, another comment", v["new card name"] + "# and again\n", "one"),
        ("empty", "", "whole"),
        ("as shipped", text, "nothing"),  # (the first compilation's entry)
    ]
    for what, variant, checked in steps:
        edited.write_text(variant, encoding="utf-8")
        codex_checks.clear()
        card_checks.clear()
        fast = compile_shipped()
        files = set(card_checks)
        if checked == "whole":
            assert len(files) == card_files - (variant == ""), what
        elif checked == "every":  # the files' own checks are stored for other names: each is checked once
            assert (codex_checks, len(files), len(card_checks)) == ([], card_files, len(first[0].cards)), what
        elif checked == "one":
            assert (codex_checks, files) == ([], {str(edited)}), what
        else:
            assert (codex_checks, files) == ([], set()), what
        with monkeypatch.context() as m:  # the whole check, nothing stored used
            m.setattr(corpusstore, "load", lambda *a: None)
            m.setattr(corpusstore, "load_codex", lambda *a: None)
            m.setattr(corpusstore, "save_codex", lambda *a: False)
            m.setattr(corpusstore, "save", lambda *a: False)
            full = compile_paths(shipped, with_codex=False)
        assert codex_checks, what  # (the whole check did check the codex)
        _compare(fast, full)
        errors = what in ("unknown trait", "unknown name in a phrase", "duplicate card")
        assert bool([d for d in fast[1] if d.severity == "error"]) == errors, what
