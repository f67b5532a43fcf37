"""Lark's parser of card files without Lark: the card author's loop, fast.

`magewars lint FILE` on a file just edited used to spend most of its time before the first token
was read: importing Lark, decoding its LALR tables and building its contextual lexer's
per-state regular expressions.  This module runs the same LALR tables (computed by Lark, shipped
in `magewars/data/fast_parse.mwc` by :mod:`magewars.dsl.parsetable`) with a small driver of its
own, and builds the very parse tree Lark would (the same shapes, placeholders and positions:
Lark's `ChildFilterLALR`, `ExpandSingleChild` and `PropagatePositions` rules, emulated), which the
rules of :mod:`magewars.dsl.transform` turn into the AST.

At a syntax error it stops where Lark stops, with what Lark's exception would hold (a
:class:`Fault`: the character no terminal matches, or the token the automaton does not take, read
by Lark's lexer of every terminal where the state's own match nothing; the terminals the state
expected; what the parser accepts there, as Lark's `InteractiveParser.accepts` computes it), and
:mod:`magewars.dsl.parser` reports it and recovers with the same code it uses for Lark's
exceptions, so every diagnostic is Lark's (tests/dsl/test_fastparse.py compares the two over the
corpus, the tests' card files and definitions broken in many ways).  Where Lark would fail in
another way than a syntax error (its own assertions: :class:`GiveUp`), or a tree does not build
(a RecursionError on a very deep expression), the caller parses the definition with Lark.

The lexer is Lark's contextual lexer, emulated without compiling a regular expression per
state: in each state Lark tries the state's terminals in a fixed order (its regular expressions
first, then its keywords and symbols, longest first) and the first that matches wins; a keyword
that a regular expression of the state also matches whole (`armor`, by LNAME) is not tried
itself, a match of that expression is renamed instead (Lark's "unless" callback).  The tables
record, for each group of states with the same terminals, the expressions in order, the strings
by first character in order, and the renamings.
"""
from __future__ import annotations

import functools
import re
from typing import Any, Optional

class Token(str):
    """A token, as Lark's: its text, its terminal's name and its position."""

    def __new__(cls, type_: str, value: str, start_pos: int, line: int, column: int,
                end_line: int, end_column: int, end_pos: int):
        self = str.__new__(cls, value)
        self.type = type_
        self.value = value
        self.start_pos, self.line, self.column = start_pos, line, column
        self.end_line, self.end_column, self.end_pos = end_line, end_column, end_pos
        return self

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"


class Meta:
    """A tree's position, as Lark's `Meta` (attributes appear when they are known)."""

    def __init__(self):
        self.empty = True


class Tree:
    __slots__ = ("data", "children", "meta")

    def __init__(self, data: str, children: list):
        self.data = data
        self.children = children
        self.meta = Meta()

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"


class _Rows(dict):
    """State -> its row (symbol -> code), each decoded from its record when first asked for."""

    def __init__(self, blobs: list):
        super().__init__()
        self.blobs = blobs

    def __missing__(self, state: int) -> dict:
        row = _decode(self.blobs[state])
        if type(row) is not dict:
            raise ValueError("a state's row is not a mapping")
        self[state] = row
        return row


class _Groups(dict):
    """Lexer group -> (expressions [(terminal, match)], {first character: [(string, terminal)]},
    {terminal: {string: terminal}}), each decoded from its record when first asked for; the
    terminals a group reads, on demand (:meth:`allowed`: only a syntax error asks)."""

    def __init__(self, blobs: list, matchers: dict):
        super().__init__()
        self.blobs, self.matchers = blobs, matchers

    def __missing__(self, g):
        res, strs, unless, _ = _decode(self.blobs[g])
        group = ([(n, self.matchers[n]) for n in res], {c: [tuple(p) for p in v] for c, v in strs.items()}, unless)
        self[g] = group
        return group

    def allowed(self, g, ignore: frozenset) -> set:
        """What Lark's lexer of group g says it expected where it matches nothing (its terminals,
        ignored ones aside: `Scanner.allowed_types - ignore_types`, made the same way)."""
        names = _decode(self.blobs[g])[3]
        allowed = {n for n in names} - ignore
        return allowed or {"<END-OF-FILE>"}


