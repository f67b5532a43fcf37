"""Parse source text into the typed AST, reporting every syntax error.

The parser is Lark LALR with a cached grammar.  A syntax error does not stop
the file: the parser drops the offending token and resumes, reporting one
diagnostic per line so that a single slip does not produce a cascade.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from typing import TYPE_CHECKING, Optional

from ..limits import MAX_INT_DIGITS, MAX_NESTING, MAX_RECOVERIES, MAX_SYNTAX_ERRORS  # noqa: F401
from ..resources import grammar_path  # noqa: F401
from .ast import SourceFile, Span
from ..matching import closest
from .diagnostics import Diagnostic, did_you_mean
from .transform import to_ast
from .chunks import _DEF_START, _LONG_INT, _NEST_TOKENS, _bound_ints, _chunks, _too_deep  # noqa: F401


if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark, Token, UnexpectedInput

# Lark is imported when a definition needs it (one the fast parser gives up on), not with this
# module: files are parsed without it, errors and all (magewars/dsl/fastparse.py).


@functools.lru_cache(maxsize=1)
def get_parser() -> Lark:
    # LALR tables shipped with the package (or cached); built from the grammar if stale.
    from .parsetable import load_parser
    return load_parser()



def _terminals() -> list[tuple[str, bool, str]]:
    """(name, is a plain string, its string or expression) of every terminal of the grammar: from
    the fast parser's tables (no Lark), else from Lark's parser."""
    from . import fastparse
    fast = fastparse.tables()
    if fast is not None:
        return fast.terminals
    from lark.lexer import PatternStr
    return [(t.name, isinstance(t.pattern, PatternStr), t.pattern.value) for t in get_parser().terminals]


@functools.lru_cache(maxsize=1)
def _terminal_labels() -> dict[str, str]:
    labels: dict[str, str] = {}
    readable = {
        "STRING": 'a quoted string ("...")',
        "INT": "a number",
        "CNAME": "a Capitalised name",
        "LNAME": "a lower-case name",
    }
    for name, is_str, value in _terminals():
        if is_str:
            labels[name] = f"'{value}'"
        else:
            labels[name] = readable.get(name, name.lower())
    labels["$END"] = "end of file"
    return labels


def _keywords() -> list[str]:
    return [value for _, is_str, value in _terminals() if is_str and value.isalpha()]


_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")
# How many keywords / symbols an "expected" list names before it says how many more there are.
SHOW_KEYWORDS = 5
SHOW_SYMBOLS = 6


def describe_expected(names, near: str | None = None) -> str:
    """A short, grouped description of what the parser would accept.

    Keywords, symbols and kinds of token are listed apart ("a keyword such as 'armor', 'life', ...
    (28 in all), a number, or one of '+', '-'"); keywords closest to `near` (the word that was
    written) come first, so the likely fix is in view.
    """
    labels = _terminal_labels()
    keywords, symbols, kinds = set(), set(), set()
    for n in names:
        label = labels.get(n, n)
        if label.startswith("'") and _WORD.match(label.strip("'")):
            keywords.add(label.strip("'"))
        elif label.startswith("'"):
            symbols.add(label.strip("'"))
        else:
            kinds.add(label)
    parts: list[str] = []
    if keywords:
        ordered = sorted(keywords)
        if near and len(keywords) > SHOW_KEYWORDS:
            first = closest(near, ordered, limit=SHOW_KEYWORDS)
            ordered = first + [k for k in ordered if k not in first]
        shown = ", ".join(f"'{k}'" for k in ordered[:SHOW_KEYWORDS])
        if len(keywords) == 1:
            parts.append(f"the keyword {shown}")
        elif len(keywords) <= SHOW_KEYWORDS:
            parts.append(f"a keyword ({shown})")
        else:
            parts.append(f"a keyword such as {shown}, ... ({len(keywords)} in all)")
    parts.extend(sorted(kinds))
    if symbols:
        syms = sorted(symbols)
        shown = " ".join(f"'{x}'" for x in syms[:SHOW_SYMBOLS])
        more = f" ... ({len(syms)} in all)" if len(syms) > SHOW_SYMBOLS else ""
        parts.append(f"'{syms[0]}'" if len(syms) == 1 else f"one of {shown}{more}")
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " or " + parts[-1]
    return parts[0] if parts else "nothing more"


def _token_text(tok: Token) -> str:
    if tok.type == "$END":
        return "end of file"
    return repr(str(tok))


def _fault(e: UnexpectedInput):
    """Lark's exception as the fast parser's :class:`~magewars.dsl.fastparse.Fault` (what the
    messages and the recovery read), so both parsers' errors are reported by the same code."""
    from lark import UnexpectedCharacters, UnexpectedToken
    from .fastparse import Fault
    if isinstance(e, UnexpectedCharacters):
        return Fault("char", e.line, e.column, e.pos_in_stream, char=e.char, allowed=getattr(e, "allowed", None))
    if isinstance(e, UnexpectedToken):
        return Fault("token", e.line, e.column, e.pos_in_stream, token=e.token, expected=e.expected,
                     accepts=lambda: e.accepts)
    # (UnexpectedEOF: Earley's; the LALR parser reports the end as an unexpected `$END` token)
    return Fault("token", getattr(e, "line", -1), getattr(e, "column", -1), None, token=getattr(e, "token", None),
                 expected=getattr(e, "expected", None), accepts=lambda: getattr(e, "accepts", None))


