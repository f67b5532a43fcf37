"""What the language server knows about a document, independent of the protocol plumbing.

Everything here works on plain text and (line, character) positions counted from 0, so it
can be tested without a client; magewars.lsp.server maps it onto LSP messages.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..dsl import ast as A
from ..dsl import vocab as V
from ..dsl.checker import Checker
from ..dsl.diagnostics import Diagnostic, attach_sources
from ..dsl.model import Corpus
from ..dsl.parser import parse_file, parse_text

MAX_MEMOS = 32  # open documents whose parsed definitions are kept between keystrokes
MAX_CODEX_CHECKS = 8  # checks of the codex kept, one per set of names a document brought

_CAP_RUN = re.compile(r"[A-Z][A-Za-z0-9'\-]*(?: [A-Z][A-Za-z0-9'\-]*)*")
_LOWER = re.compile(r"[a-z][a-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


@dataclass(frozen=True)
class Item:
    """A completion candidate: label, what it is, and a one-line description."""

    label: str
    kind: str  # codex | card | function | step | word | keyword
    detail: str = ""
    doc: str = ""


class Knowledge:
    """The shipped codex and card corpus, loaded once, and the checks and lookups built on them."""

    def __init__(self, corpus: Optional[Corpus] = None):
        from ..dsl import load_corpus
        from ..resources import data_dir
        self.corpus = corpus if corpus is not None else load_corpus()
        self._codex_paths = sorted(data_dir("codex").rglob("*.mw"))
        self._codex_files = []
        for p in self._codex_paths:
            tree, _, _ = parse_file(p)
            if tree is not None:
                self._codex_files.append(tree)
        self._subtypes = {s for c in self.corpus.cards.values() for s in c.subtypes}
        self._card_names = frozenset(self.corpus.cards)
        # per open document, its definitions as last parsed (parse_text's memo): a keystroke parses again
        # only the definitions it touched; the least recently checked documents are let go
        self._memos: dict[str, dict] = {}
        # the codex's own check, per set of names it knew (Knowledge._check), the most recent few
        self._codex_checks: dict[tuple, tuple] = {}

    # ------------------------------------------------------------------ diagnostics
    def diagnostics(self, path: str, text: str) -> list[Diagnostic]:
        """The lint diagnostics for one document, checked against the shipped codex and
        knowing every shipped card name (the same codes as `magewars lint`).  A document larger than
        lint reads (MAX_SOURCE_BYTES) gets lint's E004 instead: it is not parsed at every keystroke."""
        too_large = _too_large(path, text)
        if too_large:
            return too_large
        memo = _recent(self._memos, path, dict, MAX_MEMOS)
        tree, diags = parse_text(text, path, memo=memo)
        checker = self._check(path, tree)
        diags = diags + [d for d in checker.diags if d.span.path == path]
        return attach_sources(diags, {path: text})

    def _seeded(self) -> Checker:
        checker = Checker()
        checker.names |= self._subtypes
        checker.card_names |= self._card_names
        return checker

    def _check(self, path: str, tree) -> Checker:
        """The check of the document with the shipped codex (the codex's own definitions first), as one
        check of them all.  A document of cards only is checked against the codex's check, done once
        for each set of names the check knows (the document's new subtypes and card names change it)
        and kept: the codex is not checked again at every keystroke.  magewars/dsl/__init__.py
        (`_compile`) does the same for `magewars lint FILE`, from the cache."""
        if tree is None:  # nothing parsed: a check of the codex alone reports nothing in this document
            return Checker()
        mine = str(Path(path).resolve())
        files = [f for f in self._codex_files if str(Path(f.path).resolve()) != mine]
        if len(files) < len(self._codex_files) or any(isinstance(d, A.CodexDef) for d in tree.definitions):
            checker = self._seeded()  # (a codex file being edited: all of it checked again)
            checker.check(files + [tree])
            return checker
        probe = self._seeded()
        probe.declare([tree])  # (the names a check of them all knows)

        def codex_check():  # (the probe, which knows those names, checks the codex)
            got = probe.check(files)
            return got.codex, dict(got.selectors)
        key = (frozenset(probe.names), frozenset(probe.card_names))
        codex, selectors = _recent(self._codex_checks, key, codex_check, MAX_CODEX_CHECKS)
        checker = self._seeded()
        for name in codex:  # (the names the codex's definitions declare, as a check of them all adds them)
            checker.names.update(Checker._name_forms(name))
        checker.selectors = dict(selectors)  # (the phrases the codex compiled: not compiled again)
        checker.check([tree], codex=codex)
        return checker

    # ------------------------------------------------------------------ names under the cursor
    def name_at(self, text: str, line: int, character: int) -> Optional[tuple[str, str]]:
        """(kind, name) of what the cursor is on: ("codex", trait/condition/keyword name),
        ("card", card name), ("function", vocabulary name) or None."""
        lines = text.splitlines()
        if not 0 <= line < len(lines):
            return None
        src = lines[line]
        for m in _STRING.finditer(src):
            if m.start() <= character < m.end():
                name = m.group()[1:-1]
                return ("card", name) if name in self.corpus.cards else None
        for m in _CAP_RUN.finditer(src):
            if m.start() <= character <= m.end():
                return self._codex_in_run(m.group(), character - m.start())
        for m in _LOWER.finditer(src):
            if m.start() <= character <= m.end():
                word = m.group()
                if word in V.all_functions():
                    return ("function", word)
                return None
        return None

    def _codex_in_run(self, run: str, offset: int) -> Optional[tuple[str, str]]:
        """The longest run of capitalised words around offset that names a codex entry."""
        words, starts, pos = run.split(" "), [], 0
        for w in words:
            starts.append(pos)
            pos += len(w) + 1
        at = max(i for i, s in enumerate(starts) if s <= offset)
        best = None
        for i in range(0, at + 1):
            for j in range(len(words), at, -1):
                name = " ".join(words[i:j])
                if name in self.corpus.codex and (best is None or len(name) > len(best)):
                    best = name
        return ("codex", best) if best else None

    # ------------------------------------------------------------------ hover
    def hover(self, text: str, line: int, character: int) -> Optional[str]:
        """Markdown for what is under the cursor: a codex entry, a card, a vocabulary function."""
        hit = self.name_at(text, line, character)
        if hit is None:
            return None
        kind, name = hit
        if kind == "function":
            sig = V.all_functions()[name]
            return f"```\n{sig.render()}\n```\n{sig.doc}"
        if kind == "card":
            from ..render import render_card
            return f"**{name}**\n\n```\n{render_card(self.corpus.cards[name], self.corpus)}\n```"
        d = self.corpus.codex[name]
        parts = [f"**{name}** ({d.kind})"]
        entry = _rules_entry(name)
        if entry is not None and entry.rule:
            parts[0] += f", rule {entry.rule}"
        if d.summary:
            parts.append(d.summary)
        if entry is not None and entry.rules:
            parts.append(entry.rules)
        return "\n\n".join(parts)

    # ------------------------------------------------------------------ definition
    def definition(self, text: str, line: int, character: int) -> Optional[A.Span]:
        """Where the trait, condition, keyword or card under the cursor is defined."""
        hit = self.name_at(text, line, character)
        if hit is None or hit[0] == "function":
            return None
        kind, name = hit
        target = self.corpus.codex[name] if kind == "codex" else self.corpus.cards[name]
        span = getattr(target, "span", None)
        return span if span is not None and span.line > 0 else None

    # ------------------------------------------------------------------ completion
    @functools.cached_property
    def items(self) -> list[Item]:
        out: list[Item] = []
        for name, d in sorted(self.corpus.codex.items()):
            out.append(Item(name, "codex", d.kind, d.summary or ""))
        for name, c in sorted(self.corpus.cards.items()):
            out.append(Item(name, "card", c.kind))
        for name, sig in sorted(V.all_functions().items()):
            out.append(Item(name, "function", sig.render(), sig.doc))
        for step in sorted(V.STEPS):
            out.append(Item(step, "step", "step"))
        words = V.PRONOUNS | V.QUANTIFIERS | V.NOUNS | V.ADJECTIVES | V.RELATIONS
        for w in sorted(words):
            out.append(Item(w, "word", "phrase word"))
        from ..highlight import grammar_keywords
        for k in sorted(set(grammar_keywords()) - words):
            out.append(Item(k, "keyword", "keyword"))
        return out

    # ------------------------------------------------------------------ symbols
    @staticmethod
    def symbols(path: str, text: str) -> list[tuple[str, str, A.Span, A.Span]]:
        """(name, kind, whole span, name span) for every definition in the document (none in a document
        too large to lint)."""
        if _too_large(path, text):
            return []
        tree, _ = parse_text(text, path)
        if tree is None:
            return []
        return [(d.name, d.kind, d.span, d.name_span) for d in tree.definitions]


def _recent(kept: dict, key, make, limit: int):
    """kept[key] (made by `make()` when missing), now the most recently used; the least recently
    used are let go beyond `limit`."""
    value = kept.pop(key) if key in kept else make()
    kept[key] = value
    while len(kept) > limit:
        del kept[next(iter(kept))]
    return value


def _too_large(path: str, text: str) -> list[Diagnostic]:
    """Lint's E004 for a document over MAX_SOURCE_BYTES (the bound `magewars lint` reads files to), or []."""
    from ..dsl import unreadable
    from ..limits import MAX_SOURCE_BYTES, too_large
    if len(text) * 4 <= MAX_SOURCE_BYTES:  # (at most 4 bytes a character: no need to encode)
        return []
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= MAX_SOURCE_BYTES:
        return []
    return [unreadable(path, too_large(size, MAX_SOURCE_BYTES))]


@functools.lru_cache(maxsize=512)
def _rules_entry(name: str):
    from ..lookup import load_rules
    book = load_rules()
    entry = book.get(name)
    if entry is not None:
        return entry
    res = book.lookup(name)
    return res.entries[0] if res.kind in ("exact", "alias", "fuzzy") and res.entries else None
