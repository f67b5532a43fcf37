"""Lint helpers: warnings from compiled definitions and SARIF output."""
from __future__ import annotations

from .dsl.diagnostics import CODES, Diagnostic
from .dsl.model import Corpus


def collect_warnings(corpus: Corpus) -> list[Diagnostic]:
    """One W601 per clause a card or codex entry marks unsupported."""
    out = []
    for defs in (corpus.codex.values(), corpus.cards.values()):
        for d in defs:
            clauses = list(d.unsupported)
            for a in getattr(d, "attacks", ()):
                clauses.extend(a.unsupported)
            for u in clauses:
                out.append(Diagnostic("W601", f"'{d.name}': clause unsupported ({u.reason})", u.span,
                                      None, "warning"))
    return out


def to_sarif(diags: list[Diagnostic]) -> dict:
    rules = [{"id": code, "shortDescription": {"text": text}} for code, text in sorted(CODES.items())]
    results = []
    for d in diags:
        results.append({
            "ruleId": d.code,
            "level": {"error": "error", "warning": "warning"}.get(d.severity, "note"),
            "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": d.span.path},
                "region": {"startLine": max(d.span.line, 1), "startColumn": max(d.span.col, 1),
                           "endLine": max(d.span.end_line, 1), "endColumn": max(d.span.end_col, 1)},
            }}],
        })
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "magewars-lint", "rules": rules}}, "results": results}],
    }