def _syntax_diag(e, path: str) -> Diagnostic:
    """The diagnostic of a syntax error (a :class:`~magewars.dsl.fastparse.Fault`)."""
    labels = _terminal_labels()
    if e.kind == "char":
        span = Span(path, e.line, e.column, e.line, e.column + 1)
        expected = e.allowed or set()
        msg = f"unexpected character {e.char!r}"
        hint = f"expected {describe_expected(expected)}" if expected else None
        return Diagnostic("E002", msg, span, hint)
    tok = e.token
    if tok is None or tok.type == "$END":
        expected = e.expected or e.accepts or set()
        line, col = e.line, e.column
        if tok is not None and getattr(tok, "line", None):
            line, col = tok.line, tok.column
        span = Span(path, max(line, 1), max(col, 1), max(line, 1), max(col, 1) + 1)
        hint = f"expected {describe_expected(expected)}" if expected else None
        if "RBRACE" in expected:
            hint = "a '}' is missing: a definition or attack is not closed; " + (hint or "")
        return Diagnostic("E003", "unexpected end of file", span, hint)
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
    exp = f"expected {describe_expected(expected, str(tok) if str(tok).isalpha() else None)}"
    hint = f"{hint} ({exp})" if hint else exp
    return Diagnostic("E001", msg, span, hint)


# Recovery budget: at most this many repairs per definition, so bad input stays linear.
MAX_REPAIRS = 25


def _blank(text: str, start: int, end: int) -> str:
    """Replace text[start:end] with spaces, keeping newlines and braces (so lines and nesting stay)."""
    kept = "".join(c if c in "\n{}" else " " for c in text[start:end])
    return text[:start] + kept + text[end:]


def _error_offset(text: str, e) -> int | None:
    """Character offset of the token or character that failed, or None at end of input."""
    tok = e.token
    if e.kind == "char":
        return e.pos
    if tok is None or tok.type == "$END" or tok.start_pos is None:
        return None
    return tok.start_pos


def _repair(text: str, e) -> tuple[str, str] | None:
    """A repaired text that skips the failing item, and the text skipped; None if no repair is left.

    The item is the rest of its line from the line's start, or from the last '{' before the
    error on that line: `armor two` is skipped whole, so the `life 5` below it is still read.
    At end of input a missing '}' is supplied.
    """
    pos = _error_offset(text, e)
    if pos is None:
        expected = set(e.expected or e.accepts or ())
        if "RBRACE" in expected and not text.endswith("\n}\n"):
            return text + "\n}\n", ""
        return None
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    line_end = len(text) if line_end < 0 else line_end
    brace = text.rfind("{", line_start, pos)
    start = brace + 1 if brace >= 0 else line_start
    repaired = _blank(text, start, line_end)
    if repaired == text:  # only braces were left on the line: skip the failing brace itself
        repaired = text[:pos] + " " + text[pos + 1:]
    if repaired == text:
        return None
    return repaired, text[start:line_end]


def _lark_parse(parser: Lark):
    """parse(text) -> (tree, None) or (None, fault), by Lark."""
    from lark import UnexpectedInput

    def parse(text: str):
        try:
            return parser.parse(text), None
        except UnexpectedInput as e:
            return None, _fault(e)
    return parse


def _fast_parse(tables):
    """parse(text) -> (tree, None) or (None, fault), by the fast parser (GiveUp: ask Lark)."""
    from .fastparse import Tree, parse_tree

    def parse(text: str):
        got = parse_tree(tables, text)
        return (got, None) if type(got) is Tree else (None, got)
    return parse


def _parse_recovering(parse, text: str, path: str, diags: list[Diagnostic], skipped: list[tuple[int, str]]):
    """Parse one definition; on a syntax error report it, skip the failing item and parse again,
    so every later item of the definition is still read and checked.  One report per line.
    `parse`: :func:`_lark_parse` or :func:`_fast_parse` (the same faults, the same trees)."""
    reported: set[int] = set()
    last_line = text.count("\n") + 1  # repairs may add text: nothing is reported past the real end
    last_col = len(text) - (text.rfind("\n") + 1) + 1
    for _ in range(MAX_REPAIRS + 1):
        tree, e = parse(text)
        if e is None:
            return tree
        d = _syntax_diag(e, path)
        if d.span.line > last_line or (d.span.line == last_line and d.span.col > last_col):
            d = dataclasses.replace(d, span=Span(path, last_line, last_col, last_line, last_col + 1))
        if d.span.line not in reported:
            diags.append(d)
            reported.add(d.span.line)
        fix = _repair(text, e)
        if fix is None:
            return None
        text, gone = fix
        if gone.strip():
            skipped.append((d.span.line, gone))
    return None