def _decode(blob: bytes):
    from ..cache import unpack
    return unpack(blob, "parse table record")


class Tables:
    """The tables (see :func:`magewars.dsl.parsetable.fast_tables` for the layout), decoded as
    they are used."""

    def __init__(self, doc: dict):
        self.start = doc["start"]
        self.end = doc["end"]
        blobs = doc["states"]
        self.rules = [(name, size, origin, bool(expand1), [tuple(x) for x in filt] if filt is not None else None,
                       append_none)
                      for name, size, origin, expand1, filt, append_none in doc["rules"]]
        self.ignore = frozenset(doc["ignore"])
        matchers = {name: re.compile(rx).match for name, rx in doc["regexps"].items()}
        self.state_group = doc["state_group"]
        self.states = _Rows(blobs)  # [ {symbol: code} ]: code = 2*state (shift/goto) or 2*rule+1 (reduce)
        self.groups = _Groups(doc["groups"] + [doc["root"]], matchers)
        self.root = len(doc["groups"])  # the group of Lark's lexer of every terminal
        self.terminals = [(n, bool(is_str), v) for n, is_str, v in doc["terminals"]]
        if type(doc["root"]) is not bytes or not all(type(n) is str and type(v) is str for n, _, v in self.terminals):
            raise ValueError("inconsistent tables")
        if not (type(blobs) is list and all(type(b) is bytes for b in blobs) and len(self.state_group) == len(blobs)
                and type(doc["groups"]) is list and 0 <= self.start < len(blobs) and 0 <= self.end < len(blobs)):
            raise ValueError("inconsistent tables")


def _meta_of(children) -> Any:
    for c in children:
        t = type(c)
        if t is Tree:
            if not c.meta.empty:
                return c.meta
        elif t is Token:
            return c
    return None


def _positions(res: Tree, children: list) -> None:
    """Lark's PropagatePositions: a node spans from its first child's container to its last's."""
    meta = res.meta
    first = _meta_of(children)
    if first is not None:
        line = getattr(first, "container_line", first.line)
        column = getattr(first, "container_column", first.column)
        start = getattr(first, "container_start_pos", first.start_pos)
        if not hasattr(meta, "line"):
            meta.line, meta.column, meta.start_pos, meta.empty = line, column, start, False
        meta.container_line, meta.container_column, meta.container_start_pos = line, column, start
    last = _meta_of(reversed(children))
    if last is not None:
        line = getattr(last, "container_end_line", last.end_line)
        column = getattr(last, "container_end_column", last.end_column)
        end = getattr(last, "container_end_pos", last.end_pos)
        if not hasattr(meta, "end_line"):
            meta.end_line, meta.end_column, meta.end_pos, meta.empty = line, column, end, False
        meta.container_end_line, meta.container_end_column, meta.container_end_pos = line, column, end


def _reduce(rule, children: list):
    name, _, _, expand1, filt, append_none = rule
    if filt is not None:  # Lark's ChildFilterLALR (anonymous tokens dropped, `_rules` inlined, placeholders)
        filtered = []
        for i, to_expand, add_none in filt:
            if add_none:
                filtered += [None] * add_none
            if to_expand:
                if filtered:
                    filtered += children[i].children
                else:
                    filtered = children[i].children
            else:
                filtered.append(children[i])
        if append_none:
            filtered += [None] * append_none
    else:
        filtered = children
    if expand1 and len(filtered) == 1:  # `?rule` with one child: the child itself
        res = filtered[0]
        if type(res) is not Tree:
            return res
    else:
        res = Tree(name, filtered)
    _positions(res, children)
    return res


class GiveUp(Exception):
    """Something Lark would not report as a syntax error (its own assertions): Lark parses instead."""


