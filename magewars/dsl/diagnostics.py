"""Located diagnostics: every problem the language tools report is one of these."""
from __future__ import annotations

from dataclasses import field
from typing import Iterable, Optional

from ..matching import did_you_mean as _did_you_mean
from .frozen import frozen_dataclass  # @dataclass(frozen=True), cheaper to create
from .span import Span

# Every code the tools can emit, with a one-line description.  docs/dsl.md
# lists the same table; tests prove each fires at the right place.
CODES: dict[str, str] = {
    "E001": "syntax error: unexpected token",
    "E002": "syntax error: unexpected character",
    "E003": "syntax error: unexpected end of file",
    "E004": "file cannot be read",
    "E101": "unknown trait or condition",
    "E102": "unknown keyword: function, event, timing, step or duration",
    "E103": "unknown word in a phrase",
    "E104": "unknown name (school or damage type)",
    "E105": "reference to an undefined card or attack",
    "E106": "phrase word not understood here",
    "E201": "wrong parameter kind",
    "E202": "impossible range or value",
    "E203": "wrong argument for a function",
    "E204": "an event argument the engine does not match against the event",
    "E301": "effect-die table has overlapping rows",
    "E302": "effect-die table has a gap",
    "E401": "a stat the card type requires is missing",
    "E402": "item not allowed for this kind of definition",
    "E403": "item given twice",
    "E501": "duplicate definition",
    "W601": "clause marked unsupported",
    # spellbooks (magewars/spellbook, docs/spellbooks.md)
    "B001": "spellbook file cannot be read, is too large or is not well-formed",
    "B002": "malformed spellbook line: count, heading or order",
    "B003": "unknown card in a spellbook",
    "B004": "spellbook names no Mage, an unknown one, or one without a stats card",
    "B005": "an .o8d card read by its OCTGN id or approximately, not as its label says",
    "B006": "card listed twice in a spellbook; the counts are added",
    "B007": "a Mage or stats card listed among the spells",
    "B008": "the stats card belongs to another Mage",
    "B101": "the spells cost more spellbook points than the Mage has",
    "B102": "more copies of a spell than it allows (Epic)",
    "B103": "a restricted spell ('X Only') the Mage may not include",
    "B104": "a spellbook rule of a card, trait or Mage that cannot be read",
}


@frozen_dataclass
class Diagnostic:
    code: str
    message: str
    span: Span
    hint: Optional[str] = None
    severity: str = "error"  # error | warning | note
    source_line: Optional[str] = field(default=None, compare=False)

    def format(self, with_source: bool = True) -> str:
        out = f"{self.span.path}:{self.span.line}:{self.span.col}: {self.code} {self.message}"
        if with_source and self.source_line is not None:
            line = self.source_line.rstrip("\n").replace("\t", " ")
            caret_len = 1
            if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                caret_len = self.span.end_col - self.span.col
            out += f"\n    {line}\n    {' ' * max(self.span.col - 1, 0)}{'^' * max(caret_len, 1)}"
        if self.hint:
            out += f"\n    hint: {self.hint}"
        return out

    def to_json(self) -> dict:
        return {
            "path": self.span.path,
            "line": self.span.line,
            "column": self.span.col,
            "end_line": self.span.end_line,
            "end_column": self.span.end_col,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }


def did_you_mean(word: str, choices: Iterable[str], n: int = 3) -> Optional[str]:
    """A 'did you mean' hint naming the best few choices (the shared matcher), or None."""
    if len(word) > 64:  # no name is that long: no suggestion (and no cost)
        return None
    return _did_you_mean(word, choices, limit=n)


def attach_sources(diags: list[Diagnostic], texts: dict[str, str]) -> list[Diagnostic]:
    """Fill in each diagnostic's source line from the file texts we hold."""
    out = []
    lines_cache: dict[str, list[str]] = {}
    for d in diags:
        text = texts.get(d.span.path)
        if text is None or d.span.line <= 0:
            out.append(d)
            continue
        lines = lines_cache.setdefault(d.span.path, text.splitlines())
        src = lines[d.span.line - 1] if d.span.line - 1 < len(lines) else ""
        out.append(Diagnostic(d.code, d.message, d.span, d.hint, d.severity, src))
    return out
