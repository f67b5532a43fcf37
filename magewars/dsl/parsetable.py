"""Lark's LALR tables for the card grammar: shipped with the package, never pickled.

Building the parser from `grammar/magewars.lark` costs about half a second
(Lark computes the LALR tables and checks terminal collisions).  The package
ships those tables, computed ahead of time, in `magewars/data/parse_table.mwc`
(the cache's safe msgpack format: plain numbers, strings and lists, no code).
The file records a key over the grammar text, Lark's version and the parser
options; when the grammar in use does not match it (an edited checkout), the
parser is built from the grammar and its tables go to the user cache instead.

Regenerate the shipped file after editing the grammar:

    python -m magewars.dsl.parsetable

(a test fails while the shipped tables do not match the grammar).
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Optional

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from .. import cache
from ..resources import grammar_path, parse_table_path

OPTIONS = dict(parser="lalr", lexer="contextual", strict=True, maybe_placeholders=True,
               propagate_positions=True)

_CODEC = cache.Codec(())  # the tables are plain containers: no class is allowed in them


def table_key(grammar_text: str) -> str:
    h = hashlib.blake2b(digest_size=16)
    for part in (grammar_text, lark.__version__, repr(sorted(OPTIONS.items()))):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def build(grammar_text: str) -> Lark:
    """The parser, computed from the grammar (slow: LALR construction)."""
    return Lark(grammar_text, **OPTIONS)


def tables(parser: Lark) -> list:
    """[data, memo]: the big state table as plain msgpack (fast to read); the small terminal
    memo through the tagged codec (it holds tuples and integers wider than 64 bits)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    return [data, _CODEC.encode(memo)]


def from_tables(doc) -> Lark:
    if not isinstance(doc, list) or len(doc) != 2 or not isinstance(doc[0], dict):
        raise cache.CacheError("not a parse table")
    try:
        memo = _CODEC.decode(doc[1])
        return Lark._load_from_dict(doc[0], memo)
    except Exception as exc:  # a damaged table: any failure means "build it instead"
        raise cache.CacheError(f"unusable parse table: {exc.__class__.__name__}: {exc}") from None


def encode(grammar_text: str, parser: Optional[Lark] = None) -> bytes:
    return cache.dumps_raw(tables(parser or build(grammar_text)), table_key(grammar_text))


def load_shipped(grammar_text: str, path: Optional[Path] = None) -> Optional[Lark]:
    """The parser from the shipped tables, or None if they are missing or for another grammar."""
    p = path or parse_table_path()
    try:
        blob = p.read_bytes()
    except OSError:
        return None
    try:
        return from_tables(cache.loads_raw(blob, table_key(grammar_text)))
    except cache.CacheError:
        return None


def load_parser() -> Lark:
    """The card-language parser: shipped tables, else the user cache, else built (and cached)."""
    text = grammar_path().read_text(encoding="utf-8")
    parser = load_shipped(text)
    if parser is not None:
        return parser
    key = table_key(text)
    doc = cache.get("parser", key, None)
    if doc is not None:
        try:
            return from_tables(doc)
        except cache.CacheError:
            pass
    parser = build(text)
    cache.put("parser", key, tables(parser), None)
    return parser


def write_shipped(path: Optional[Path] = None) -> Path:
    p = path or parse_table_path()
    text = grammar_path().read_text(encoding="utf-8")
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(encode(text))
    return p


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    print(f"wrote {write_shipped()}", file=sys.stderr)