class Fault:
    """A syntax error, as Lark reports it (magewars/dsl/parser.py reads Lark's exceptions the same way).

    `kind` "char": no terminal matches at `pos` (Lark's UnexpectedCharacters: `line`, `column`,
    `char`, `allowed`); "token": a token the automaton does not take, or the end of the text as
    token `$END` (Lark's UnexpectedToken: `token`, `expected`, and `accepts`, the terminals that
    would move the parser on from where it stopped, computed when asked for)."""

    __slots__ = ("kind", "line", "column", "pos", "char", "allowed", "token", "expected", "_accepts")

    def __init__(self, kind: str, line: int, column: int, pos: Optional[int], char: Optional[str] = None,
                 allowed=None, token=None, expected=None, accepts=None):
        self.kind, self.line, self.column, self.pos, self.char = kind, line, column, pos, char
        self.allowed, self.token, self.expected, self._accepts = allowed, token, expected, accepts

    @property
    def accepts(self) -> set:
        if callable(self._accepts):
            self._accepts = self._accepts()
        return self._accepts


def _accepts(T: Tables, stack: list) -> set:
    """Lark's InteractiveParser.accepts(): each terminal of the state on top that, fed there (with
    the reductions it calls for), is shifted, or for `$END` ends the parse."""
    states, rules, end_state = T.states, T.rules, T.end
    out = set()
    for t in states[stack[-1]]:
        if not t.isupper():
            continue
        s = list(stack)
        is_end = t == "$END"
        while True:
            code = states[s[-1]].get(t)
            if code is None:
                break
            if not code & 1:
                if is_end:
                    raise GiveUp("a shift of the end")
                out.add(t)
                break
            rule = rules[code >> 1]
            if rule[1]:
                del s[-rule[1]:]
            goto = states[s[-1]].get(rule[2])
            if goto is None or goto & 1:
                raise GiveUp("no goto")
            s.append(goto >> 1)
            if is_end and s[-1] == end_state:
                out.add(t)
                break
    return out


def _unexpected_characters(T: Tables, text: str, pos: int, line: int, line_start: int, stack: list) -> Fault:
    """Where the state's own terminals match nothing: Lark's contextual lexer then reads the text with
    every terminal; a token found is reported as unexpected (what the state's lexer expected, and
    what the parser accepts), else the character."""
    groups = T.groups
    allowed = groups.allowed(T.state_group[stack[-1]], T.ignore)
    res, strs, unless = groups[T.root]
    for type_, match in res:
        m = match(text, pos)
        if m is not None:
            value = m.group()
            break
    else:
        for value, type_ in strs.get(text[pos], ()):
            if text.startswith(value, pos):
                break
        else:
            return Fault("char", line, pos - line_start + 1, pos, char=text[pos], allowed=allowed)
    if type_ in T.ignore:
        raise GiveUp("an ignored terminal where the state's lexer reads nothing")
    renames = unless.get(type_)
    if renames is not None:
        type_ = renames.get(value, type_)
    nl = value.count("\n")
    end_line = line + nl
    end_start = pos + value.rindex("\n") + 1 if nl else line_start
    tok = Token(type_, value, pos, line, pos - line_start + 1, end_line, pos + len(value) - end_start + 1,
                pos + len(value))
    frozen = list(stack)
    return Fault("token", tok.line, tok.column, pos, token=tok, expected=allowed,
                 accepts=lambda: _accepts(T, frozen))


