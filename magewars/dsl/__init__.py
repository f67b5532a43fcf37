"""The magewars card language: parse -> AST -> check -> compiled definitions.

Entry points:
- :func:`compile_paths` compiles files or folders of `.mw` sources.
- :func:`load_corpus` compiles the shipped codex and spells once (cached).

Compiling goes through the content-keyed cache of :mod:`magewars.cache`: a
whole compilation is stored under a key over every input file's content, and
each file's parse (AST, syntax diagnostics, declared names) under a key over
that file alone, so an edited card file costs one parse and one check, and an
unchanged corpus costs one read of the stored result.  The parser (and Lark)
is only imported when something has to be parsed.  A new installation's first
compilation of the shipped corpus reads the one its wheel carries
(:mod:`magewars.prebuilt`, :func:`prebuild`) when it is of exactly these files.
"""
from __future__ import annotations

import functools
import gc
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

from .. import cache
from .corpus import Corpus
from .diagnostics import Diagnostic, attach_sources

if TYPE_CHECKING:  # pragma: no cover
    from .ast import SourceFile

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
    from .span import Span
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


@functools.lru_cache(maxsize=1)
def _codec() -> cache.Codec:
    """The cache's codec for the language's dataclasses.  Building it imports every module that
    defines one (the syntax tree, the definitions, the selectors): only what decodes or encodes
    a definition asks for it."""
    from . import ast, corpus, diagnostics, model, selectors, span
    return cache.Codec(cache.module_dataclasses(span, ast, model, corpus, diagnostics, selectors))


def _compiler_sources() -> list[Path]:
    """The files whose content decides what a compilation gives: the grammar, this package and the
    modules outside it that the compiler reads (the cache's codec and store, the compilation a
    wheel ships, the input limits, the "did you mean" matching of its diagnostics)."""
    from ..resources import grammar_path
    here = Path(__file__).parent
    return ([grammar_path()] + sorted(here.glob("*.py"))
            + [Path(cache.__file__), here.parent / "corpusstore.py", here.parent / "prebuilt.py",
               here.parent / "limits.py", here.parent / "matching.py"])


@functools.lru_cache(maxsize=1)
def _grammar_hash() -> str:
    """The grammar's text and the compiler's own source (this package and the cache module):
    a checkout whose parser, transformer or checker was edited must not reuse old results,
    even while the package version stays the same."""
    h = []
    for p in _compiler_sources():
        try:
            h.append(cache.file_hash(p.read_bytes()))
        except OSError:
            h.append(f"missing:{p.name}")
    return cache.file_hash("".join(h).encode())


def _declared_names(tree: Optional[SourceFile]) -> tuple[list[str], list[str]]:
    """Subtype names and card names a parsed file declares."""
    from . import ast as A
    names, cards = set(), set()
    for d in (tree.definitions if tree is not None else ()):
        if isinstance(d, A.CardDef):
            cards.add(d.name)
            for it in d.items:
                if isinstance(it, A.Subtypes):
                    names.update(n.text for n in it.names)
    return sorted(names), sorted(cards)


def _parse_key(path: str, text: str) -> str:
    return cache.key_of("parse", _codec().schema, _grammar_hash(), path, cache.file_hash(text.encode("utf-8")))


def _parse_cached(path: str, text: str,
                  memo: Optional[dict] = None) -> tuple[Optional[SourceFile], list[Diagnostic]]:
    """Parse one file's text, through the per-file cache (AST + syntax diagnostics + names).  `memo`:
    the parses one compilation already made (path -> (text, parse)), so that it makes none twice."""
    if memo is not None:
        got = memo.get(path)
        if got is not None and got[0] is text:
            return got[1]
        out = _parse_cached(path, text)
        memo[path] = (text, out)
        return out
    from .ast import SourceFile
    key = _parse_key(path, text)
    hit = cache.get("ast", key, _codec())
    if (isinstance(hit, list) and len(hit) == 2 and (hit[0] is None or isinstance(hit[0], SourceFile))
            and isinstance(hit[1], list) and all(isinstance(d, Diagnostic) for d in hit[1])):
        return hit[0], hit[1]
    from .parser import parse_text  # (Lark is loaded only for a definition with an error)
    tree, diags = parse_text(text, path)
    cache.put("ast", key, [tree, diags], _codec())
    cache.put("names", key, list(_declared_names(tree)), None)
    return tree, diags


