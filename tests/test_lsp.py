"""`magewars lsp` end to end: a real LSP client (pygls) talks to the server over stdio."""
import asyncio
import sys

import pytest
from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

from magewars.dsl import load_corpus

BROKEN = 'creature "Broken Thing" {\n  armor two\n  life 5\n  traits Flying, Flyng\n}\n'


def _trait_name():
    """A trait from the shipped codex (no name hard-coded: the first one with a summary)."""
    return next(n for n, d in sorted(load_corpus().codex.items()) if d.kind == "trait" and d.summary
                and d.param is None and " " not in n)


async def _session(tmp_path):
    trait = _trait_name()
    path = tmp_path / "broken.mw"
    text = BROKEN.replace("Flying", trait)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client = LanguageClient("test-client", "1")
    published: list = []
    got = asyncio.Event()

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(ls, params: T.PublishDiagnosticsParams):
        if params.uri == uri:
            published.append(params.diagnostics)
            got.set()

    await client.start_io(sys.executable, "-m", "magewars", "lsp")
    try:
        init = await asyncio.wait_for(client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(), root_uri=tmp_path.as_uri())), 60)
        client.initialized(T.InitializedParams())
        client.text_document_did_open(T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id="magewars", version=1, text=text)))
        await asyncio.wait_for(got.wait(), 120)
        pos = T.Position(line=3, character=text.splitlines()[3].index(trait) + 1)
        doc = T.TextDocumentIdentifier(uri=uri)
        hover = await asyncio.wait_for(client.text_document_hover_async(T.HoverParams(doc, pos)), 60)
        completion = await asyncio.wait_for(client.text_document_completion_async(
            T.CompletionParams(doc, T.Position(line=3, character=9))), 60)
        definition = await asyncio.wait_for(client.text_document_definition_async(
            T.DefinitionParams(doc, pos)), 60)
        symbols = await asyncio.wait_for(client.text_document_document_symbol_async(
            T.DocumentSymbolParams(doc)), 60)
        # a fix as you type clears the syntax error
        got.clear()
        fixed = text.replace("armor two", "armor 2")
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [T.TextDocumentContentChangeWholeDocument(text=fixed)]))
        await asyncio.wait_for(got.wait(), 60)
        first, after = published[0], published[-1]
        await asyncio.wait_for(client.shutdown_async(None), 30)
        client.exit(None)
    finally:
        await client.stop()
    return dict(trait=trait, init=init, text=text, first=first, hover=hover,
                completion=completion, definition=definition, symbols=symbols, after=after)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    return asyncio.run(_session(tmp_path_factory.mktemp("lsp")))


def test_broken_file_gets_located_diagnostics(session):
    text = session["text"]
    got = [(d.code, d.range.start.line, d.range.start.character) for d in session["first"]]
    assert got == [("E001", 1, text.splitlines()[1].index("two")),
                   ("E101", 3, text.splitlines()[3].index("Flyng"))], got
    assert all(d.source == "magewars" for d in session["first"])


def test_server_announces_its_features(session):
    caps = session["init"].capabilities
    assert caps.hover_provider and caps.completion_provider and caps.definition_provider
    assert caps.document_symbol_provider


def test_hover_on_a_trait_shows_its_codex_entry(session):
    trait = session["trait"]
    value = session["hover"].contents.value
    assert value.startswith(f"**{trait}** (trait)")
    assert load_corpus().codex[trait].summary in value


def test_completion_offers_trait_names(session):
    labels = {i.label for i in session["completion"].items}
    assert session["trait"] in labels
    assert any(n in labels for n in load_corpus().cards)


def test_definition_of_a_trait_is_its_codex_entry(session):
    loc = session["definition"]
    assert loc.uri.endswith("/codex/traits.mw")
    span = load_corpus().codex[session["trait"]].span
    assert loc.range.start.line == span.line - 1


def test_one_symbol_per_card(session):
    assert [s.name for s in session["symbols"]] == ["Broken Thing"]


