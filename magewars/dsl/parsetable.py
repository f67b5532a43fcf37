"""Lark's LALR tables for the card grammar: shipped with the package, never pickled.

Building the parser from `grammar/magewars.lark` costs about half a second
(Lark computes the LALR tables and checks terminal collisions).  The package
ships those tables, computed ahead of time, in `magewars/data/parse_table.mwc`
(the cache's safe msgpack format: plain numbers, strings and lists, no code).
The file records a key over the grammar text, Lark's version and the parser
options; when the grammar in use does not match it (an edited checkout), the
parser is built from the grammar and its tables go to the user cache instead.

Beside them, `magewars/data/fast_parse.mwc` holds the same automaton in the plain form that
:mod:`magewars.dsl.fastparse` runs without importing Lark (:func:`fast_tables`): a valid file is
parsed by it, a file with an error by Lark.  Its key also covers the layout's version.  This module
imports Lark only to build or load Lark's own parser: the fast tables and their key do not need it
(Lark's version is read from its package's `__init__.py`).

Regenerate the shipped files after editing the grammar:

    python -m magewars.dsl.parsetable

(a test fails while the shipped tables do not match the grammar).
"""
from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .. import cache
from ..resources import grammar_path, parse_table_path

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

OPTIONS = dict(parser="lalr", lexer="contextual", strict=True, maybe_placeholders=True,
               propagate_positions=True)

FAST_FORMAT = 3  # the layout of the fast parser's tables (:func:`fast_tables`; part of their key)

_CODEC = cache.Codec(())  # the tables are plain containers: no class is allowed in them


@functools.lru_cache(maxsize=1)
def lark_version() -> str:
    """`lark.__version__`, read from the installed package's `__init__.py` without importing it
    (the fast parser's key needs it; importing Lark is what the fast parser saves).  Imported
    only if the file does not say it plainly."""
    for line in _lark_init().splitlines():  # `__version__ = "1.3.1"` or `__version__: str = ...`
        if not line.startswith("__version__"):
            continue
        rest = line[len("__version__"):].strip()
        if rest.startswith(":"):
            rest = rest[1:].lstrip()
            if not rest.startswith("str"):
                continue
            rest = rest[3:].lstrip()
        if not rest.startswith("="):
            continue
        rest = rest[1:].strip()
        if len(rest) > 2 and rest[0] in "\"'" and rest[-1] == rest[0] and rest[0] not in rest[1:-1]:
            return rest[1:-1]
    import lark
    return lark.__version__


def _lark_init() -> str:
    """The text of the `lark/__init__.py` an import would load: the first folder of sys.path that
    holds the package (as the path finder looks), else what importlib finds."""
    import os
    for entry in sys.path:
        f = os.path.join(entry or os.getcwd(), "lark", "__init__.py")
        try:
            with open(f, encoding="utf-8") as fh:
                return fh.read()
        except (OSError, UnicodeDecodeError, ValueError):
            continue
    import importlib.util
    try:
        spec = importlib.util.find_spec("lark")
        return Path(spec.origin).read_text(encoding="utf-8") if spec is not None and spec.origin else ""
    except (OSError, ImportError, ValueError):
        return ""


def table_key(grammar_text: str) -> str:
    h = cache.blake2b(digest_size=16)
    for part in (grammar_text, lark_version(), repr(sorted(OPTIONS.items()))):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def fast_key(grammar_text: str) -> str:
    """The key of the fast parser's tables: Lark's tables' key and the layout of the fast ones."""
    h = cache.blake2b(f"fast-parse\0{FAST_FORMAT}\0{table_key(grammar_text)}".encode(), digest_size=16)
    return h.hexdigest()


def build(grammar_text: str) -> Lark:
    """The parser, computed from the grammar (slow: LALR construction)."""
    from lark import Lark
    return Lark(grammar_text, **OPTIONS)