def _names_cached(path: str, text: str) -> tuple[list[str], list[str]]:
    """The names one file declares: a small per-file entry, so a subset of the corpus can be
    checked against the rest without loading (or parsing) the rest."""
    key = _parse_key(path, text)
    hit = cache.get("names", key, None)
    if (isinstance(hit, list) and len(hit) == 2
            and all(isinstance(x, list) and all(isinstance(n, str) for n in x) for x in hit)):
        return hit[0], hit[1]
    tree, _ = _parse_cached(path, text)
    names = _declared_names(tree)
    cache.put("names", key, list(names), None)
    return names


def _read(path) -> tuple[Optional[str], list[Diagnostic]]:
    """A source file's text (bounded in size: magewars/limits.py), or an E004 diagnostic."""
    from ..limits import MAX_SOURCE_BYTES, LimitError, read_bounded
    try:
        return read_bounded(path, MAX_SOURCE_BYTES), []
    except (OSError, UnicodeDecodeError, LimitError) as exc:
        return None, [unreadable(path, exc)]


def unreadable(path, exc: Exception) -> Diagnostic:
    """E004 for a source that is not read (as `magewars lint` and the language server say it)."""
    from .span import Span
    return Diagnostic("E004", f"cannot read file: {exc.__class__.__name__}: {exc}", Span(str(path), 1, 1, 1, 1))


def _known_names(paths: list[Path]) -> tuple[set[str], set[str]]:
    """Subtype and card names declared in other files (for linting a subset of the corpus)."""
    names, cards = set(), set()
    for p in paths:
        text, _ = _read(p)
        if text is None:
            continue
        n, c = _names_cached(str(p), text)
        names.update(n)
        cards.update(c)
    return names, cards


def compile_sources(sources: list[tuple[str, str]], base: Optional[list[Path]] = None,
                    context: Optional[list[Path]] = None) -> tuple[Corpus, list[Diagnostic]]:
    """Compile (path, text) pairs, optionally together with base files (e.g. the shipped codex).

    `context` files are only read for the names they declare (subtypes, card names),
    so that a subset of the corpus can be checked on its own.

    The result is cached under a key over the content of every input; on a miss,
    each file's parse comes from the per-file cache where it can.
    """
    diags: list[Diagnostic] = []
    inputs: list[tuple[str, str]] = []  # (path, text) in compile order: base files, then sources
    for path in base or []:
        text, d = _read(path)
        diags.extend(d)
        if text is not None:
            inputs.append((str(path), text))
    n_base = len(inputs)
    inputs.extend(sources)
    ctx: list[tuple[str, str]] = []
    for path in context or []:
        text, _ = _read(path)
        if text is not None:
            ctx.append((str(path), text))

    from .. import corpusstore  # stored record by record: a definition is decoded when it is used
    # No codec schema in this key: the shape of every class the codec stores is written in the
    # compiler's sources, which _grammar_hash covers (tests/test_cache.py checks that it does), so
    # a cache hit needs neither the codec nor the modules it registers (`magewars lint FILE`).
    key = cache.key_of("compile", _grammar_hash(), _digest(inputs), _digest(ctx))
    rebuild = lambda: _compile(inputs, ctx)[0]  # noqa: E731
    hit = corpusstore.load("compiled", key, _codec, rebuild)
    if hit is None:  # a new installation: the compilation its wheel ships, if these are its inputs
        from .. import prebuilt
        doc = prebuilt.find(inputs, ctx, _grammar_hash())
        if doc is not None:
            cache.put("compiled", key, doc, None)
            hit = corpusstore.from_document(doc, "compiled", key, _codec, rebuild)
    memo: dict = {}  # (the parses made on the way: made once)
    if hit is None and n_base and not ctx:  # the files' own checks kept from an earlier compilation
        doc = _compile_by_file(inputs, n_base, memo)
        if doc is not None:
            cache.put("compiled", key, doc, None)
            hit = corpusstore.from_document(doc, "compiled", key, _codec, rebuild)
    if (hit is not None and isinstance(hit[0], Corpus)
            and all(isinstance(d, Diagnostic) for d in hit[1])):
        return hit[0], diags + hit[1]
    corpus, found = _compile(inputs, ctx, n_base, memo)
    corpusstore.save("compiled", key, corpus, found, _codec)
    return corpus, diags + found