def parse_tree(T: Tables, text: str):
    """The parse tree of `text` (from the start rule), or the :class:`Fault` Lark reports at the
    first syntax error (GiveUp where Lark would fail otherwise)."""
    states, groups, state_group, rules, ignore = T.states, T.groups, T.state_group, T.rules, T.ignore
    end_state = T.end
    stack = [T.start]
    values: list = []
    pos, n, line, line_start = 0, len(text), 1, 0
    last = None
    while True:
        # ---- the next token, by the lexer of the current state
        tok = None
        res, strs, unless = groups[state_group[stack[-1]]]
        while pos < n:
            for type_, match in res:
                m = match(text, pos)
                if m is not None:
                    value = m.group()
                    break
            else:
                for value, type_ in strs.get(text[pos], ()):
                    if text.startswith(value, pos):
                        break
                else:  # no terminal of this state here
                    return _unexpected_characters(T, text, pos, line, line_start, stack)
            start, tline, tcol = pos, line, pos - line_start + 1
            nl = value.count("\n")
            if nl:
                line += nl
                line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            if type_ in ignore:
                continue
            renames = unless.get(type_)
            if renames is not None:
                type_ = renames.get(value, type_)
            tok = Token(type_, value, start, tline, tcol, line, pos - line_start + 1, pos)
            break
        is_end = tok is None
        if is_end:  # Lark's end token borrows the last token's place (1:1 when there is none)
            tok = (Token("$END", "", last.start_pos, last.line, last.column, last.end_line, last.end_column,
                         last.end_pos) if last is not None else Token("$END", "", 0, 1, 1, None, None, None))
        else:
            last = tok
        type_ = tok.type
        # ---- feed it to the LALR automaton (Lark's ParserState.feed_token)
        while True:
            code = states[stack[-1]].get(type_)
            if code is None:
                frozen = list(stack)
                return Fault("token", tok.line, tok.column, tok.start_pos, token=tok,
                             expected={s for s in states[stack[-1]].keys() if s.isupper()},
                             accepts=lambda: _accepts(T, frozen))
            if not code & 1:
                if is_end:
                    raise GiveUp("a shift of the end")
                stack.append(code >> 1)
                values.append(tok)
                break
            rule = rules[code >> 1]
            size = rule[1]
            if size:
                children = values[-size:]
                del stack[-size:]
                del values[-size:]
            else:
                children = []
            value = _reduce(rule, children)
            goto = states[stack[-1]].get(rule[2])
            if goto is None or goto & 1:
                raise GiveUp("no goto")
            stack.append(goto >> 1)
            values.append(value)
            if is_end and stack[-1] == end_state:
                return value


def transform(tree: Tree, rules) -> Any:
    """Children first, then the rule named after the node (`rules.<data>(meta, children)`)."""
    ch = [transform(c, rules) if type(c) is Tree else c for c in tree.children]
    f = getattr(rules, tree.data, None)
    if f is None or tree.data.startswith("_"):
        raise LookupError(f"no rule for {tree.data!r}")
    return f(tree.meta, ch)


@functools.lru_cache(maxsize=1)
def tables() -> Optional[Tables]:
    """The tables of the grammar in use, or None (the caller uses Lark)."""
    from .parsetable import load_fast_tables
    doc = load_fast_tables()
    if doc is None:
        return None
    try:
        return Tables(doc)
    except Exception:  # damaged or of another layout: Lark parses instead
        return None


def parse_chunk(T: Tables, rules, text: str) -> Optional[list]:
    """The definitions of one chunk of a file (magewars/dsl/chunks.py) through `rules` (an
    :class:`magewars.dsl.transform.AstRules`), or None if this parser does not read it to the end
    or its tree does not build (Lark then parses it)."""
    try:
        tree = parse_tree(T, text)
        if type(tree) is not Tree:
            return None
        return list(transform(tree, rules).definitions)
    except Exception:  # RecursionError on a deep expression, a tree the rules do not take, a damaged
        return None    # record of the tables: Lark decides


def parse_text(text: str, path: str = "<string>"):
    """(SourceFile, []) for a file that parses without a fault; None otherwise (and then Lark
    parses it: :func:`magewars.dsl.parser.parse_text`, which reports every error)."""
    T = tables()
    if T is None:
        return None
    from .ast import SourceFile
    from .chunks import _LONG_INT, _chunks, _too_deep
    rules = ast_rules(path)
    definitions: list = []
    for offset, chunk in _chunks(text):
        if _too_deep(chunk, offset, path) is not None or _LONG_INT.search(chunk):
            return None
        defs = parse_chunk(T, rules, "\n" * offset + chunk)
        if defs is None:
            return None
        definitions.extend(defs)
    return SourceFile(path, tuple(definitions), ()), []


def ast_rules(path: str):
    from .transform import AstRules as rules
    return rules(path)
