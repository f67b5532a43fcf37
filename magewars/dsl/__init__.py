"""The magewars card language: parse -> AST -> check -> compiled definitions.

Entry points:
- :func:`compile_paths` compiles files or folders of `.mw` sources.
- :func:`load_corpus` compiles the shipped codex and spells once (cached).
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterable, Optional

from .ast import SourceFile
from .checker import Checker
from .diagnostics import Diagnostic, attach_sources
from .model import Corpus
from .parser import parse_file, parse_text

__all__ = ["compile_paths", "compile_sources", "load_corpus", "expand_paths", "CorpusError"]


class CorpusError(Exception):
    """The shipped corpus has errors (a broken installation); carries the diagnostics."""

    def __init__(self, diags: list[Diagnostic]):
        self.diags = diags
        super().__init__("\n".join(d.format() for d in diags[:20]))


def expand_paths(paths: Iterable) -> tuple[list[Path], list[Diagnostic]]:
    """Files and folders -> `.mw` files (sorted), plus diagnostics for missing paths.

    Folders are walked following symlinks, but a folder reached twice (a symlink
    loop) is walked once; devices, pipes and other non-regular files are refused.
    """
    from .ast import Span
    from ..limits import MAX_FILES_PER_WALK, is_regular_file, walk_sources
    out, diags = [], []
    for p in paths:
        p = Path(p)
        try:
            is_dir = p.is_dir()
            exists = is_dir or p.exists()
        except (OSError, ValueError) as exc:  # too long a name, a loop of links, NUL in the path
            diags.append(Diagnostic("E004", f"cannot use this path: {getattr(exc, 'strerror', None) or exc}",
                                    Span(str(p)[:300], 1, 1, 1, 1)))
            continue
        if is_dir:
            files, problems = walk_sources(p)
            out.extend(files)
            for msg in problems:
                diags.append(Diagnostic("E004", msg, Span(str(p), 1, 1, 1, 1), None, "warning"))
        elif exists and is_regular_file(p) and not p.name.endswith(".mw"):
            # never parse (and so never echo a line of) a file that is not a card source
            diags.append(Diagnostic("E004", "not a .mw card file: refused (it is not read)",
                                    Span(str(p), 1, 1, 1, 1)))
        elif exists and is_regular_file(p):
            out.append(p)
        elif exists:
            diags.append(Diagnostic("E004", "not a regular file (device, pipe or socket): refused",
                                    Span(str(p), 1, 1, 1, 1)))
        else:
            diags.append(Diagnostic("E004", "no such file or folder", Span(str(p)[:300], 1, 1, 1, 1)))
        if len(out) > MAX_FILES_PER_WALK:
            diags.append(Diagnostic("E004", f"more than {MAX_FILES_PER_WALK} source files: the rest are skipped",
                                    Span(str(p), 1, 1, 1, 1)))
            del out[MAX_FILES_PER_WALK:]
            break
    return out, diags


def _known_names(paths: list[Path]) -> tuple[set[str], set[str]]:
    """Subtype and card names declared in other files (for linting a subset of the corpus)."""
    from . import ast as A
    names, cards = set(), set()
    for p in paths:
        tree, _, _ = parse_file(p)
        if tree is None:
            continue
        for d in tree.definitions:
            if isinstance(d, A.CardDef):
                cards.add(d.name)
                for it in d.items:
                    if isinstance(it, A.Subtypes):
                        names.update(n.text for n in it.names)
    return names, cards


def compile_sources(sources: list[tuple[str, str]], base: Optional[list[Path]] = None,
                    context: Optional[list[Path]] = None) -> tuple[Corpus, list[Diagnostic]]:
    """Compile (path, text) pairs, optionally together with base files (e.g. the shipped codex).

    `context` files are only read for the names they declare (subtypes, card names),
    so that a subset of the corpus can be checked on its own.
    """
    files: list[SourceFile] = []
    diags: list[Diagnostic] = []
    texts: dict[str, str] = {}
    for path in base or []:
        ast, d, text = parse_file(path)
        texts[str(path)] = text
        diags.extend(d)
        if ast is not None:
            files.append(ast)
    for path, text in sources:
        texts[path] = text
        ast, d = parse_text(text, path)
        diags.extend(d)
        if ast is not None:
            files.append(ast)
    checker = Checker()
    if context:
        names, cards = _known_names(context)
        checker.names |= names
        checker.card_names |= cards
    corpus = checker.check(files)
    diags.extend(checker.diags)
    return corpus, attach_sources(diags, texts)


def compile_paths(paths: Iterable, with_codex: bool = True) -> tuple[Corpus, list[Diagnostic]]:
    """Compile `.mw` files and folders.  Unless the paths include a codex, the
    shipped codex is compiled alongside so that traits and conditions resolve."""
    files, diags = expand_paths(paths)
    base: list[Path] = []
    context: list[Path] = []
    if with_codex:
        from ..resources import data_dir
        given = {f.resolve() for f in files}
        try:
            shipped = sorted(data_dir("codex").rglob("*.mw"))
            base = [f for f in shipped if f.resolve() not in given]
        except FileNotFoundError:
            base = []
        try:
            context = [f for f in sorted(data_dir("spells").rglob("*.mw")) if f.resolve() not in given]
        except FileNotFoundError:
            context = []
    sources = []
    for f in files:
        try:
            from ..limits import MAX_SOURCE_BYTES, LimitError, read_bounded
            sources.append((str(f), read_bounded(f, MAX_SOURCE_BYTES)))
        except (OSError, UnicodeDecodeError, LimitError) as exc:
            from .ast import Span
            diags.append(Diagnostic("E004", f"cannot read file: {exc}", Span(str(f), 1, 1, 1, 1)))
    corpus, more = compile_sources(sources, base, context)
    return corpus, diags + more


@functools.lru_cache(maxsize=1)
def load_corpus() -> Corpus:
    """The shipped codex and spells, compiled once.  Raises CorpusError if they have errors."""
    from ..resources import shipped_sources
    corpus, diags = compile_paths(shipped_sources(), with_codex=False)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise CorpusError(errors)
    return corpus