def _digest(pairs) -> tuple:
    return tuple((p, cache.file_hash(t.encode("utf-8"))) for p, t in pairs)


def _context_names(ctx: list[tuple[str, str]]) -> list:
    """[(subtype names, card names)] each context file declares, in order: one cache entry for
    them all (keyed by their content), else each file's own."""
    key = cache.key_of("context-names", _grammar_hash(), _digest(ctx))
    hit = cache.get("names", key, None)
    if (type(hit) is list and len(hit) == len(ctx)
            and all(type(x) is list and len(x) == 2 and all(type(y) is list and all(type(n) is str for n in y)
                                                           for y in x) for x in hit)):
        return hit
    out = [list(_names_cached(path, text)) for path, text in ctx]
    cache.put("names", key, out, None)
    return out


def _codex_key(codex_inputs: list[tuple[str, str]], names: set, card_names: set) -> str:
    """The key of a codex's own check (`codex` entries): its files, and every name the check knows
    besides the codex's own (phrases are checked against them)."""
    return cache.key_of("codex", _grammar_hash(), _digest(codex_inputs), sorted(names), sorted(card_names))


def _declared_cached(path: str, text: str, memo: Optional[dict] = None) -> Optional[list]:
    """What pass 1 of a check takes from one file (Checker.declare): [the names of its card
    definitions in order, the names they give phrases (Checker.names_of), whether it defines a codex
    entry]; a small per-file entry, so the names of a whole corpus are known without its syntax trees."""
    key = _parse_key(path, text)
    hit = cache.get("declared", key, None)
    if (type(hit) is list and len(hit) == 3 and type(hit[0]) is list and type(hit[1]) is list
            and all(type(n) is str for n in hit[0] + hit[1]) and type(hit[2]) is bool):
        return hit
    from . import ast as A
    from .checker import Checker
    tree, _ = _parse_cached(path, text, memo)
    cards, names, codex = [], set(), False
    for d in (tree.definitions if tree is not None else ()):
        if isinstance(d, A.CodexDef):
            codex = True
        else:
            cards.append(d.name)
            names.update(Checker.names_of(d))
    out = [cards, sorted(names), codex]
    cache.put("declared", key, out, None)
    return out


