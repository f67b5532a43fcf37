"""Parse source text into the typed AST, reporting every syntax error.

The parser is Lark LALR with a cached grammar.  A syntax error does not stop
the file: the parser drops the offending token and resumes, reporting one
diagnostic per line so that a single slip does not produce a cascade.
"""
from __future__ import annotations

import functools
import re
from typing import Optional

from lark import Lark, Token, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from ..resources import grammar_path  # noqa: F401
from .ast import SourceFile, Span
from .diagnostics import Diagnostic, did_you_mean
from .transform import to_ast


@functools.lru_cache(maxsize=1)
def get_parser() -> Lark:
    # LALR tables shipped with the package (or cached); built from the grammar if stale.
    from .parsetable import load_parser
    return load_parser()


@functools.lru_cache(maxsize=1)
def _terminal_labels() -> dict[str, str]:
    labels: dict[str, str] = {}
    readable = {
        "STRING": 'a quoted string ("...")',
        "INT": "a number",
        "CNAME": "a Capitalised name",
        "LNAME": "a lower-case name",
    }
    for t in get_parser().terminals:
        if isinstance(t.pattern, PatternStr):
            labels[t.name] = f"'{t.pattern.value}'"
        else:
            labels[t.name] = readable.get(t.name, t.name.lower())
    labels["$END"] = "end of file"
    return labels


def _keywords() -> list[str]:
    return [t.pattern.value for t in get_parser().terminals
            if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()]


def describe_expected(names) -> str:
    labels = _terminal_labels()
    shown = sorted({labels.get(n, n) for n in names})
    if len(shown) > 12:
        return ", ".join(shown[:12]) + f" (and {len(shown) - 12} more)"
    return ", ".join(shown)


def _token_text(tok: Token) -> str:
    if tok.type == "$END":
        return "end of file"
    return repr(str(tok))


def _syntax_diag(e: UnexpectedInput, path: str) -> Diagnostic:
    labels = _terminal_labels()
    if isinstance(e, UnexpectedCharacters):
        span = Span(path, e.line, e.column, e.line, e.column + 1)
        expected = getattr(e, "allowed", None) or set()
        msg = f"unexpected character {e.char!r}"
        hint = f"expected {describe_expected(expected)}" if expected else None
        return Diagnostic("E002", msg, span, hint)
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        expected = getattr(e, "expected", None) or getattr(e, "accepts", None) or set()
        line = getattr(e, "line", -1)
        col = getattr(e, "column", -1)
        tok = getattr(e, "token", None)
        if tok is not None and getattr(tok, "line", None):
            line, col = tok.line, tok.column
        span = Span(path, max(line, 1), max(col, 1), max(line, 1), max(col, 1) + 1)
        return Diagnostic("E003", "unexpected end of file", span,
                          f"expected {describe_expected(expected)}" if expected else None)
    assert isinstance(e, UnexpectedToken)
    tok = e.token
    expected = e.accepts or e.expected
    end_col = (tok.end_column or tok.column + len(str(tok)))
    span = Span(path, tok.line, tok.column, tok.end_line or tok.line, end_col)
    msg = f"unexpected {_token_text(tok)}"
    if tok.type in labels and tok.type not in ("CNAME", "LNAME", "INT", "STRING"):
        msg += f" ({labels[tok.type]} is a keyword here)" if str(tok).isalpha() else ""
    hint = None
    if tok.type in ("LNAME", "CNAME") or str(tok).isalpha():
        expected_words = [labels[n].strip("'") for n in expected if n in labels and labels[n].startswith("'")]
        hint = did_you_mean(str(tok), [w for w in expected_words if w.isalpha()])
    exp = f"expected {describe_expected(expected)}"
    hint = f"{hint} ({exp})" if hint else exp
    return Diagnostic("E001", msg, span, hint)


_DEF_START = re.compile(
    r'^(?:creature|conjuration|wall|terrain|vine|enchantment|equipment|incantation|attack[ \t]+spell'
    r'|mage|magestats|trait|condition|keyword)[ \t]+"', re.M)


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split a file at definitions that start in column 1: (line offset, text).

    Each definition is parsed on its own, so an error in one never hides the
    definitions after it.  Text before the first definition is its own chunk.
    """
    starts = [m.start() for m in _DEF_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    out = []
    for a, b in zip(starts, starts[1:] + [len(text)]):
        out.append((text.count("\n", 0, a), text[a:b]))
    return out


def _parse_chunk(parser: Lark, text: str, path: str, diags: list[Diagnostic]):
    last = {"line": -1, "expected": None}

    def on_error(e: UnexpectedInput) -> bool:
        d = _syntax_diag(e, path)
        expected = frozenset(getattr(e, "accepts", None) or getattr(e, "expected", None) or ())
        # One report per line, and none while the parser stays stuck in the same
        # state (the same expectation, token after token): that is one mistake.
        if d.span.line != last["line"] and expected != last["expected"]:
            diags.append(d)
        last["line"], last["expected"] = d.span.line, expected
        return True

    try:
        return parser.parse(text, on_error=on_error)
    except UnexpectedInput as e:  # unrecoverable, e.g. end of file inside a block
        d = _syntax_diag(e, path)
        expected = frozenset(getattr(e, "accepts", None) or getattr(e, "expected", None) or ())
        if expected != last["expected"] and (not diags or diags[-1].span.line != d.span.line):
            diags.append(d)
        return None


def parse_text(text: str, path: str = "<string>") -> tuple[Optional[SourceFile], list[Diagnostic]]:
    """Parse one file.  Returns the AST of every definition that parsed, and diagnostics.

    The AST is None only when nothing in the file could be parsed.
    """
    parser = get_parser()
    diags: list[Diagnostic] = []
    definitions = []
    any_tree = False
    for offset, chunk in _chunks(text):
        before = len(diags)
        tree = _parse_chunk(parser, "\n" * offset + chunk, path, diags)
        if tree is None:
            continue
        any_tree = True
        if len(diags) > before:
            # A recovered tree is a best effort: keep it only if it builds cleanly.
            try:
                definitions.extend(to_ast(tree, path).definitions)
            except Exception:
                pass
        else:
            definitions.extend(to_ast(tree, path).definitions)
    if not any_tree and diags:
        return None, diags
    return SourceFile(path, tuple(definitions)), diags


def parse_file(path) -> tuple[Optional[SourceFile], list[Diagnostic], str]:
    """Read and parse a file; I/O problems become an E004 diagnostic."""
    spath = str(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Diagnostic("E004", f"cannot read file: {exc.__class__.__name__}: {exc}",
                                 Span(spath, 1, 1, 1, 1))], ""
    ast, diags = parse_text(text, spath)
    return ast, diags, text