def _fast_recovering(fast, rules, text: str, path: str):
    """A definition with a syntax error, read by the fast parser with Lark's recovery: (its
    definitions or None, diagnostics, skipped text); None where only Lark can answer (a repaired
    tree that does not build, anything Lark would not report as a syntax error)."""
    from .fastparse import transform
    diags: list[Diagnostic] = []
    skipped: list[tuple[int, str]] = []
    try:
        tree = _parse_recovering(_fast_parse(fast), text, path, diags, skipped)
        defs = None if tree is None else list(transform(tree, rules).definitions)
    except Exception:  # GiveUp, RecursionError on a deep expression, a damaged record of the tables
        return None
    return defs, diags, skipped


def parse_text(text: str, path: str = "<string>",
               memo: Optional[dict] = None) -> tuple[Optional[SourceFile], list[Diagnostic]]:
    """Parse one file.  Returns the AST of every definition that parsed, and diagnostics.

    The AST is None only when nothing in the file could be parsed.  At most
    MAX_SYNTAX_ERRORS syntax errors are reported per file, then one summary.

    Each definition is read by the fast parser (:mod:`magewars.dsl.fastparse`: Lark's tables
    without Lark), a syntax error recovered from as below (:func:`_parse_recovering`, the same code
    for both parsers' errors); Lark parses only what the fast parser gives up on.  Both give the
    same trees and the same diagnostics.

    `memo`: a dict kept by a caller that parses new versions of one document again and again (the
    language server, at every keystroke).  A definition the fast parser read cleanly is kept there
    under its text, path and first line, and taken from it next time instead of parsed again: an
    edit parses only the definitions it touched (and those it moved to other lines).  After the
    parse the memo holds exactly this version's definitions.
    """
    from . import fastparse
    fast = fastparse.tables()
    rules = fastparse.ast_rules(path) if fast is not None else None
    diags: list[Diagnostic] = []
    skipped: list[tuple[int, str]] = []
    definitions = []
    any_tree = False
    kept: Optional[dict] = {} if memo is not None else None
    try:
        for offset, chunk in _chunks(text):
            key = (path, offset, chunk)  # (the memo's key: the text as written, not as _bound_ints leaves it)
            if memo is not None:
                hit = memo.get(key)
                if hit is not None:
                    kept[key] = hit
                    definitions.extend(hit)
                    any_tree = True
                    continue
            deep = _too_deep(chunk, offset, path)
            if deep is not None:
                diags.append(deep)
                continue
            before = len(diags)
            chunk = _bound_ints(chunk, offset, path, diags)
            if fast is not None:
                defs = fastparse.parse_chunk(fast, rules, "\n" * offset + chunk)
                if defs is not None and kept is not None and len(diags) == before:
                    kept[key] = tuple(defs)  # (read cleanly: nothing reported on the way)
                if defs is None:  # a syntax error: reported and recovered from as Lark does
                    got = _fast_recovering(fast, rules, "\n" * offset + chunk, path)
                    if got is not None:
                        defs, found, gone = got
                        diags.extend(found)
                        skipped.extend(gone)
                        if defs is None:
                            continue
                if defs is not None:
                    any_tree = True
                    definitions.extend(defs)
                    continue
            tree = _parse_recovering(_lark_parse(get_parser()), "\n" * offset + chunk, path, diags, skipped)
            if tree is None:
                continue
            any_tree = True
            try:
                definitions.extend(to_ast(tree, path).definitions)
            except RecursionError:  # e.g. `1-1-1-...` hundreds of operators long: one deep tree
                line = offset + 1
                diags.append(Diagnostic("E001", "definition nested too deeply to read (an expression of "
                                                "hundreds of operators?)", Span(path, line, 1, line, 2)))
            except Exception:  # a repaired tree that does not build: its errors are already reported
                if not diags:
                    raise
    finally:
        if memo is not None:
            memo.clear()
            memo.update(kept)
    if len(diags) > MAX_SYNTAX_ERRORS:
        more = len(diags) - MAX_SYNTAX_ERRORS
        last_span = diags[MAX_SYNTAX_ERRORS - 1].span
        diags[:] = diags[:MAX_SYNTAX_ERRORS] + [Diagnostic(
            "E001", f"{more} more syntax error(s) in this file not shown (at most {MAX_SYNTAX_ERRORS} are)",
            Span(path, last_span.line, last_span.col, last_span.line, last_span.col + 1), None, "error")]
    if not any_tree and diags:
        return None, diags
    return SourceFile(path, tuple(definitions), tuple(skipped)), diags


def parse_file(path) -> tuple[Optional[SourceFile], list[Diagnostic], str]:
    """Read and parse a file; I/O problems become an E004 diagnostic."""
    spath = str(path)
    from ..limits import MAX_SOURCE_BYTES, LimitError, read_bounded
    try:
        text = read_bounded(path, MAX_SOURCE_BYTES)
    except (OSError, UnicodeDecodeError, LimitError) as exc:
        return None, [Diagnostic("E004", f"cannot read file: {exc.__class__.__name__}: {exc}",
                                 Span(spath, 1, 1, 1, 1))], ""
    ast, diags = parse_text(text, spath)
    return ast, diags, text
