"""The compiled corpus a wheel ships (magewars/prebuilt.py, hatch_build.py): used only for exactly
the inputs it was built from, moved to where they are installed, and equal to compiling them."""
from __future__ import annotations

import shutil

import pytest

import magewars
from magewars import cache, corpusstore, prebuilt
from magewars import dsl
from magewars.dsl import parser as parser_mod
from magewars.dsl.diagnostics import Diagnostic
from magewars.dsl.span import Span
from magewars.resources import data_dir, shipped_sources


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """The prebuilt file of this checkout, and a copy of its sources elsewhere (an installation)."""
    where = tmp_path_factory.mktemp("prebuilt")
    blob = where / "corpus.mwc"
    blob.write_bytes(dsl.prebuild())
    inst = where / "site" / "magewars" / "_data"
    for name in ("codex", "spells"):
        shutil.copytree(data_dir(name), inst / name)
    files = sorted((inst / "codex").rglob("*.mw")) + sorted((inst / "spells").rglob("*.mw"))
    return blob, inst, [(str(f), f.read_text(encoding="utf-8")) for f in files]


def _encoded(corpus, diags):
    c = dsl._codec()  # every field, spans (and so their paths) included
    return (c.encode(dict(corpus.cards)), c.encode(dict(corpus.codex)),
            c.encode(list(corpus.selectors.items())), c.encode(list(diags)))


def test_the_shipped_corpus_is_the_installed_files_compiled(shipped):
    blob, inst, inputs = shipped
    doc = prebuilt.find(inputs, [], dsl._grammar_hash(), path=blob, root=inst)
    assert doc is not None
    got = corpusstore.from_document(doc, "compiled", "k", dsl._codec, lambda: None)
    assert _encoded(*got) == _encoded(*dsl._compile(inputs, []))
    strings: set = set()
    for b in prebuilt._records(doc):
        prebuilt._strings(cache.unpack(b, "record"), strings)
    assert any(s.startswith(str(inst)) for s in strings)  # located at the installed files
    assert not any(str(data_dir("codex").parent) in s for s in strings)  # nothing of the build left


def test_anything_but_the_same_files_under_the_same_compiler_is_a_miss(shipped, monkeypatch):
    blob, inst, inputs = shipped
    h = dsl._grammar_hash()
    assert prebuilt.find(inputs, [], h, path=blob, root=inst) is not None
    edited = list(inputs)
    edited[-1] = (edited[-1][0], edited[-1][1] + "\n// edited\n")
    assert prebuilt.find(edited, [], h, path=blob, root=inst) is None  # an edited card file
    assert prebuilt.find(inputs[:-1], [], h, path=blob, root=inst) is None  # a file fewer
    assert prebuilt.find(inputs[1:] + inputs[:1], [], h, path=blob, root=inst) is None  # another order
    assert prebuilt.find(inputs, inputs[:1], h, path=blob, root=inst) is None  # context files
    assert prebuilt.find(inputs, [], h, path=blob, root=inst / "elsewhere") is None  # not below the root
    assert prebuilt.find(inputs, [], h, path=blob.parent / "missing.mwc", root=inst) is None
    damaged = blob.parent / "damaged.mwc"
    data = bytearray(blob.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    assert prebuilt.find(inputs, [], h, path=damaged, root=inst) is None
    monkeypatch.setattr(magewars, "__version__", "0.0.0-other")
    assert prebuilt.find(inputs, [], h, path=blob, root=inst) is None  # another version
    monkeypatch.undo()
    assert prebuilt.find(inputs, [], "a compiler edited since", path=blob, root=inst) is None


def test_a_compilation_reads_the_shipped_corpus_then_its_cache(shipped, tmp_path, monkeypatch):
    """The checkout's own sources, with an empty cache and the file it builds in place."""
    blob, _, _ = shipped
    import magewars.resources as resources
    monkeypatch.setattr(resources, "prebuilt_corpus_path", lambda: blob)
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MAGEWARS_NO_CACHE", raising=False)
    parses: list = []
    real = parser_mod.parse_text
    monkeypatch.setattr(parser_mod, "parse_text", lambda text, path="<string>": parses.append(path) or real(text, path))
    corpus, diags = dsl.compile_paths(shipped_sources(), with_codex=False)
    assert parses == []  # nothing parsed: read from the shipped file
    assert list((tmp_path / "cache" / f"v{cache.FORMAT}" / "compiled").iterdir())  # and kept in the cache
    monkeypatch.setattr(resources, "prebuilt_corpus_path", lambda: tmp_path / "none.mwc")
    again = dsl.compile_paths(shipped_sources(), with_codex=False)
    assert parses == [] and _encoded(*again) == _encoded(corpus, diags)  # the cache's copy
    monkeypatch.setenv("MAGEWARS_CACHE_DIR", str(tmp_path / "cache2"))
    compiled = dsl.compile_paths(shipped_sources(), with_codex=False)
    assert len(parses) == len(shipped_sources()) and _encoded(*compiled) == _encoded(corpus, diags)


def test_a_build_folder_named_in_any_other_string_is_refused(monkeypatch, tmp_path):
    """Such a string could not be moved to the installation: the wheel build stops instead."""
    root = data_dir("codex").parent
    real = dsl._compile

    def quoting(inputs, ctx):
        corpus, found = real(inputs, ctx)
        note = Diagnostic("W601", f"see {root}/elsewhere.mw:1:1", Span(inputs[0][0], 1, 1, 1, 2), None, "warning")
        return corpus, found + [note]

    monkeypatch.setattr(dsl, "_compile", quoting)
    with pytest.raises(prebuilt.PrebuiltError, match="build folder"):
        dsl.prebuild()


def test_the_wheel_build_hook_adds_the_compiled_corpus_and_cleans_up(monkeypatch, tmp_path):
    """hatch_build.py as hatchling runs it (its one base class stood in for, so that the test needs
    no hatchling): a wheel gets the file, an editable install nothing."""
    import importlib.util
    import sys
    import types
    from pathlib import Path
    root = Path(magewars.__file__).resolve().parents[1]
    assert (root / "hatch_build.py").is_file()

    class BuildHookInterface:
        def __init__(self, root, target_name):
            self.root, self.target_name = str(root), target_name

    names = ["hatchling", "hatchling.builders", "hatchling.builders.hooks", "hatchling.builders.hooks.plugin",
             "hatchling.builders.hooks.plugin.interface"]
    for n in names:
        monkeypatch.setitem(sys.modules, n, types.ModuleType(n))
    sys.modules[names[-1]].BuildHookInterface = BuildHookInterface
    spec = importlib.util.spec_from_file_location("hatch_build_under_test", root / "hatch_build.py")
    hook_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook_module)
    monkeypatch.setenv("MAGEWARS_NO_CACHE", "0")  # the hook turns the cache off: restored after the test

    data = {"force_include": {}}
    hook_module.PrebuiltCorpusHook(root, "wheel").initialize("editable", data)
    assert data == {"force_include": {}}
    hook = hook_module.PrebuiltCorpusHook(root, "wheel")
    hook.initialize("standard", data)
    (made, target), = data["force_include"].items()
    assert target == "magewars/_data/corpus.mwc"
    inputs = [(str(p), p.read_text(encoding="utf-8")) for p in shipped_sources()]
    assert prebuilt.find(inputs, [], dsl._grammar_hash(), path=Path(made), root=root) is not None
    hook.finalize("standard", data, str(tmp_path / "x.whl"))
    assert not Path(made).exists()
