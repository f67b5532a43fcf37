"""Lint helpers: what to compile (files, folders, stdin), warnings for the given paths, SARIF output."""
from __future__ import annotations

from .dsl.diagnostics import CODES, Diagnostic
from .dsl.corpus import Corpus


STDIN = "-"


def lint_inputs(paths, read_stdin) -> tuple[Corpus, list[Diagnostic]]:
    """Compile what `magewars lint` was given: files, folders and `-` (stdin, reported as
    `-:line:col`); with no paths, the shipped codex and spells."""
    from .dsl import compile_paths, compile_shipped

    if not paths:
        return compile_shipped()
    files = [p for p in paths if str(p) != STDIN]
    texts, refused = [], []
    if len(files) < len(paths):
        text, refused = _stdin_text(read_stdin())
        if text is not None:
            texts.append((STDIN, text))
    corpus, diags = compile_paths(files, texts=texts)
    return corpus, refused + diags


def _stdin_text(data) -> tuple[str | None, list[Diagnostic]]:
    """What was read from standard input as text, under the same rules as a card file: UTF-8 and at
    most MAX_SOURCE_BYTES, or an E004 diagnostic at `-:1:1` (never a traceback)."""
    from .dsl.span import Span
    from .limits import MAX_SOURCE_BYTES
    if isinstance(data, str):
        return data, []
    where = Span(STDIN, 1, 1, 1, 1)
    if len(data) > MAX_SOURCE_BYTES:
        return None, [Diagnostic("E004", f"cannot read standard input: more than {MAX_SOURCE_BYTES} bytes "
                                         f"(the limit of a card file)", where)]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        return None, [Diagnostic("E004", f"cannot read standard input: UnicodeDecodeError: {exc}", where)]


def given_paths(paths) -> set[str] | None:
    """The source paths (as spans name them) that `paths` stand for; None for "everything"."""
    if not paths:
        return None
    from .dsl import expand_paths
    files, _ = expand_paths([p for p in paths if str(p) != STDIN])
    out = {str(f) for f in files}
    if any(str(p) == STDIN for p in paths):
        out.add(STDIN)
    return out


def collect_warnings(corpus: Corpus, only: set[str] | None = None) -> list[Diagnostic]:
    """One W601 per clause a card or codex entry marks unsupported (only in files `only`, if given)."""
    out = []
    for defs in (corpus.codex.values(), corpus.cards.values()):
        for d in defs:
            clauses = list(d.unsupported)
            for a in getattr(d, "attacks", ()):
                clauses.extend(a.unsupported)
            for u in clauses:
                if only is not None and u.span.path not in only:
                    continue
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