def tables(parser: Lark) -> list:
    """[data, memo]: the big state table as plain msgpack (fast to read); the small terminal
    memo through the tagged codec (it holds tuples and integers wider than 64 bits)."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    return [data, _CODEC.encode(memo)]


def from_tables(doc) -> Lark:
    if not isinstance(doc, list) or len(doc) != 2 or not isinstance(doc[0], dict):
        raise cache.CacheError("not a parse table")
    from lark import Lark
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
    """The card-language parser: shipped tables, else the user cache, else built (and cached,
    with the fast parser's tables beside it)."""
    text = grammar_path().read_text(encoding="utf-8")
    parser = load_shipped(text)
    if parser is not None:
        return parser
    key = table_key(text)
    doc = cache.get("parser", key, None)
    if doc is not None:
        try:
            parser = from_tables(doc)
        except cache.CacheError:
            parser = None
    if parser is None:
        parser = build(text)
        cache.put("parser", key, tables(parser), None)
    if cache.get("parser", fast_key(text), None) is None:
        fast = fast_tables(parser)
        if fast is not None:
            cache.put("parser", fast_key(text), fast, None)
    return parser


# ---------------------------------------------------------------- the fast parser's tables
def fast_table_path() -> Path:
    return parse_table_path().with_name("fast_parse.mwc")


def fast_tables(parser: Lark) -> Optional[dict]:
    """Lark's automaton, lexer and tree shaping as plain data for :mod:`magewars.dsl.fastparse`;
    None if this parser is configured in a way the fast one does not emulate (it then never runs:
    Lark parses everything).

    - ``states``: for each state (a msgpack record of its own, decoded when the parser first
      reaches the state: a small file visits few), symbol -> 2*next state (shift, or goto after a reduction) or
      2*rule+1 (reduce by that rule); ``start``, ``end``: the start rule's first and last states;
    - ``rules``: [tree name, length, origin (the goto symbol), expand one child (`?rule`), the
      child filter (Lark's ChildFilterLALR: [index, inline it, placeholders before]) or None,
      placeholders after];
    - ``regexps``: terminal -> regular expression; ``ignore``: the terminals skipped;
    - ``groups``: per distinct contextual lexer (a record of its own, as a state's row), [its regular-expression terminals in Lark's
      order, {first character: [[string, terminal], ...] in Lark's order}, {terminal: {string:
      keyword terminal}} (matches renamed), every terminal it reads (what a syntax error says
      it expected)]; ``state_group``: each state's group; ``root``: the same for Lark's lexer of
      every terminal, which names what was found where a state's own terminals match nothing;
    - ``terminals``: [name, is a plain string, the string or expression] of every terminal (what
      a syntax error's message calls it).
    """
    from lark.lexer import PatternRE, PatternStr
    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, maybe_create_child_filter
    from lark.parsers.lalr_analysis import Shift

    fe = parser.parser
    opts = parser.options
    if (opts.parser != "lalr" or opts.lexer != "contextual" or opts.propagate_positions is not True
            or not opts.maybe_placeholders or opts.ambiguity not in ("auto", "resolve") or opts.transformer
            or opts.lexer_callbacks or parser.lexer_conf.g_regex_flags or parser.lexer_conf.use_bytes
            or opts.tree_class is not None or list(opts.start) != ["start"] or opts.postlex is not None):
        return None
    table = fe.parser._parse_table
    rules = list(parser.rules)
    rule_index = {id(r): i for i, r in enumerate(rules)}
    out_rules = []
    for r in rules:
        o = r.options
        name = r.alias or o.template_source or r.origin.name
        filt = maybe_create_child_filter(r.expansion, o.keep_all_tokens, False, o.empty_indices)
        if filt is None:
            f, after = None, 0
        elif filt.func is ChildFilterLALR:
            f, after = [[i, bool(x), n] for i, x, n in filt.args[0]], filt.args[1]
        elif filt.func is ChildFilterLALR_NoPlaceholders:
            f, after = [[i, bool(x), 0] for i, x in filt.args[0]], 0
        else:
            return None
        out_rules.append([name, len(r.expansion), r.origin.name, bool(o.expand1 and not r.alias), f, after])
    n_states = max(table.states) + 1
    if sorted(table.states) != list(range(n_states)):
        return None
    states = []
    for s in range(n_states):
        row = {}
        for sym, (action, arg) in table.states[s].items():
            if action is Shift:
                row[sym] = 2 * arg
            else:
                i = rule_index.get(id(arg))
                if i is None:
                    return None
                row[sym] = 2 * i + 1
        states.append(row)
    terminals = parser.lexer_conf.terminals
    if any(t.priority != terminals[0].priority or t.pattern.flags for t in terminals):
        return None
    regexps = {t.name: t.pattern.to_regexp() for t in terminals if isinstance(t.pattern, PatternRE)}
    lexer = fe.lexer

    def group(basic) -> Optional[list]:
        scanner = basic.scanner  # Lark's own ordering and "unless" renamings
        res, strs, names = [], {}, []
        for t in scanner.terminals:
            names.append(t.name)
            if isinstance(t.pattern, PatternRE):
                if strs:  # an expression after a string: not the order emulated
                    return None
                res.append(t.name)
            elif isinstance(t.pattern, PatternStr) and t.pattern.value:
                strs.setdefault(t.pattern.value[0], []).append([t.pattern.value, t.name])
            else:
                return None
        unless = {}
        for name, cb in basic.callback.items():
            if type(cb).__name__ != "UnlessCallback":
                return None
            unless[name] = {u.pattern.value: u.name for u in cb.scanner.terminals}
        return [res, strs, unless, names]

    groups, group_of, state_group = [], {}, []
    for s in range(n_states):
        basic = lexer.lexers[s]
        g = group_of.get(id(basic))
        if g is None:
            rec = group(basic)
            if rec is None:
                return None
            g = group_of[id(basic)] = len(groups)
            groups.append(rec)
        state_group.append(g)
    root = group(lexer.root_lexer)  # what Lark reads where a state's own terminals match nothing
    if root is None or sorted(parser.lexer_conf.ignore) != sorted(lexer.root_lexer.ignore_types):
        return None
    enc = cache.pack  # each state's row and each lexer group is its own record, decoded when first used
    return {"start": table.start_states["start"], "end": table.end_states["start"],
            "states": [enc(row) for row in states], "rules": out_rules, "regexps": regexps,
            "ignore": sorted(parser.lexer_conf.ignore), "groups": [enc(g) for g in groups],
            "state_group": state_group, "root": enc(root),
            "terminals": [[t.name, isinstance(t.pattern, PatternStr), t.pattern.value] for t in parser.terminals]}


def load_fast_tables() -> Optional[dict]:
    """The fast parser's tables for the grammar in use: shipped, else from the user cache (put
    there by :func:`load_parser` when it had to build Lark's), else None.  Imports no Lark."""
    text = grammar_path().read_text(encoding="utf-8")
    key = fast_key(text)
    try:
        doc = cache.loads_raw(fast_table_path().read_bytes(), key)
    except (OSError, cache.CacheError):
        doc = cache.get("parser", key, None)
    return doc if isinstance(doc, dict) else None


def write_shipped(path: Optional[Path] = None) -> Path:
    """Write the shipped tables of the grammar in use: Lark's (kept as they are if they are
    current: Lark numbers its states in no fixed order, so rebuilding would change the file for
    nothing) and the fast parser's, made from them."""
    p = path or parse_table_path()
    text = grammar_path().read_text(encoding="utf-8")
    p.parent.mkdir(parents=True, exist_ok=True)
    parser = load_shipped(text, p)
    if parser is None:
        parser = build(text)
        p.write_bytes(cache.dumps_raw(tables(parser), table_key(text)))
    fast = fast_tables(parser)
    fp = p.with_name(fast_table_path().name)
    if fast is None:
        fp.unlink(missing_ok=True)
    else:
        fp.write_bytes(cache.dumps_raw(fast, fast_key(text)))
    return p


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    print(f"wrote {write_shipped()}", file=sys.stderr)
