"""Splitting a card file into the definitions the parser reads one by one, and the linear checks
made before any parsing (numbers too long, brackets nested too deep).  No Lark here: the parser
of valid files (:mod:`magewars.dsl.fastparse`) uses them without importing it."""
from __future__ import annotations

import re
from typing import Optional

from ..limits import MAX_INT_DIGITS, MAX_NESTING, line_col, too_deep_at
from .diagnostics import Diagnostic
from .span import Span


_LONG_INT = re.compile(r"\d{%d,}" % (MAX_INT_DIGITS + 1))


def _bound_ints(chunk: str, offset: int, path: str, diags: list) -> str:
    """Report each run of more than MAX_INT_DIGITS digits where it stands and read it as 0 (padded
    with spaces, so every later column stays where it was).  One linear scan, before the parser."""
    if not _LONG_INT.search(chunk):
        return chunk
    out, last = [], 0
    for m in _LONG_INT.finditer(chunk):
        line, col = line_col(chunk, m.start())
        line += offset
        diags.append(Diagnostic("E202", f"number too large: {len(m.group())} digits (at most {MAX_INT_DIGITS})",
                                Span(path, line, col, line, col + len(m.group()))))
        out.append(chunk[last:m.start()])
        out.append("0" + " " * (len(m.group()) - 1))
        last = m.end()
    out.append(chunk[last:])
    return "".join(out)


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


_NEST_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[()\[\]{}]|[^()\[\]{}"#]+|.', re.S)


def _too_deep(text: str, offset: int, path: str) -> Optional[Diagnostic]:
    """Brackets nested deeper than MAX_NESTING (outside strings and comments), located; one linear pass
    (limits.too_deep_at), so a pathological nest never reaches the parser."""
    at = too_deep_at(text, _NEST_TOKENS, "([{", ")]}", MAX_NESTING)
    if at is None:
        return None
    line, col = line_col(text, at)
    return Diagnostic("E001", f"nesting too deep: more than {MAX_NESTING} brackets open at once",
                      Span(path, offset + line, col, offset + line, col + 1))