def _compile_by_file(inputs: list[tuple[str, str]], n_base: int, memo: dict) -> Optional[list]:
    """A compilation of a codex (the first `n_base` inputs) and card files, as corpusstore.document
    makes it, put together from each card file's own check (`checks` entries of the cache) and the
    codex's (`codex` entries): after one card file changed, only that file is parsed and checked, and
    only its definitions are encoded.  None when that cannot be done, and the whole check is made instead: a
    card file defines a codex entry, a definition's name is defined twice, or the codex's check is not
    stored for these names.

    The whole check (_compile) checks the cards one after another against the same codex and names;
    each card's definition and diagnostics depend on nothing else, and the phrases it compiles are the
    dict's, each kept where it first occurs.  So the cards' records, their diagnostics and their phrases,
    taken file by file in order (a phrase where it first occurs), are the whole check's
    (tests/dsl/test_codex_store.py compares them)."""
    from .. import corpusstore
    from .checker import BASE_NAMES
    rest = inputs[n_base:]
    names: set = set(BASE_NAMES)
    card_names: set = set()
    seen: set = set()
    for path, text in rest:
        declared = _declared_cached(path, text, memo)
        if declared is None or declared[2]:
            return None
        for n in declared[0]:
            if n.lower() in seen:
                return None  # a duplicate (E501): reported by the whole check
            seen.add(n.lower())
        card_names.update(declared[0])
        names.update(declared[1])
    codex_key = _codex_key(inputs[:n_base], names, card_names)
    stored = corpusstore.load_codex(codex_key, _codec, lambda: _compile(inputs, [])[0])
    if stored is None:
        return None
    codex_records = stored.codex_records()
    base_selectors = stored.selectors.records()
    if codex_records is None or base_selectors is None:
        return None
    parts = []
    for path, text in rest:
        part = _file_check_cached(path, text, codex_key, stored, names, card_names, memo)
        if part is None:
            return None
        parts.append(part)
    cards, summaries, selectors, parse_found, check_found = [], [], list(base_selectors), [], []
    keys = {k for k, _ in selectors}
    for p_cards, p_summaries, p_selectors, p_parse, p_check in parts:
        cards.extend(p_cards)
        summaries.extend(p_summaries)
        for k, blob in p_selectors:
            if k not in keys:  # (kept where it first occurs)
                keys.add(k)
                selectors.append([k, blob])
        parse_found.extend(p_parse)
        check_found.extend(p_check)
    found = attach_sources(stored.parse_diags + parse_found + stored.body_diags + check_found, dict(inputs))
    try:
        found_blob = corpusstore.diagnostics_codec().dumps_record(found)
    except (cache.CacheError, RecursionError, TypeError, ValueError, AttributeError):
        return None
    return corpusstore.compiled_document(cards, summaries, codex_records, selectors, found_blob)


def _file_check_cached(path: str, text: str, codex_key: str, stored, names: set,
                       card_names: set, memo: dict) -> Optional[tuple]:
    """One card file's own check against a stored codex check, knowing `names` and `card_names` (the
    whole corpus's): ([[card name, record]], [summary], [[phrase key, record]] of the phrases it
    compiled that the codex had not, its parse diagnostics, its check's diagnostics), through the
    per-file cache (keyed by the codex's key, which holds every name, and by the file's path and text).
    None if something in it cannot be stored."""
    from .. import corpusstore
    key = cache.key_of("file-check", _grammar_hash(), codex_key, path, cache.file_hash(text.encode("utf-8")))
    dc = corpusstore.diagnostics_codec()
    hit = cache.get("checks", key, None)
    if (type(hit) is list and len(hit) == 5 and corpusstore.valid_pairs(hit[0]) and type(hit[1]) is list
            and len(hit[1]) == len(hit[0]) and corpusstore.valid_summaries(hit[1])
            and corpusstore.valid_pairs(hit[2]) and type(hit[3]) is bytes and type(hit[4]) is bytes):
        try:
            parse_found, check_found = dc.loads_record(hit[3]), dc.loads_record(hit[4])
        except cache.CacheError:
            parse_found = check_found = None
        if (type(parse_found) is list and type(check_found) is list
                and all(isinstance(d, Diagnostic) for d in parse_found + check_found)):
            return hit[0], hit[1], hit[2], parse_found, check_found
    from .checker import Checker
    tree, parse_found = _parse_cached(path, text, memo)
    checker = Checker()
    checker.names.update(names)
    checker.card_names.update(card_names)
    checker = _against_stored(checker, stored)
    corpus = checker.check([tree] if tree is not None else [], codex=stored.view)
    try:
        enc = _codec().dumps_record
        cards = [[n, enc(d)] for n, d in corpus.cards.items()]
        summaries = corpusstore.summaries(corpus.cards.values())
        selectors = []
        for phrase, sel in checker.selectors.added.items():
            k = corpusstore.phrase_key(phrase)
            if k is None:
                return None
            selectors.append([k, enc((phrase, sel))])
        out = [cards, summaries, selectors, dc.dumps_record(list(parse_found)), dc.dumps_record(list(checker.diags))]
    except (cache.CacheError, RecursionError, TypeError, ValueError, AttributeError):
        return None
    cache.put("checks", key, out, None)
    return cards, summaries, selectors, list(parse_found), list(checker.diags)


