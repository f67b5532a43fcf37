"""Syntax highlighting for the card language: a Pygments lexer.

Registered under the `pygments.lexers` entry point, so once magewars is installed
`pygmentize -l magewars card.mw` (or the alias `mw`) works, and so does any tool built on
Pygments (Sphinx, MkDocs, rich) for code blocks tagged `magewars`.

The keyword list is read from the Lark grammar itself, so the lexer cannot fall behind
the language.  Anything the lexer does not recognise is an Error token: the shipped
cards are tested to contain none.
"""
from __future__ import annotations

import functools
import re

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String,
                            Text, Whitespace)

from .resources import grammar_path

# Words that open a definition: highlighted as declarations.
_DECLARATIONS = ("creature", "conjuration", "wall", "terrain", "vine", "enchantment", "equipment",
                 "incantation", "mage", "magestats", "trait", "condition", "keyword")


@functools.lru_cache(maxsize=1)
def grammar_keywords() -> tuple[str, ...]:
    """Every literal word of the grammar (`"armor"`, `"when"`, `"OR"`, `"d12"`...), longest first."""
    text = grammar_path().read_text(encoding="utf-8")
    found = set(re.findall(r'"([A-Za-z][A-Za-z0-9]*)"', text))
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


def _keyword_rules():
    kws = grammar_keywords()
    decl = [k for k in kws if k in _DECLARATIONS]
    other = [k for k in kws if k not in _DECLARATIONS]
    return [
        (r'(attack)(\s+)(spell)\b', bygroups(Keyword.Declaration, Whitespace, Keyword.Declaration)),
        (words(decl, prefix=r"\b", suffix=r"\b(?=\s*\")"), Keyword.Declaration),
        (r'\b[a-z][a-z0-9_]*(?=\s*\()', Name.Function),  # a call: vocabulary function or event
        (words(other, prefix=r"\b", suffix=r"\b"), Keyword),
    ]


class MageWarsLexer(RegexLexer):
    """Lexer for magewars card, trait and condition files (`.mw`)."""

    name = "magewars"
    aliases = ["magewars", "mw"]
    filenames = ["*.mw"]
    mimetypes = ["text/x-magewars"]
    url = "https://github.com/"  # the project has no public home yet

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            *_keyword_rules(),
            (r"[A-Z][A-Za-z0-9'\-]*", Name.Class),       # traits, conditions, subtypes, schools
            (r"[a-z][a-z0-9_]*", Name.Function),         # a bare call name (`at upkeep:`)
            (r"[0-9]+", Number.Integer),
            (r"<=|>=|==|!=|[<>+\-*]", Operator),
            (r"[{}()\[\],;:|]", Punctuation),
            (r".", Error),
        ],
    }


__all__ = ["MageWarsLexer", "grammar_keywords", "Text"]
