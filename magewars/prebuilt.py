"""The compiled corpus shipped inside the wheel, so that the first read command of a new
installation reads it instead of compiling every card file (docs/tools.md).

Made when the wheel is built (hatch_build.py, at the top of the repository, calls
:func:`magewars.dsl.prebuild`):
the shipped codex and spells compiled exactly as :func:`magewars.dsl.load_corpus` compiles them,
as the document :func:`magewars.corpusstore.document` makes, beside a manifest: the package
version, the compiler's hash (:func:`magewars.dsl._grammar_hash`: the grammar and the compiler's
own sources) and, for every source file, the path it was compiled from, its path below the data
root and the hash of its content.

A compilation that misses the cache (:func:`magewars.dsl.compile_sources`) asks :func:`find`.  The
shipped document is used only when that compilation's inputs are the same files (the same paths
below the data root, in the same order, with the same content), with no context files, under
the same compiler and version; anything else (an edited card, an edited compiler, a missing or
damaged file) is a miss, and the corpus is compiled as usual.  A document that is used is
first moved to the installed files' paths, then written to the user cache under the
compilation's own key, so every later run reads it from there.

Moving: a compiled corpus names its source files in its spans, strings equal to a source path.
:func:`build` refuses a document in which the build's data root appears in any other string (a
message quoting a location, say), so replacing every string equal to a build path by the
installed path moves every location there is, and changes nothing else.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

from . import cache

KEY = "prebuilt-corpus"
__all__ = ["PrebuiltError", "build", "find", "data_root"]


class PrebuiltError(RuntimeError):
    """The shipped corpus cannot be built (the wheel build stops with this message)."""


def data_root() -> Path:
    """The folder that holds codex/ and spells/: the checkout's top, or the wheel's _data."""
    from .resources import data_dir
    return data_dir("codex").parent


def _below(path: str, root: str) -> Optional[str]:
    """`path` relative to `root`, with '/' between its parts; None if it is not below it."""
    prefix = root.rstrip(os.sep) + os.sep
    if not path.startswith(prefix):
        return None
    return path[len(prefix):].replace(os.sep, "/")


def _strings(v: Any, out: set) -> None:
    t = type(v)
    if t is str:
        out.add(v)
    elif t is list:
        for x in v:
            _strings(x, out)
    elif t is dict:
        for k, x in v.items():
            _strings(k, out)
            _strings(x, out)


def _moved(v: Any, paths: dict) -> Any:
    """Plain data with every string that is a key of `paths` replaced by its value."""
    t = type(v)
    if t is str:
        return paths.get(v, v)
    if t is list:
        return [_moved(x, paths) for x in v]
    if t is dict:
        return {_moved(k, paths): _moved(x, paths) for k, x in v.items()}
    return v


def _records(doc: list) -> list[bytes]:
    """Every encoded record of a corpusstore document (cards, codex, selectors, diagnostics)."""
    return [b for _, b in doc[1]] + [b for _, b in doc[3]] + [b for _, b in doc[4]] + [doc[5]]


def _map_records(doc: list, fn) -> list:
    fmt, cards, summaries, codex, selectors, found = doc
    return [fmt, [[n, fn(b)] for n, b in cards], summaries, [[n, fn(b)] for n, b in codex],
            [[k, fn(b)] for k, b in selectors], fn(found)]


def build(inputs: list[tuple[str, str]], corpus, found: list, codec, compiler: str, root: Path) -> bytes:
    """The shipped file: the compilation (`corpus`, `found`) of `inputs`, every one below `root`,
    by the compiler of hash `compiler` (:func:`magewars.dsl.prebuild` calls this)."""
    from . import corpusstore, __version__
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise PrebuiltError("the shipped corpus has errors:\n" + "\n".join(d.format() for d in errors[:10]))
    manifest = []
    for p, text in inputs:
        rel = _below(p, str(root))
        if rel is None:
            raise PrebuiltError(f"{p} is not below {root}")
        manifest.append([p, rel, cache.file_hash(text.encode("utf-8"))])
    doc = corpusstore.document(corpus, found, codec)
    if doc is None:
        raise PrebuiltError("the compiled corpus cannot be stored")
    strings: set = set()
    for blob in _records(doc):
        _strings(cache.unpack(blob, "record"), strings)
    built = {m[0] for m in manifest}
    stray = sorted(s for s in strings if str(root) in s and s not in built)
    if stray:
        raise PrebuiltError(f"a compiled string names the build folder other than as a source path, "
                            f"so it could not be moved to where the wheel is installed: {stray[0][:200]!r}")
    head = {"version": __version__, "compiler": compiler, "sources": manifest}
    return cache.dumps_raw([head, doc], KEY)


def _manifest_ok(head: Any) -> bool:
    return (type(head) is dict and type(head.get("version")) is str and type(head.get("compiler")) is str
            and type(head.get("sources")) is list
            and all(type(s) is list and len(s) == 3 and all(type(x) is str for x in s) for s in head["sources"]))


def find(inputs: list[tuple[str, str]], ctx: list, compiler: str, path: Optional[Path] = None,
         root: Optional[Path] = None) -> Optional[list]:
    """The shipped compilation of exactly these inputs by the compiler of hash `compiler`, moved to
    their paths (a corpusstore document), or None: no shipped corpus, or one of other files,
    content, compiler or version."""
    if ctx or not inputs:
        return None
    if path is None:
        from .resources import prebuilt_corpus_path
        path = prebuilt_corpus_path()
    try:
        blob = Path(path).read_bytes()
    except OSError:
        return None
    try:
        head, doc = cache.loads_raw(blob, KEY)
    except (cache.CacheError, TypeError, ValueError):
        return None
    from . import __version__
    if not _manifest_ok(head) or head["version"] != __version__ or head["compiler"] != compiler:
        return None
    if len(head["sources"]) != len(inputs) or type(doc) is not list or len(doc) != 6:
        return None
    try:
        base = str(Path(root) if root is not None else data_root())
    except FileNotFoundError:
        return None
    paths = {}
    for (p, text), (built, rel, digest) in zip(inputs, head["sources"]):
        if _below(p, base) != rel or cache.file_hash(text.encode("utf-8")) != digest:
            return None
        paths[built] = p
    try:
        return _map_records(doc, lambda b: cache.pack(_moved(cache.unpack(b, "record"), paths)))
    except (cache.CacheError, TypeError, ValueError):
        return None