def _against_stored(checker, stored):
    """`checker` made ready to check card files against a stored codex check: it knows the names the
    codex's definitions declare (as check() adds them) and starts from the codex's phrases."""
    from .. import corpusstore
    from .checker import Checker
    for name in stored.codex:
        checker.names.update(Checker._name_forms(name))
    checker.selectors = corpusstore.ChainedSelectors(stored.selectors)
    return checker


def _compile(inputs: list[tuple[str, str]], ctx: list[tuple[str, str]],
             n_base: int = 0, memo: Optional[dict] = None) -> tuple[Corpus, list[Diagnostic]]:
    """Parse (through the per-file cache) and check: compile_sources on a miss.

    The first `n_base` inputs are a codex given as the base of the others (the shipped codex, when
    card files are linted).  The codex's own check is then kept in the cache (`codex` entries:
    keyed by its files and by every name the check knows, since phrases are checked against them),
    and when it is there the other files are checked against it: the codex is neither decoded as
    parsed files nor checked again.  The result is the whole check's (the same definitions,
    selectors and diagnostics, in the same order: tests/dsl/test_codex_store.py)."""
    from .checker import Checker
    from .. import corpusstore
    texts: dict[str, str] = {}
    for path, text in inputs:
        texts[path] = text
    rest_found: list[Diagnostic] = []
    rest_files: list[SourceFile] = []
    for path, text in inputs[n_base:]:
        tree, d = _parse_cached(path, text, memo)
        rest_found.extend(d)
        if tree is not None:
            rest_files.append(tree)
    names = _context_names(ctx)

    def seeded() -> Checker:
        checker = Checker()
        for n, c in names:
            checker.names.update(n)
            checker.card_names.update(c)
        return checker

    codex_key = None
    if n_base:
        from . import ast as A
        if not any(isinstance(d, A.CodexDef) for f in rest_files for d in f.definitions):
            probe = seeded()
            probe.declare(rest_files)
            codex_key = _codex_key(inputs[:n_base], probe.names, probe.card_names)
            stored = corpusstore.load_codex(codex_key, _codec, lambda: _compile(inputs, ctx)[0])
            if stored is not None:
                checker = _against_stored(seeded(), stored)
                corpus = checker.check(rest_files, codex=stored.view)
                corpus.codex = stored.codex
                k = checker.codex_marks[0]
                found = stored.parse_diags + rest_found + checker.diags[:k] + stored.body_diags + checker.diags[k:]
                return corpus, attach_sources(found, texts)
    found: list[Diagnostic] = []
    files: list[SourceFile] = []
    for path, text in inputs[:n_base]:
        tree, d = _parse_cached(path, text, memo)
        found.extend(d)
        if tree is not None:
            files.append(tree)
    base_found, n_base_files = list(found), len(files)
    found.extend(rest_found)
    files.extend(rest_files)
    checker = seeded()
    corpus = checker.check(files)
    found.extend(checker.diags)
    if codex_key is not None:
        from . import ast as A
        defs = [d for f in files[:n_base_files] for d in f.definitions]
        if all(isinstance(d, A.CodexDef) for d in defs) and len({d.name.lower() for d in defs}) == len(defs):
            start, end, n_selectors = checker.codex_marks
            corpusstore.save_codex(codex_key, corpus.codex, list(corpus.selectors.items())[:n_selectors],
                                   base_found, checker.diags[start:end], _codec)
    found = attach_sources(found, texts)
    return corpus, found


class _Given:
    """The files given, asked "is this shipped file one of them?" as `Path.resolve()` equality; a
    file is resolved only when it is the same file (device and inode) as one given, which that
    equality needs (one stat per shipped file instead of a walk of its every folder)."""

    def __init__(self, files: list[Path]):
        self.files = files
        self.inodes = set()
        for f in files:
            ino = _inode(f)
            if ino is not None:
                self.inodes.add(ino)

    def __contains__(self, f: Path) -> bool:
        ino = _inode(f)
        if ino is not None and ino not in self.inodes:
            return False
        return f.resolve() in {g.resolve() for g in self.files}


