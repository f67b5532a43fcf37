"""`magewars lsp`: the language server (pygls), over stdio.

Diagnostics as you type (the codes of `magewars lint`), hover (codex entries, cards,
vocabulary functions), completion, go to definition and document symbols.
The protocol plumbing is here; what is known about a document is in analysis.py.
"""
from __future__ import annotations

import functools
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..dsl.ast import Span
from .analysis import Knowledge

_ITEM_KIND = {
    "codex": T.CompletionItemKind.Class,
    "card": T.CompletionItemKind.Constant,
    "function": T.CompletionItemKind.Function,
    "step": T.CompletionItemKind.EnumMember,
    "word": T.CompletionItemKind.Text,
    "keyword": T.CompletionItemKind.Keyword,
}
_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
             "note": T.DiagnosticSeverity.Information}


def _range(span: Span) -> T.Range:
    """A 1-based, end-exclusive Span as a 0-based LSP range (never negative, never empty)."""
    line, col = max(span.line - 1, 0), max(span.col - 1, 0)
    end_line, end_col = max(span.end_line - 1, line), max(span.end_col - 1, 0)
    if (end_line, end_col) <= (line, col):
        end_line, end_col = line, col + 1
    return T.Range(T.Position(line, col), T.Position(end_line, end_col))


def _path(uri: str) -> str:
    return to_fs_path(uri) or uri


def build_server() -> LanguageServer:
    server = LanguageServer("magewars", __version__)

    @functools.lru_cache(maxsize=1)
    def knowledge() -> Knowledge:
        return Knowledge()

    def publish(uri: str) -> None:
        doc = server.workspace.get_text_document(uri)
        path = _path(uri)
        diags = []
        for d in knowledge().diagnostics(path, doc.source):
            message = f"{d.message}" + (f"\n{d.hint}" if d.hint else "")
            diags.append(T.Diagnostic(range=_range(d.span), message=message, code=d.code,
                                      severity=_SEVERITY.get(d.severity, T.DiagnosticSeverity.Error),
                                      source="magewars"))
        server.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=doc.version))

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: T.DidOpenTextDocumentParams):
        publish(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: T.DidChangeTextDocumentParams):
        publish(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: T.DidSaveTextDocumentParams):
        publish(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: T.DidCloseTextDocumentParams):
        server.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: T.HoverParams):
        doc = server.workspace.get_text_document(params.text_document.uri)
        text = knowledge().hover(doc.source, params.position.line, params.position.character)
        if text is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" ", "("]))
    def completion(ls: LanguageServer, params: T.CompletionParams):
        items = [T.CompletionItem(label=i.label, kind=_ITEM_KIND[i.kind], detail=i.detail or None,
                                  documentation=i.doc or None)
                 for i in knowledge().items]
        return T.CompletionList(is_incomplete=False, items=items)

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: LanguageServer, params: T.DefinitionParams):
        doc = server.workspace.get_text_document(params.text_document.uri)
        span = knowledge().definition(doc.source, params.position.line, params.position.character)
        if span is None:
            return None
        return T.Location(uri=Path(span.path).resolve().as_uri(), range=_range(span))

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: LanguageServer, params: T.DocumentSymbolParams):
        doc = server.workspace.get_text_document(params.text_document.uri)
        out = []
        for name, kind, span, name_span in Knowledge.symbols(_path(doc.uri), doc.source):
            whole, sel = _range(span), _range(name_span)
            if not (whole.start.line <= sel.start.line <= whole.end.line):
                whole = sel
            out.append(T.DocumentSymbol(name=name, detail=kind, kind=T.SymbolKind.Class,
                                        range=whole, selection_range=sel))
        return out

    return server


def serve() -> None:
    """Run the server on stdin/stdout until the client says exit."""
    build_server().start_io()