def test_diagnostics_follow_edits(session):
    after = session["after"]
    col = session["text"].splitlines()[3].index("Flyng")
    assert [(d.code, d.range.start.line, d.range.start.character) for d in after] == [("E101", 3, col)]


def test_a_document_too_large_to_lint_gets_lints_diagnostic_and_is_not_parsed(tmp_path, monkeypatch):
    """An editor may send any amount of text at every keystroke; over the size `magewars lint` reads, the
    server answers lint's own E004 (same code and message) without parsing it, and lists no symbols."""
    from magewars import limits
    from magewars.dsl import compile_paths
    from magewars.lsp import analysis
    text = 'creature "Big" {\n  armor 1 life 2\n}\n' * (limits.MAX_SOURCE_BYTES // 30)
    path = tmp_path / "big.mw"
    path.write_text(text, encoding="utf-8")
    _, lint = compile_paths([path], with_codex=False)
    k = analysis.Knowledge()
    monkeypatch.setattr(analysis, "parse_text", lambda *a, **k: pytest.fail("parsed a document too large to lint"))
    got = k.diagnostics(str(path), text)
    assert [(d.code, d.message, d.span.line, d.span.col) for d in got] == \
        [(d.code, d.message, d.span.line, d.span.col) for d in lint] == \
        [("E004", f"cannot read file: LimitError: file too large: {len(text.encode())} bytes (the limit is "
                  f"{limits.MAX_SOURCE_BYTES})", 1, 1)]
    assert k.symbols(str(path), text) == []
    one = text[:text.index("}") + 2]  # one card of it: parsed and checked as usual
    monkeypatch.undo()
    assert [s[0] for s in k.symbols(str(path), one)] == ["Big"]
    assert "E004" not in {d.code for d in k.diagnostics(str(path), one)}


def _full_check(k, path, text):
    """The server's diagnostics as a check of the whole codex and the document together gives them (its
    first way): what Knowledge.diagnostics must give, whatever it keeps between keystrokes."""
    from pathlib import Path
    from magewars.dsl.checker import Checker
    from magewars.dsl.diagnostics import attach_sources
    from magewars.dsl.parser import parse_text
    tree, diags = parse_text(text, path)
    mine = {str(Path(path).resolve())}
    files = [f for f in k._codex_files if str(Path(f.path).resolve()) not in mine] + ([tree] if tree else [])
    checker = Checker()
    checker.names |= k._subtypes
    checker.card_names |= set(k.corpus.cards)
    checker.check(files)
    return attach_sources(diags + [d for d in checker.diags if d.span.path == path], {path: text})


def _shown(diags):
    return [(d.code, d.message, d.span, d.hint, d.severity, d.source_line) for d in diags]


def test_diagnostics_equal_a_check_of_the_whole_codex_with_the_document(tmp_path):
    """Edit after edit, on every shipped card file and a codex file: the kept codex check and the memoised
    parse give exactly the diagnostics of one check of the codex and the document together."""
    from pathlib import Path
    from magewars.lsp.analysis import Knowledge
    root = Path(__file__).resolve().parents[1]
    k = Knowledge()
    edits = [
        lambda t: t,
        lambda t: t.replace("Flying", "Flyng", 1),  # an unknown trait
        lambda t: t.replace("subtypes ", "subtypes Gremlin, ", 1),  # a new subtype: the codex is checked anew
        lambda t: t + '\ncreature "Brand New" {\n  armor 1 life 2\n  subtypes Gremlin\n}\n',  # a new card name
        lambda t: t[: len(t) // 2] + " } } " + t[len(t) // 2:],  # a syntax error
        lambda t: t.replace("life ", "lfie ", 1),
        lambda t: "} " + t.replace("{", "(").replace("}", ")"),  # nothing parses
    ]
    files = sorted((root / "spells").rglob("*.mw"))[::6] + [root / "codex" / "conditions.mw"]
    for f in files:
        text = f.read_text(encoding="utf-8")
        for edit in edits:
            t = edit(text)
            assert _shown(k.diagnostics(str(f), t)) == _shown(_full_check(k, str(f), t)), (f.name, t[:60])