def _inode(f: Path):
    import os
    try:
        st = os.stat(f)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def compile_paths(paths: Iterable, with_codex: bool = True,
                  texts: Iterable[tuple[str, str]] = ()) -> tuple[Corpus, list[Diagnostic]]:
    """Compile `.mw` files and folders, plus (name, text) sources already read (e.g. stdin as "-").
    Unless the paths include a codex, the shipped codex is compiled alongside so that
    traits and conditions resolve."""
    files, diags = expand_paths(paths)
    base: list[Path] = []
    context: list[Path] = []
    if with_codex:
        from ..resources import data_dir
        given = _Given(files)
        try:
            shipped = sorted(data_dir("codex").rglob("*.mw"))
            base = [f for f in shipped if f not in given]
        except FileNotFoundError:
            base = []
        try:
            context = [f for f in sorted(data_dir("spells").rglob("*.mw")) if f not in given]
        except FileNotFoundError:
            context = []
    sources = []
    for f in files:
        text, d = _read(f)
        if text is None:
            diags.extend(d)
        else:
            sources.append((str(f), text))
    sources.extend(texts)
    corpus, more = compile_sources(sources, base, context)
    return corpus, diags + more


def compile_shipped() -> tuple[Corpus, list[Diagnostic]]:
    """The shipped codex and spells compiled as one corpus (compile_paths(shipped_sources()), the same
    inputs in the same order, under the same cache key), with the codex given as the base of the
    spells: when a card file has changed since the last compilation, the codex's own check comes from
    the cache (`codex` entries, as `lint FILE` reads them) and only the spells are checked again."""
    from ..resources import shipped_sources
    files = shipped_sources()
    codex = _shipped_codex(files)
    sources, diags = [], []
    for f in files[len(codex):]:
        text, d = _read(f)
        if text is None:
            diags.extend(d)
        else:
            sources.append((str(f), text))
    corpus, more = compile_sources(sources, codex, [])
    return corpus, diags + more


def _shipped_codex(files: list[Path]) -> list[Path]:
    """The leading files of `files` (resources.shipped_sources: the codex first) that are the codex."""
    from ..resources import data_dir
    try:
        codex = sorted(data_dir("codex").rglob("*.mw"))
    except FileNotFoundError:
        return []
    return codex if files[:len(codex)] == codex else []


def prebuild(root: Optional[Path] = None) -> bytes:
    """The compiled corpus a wheel ships (magewars/prebuilt.py): the codex and spells below `root`
    (default: the data this package reads), compiled as :func:`load_corpus` compiles them."""
    from .. import prebuilt
    root = Path(root) if root is not None else prebuilt.data_root()
    inputs = []
    for p in sorted((root / "codex").rglob("*.mw")) + sorted((root / "spells").rglob("*.mw")):
        text, problems = _read(p)
        if text is None:
            raise prebuilt.PrebuiltError("; ".join(d.format(with_source=False) for d in problems))
        inputs.append((str(p), text))
    if not inputs:
        raise prebuilt.PrebuiltError(f"no card sources below {root}")
    corpus, found = _compile(inputs, [])
    return prebuilt.build(inputs, corpus, found, _codec, _grammar_hash(), root)


@functools.lru_cache(maxsize=1)
def load_corpus() -> Corpus:
    """The shipped codex and spells, compiled once.  Raises CorpusError if they have errors."""
    corpus, diags = compile_shipped()
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise CorpusError(errors)
    # The shipped corpus lives as long as the process (this function keeps it) and is never changed:
    # move what the process holds so far out of the cyclic collector's reach, so that collections of
    # the older generations (which a game's garbage, objects referring to each other, sets off) do not
    # walk it again each time.  (Records the corpus store decodes later are not frozen.)
    gc.freeze()
    return corpus
