"""Parse source text into the typed AST, reporting every syntax error.

The parser is Lark LALR with a cached grammar.  A syntax error does not stop
the file: the parser drops the offending token and resumes, reporting one
diagnostic per line so that a single slip does not produce a cascade.
"""
from __future__ import annotations

import functools
import re
import threading
from typing import Optional

from lark import Lark, Token, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from ..limits import MAX_NESTING, MAX_RECOVERIES, MAX_SYNTAX_ERRORS
from ..limits import MAX_INT_DIGITS
from ..resources import grammar_path
from .ast import SourceFile, Span
from .diagnostics import Diagnostic, did_you_mean
from .transform import to_ast


@functools.lru_cache(maxsize=1)
def get_parser() -> Lark:
    path = grammar_path()
    return Lark(
        path.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        strict=True,
        maybe_placeholders=True,
        propagate_positions=True,
        cache=True,
        lexer_callbacks={"INT": _bounded_int},
    )


# Numbers in card files are small (stats, costs, die faces).  A longer run of
# digits is reported where it stands and read as 0, so that nothing downstream
# ever converts a 4,300-digit string (Python refuses those) or computes with it.
_SINK = threading.local()


def _bounded_int(tok: Token) -> Token:
    if len(tok) > MAX_INT_DIGITS:
        sink = getattr(_SINK, "diags", None)
        if sink is not None:
            sink.append(Diagnostic(
                "E202", f"number too large: {len(tok)} digits (at most {MAX_INT_DIGITS})",
                Span(getattr(_SINK, "path", "<string>"), tok.line, tok.column, tok.end_line or tok.line,
                     tok.end_column or tok.column + 1)))
        return Token.new_borrow_pos(tok.type, "0", tok)
    return tok


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


def _expected_key(e: UnexpectedInput) -> frozenset:
    # The parse table's expectation: cheap, unlike `accepts` (which copies the
    # parser once per terminal), so it is safe to compute for every skipped token.
    return frozenset(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())


def _error_line(e: UnexpectedInput) -> int:
    tok = getattr(e, "token", None)
    if tok is not None and getattr(tok, "line", None):
        return tok.line
    return getattr(e, "line", -1)


def _parse_chunk(parser: Lark, text: str, path: str, diags: list[Diagnostic]):
    last = {"line": -1, "expected": None, "skipped": 0}

    def on_error(e: UnexpectedInput) -> bool:
        expected = _expected_key(e)
        line = _error_line(e)
        # One report per line, and none while the parser stays stuck in the same
        # state (the same expectation, token after token): that is one mistake.
        # The full diagnostic is built only for what is reported, so a run of
        # junk costs the same small amount per token (linear time).
        if line != last["line"] and expected != last["expected"]:
            diags.append(_syntax_diag(e, path))
        last["line"], last["expected"] = line, expected
        last["skipped"] += 1
        if last["skipped"] >= MAX_RECOVERIES:
            last["gave_up"] = line
            return False
        return True

    try:
        return parser.parse(text, on_error=on_error)
    except UnexpectedInput as e:  # unrecoverable, e.g. end of file inside a block
        if "gave_up" in last:
            diags.append(Diagnostic("E001", f"too many syntax errors in this definition ({MAX_RECOVERIES} "
                                            f"tokens skipped): the rest of it is not read",
                                    Span(path, max(last["gave_up"], 1), 1, max(last["gave_up"], 1), 2)))
            return None
        expected = _expected_key(e)
        line = _error_line(e)
        if expected != last["expected"] and (not diags or diags[-1].span.line != line):
            diags.append(_syntax_diag(e, path))
        return None


_NEST_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[()\[\]{}]|[^()\[\]{}"#]+|.', re.S)


def _too_deep(text: str, offset: int, path: str) -> Optional[Diagnostic]:
    """Brackets nested deeper than MAX_NESTING (outside strings and comments), located.

    One regular-expression pass: linear in the text, so it runs before the parser
    and keeps a pathological nest from reaching it.
    """
    depth = 0
    for m in _NEST_TOKENS.finditer(text):
        c = m.group()
        if len(c) != 1:
            continue
        if c in "([{":
            depth += 1
            if depth > MAX_NESTING:
                line = offset + text.count("\n", 0, m.start()) + 1
                col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                return Diagnostic("E001", f"nesting too deep: more than {MAX_NESTING} brackets open at once",
                                  Span(path, line, col, line, col + 1))
        elif c in ")]}":
            depth = max(depth - 1, 0)
    return None


def parse_text(text: str, path: str = "<string>") -> tuple[Optional[SourceFile], list[Diagnostic]]:
    """Parse one file.  Returns the AST of every definition that parsed, and diagnostics.

    The AST is None only when nothing in the file could be parsed.  At most
    MAX_SYNTAX_ERRORS syntax errors are reported per file, then one summary.
    """
    parser = get_parser()
    diags: list[Diagnostic] = []
    definitions = []
    any_tree = False
    _SINK.diags, _SINK.path = diags, path
    try:
        for offset, chunk in _chunks(text):
            before = len(diags)
            deep = _too_deep(chunk, offset, path)
            if deep is not None:
                diags.append(deep)
                continue
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
                try:
                    definitions.extend(to_ast(tree, path).definitions)
                except RecursionError:  # e.g. `1-1-1-...` hundreds of operators long: one deep tree
                    line = offset + 1
                    diags.append(Diagnostic("E001", "definition nested too deeply to read (an expression of "
                                                    "hundreds of operators?)", Span(path, line, 1, line, 2)))
    finally:
        _SINK.diags = None
    if len(diags) > MAX_SYNTAX_ERRORS:
        more = len(diags) - MAX_SYNTAX_ERRORS
        last = diags[MAX_SYNTAX_ERRORS - 1].span
        diags = diags[:MAX_SYNTAX_ERRORS] + [Diagnostic(
            "E001", f"{more} more syntax error(s) in this file not shown (at most {MAX_SYNTAX_ERRORS} are)",
            Span(path, last.line, last.col, last.line, last.col + 1), None, "error")]
    if not any_tree and diags:
        return None, diags
    return SourceFile(path, tuple(definitions)), diags


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
